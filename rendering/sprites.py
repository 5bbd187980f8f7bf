"""Cached sprites: checkers, borne-off slabs, dice, the cube, highlight marks and text.

Every sprite is drawn once at ``SUPERSAMPLE`` times its size and downsampled with a Lanczos filter, which gives smooth,
antialiased edges; the result is an RGBA image kept in an LRU cache and pasted (with its alpha as the mask) on every
board. Drawing a board therefore costs a few dozen pastes, not any shape rasterising.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFilter

from rendering.fonts import font
from rendering.text_layout import render
from rendering.theme import RGB, get_theme

SUPERSAMPLE = 4

FloatArray = NDArray[np.float64]

# Pip layout of a die face on a 3x3 grid (column, row), 0..2.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def _downsample(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.resize(size, Image.Resampling.LANCZOS)


def _mix(colour: RGB, other: RGB, amount: float) -> RGB:
    r, g, b = (round(c + (o - c) * amount) for c, o in zip(colour, other, strict=True))
    return r, g, b


def shadow_pad(size: int) -> int:
    """Return the transparent margin around a checker sprite of diameter ``size`` (room for its shadow)."""
    return max(2, size // 12)


def _shaded_disc(size: int, body: RGB, rim: RGB) -> Image.Image:
    """Draw a shaded, bevelled checker of diameter ``size`` (RGBA, supersampled then reduced)."""
    n = size * SUPERSAMPLE
    coords = (np.arange(n, dtype=np.float64) + 0.5) / n * 2.0 - 1.0
    x, y = np.meshgrid(coords, coords)
    r = np.hypot(x, y)
    inside = r <= 1.0
    light = (-x - y) / np.sqrt(2.0)  # +1 toward the top left, where the light comes from

    base = np.array(body, dtype=np.float64)
    rim_colour = np.array(rim, dtype=np.float64)
    shade: FloatArray = 1.0 + 0.10 * light * np.clip(r, 0.0, 1.0)
    colour = base[None, None, :] * shade[:, :, None]

    # Bevelled outer rim: darker band whose shading follows the light.
    rim_band = r > 0.86
    rim_light = 1.0 + 0.35 * light
    rim_rgb = (0.5 * rim_colour + 0.5 * base)[None, None, :] * rim_light[:, :, None]
    colour = np.where(rim_band[:, :, None], rim_rgb, colour)
    # Edge line.
    edge = r > 0.965
    colour = np.where(edge[:, :, None], (rim_colour * 0.75)[None, None, :], colour)
    # Engraved inner ring: a dark groove with a light lip just inside it.
    groove = (r > 0.60) & (r < 0.65)
    lip = (r >= 0.65) & (r < 0.69)
    groove_rgb = (base * 0.82)[None, None, :] * (1.0 - 0.25 * light)[:, :, None]
    lip_rgb = np.minimum(255.0, base * 1.06 + 10.0)[None, None, :] * (1.0 + 0.15 * light)[:, :, None]
    colour = np.where(groove[:, :, None], groove_rgb, colour)
    colour = np.where(lip[:, :, None], lip_rgb, colour)
    # Soft specular highlight toward the top left.
    spot = np.exp(-(((x + 0.38) ** 2 + (y + 0.42) ** 2) / 0.10))
    colour = colour + (255.0 - colour) * (0.28 * spot)[:, :, None]

    rgba = np.zeros((n, n, 4), dtype=np.uint8)
    rgba[:, :, :3] = np.clip(colour, 0, 255).astype(np.uint8)
    rgba[:, :, 3] = np.where(inside, 255, 0).astype(np.uint8)
    return _downsample(Image.fromarray(rgba, "RGBA"), (size, size))


@lru_cache(maxsize=64)
def checker(theme_name: str, player: int, size: int) -> Image.Image:
    """Return the checker of ``player`` (0 light, 1 dark) with a soft drop shadow, ``size + 2 * shadow_pad`` square.

    Raises:
        ValueError: unknown theme.
    """
    colours = get_theme(theme_name).checkers[player]
    disc = _shaded_disc(size, colours.body, colours.rim)
    pad = shadow_pad(size)
    full = size + 2 * pad
    shadow_alpha = Image.new("L", (full, full), 0)
    offset = max(1, size // 30)
    shadow_alpha.paste(disc.getchannel("A").point(lambda a: a * 45 // 100), (pad + offset, pad + 2 * offset))
    shadow_alpha = shadow_alpha.filter(ImageFilter.GaussianBlur(max(1.0, size / 28)))
    sprite = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    sprite.putalpha(shadow_alpha)
    sprite.alpha_composite(disc, (pad, pad))
    return sprite


@lru_cache(maxsize=32)
def slab(theme_name: str, player: int, width: int, height: int) -> Image.Image:
    """Return a borne-off checker seen edge-on: a rounded bar ``width`` x ``height`` in the player's colour.

    Raises:
        ValueError: unknown theme.
    """
    colours = get_theme(theme_name).checkers[player]
    s = SUPERSAMPLE
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    inset = max(1, height * s // 14)
    dark_body = sum(colours.body) < 382
    outline = _mix(colours.body, (255, 255, 255), 0.35) if dark_body else _mix(colours.rim, (0, 0, 0), 0.3)
    draw.rounded_rectangle(
        (0, inset, width * s - 1, height * s - 1 - inset),
        radius=height * s // 3,
        fill=colours.body,
        outline=outline,
        width=max(1, s),
    )
    shine_y = height * s // 3
    draw.line(
        (height * s // 2, shine_y, width * s - height * s // 2, shine_y),
        fill=_mix(colours.body, (255, 255, 255), 0.35),
        width=max(1, s),
    )
    return _downsample(big, (width, height))


@lru_cache(maxsize=64)
def die(theme_name: str, value: int, size: int, dimmed: bool, body: RGB | None = None) -> Image.Image:
    """Return a die showing ``value`` (1..6), ``size`` square with a small shadow margin; ``dimmed`` (a die already
    used) fades it and strikes it through with a dark diagonal, so that it reads as used by its shape too.

    The strike is in the pip colour, dark on a light die and light on a dark one. ``body`` overrides the theme's die
    colour (the board gives the roll its player's checker colour).

    Raises:
        ValueError: ``value`` is not 1..6, or unknown theme.
    """
    if value not in PIPS:
        raise ValueError(f"die value {value} is not 1..6")
    theme = get_theme(theme_name)
    face = body or theme.die_body
    pip = theme.die_pip if sum(face) > 382 else (250, 250, 250)
    s = SUPERSAMPLE
    pad = shadow_pad(size)
    full = (size + 2 * pad) * s
    big = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    o = pad * s
    side = size * s
    radius = side // 6
    if not dimmed:
        shadow = Image.new("RGBA", (full, full), (0, 0, 0, 0))
        ImageDraw.Draw(shadow).rounded_rectangle(
            (o + s * 2, o + s * 3, o + side + s * 2, o + side + s * 3), radius=radius, fill=(0, 0, 0, 110)
        )
        big.alpha_composite(shadow.filter(ImageFilter.GaussianBlur(s * 2)))
    draw.rounded_rectangle(
        (o, o, o + side - 1, o + side - 1), radius=radius, fill=face, outline=_mix(face, (0, 0, 0), 0.45), width=s
    )
    draw.rounded_rectangle(
        (o + 2 * s, o + 2 * s, o + side - 1 - 3 * s, o + side - 1 - 3 * s),
        radius=radius,
        outline=_mix(face, (255, 255, 255), 0.6),
        width=s,
    )
    cell = side / 4
    pip_r = side * 0.085
    for col, row in PIPS[value]:
        cx = o + cell * (col + 1)
        cy = o + cell * (row + 1)
        draw.ellipse((cx - pip_r, cy - pip_r, cx + pip_r, cy + pip_r), fill=pip)
    if dimmed:
        alpha = big.getchannel("A").point(lambda a: a * 45 // 100)
        big.putalpha(alpha)
        draw = ImageDraw.Draw(big)
        ends = (o + side * 0.16, o + side * 0.84, o + side * 0.84, o + side * 0.16)
        draw.line(ends, fill=(*pip, 255), width=int(side * 0.11))
    return _downsample(big, (size + 2 * pad, size + 2 * pad))


@lru_cache(maxsize=32)
def cube(theme_name: str, value: int, size: int) -> Image.Image:
    """Return the doubling cube showing ``value`` (a centred cube at 1 shows 64), ``size`` square plus shadow margin.

    Raises:
        ValueError: unknown theme.
    """
    theme = get_theme(theme_name)
    s = SUPERSAMPLE
    pad = shadow_pad(size)
    full = (size + 2 * pad) * s
    big = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    o = pad * s
    side = size * s
    radius = side // 7
    shadow = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rounded_rectangle(
        (o + s * 2, o + s * 3, o + side + s * 2, o + side + s * 3), radius=radius, fill=(0, 0, 0, 120)
    )
    big.alpha_composite(shadow.filter(ImageFilter.GaussianBlur(s * 2)))
    draw = ImageDraw.Draw(big)
    # Two faces seen edge-on (right and below) give the square its depth: a cube, not a card.
    depth = max(s, side // 9)
    draw.rounded_rectangle(
        (o + depth, o + depth, o + side - 1, o + side - 1),
        radius=radius,
        fill=_mix(theme.cube_body, (0, 0, 0), 0.35),
    )
    side -= depth
    draw.rounded_rectangle(
        (o, o, o + side - 1, o + side - 1),
        radius=radius,
        fill=theme.cube_body,
        outline=_mix(theme.cube_body, (0, 0, 0), 0.5),
        width=s,
    )
    text = str(64 if value <= 1 else value)
    size_px = int(side * (0.52 if len(text) == 1 else 0.44 if len(text) == 2 else 0.34))
    draw.text((o + side / 2, o + side / 2), text, font=font(size_px, bold=True), fill=theme.cube_text, anchor="mm")
    return _downsample(big, (size + 2 * pad, size + 2 * pad))


@lru_cache(maxsize=64)
def ring(colour: RGB, size: int) -> Image.Image:
    """Return a highlight ring around a checker of diameter ``size``: a solid ``colour`` band between dark contours.

    The image is ``size + 2 * shadow_pad(size)`` square, so it pastes at the same place as a checker sprite.
    """
    s = SUPERSAMPLE
    pad = shadow_pad(size)
    full = (size + 2 * pad) * s
    big = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    o = pad * s
    width = max(s, int(size * s * 0.085))
    box = (o + width // 2, o + width // 2, o + size * s - width // 2, o + size * s - width // 2)
    # A dark contour on both sides keeps the ring visible on light and dark checkers alike.
    draw.ellipse(box, outline=(20, 16, 12, 190), width=width + 2 * s)
    draw.ellipse((box[0] + s, box[1] + s, box[2] - s, box[3] - s), outline=(*colour, 255), width=width)
    return _downsample(big, (size + 2 * pad, size + 2 * pad))


@lru_cache(maxsize=32)
def hit_badge(size: int, fill: RGB) -> Image.Image:
    """Return the mark of a hit checker, ``size`` square (RGBA): a white cross on a ``fill`` disc with a dark
    contour, so that a hit reads by its shape, whatever colours a player tells apart."""
    s = SUPERSAMPLE
    n = size * s
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    edge = max(s, n // 12)
    draw.ellipse((0, 0, n - 1, n - 1), fill=(20, 16, 12, 230))
    draw.ellipse((edge, edge, n - 1 - edge, n - 1 - edge), fill=(*fill, 255))
    arm, stroke = n * 0.27, max(s, int(n * 0.15))
    centre = n / 2
    for sign in (1, -1):
        draw.line(
            (centre - arm, centre - sign * arm, centre + arm, centre + sign * arm),
            fill=(255, 255, 255, 255),
            width=stroke,
        )
    return _downsample(big, (size, size))


ARROW_CONTOUR: RGB = (20, 16, 12)
ARROW_CONTOUR_ALPHA = 200


def _shaft(
    size: tuple[int, int], start: tuple[float, float], end: tuple[float, float], width: float, colour: RGB
) -> NDArray[np.uint8]:
    """Return an RGBA array of ``size`` (width, height) holding an antialiased line from ``start`` to ``end``,
    ``width`` wide in ``colour`` over a dark contour. Only a band of pixels along the line is computed (its
    coverage from the distance to the segment), so a long diagonal costs about its length, not its bounding box."""
    contour = max(1.0, width // 3)
    outer, inner = width / 2 + contour, width / 2
    (ax, ay), (bx, by) = start, end
    seg_x, seg_y = bx - ax, by - ay
    seg_len2 = max(1e-9, seg_x * seg_x + seg_y * seg_y)
    along_x = abs(seg_x) >= abs(seg_y)
    lo, hi = (min(ax, bx), max(ax, bx)) if along_x else (min(ay, by), max(ay, by))
    steps = np.arange(int(np.floor(lo - outer)), int(np.ceil(hi + outer)) + 1)
    slope = seg_y / seg_x if along_x and seg_x else (seg_x / seg_y if seg_y else 0.0)
    reach = int(np.ceil(outer * float(np.hypot(1.0, slope)))) + 1
    centre = (ay + (steps + 0.5 - ax) * slope) if along_x else (ax + (steps + 0.5 - ay) * slope)
    offsets = np.arange(-reach, reach + 1)
    across = np.floor(centre)[:, None].astype(np.int64) + offsets[None, :]
    main = np.broadcast_to(steps[:, None], across.shape)
    xs, ys = (main, across) if along_x else (across, main)
    px, py = xs + 0.5, ys + 0.5
    t = np.clip(((px - ax) * seg_x + (py - ay) * seg_y) / seg_len2, 0.0, 1.0)
    dist = np.hypot(px - (ax + t * seg_x), py - (ay + t * seg_y))
    cover_in = np.clip(inner - dist + 0.5, 0.0, 1.0)
    cover_out = np.clip(outer - dist + 0.5, 0.0, 1.0) * (ARROW_CONTOUR_ALPHA / 255)
    alpha = cover_in + (1 - cover_in) * cover_out
    keep = (alpha > 0) & (xs >= 0) & (ys >= 0) & (xs < size[0]) & (ys < size[1])
    pixels = np.zeros((size[1], size[0], 4), dtype=np.uint8)
    weight_in = np.where(alpha > 0, cover_in / np.maximum(alpha, 1e-9), 0.0)[keep]
    for channel in range(3):
        value = weight_in * colour[channel] + (1 - weight_in) * ARROW_CONTOUR[channel]
        pixels[ys[keep], xs[keep], channel] = np.round(value).astype(np.uint8)
    pixels[ys[keep], xs[keep], 3] = np.round(alpha[keep] * 255).astype(np.uint8)
    return pixels


ArrowPieces = tuple[tuple[Image.Image, tuple[int, int]], ...]
"""An arrow as pieces to paste: each an RGBA tile and its offset from the arrow's start."""
ARROW_TILE = 24
"""The height (or width, for a steep arrow) of an arrow's tiles, each cropped to what it holds."""


@lru_cache(maxsize=256)
def arrow(dx: int, dy: int, width: int, colour: RGB) -> ArrowPieces:
    """Return an arrow from ``(0, 0)`` to ``(dx, dy)`` (the tip), its shaft ``width`` pixels wide in ``colour`` over a
    dark contour, as tiles with their offsets from the start. The shaft is computed along its band only
    (:func:`_shaft`) and the head drawn 4x larger in a small square, so a new arrow costs about a millisecond however
    long it is; the tiles are cropped to what they hold, so pasting a long diagonal costs about its length, not its
    bounding box."""
    head = width * 2.6
    margin = int(head) + 2
    left, top = min(0, dx) - margin, min(0, dy) - margin
    size = (abs(dx) + 2 * margin, abs(dy) + 2 * margin)
    x0, y0, x1, y1 = float(-left), float(-top), float(dx - left), float(dy - top)
    length = max(1.0, float(np.hypot(x1 - x0, y1 - y0)))
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    base_x, base_y = x1 - ux * head, y1 - uy * head
    sprite = Image.fromarray(_shaft(size, (x0, y0), (base_x + ux, base_y + uy), width, colour), "RGBA")
    s = SUPERSAMPLE
    box = int(head * 2) + 4
    corner_x, corner_y = int(x1) - box // 2, int(y1) - box // 2
    big = Image.new("RGBA", (box * s, box * s), (0, 0, 0, 0))
    wing = head * 0.62

    def local(x: float, y: float) -> tuple[float, float]:
        return (x - corner_x) * s, (y - corner_y) * s

    tip = [
        local(x1, y1),
        local(base_x - uy * wing, base_y + ux * wing),
        local(base_x + uy * wing, base_y - ux * wing),
    ]
    draw = ImageDraw.Draw(big)
    contour = max(1, width // 3) * s
    draw.polygon(tip, fill=(*ARROW_CONTOUR, ARROW_CONTOUR_ALPHA), outline=(*ARROW_CONTOUR, ARROW_CONTOUR_ALPHA))
    draw.line([*tip, tip[0]], fill=(*ARROW_CONTOUR, ARROW_CONTOUR_ALPHA), width=2 * contour, joint="curve")
    draw.polygon(tip, fill=(*colour, 255))
    sprite.alpha_composite(_downsample(big, (box, box)), dest=(corner_x, corner_y))
    pieces: list[tuple[Image.Image, tuple[int, int]]] = []
    across_x = abs(dx) >= abs(dy)
    span = sprite.width if across_x else sprite.height
    for start in range(0, span, ARROW_TILE):
        stop = min(span, start + ARROW_TILE)
        band = (start, 0, stop, sprite.height) if across_x else (0, start, sprite.width, stop)
        tile = sprite.crop(band)
        held = tile.getchannel("A").getbbox()
        if held is not None:
            pieces.append((tile.crop(held), (left + band[0] + held[0], top + band[1] + held[1])))
    return tuple(pieces)


@lru_cache(maxsize=32)
def origin_ring(colour: RGB, size: int) -> Image.Image:
    """Return the dashed outline that marks where a checker left: the freed slot (no fill, so the felt and the point
    show through and nothing looks like a checker) or, when the stack still fills every drawn slot, its top checker;
    the dashes lie over a dark contour that keeps them visible on light and dark ground.

    The image is ``size + 2 * shadow_pad(size)`` square, so it pastes at the same place as a checker sprite.
    """
    s = SUPERSAMPLE
    pad = shadow_pad(size)
    full = (size + 2 * pad) * s
    big = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    o = pad * s
    width = max(s, int(size * s * 0.085))
    box = (o + width // 2, o + width // 2, o + size * s - width // 2, o + size * s - width // 2)
    draw.ellipse(box, outline=(20, 16, 12, 200), width=width + 2 * s)
    draw.ellipse((box[0] + s, box[1] + s, box[2] - s, box[3] - s), outline=(*colour, 255), width=width)
    centre = o + size * s / 2
    for k in range(12):
        angle = np.pi * 2 * (k + 0.5) / 12
        dx = float(np.cos(angle)) * size * s
        dy = float(np.sin(angle)) * size * s
        draw.line((centre, centre, centre + dx, centre + dy), fill=(0, 0, 0, 0), width=width)
    return _downsample(big, (size + 2 * pad, size + 2 * pad))


@lru_cache(maxsize=16)
def crown(size: int, fill: RGB, outline: RGB) -> Image.Image:
    """Return the winner's crown, ``size`` square (RGBA): five points with balls on the tips over a band, in
    ``fill`` with an ``outline`` contour."""
    s = SUPERSAMPLE
    n = size * s
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    line = max(s, n // 14)
    left, right = n * 0.08, n * 0.92
    base, band, low, high = n * 0.86, n * 0.70, n * 0.46, n * 0.22
    points = [
        (left, base),
        (left, high + n * 0.08),
        (n * 0.30, low),
        (n * 0.5, high),
        (n * 0.70, low),
        (right, high + n * 0.08),
        (right, base),
    ]
    draw.polygon(points, fill=(*fill, 255), outline=(*outline, 255), width=line)
    draw.line((left, band, right, band), fill=(*outline, 255), width=line)
    ball = n * 0.075
    for x, y in ((left, high + n * 0.08), (n * 0.5, high), (right, high + n * 0.08)):
        draw.ellipse(
            (x - ball, y - ball - n * 0.05, x + ball, y + ball - n * 0.05),
            fill=(*fill, 255),
            outline=(*outline, 255),
            width=max(1, line // 2),
        )
    return _downsample(big, (size, size))


@lru_cache(maxsize=256)
def triangle(width: int, length: int, colour: RGB, alpha: int, pointing_down: bool) -> Image.Image:
    """Return an antialiased triangle ``width`` x ``length`` in ``colour`` at opacity ``alpha`` (0..255).

    A lighter centre line along the triangle gives it a little relief when ``alpha`` is 255.
    """
    s = SUPERSAMPLE
    big = Image.new("RGBA", (width * s, length * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    inset = s * max(1, width // 40)
    if pointing_down:
        corners = [(inset, 0), (width * s - inset, 0), (width * s / 2, length * s)]
    else:
        corners = [(inset, length * s), (width * s - inset, length * s), (width * s / 2, 0)]
    draw.polygon(corners, fill=(*colour, alpha))
    if alpha == 255:
        edge = _mix(colour, (0, 0, 0), 0.35)
        draw.line([*corners, corners[0]], fill=(*edge, 255), width=s)
        half = [(width * s / 2, corners[0][1]), corners[1], corners[2]]
        draw.polygon(half, fill=(*_mix(colour, (0, 0, 0), 0.12), 255))
        draw.line([half[1], half[2]], fill=(*edge, 255), width=s)
    return _downsample(big, (width, length))


@lru_cache(maxsize=512)
def text(value: str, size: int, colour: RGB, *, bold: bool = False) -> Image.Image:
    """Return ``value`` set at ``size`` pixels as a tightly cropped RGBA sprite: DejaVu Sans, and for what it lacks the
    shipped fallback fonts, emoji in colour, right-to-left runs ordered (:func:`rendering.text_layout.render`).

    Raises:
        RuntimeError, OSError, ValueError: the shaper refused the text (a control character, for instance).
    """
    return render(value, size, colour, bold=bold)


def paste_center(canvas: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    """Paste ``sprite`` (RGBA) onto ``canvas`` with its centre at ``centre``, using its alpha as the mask."""
    x = centre[0] - sprite.width // 2
    y = centre[1] - sprite.height // 2
    canvas.paste(sprite, (x, y), sprite)


@lru_cache(maxsize=256)
def pill(value: str, height: int, fill: RGB, colour: RGB) -> Image.Image:
    """Return ``value`` in bold on a rounded ``fill`` badge ``height`` pixels high (marks a point's number)."""
    s = SUPERSAMPLE
    face = font(int(height * 0.66) * s, bold=True)
    text_width = int(face.getlength(value)) // s
    width = max(height, text_width + height // 2)
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius=height * s // 2, fill=(*fill, 255))
    draw.text((width * s / 2, height * s / 2), value, font=face, fill=(*colour, 255), anchor="mm")
    return _downsample(big, (width, height))


@lru_cache(maxsize=16)
def padlock(size: int, fill: RGB, colour: RGB) -> Image.Image:
    """Return a round badge ``size`` across: a padlock in ``colour`` on a ``fill`` disc with a light edge and a
    soft shadow (marks a pinned checker in Plakoto). The image is ``size + 2 * shadow_pad(size)`` square."""
    s = SUPERSAMPLE
    pad = shadow_pad(size)
    full = (size + 2 * pad) * s
    n = size * s
    o = pad * s
    big = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    shadow = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    lift = max(s, n // 24)
    ImageDraw.Draw(shadow).ellipse((o + lift, o + 2 * lift, o + n + lift, o + n + 2 * lift), fill=(0, 0, 0, 120))
    big.alpha_composite(shadow.filter(ImageFilter.GaussianBlur(max(1, n // 16))))
    draw = ImageDraw.Draw(big)
    edge = max(s, n // 14)
    draw.ellipse((o, o, o + n - 1, o + n - 1), fill=(*_mix(fill, (255, 255, 255), 0.75), 255))
    draw.ellipse((o + edge, o + edge, o + n - 1 - edge, o + n - 1 - edge), fill=(*fill, 255))
    cx = o + n / 2
    body_w, body_h = n * 0.44, n * 0.32
    body_top = o + n * 0.47
    shackle_w = n * 0.30
    thick = max(s, int(n * 0.075))
    draw.rounded_rectangle(
        (cx - shackle_w / 2, o + n * 0.22, cx + shackle_w / 2, body_top + n * 0.12),
        radius=shackle_w / 2,
        outline=(*colour, 255),
        width=thick,
    )
    draw.rounded_rectangle(
        (cx - body_w / 2, body_top, cx + body_w / 2, body_top + body_h), radius=n * 0.05, fill=(*colour, 255)
    )
    hole = n * 0.045
    hole_y = body_top + body_h * 0.45
    draw.ellipse((cx - hole, hole_y - hole, cx + hole, hole_y + hole), fill=(*fill, 255))
    return _downsample(big, (size + 2 * pad, size + 2 * pad))


@lru_cache(maxsize=32)
def faded_text(value: str, size: int, colour: RGB, opacity: int, *, bold: bool = False) -> Image.Image:
    """Return :func:`text` with its alpha scaled to ``opacity`` (0..255): text printed on the felt."""
    sprite = text(value, size, colour, bold=bold).copy()
    sprite.putalpha(sprite.getchannel("A").point(lambda a: a * opacity // 255))
    return sprite
