"""Encoding a finished image to bytes (JPEG for Telegram photos, PNG where exactness matters)."""

from __future__ import annotations

import io
from typing import Literal

from PIL import Image

ImageFormat = Literal["jpeg", "png"]
FORMATS: tuple[ImageFormat, ...] = ("jpeg", "png")
JPEG_QUALITY = 85


def check_format(fmt: str) -> ImageFormat:
    """Return ``fmt`` as an :data:`ImageFormat`.

    Raises:
        ValueError: ``fmt`` is not ``"jpeg"`` or ``"png"``.
    """
    if fmt == "jpeg":
        return "jpeg"
    if fmt == "png":
        return "png"
    raise ValueError(f"unknown image format {fmt!r}: expected 'jpeg' or 'png'")


def encode(image: Image.Image, fmt: ImageFormat = "jpeg", *, quality: int = JPEG_QUALITY) -> bytes:
    """Return ``image`` encoded as JPEG (at ``quality``, 4:2:0) or PNG (lossless, fast compression).

    Raises:
        ValueError: unknown format or a quality outside 1..95.
    """
    fmt = check_format(fmt)
    buffer = io.BytesIO()
    if fmt == "jpeg":
        if not 1 <= quality <= 95:
            raise ValueError(f"JPEG quality {quality} is outside 1..95")
        (image if image.mode == "RGB" else image.convert("RGB")).save(
            buffer, "JPEG", quality=quality, subsampling="4:2:0"
        )
    else:
        image.save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()
