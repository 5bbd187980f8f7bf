"""Shared helpers for the rendering tests: decode images and sample colours."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

RGB = tuple[int, int, int]


def decode(data: bytes) -> Image.Image:
    """Return the RGB image encoded in ``data``."""
    return Image.open(io.BytesIO(data)).convert("RGB")


def pixel(image: Image.Image, xy: tuple[int, int]) -> RGB:
    """Return the RGB colour at ``xy``."""
    value = image.getpixel(xy)
    assert isinstance(value, tuple)
    return int(value[0]), int(value[1]), int(value[2])


def distance(a: RGB, b: RGB) -> int:
    """Return the largest per-channel difference between two colours."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def share_near(image: Image.Image, box: tuple[int, int, int, int], colour: RGB, tolerance: int = 40) -> float:
    """Return the share of pixels in ``box`` within ``tolerance`` (per channel) of ``colour``."""
    crop = np.asarray(image.crop(box), dtype=np.int32)
    diff = np.abs(crop - np.array(colour, dtype=np.int32)).max(axis=2)
    return float((diff <= tolerance).mean())
