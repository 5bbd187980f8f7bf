"""Encoding a finished image to bytes (JPEG for Telegram photos, PNG where exactness matters)."""

from __future__ import annotations

import io
from typing import Literal

from PIL import Image

ImageFormat = Literal["jpeg", "png"]
FORMATS: tuple[ImageFormat, ...] = ("jpeg", "png")
JPEG_QUALITY = 85
"""The JPEG quality (libjpeg's 1..95 scale) of the tables and standings pictures."""
BOARD_JPEG_TABLES = "web_medium"
"""The quantisation tables of a board photo (``quality=None``): Pillow's ``web_medium`` preset (the "medium" tables
of image editors' "save for web"). A board is flat colour with sharp edges; these tables keep its luminance at
41 dB PSNR (quality 85: 45 dB) for 60 % of the bytes (median 89 KB instead of 141 KB at 1280 px), and Telegram
recompresses every photo anyway. ``benchmarks/board_sizes.py`` measures it over many positions."""


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


def encode(image: Image.Image, fmt: ImageFormat = "jpeg", *, quality: int | None = JPEG_QUALITY) -> bytes:
    """Return ``image`` encoded as JPEG (4:2:0 chroma, optimised Huffman tables; at ``quality`` on libjpeg's scale,
    or with the board's tables :data:`BOARD_JPEG_TABLES` when ``quality`` is None) or PNG (lossless, fast
    compression).

    Raises:
        ValueError: unknown format or a quality outside 1..95.
    """
    fmt = check_format(fmt)
    buffer = io.BytesIO()
    if fmt == "jpeg":
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        if quality is None:
            rgb.save(buffer, "JPEG", qtables=BOARD_JPEG_TABLES, subsampling="4:2:0", optimize=True)
        else:
            if not 1 <= quality <= 95:
                raise ValueError(f"JPEG quality {quality} is outside 1..95")
            rgb.save(buffer, "JPEG", quality=quality, subsampling="4:2:0", optimize=True)
    else:
        image.save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()
