"""The static part of a board image: strips, frame, felt, points, bar, trays and point numbers.

Everything here depends only on the theme, the width and whether the board has reserve trays (Acey-deucey, Dutch),
never on the position or the viewer (the point numbers are always in the viewer's frame, so they sit at fixed
places). It is drawn once and cached; each board starts from a copy of it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from rendering.fonts import font
from rendering.layout import Box, Layout, layout
from rendering.sprites import triangle
from rendering.theme import RGB, Theme, get_theme


def _wood(width: int, height: int, base: RGB, dark: RGB, seed: int, vertical: bool = False) -> Image.Image:
    """Return a wood-grain texture: slow, wavy stripes between ``base`` and ``dark`` (low detail for small JPEGs)."""
    rng = np.random.default_rng(seed)
    w, h = (height, width) if vertical else (width, height)
    coarse = rng.random((max(2, h // 24), max(2, w // 160)))
    warp_img = Image.fromarray((coarse * 255).astype(np.uint8), "L").resize((w, h), Image.Resampling.BICUBIC)
    warp = np.asarray(warp_img, dtype=np.float64) / 255.0
    y = np.arange(h, dtype=np.float64)[:, None]
    x = np.arange(w, dtype=np.float64)[None, :]
    grain = np.sin((y + 22.0 * warp + 5.0 * np.sin(x / 97.0)) / 5.5)
    grain = 0.5 + 0.5 * np.sign(grain) * np.abs(grain) ** 0.6
    mix = 0.22 * grain + 0.35 * warp
    b = np.array(base, dtype=np.float64)
    d = np.array(dark, dtype=np.float64)
    rgb = b[None, None, :] + (d - b)[None, None, :] * mix[:, :, None]
    image = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")
    return image.transpose(Image.Transpose.ROTATE_90) if vertical else image


def _vertical_gradient(width: int, height: int, top: RGB, bottom: RGB) -> Image.Image:
    t = np.linspace(0.0, 1.0, height, dtype=np.float64)[:, None, None]
    rgb = np.array(top, dtype=np.float64) * (1 - t) + np.array(bottom, dtype=np.float64) * t
    return Image.fromarray(np.repeat(rgb, width, axis=1).clip(0, 255).astype(np.uint8), "RGB")


def _felt(width: int, height: int, centre: RGB, edge: RGB) -> Image.Image:
    """Return the playing surface: ``centre`` colour fading to ``edge`` toward the sides (a soft vignette)."""
    x = np.linspace(-1.0, 1.0, width, dtype=np.float64)[None, :]
    y = np.linspace(-1.0, 1.0, height, dtype=np.float64)[:, None]
    v = np.clip((x**2 + y**2) / 2.0, 0.0, 1.0) ** 1.5
    c = np.array(centre, dtype=np.float64)
    e = np.array(edge, dtype=np.float64)
    rgb = c[None, None, :] + (e - c)[None, None, :] * v[:, :, None]
    return Image.fromarray(rgb.clip(0, 255).astype(np.uint8), "RGB")


def _inner_shadow(canvas: Image.Image, box: Box, depth: int, strength: int) -> None:
    """Darken the top and left inside edges of ``box`` so it looks recessed below the frame."""
    left, top, right, bottom = box
    shade = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    draw = ImageDraw.Draw(shade)
    for i in range(depth):
        alpha = strength * (depth - i) // depth
        draw.line((0, i, right - left, i), fill=(0, 0, 0, alpha))
        draw.line((i, 0, i, bottom - top), fill=(0, 0, 0, alpha // 2))
    canvas.paste(shade, (left, top), shade)


def _frame(theme: Theme, geo: Layout) -> Image.Image:
    left, top, right, bottom = geo.board_box
    if theme.wood:
        return _wood(right - left, bottom - top, theme.frame, theme.frame_dark, seed=7)
    return _vertical_gradient(right - left, bottom - top, theme.frame, theme.frame_dark)


def _draw_strips(canvas: Image.Image, theme: Theme, geo: Layout) -> None:
    for box in (geo.top_strip(), geo.bottom_strip()):
        strip = _vertical_gradient(box[2] - box[0], box[3] - box[1], theme.strip, theme.strip)
        canvas.paste(strip, box[:2])


def _draw_points(canvas: Image.Image, theme: Theme, geo: Layout) -> None:
    for point in range(1, 25):
        x, top = geo.point_column(point)
        colour = theme.point_a if point % 2 else theme.point_b
        sprite = triangle(geo.point_width, geo.triangle_length, colour, 255, top)
        y = geo.inner_top if top else geo.inner_bottom - geo.triangle_length
        canvas.paste(sprite, (x, y), sprite)


def _draw_numbers(canvas: Image.Image, theme: Theme, geo: Layout) -> None:
    draw = ImageDraw.Draw(canvas)
    face = font(int(geo.frame_v * 0.64), bold=True)
    for point in range(1, 25):
        draw.text(geo.number_center(point), str(point), font=face, fill=theme.number, anchor="mm")


def _draw_bar_and_trays(canvas: Image.Image, theme: Theme, geo: Layout) -> None:
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = geo.bar_box
    if theme.wood:
        bar = _wood(right - left, bottom - top, theme.bar, theme.frame_dark, seed=11, vertical=True)
        canvas.paste(bar, (left, top))
    else:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=theme.bar)
    edge = theme.frame_dark
    draw.line((left, top, left, bottom - 1), fill=edge, width=max(1, geo.checker // 30))
    draw.line((right - 1, top, right - 1, bottom - 1), fill=edge, width=max(1, geo.checker // 30))
    boxes = [geo.tray_box(top_side) for top_side in (True, False)]
    if geo.reserve_x is not None:
        boxes += [geo.reserve_box(top_side) for top_side in (True, False)]
    for box in boxes:
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=theme.tray)
        _inner_shadow(canvas, box, max(2, geo.checker // 10), 120)


@lru_cache(maxsize=12)
def background(theme_name: str, width: int, reserve: bool = False, split_trays: bool = False) -> Image.Image:
    """Return the static board image (RGB) for ``theme_name`` at ``width``, with the reserve trays if ``reserve``,
    the top player's bear-off tray at the left if ``split_trays`` (:func:`rendering.layout.layout`); treat it as
    read-only (copy it).

    Raises:
        ValueError: unknown theme, a width outside the layout's range, or both ``reserve`` and ``split_trays``.
    """
    theme = get_theme(theme_name)
    geo = layout(width, reserve, split_trays)
    canvas = Image.new("RGB", (geo.width, geo.height), theme.strip)
    _draw_strips(canvas, theme, geo)
    canvas.paste(_frame(theme, geo), geo.board_box[:2])
    for right in (False, True):
        box = geo.half_box(right)
        canvas.paste(_felt(box[2] - box[0], box[3] - box[1], theme.felt, theme.felt_edge), box[:2])
    _draw_points(canvas, theme, geo)
    for right in (False, True):
        _inner_shadow(canvas, geo.half_box(right), max(2, geo.checker // 8), 90)
    _draw_bar_and_trays(canvas, theme, geo)
    _draw_numbers(canvas, theme, geo)
    # A thin dark line between the strips and the board.
    draw = ImageDraw.Draw(canvas)
    draw.line((0, geo.board_box[1], geo.width, geo.board_box[1]), fill=theme.frame_dark, width=2)
    draw.line((0, geo.board_box[3] - 1, geo.width, geo.board_box[3] - 1), fill=theme.frame_dark, width=2)
    return canvas
