"""Shared helpers for the rendering tests: decode images, sample colours, record what the scenes draw."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

import rendering.scenes as scenes_module
from nardy.position import Position
from rendering.scenes import SCENES

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


@dataclass(frozen=True)
class Drawn:
    """One board a scene draws: what it passed to ``render_board``."""

    scene: str
    position: Position
    variant: str
    options: dict[str, Any]


def drawn_boards() -> list[Drawn]:
    """Return every board the scenes draw (recorded by a stand-in for render_board)."""
    found: list[Drawn] = []
    real = scenes_module.render_board
    current = ""

    def record(position: Position, variant: Any, **options: Any) -> bytes:
        found.append(Drawn(current, position, str(variant), options))
        return real(position, variant, **options)

    scenes_module.render_board = record  # type: ignore[assignment]
    try:
        for current in SCENES:
            SCENES[current]("classic", 480, "png")
    finally:
        scenes_module.render_board = real
    return found
