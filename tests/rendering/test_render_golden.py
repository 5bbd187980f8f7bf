"""Golden-image tests: a few fixed scenes compared with stored PNGs, with a tolerance (never byte equality).

The scenes are those of :mod:`rendering.scenes` (also used by the gallery), rendered as PNG at a reduced width
(:data:`WIDTH`) to keep the goldens small. A render passes when its mean absolute difference from the golden, over
all pixels and channels, is at most :data:`MEAN_TOLERANCE` and at most :data:`MAX_SHARE` of its pixels differ by more
than :data:`PIXEL_TOLERANCE` in some channel; this absorbs small font-rasteriser and resampling differences between
Pillow/FreeType builds but catches anything moved, missing or recoloured.

After an intended change to the look, regenerate the goldens and review them before committing::

    UPDATE_GOLDENS=1 python -m pytest tests/rendering/test_render_golden.py

(``UPDATE_GOLDENS=1 python -m pytest tests/rendering`` works too.) The test then writes
``tests/rendering/golden/<theme>__<scene>.png`` and is skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from render_helpers import decode

from rendering.scenes import SCENES

GOLDEN_DIR = Path(__file__).with_name("golden")
WIDTH = 480
MEAN_TOLERANCE = 1.5
PIXEL_TOLERANCE = 48
MAX_SHARE = 0.005

CASES = [
    ("classic", "short_opening"),
    ("classic", "long_midgame"),
    ("classic", "long_midgame_viewer1"),
    ("dark", "short_hit"),
    ("dark", "short_bearoff"),
    ("classic", "stack15_cube_mine"),
    ("classic", "hypergammon_midgame"),
    ("dark", "nackgammon_opening"),
    ("classic", "portes_race"),
    ("dark", "misere_bearoff"),
    ("classic", "plakoto_pins"),
    ("dark", "plakoto_last_move"),
    ("classic", "plakoto_mother"),
    ("classic", "acey_deucey_start"),
    ("classic", "acey_deucey_bar_and_reserve"),
    ("dark", "dutch_bar_and_reserve"),
    ("classic", "fevga_midgame"),
    ("dark", "gulbara_double"),
    ("classic", "short_finished"),
    ("dark", "stack15_cube_mine"),
]
"""Every variant has at least one golden (tests/rendering/test_render_variants.py checks it)."""


def update_requested() -> bool:
    return os.environ.get("UPDATE_GOLDENS", "") not in ("", "0")


@pytest.mark.parametrize(("theme", "scene"), CASES, ids=[f"{t}-{s}" for t, s in CASES])
def test_scene_matches_golden(theme: str, scene: str) -> None:
    image = decode(SCENES[scene](theme, WIDTH, "png"))
    path = GOLDEN_DIR / f"{theme}__{scene}.png"
    if update_requested():
        GOLDEN_DIR.mkdir(exist_ok=True)
        image.save(path, "PNG", optimize=True)
        pytest.skip(f"golden written: {path.name}")
    assert path.exists(), f"missing golden {path.name}: run UPDATE_GOLDENS=1 python -m pytest tests/rendering"
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"size changed: {golden.size} -> {image.size}"
    diff = np.abs(np.asarray(image, dtype=np.int16) - np.asarray(golden, dtype=np.int16))
    mean = float(diff.mean())
    share = float((diff.max(axis=2) > PIXEL_TOLERANCE).mean())
    assert mean <= MEAN_TOLERANCE, f"{path.name}: mean difference {mean:.2f} > {MEAN_TOLERANCE}"
    assert share <= MAX_SHARE, f"{path.name}: {share:.2%} of pixels differ by more than {PIXEL_TOLERANCE}"
