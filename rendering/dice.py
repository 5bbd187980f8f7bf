"""A roll on its own (:func:`render_dice`), used for the opening roll."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from rendering import sprites
from rendering.background import _felt
from rendering.encode import JPEG_QUALITY, ImageFormat, check_format, encode
from rendering.names import name_sprite
from rendering.theme import get_theme

MIN_DICE_WIDTH = 200
MAX_DICE_WIDTH = 2048


@lru_cache(maxsize=8)
def _dice_background(theme_name: str, width: int, height: int) -> Image.Image:
    theme = get_theme(theme_name)
    canvas = Image.new("RGB", (width, height), theme.frame)
    border = max(4, width // 40)
    felt = _felt(width - 2 * border, height - 2 * border, theme.felt, theme.felt_edge)
    canvas.paste(felt, (border, border))
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, width - 1, height - 1), outline=theme.frame_dark, width=max(1, border // 3))
    return canvas


def render_dice_image(
    d1: int,
    d2: int,
    *,
    names: tuple[str, str] | None = None,
    theme: str = "classic",
    width: int = 640,
) -> Image.Image:
    """Return an RGB image of two dice on the board's felt, ``width`` wide and half as high.

    With ``names`` (the opening roll: ``d1`` is player 0's die, ``d2`` player 1's) each die takes its player's
    checker colour and the names are written under the dice.

    Raises:
        ValueError: a die outside 1..6, an unknown theme, or a width outside 200..2048.
    """
    for value in (d1, d2):
        if not 1 <= value <= 6:
            raise ValueError(f"die value {value} is not 1..6")
    if not MIN_DICE_WIDTH <= width <= MAX_DICE_WIDTH:
        raise ValueError(f"width {width} is outside {MIN_DICE_WIDTH}..{MAX_DICE_WIDTH}")
    colours = get_theme(theme)
    height = width // 2
    canvas = _dice_background(colours.name, width, height).copy()
    size = int(height * (0.42 if names else 0.5))
    centre_y = int(height * (0.42 if names else 0.5))
    for index, value in enumerate((d1, d2)):
        x = width // 2 + (-1 if index == 0 else 1) * int(size * 0.85)
        body = colours.checkers[index].body if names else None
        sprites.paste_center(canvas, sprites.die(colours.name, value, size, False, body), (x, centre_y))
        if names:
            text_size = max(10, height // 11)
            label = name_sprite(names[index], text_size, int(width * 0.42), colours.felt_text)
            sprites.paste_center(canvas, label, (x, centre_y + size // 2 + int(height * 0.16)))
    return canvas


def render_dice(
    d1: int,
    d2: int,
    *,
    names: tuple[str, str] | None = None,
    theme: str = "classic",
    width: int = 640,
    fmt: ImageFormat = "jpeg",
    quality: int = JPEG_QUALITY,
) -> bytes:
    """Return an image of the roll ``d1``, ``d2`` encoded as JPEG (default) or PNG; see :func:`render_dice_image`.

    Raises:
        ValueError: a die outside 1..6, an unknown theme or format, a width outside 200..2048, a bad quality.
    """
    fmt = check_format(fmt)
    return encode(render_dice_image(d1, d2, names=names, theme=theme, width=width), fmt, quality=quality)
