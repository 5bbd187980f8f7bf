"""Colour themes, chosen by name.

A theme is a frozen set of colours; ``get_theme(name)`` looks one up. Player 0 plays the light checkers and player 1
the dark ones in every theme.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class CheckerColours:
    """The colours of one player's checkers: body, rim, the count drawn on a stack, and a swatch for text."""

    body: RGB
    rim: RGB
    text: RGB


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour the renderer uses; ``wood`` switches on the wood grain of the frame.

    The markers (``last_move``, ``pending``, ``hit``) and the two point colours stay apart for players with
    protanopia, deuteranopia and tritanopia too (tests/rendering/test_colour_vision.py measures it); each marker also
    has a shape of its own.
    """

    name: str
    frame: RGB
    frame_dark: RGB
    wood: bool
    felt: RGB
    felt_edge: RGB
    point_a: RGB
    point_b: RGB
    bar: RGB
    tray: RGB
    tray_text: RGB
    felt_text: RGB
    number: RGB
    strip: RGB
    strip_active: RGB
    strip_text: RGB
    strip_muted: RGB
    accent: RGB
    checkers: tuple[CheckerColours, CheckerColours]
    die_body: RGB
    die_pip: RGB
    cube_body: RGB
    cube_text: RGB
    last_move: RGB
    pending: RGB
    hit: RGB


CLASSIC = Theme(
    name="classic",
    frame=(122, 74, 40),
    frame_dark=(84, 48, 24),
    wood=True,
    felt=(214, 190, 146),
    felt_edge=(188, 160, 114),
    point_a=(150, 40, 32),
    point_b=(100, 132, 96),
    bar=(110, 66, 35),
    tray=(176, 146, 100),
    tray_text=(62, 36, 18),
    felt_text=(74, 44, 22),
    number=(246, 226, 190),
    strip=(52, 34, 22),
    strip_active=(92, 58, 30),
    strip_text=(250, 238, 214),
    strip_muted=(205, 180, 140),
    accent=(255, 196, 60),
    checkers=(
        CheckerColours(body=(240, 230, 208), rim=(196, 180, 150), text=(70, 45, 25)),
        CheckerColours(body=(48, 40, 38), rim=(20, 16, 15), text=(245, 230, 200)),
    ),
    die_body=(250, 248, 240),
    die_pip=(30, 26, 24),
    cube_body=(250, 248, 240),
    cube_text=(30, 26, 24),
    last_move=(255, 196, 40),
    pending=(40, 170, 255),
    hit=(170, 20, 20),
)

DARK = Theme(
    name="dark",
    frame=(28, 32, 40),
    frame_dark=(16, 18, 24),
    wood=False,
    felt=(54, 62, 76),
    felt_edge=(44, 50, 62),
    point_a=(0, 120, 140),
    point_b=(170, 176, 190),
    bar=(34, 38, 48),
    tray=(70, 80, 98),
    tray_text=(245, 247, 252),
    felt_text=(235, 240, 248),
    number=(220, 226, 236),
    strip=(14, 16, 22),
    strip_active=(40, 48, 66),
    strip_text=(245, 247, 252),
    strip_muted=(160, 168, 184),
    accent=(255, 210, 0),
    checkers=(
        CheckerColours(body=(250, 250, 250), rim=(190, 196, 206), text=(20, 24, 32)),
        CheckerColours(body=(226, 70, 50), rim=(150, 36, 24), text=(255, 255, 255)),
    ),
    die_body=(255, 255, 255),
    die_pip=(10, 12, 16),
    cube_body=(245, 247, 252),
    cube_text=(10, 12, 16),
    last_move=(255, 210, 0),
    pending=(40, 110, 255),
    hit=(255, 70, 170),
)

THEMES: dict[str, Theme] = {theme.name: theme for theme in (CLASSIC, DARK)}


def theme_names() -> tuple[str, ...]:
    """Return the names of all themes, the default (``"classic"``) first."""
    return tuple(THEMES)


def get_theme(name: str) -> Theme:
    """Return the theme called ``name``.

    Raises:
        ValueError: no theme has that name.
    """
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}: expected one of {', '.join(THEMES)}") from None
