"""How colours look to players with colour-vision deficiency, and how far apart two colours are.

:func:`simulate` applies the full-severity matrices of Machado, Oliveira and Fernandes (2009, "A physiologically-based
model for simulation of color vision deficiency") to linear sRGB: protanopia and deuteranopia (red-green, about 1 in
12 men between them) and tritanopia. :func:`distance` is the CIE 1976 ΔE of two colours in CIELAB (D65): about 2 is
just noticeable, 10 and more is plainly different at a glance. :func:`simulate_image` does the same to a whole
picture, for the review gallery. The tests use them to keep every marker of the board apart under each deficiency.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from PIL import Image

RGB = tuple[int, int, int]
Deficiency = Literal["protanopia", "deuteranopia", "tritanopia"]
DEFICIENCIES: tuple[Deficiency, ...] = ("protanopia", "deuteranopia", "tritanopia")

_MATRICES: dict[str, np.ndarray] = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}
_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_WHITE = np.array([0.95047, 1.0, 1.08883])


def _linear(values: np.ndarray) -> np.ndarray:
    scaled = values / 255.0
    return np.where(scaled <= 0.04045, scaled / 12.92, ((scaled + 0.055) / 1.055) ** 2.4)


def _encoded(values: np.ndarray) -> np.ndarray:
    clipped = np.clip(values, 0.0, 1.0)
    encoded = np.where(clipped <= 0.0031308, clipped * 12.92, 1.055 * clipped ** (1 / 2.4) - 0.055)
    rounded: np.ndarray = np.clip(np.round(encoded * 255.0), 0, 255)
    return rounded


def _matrix(deficiency: Deficiency) -> np.ndarray:
    try:
        return _MATRICES[deficiency]
    except KeyError:
        raise ValueError(f"unknown colour-vision deficiency {deficiency!r}: expected one of {DEFICIENCIES}") from None


def simulate(colour: RGB, deficiency: Deficiency) -> RGB:
    """Return ``colour`` (sRGB, 0..255) as a player with ``deficiency`` sees it.

    Raises:
        ValueError: an unknown deficiency.
    """
    seen = _encoded(_matrix(deficiency) @ _linear(np.array(colour, dtype=float)))
    return (int(seen[0]), int(seen[1]), int(seen[2]))


def simulate_image(image: Image.Image, deficiency: Deficiency) -> Image.Image:
    """Return a copy of ``image`` (converted to RGB) as a player with ``deficiency`` sees it.

    Raises:
        ValueError: an unknown deficiency.
    """
    pixels = _linear(np.asarray(image.convert("RGB"), dtype=float))
    seen = _encoded(pixels @ _matrix(deficiency).T)
    return Image.fromarray(seen.astype(np.uint8), "RGB")


def _lab(colour: RGB) -> np.ndarray:
    xyz = (_TO_XYZ @ _linear(np.array(colour, dtype=float))) / _WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def distance(first: RGB, second: RGB) -> float:
    """Return the CIE 1976 colour difference ΔE*ab of two sRGB colours (0 = the same colour)."""
    return float(np.linalg.norm(_lab(first) - _lab(second)))


def contrast(first: RGB, second: RGB) -> float:
    """Return the WCAG contrast ratio of two sRGB colours (1 = none, 21 = black on white)."""
    lum = [float(_TO_XYZ[1] @ _linear(np.array(colour, dtype=float))) for colour in (first, second)]
    return (max(lum) + 0.05) / (min(lum) + 0.05)
