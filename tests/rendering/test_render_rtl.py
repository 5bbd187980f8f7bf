"""Right-to-left names are shaped and ordered right with raqm and without it (python-bidi + arabic-reshaper).

The expected picture of a right-to-left word is its presentation forms (the joined letter shapes, from
arabic-reshaper) drawn in reverse order by Pillow's basic layout, which neither shapes nor reorders. A name drawn
unshaped (isolated letters) or left to right is far from it, so each test fails when shaping or reordering is
missing. Every test runs once with raqm and once with the fallback forced as on a machine without libfribidi.
"""

from __future__ import annotations

from collections.abc import Iterator

import arabic_reshaper  # type: ignore[import-untyped]
import numpy as np
import pytest
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from rendering import text_layout
from rendering.text_fonts import BOLD, face
from rendering.text_layout import layout, raqm_available, render

SIZE = 32
ARABIC = "NotoSansArabic-Bold.ttf"
HEBREW = "NotoSansHebrew-Bold.ttf"
WORDS = [("مريم", ARABIC), ("محمد علي", ARABIC), ("پرویز", ARABIC), ("שלום", HEBREW), ("דוד לוי", HEBREW)]


@pytest.fixture(params=["raqm", "fallback"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run a test with raqm (where Pillow has it) and with the fallback forced."""
    if request.param == "raqm":
        if not raqm_available():
            pytest.skip("Pillow has no raqm layout here")
    else:
        monkeypatch.setattr(text_layout, "raqm_available", lambda: False)
    yield request.param


def _basic(font: str, value: str) -> NDArray[np.float64]:
    """Return ``value`` drawn as it is by Pillow's basic layout (no shaping, no reordering): its alpha mask."""
    loaded = face(font, SIZE, basic=True)
    left, top, right, bottom = loaded.getbbox(value)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), value, font=loaded, fill=255)
    return np.asarray(mask, dtype=np.float64)


def _distance(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """Return the mean absolute difference (0..1) of two masks, top-left aligned and padded to the same size."""
    height, width = max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])
    pa, pb = np.zeros((height, width)), np.zeros((height, width))
    pa[: a.shape[0], : a.shape[1]] = a
    pb[: b.shape[0], : b.shape[1]] = b
    return float(np.abs(pa - pb).mean() / 255)


@pytest.mark.parametrize(("word", "font"), WORDS)
def test_right_to_left_words_are_shaped_and_reversed(word: str, font: str, engine: str) -> None:
    shaped = arabic_reshaper.reshape(word)
    drawn = np.asarray(render(word, SIZE, (0, 0, 0), bold=True).getchannel("A"), dtype=np.float64)
    expected = _distance(drawn, _basic(font, shaped[::-1]))
    unshaped = _distance(drawn, _basic(font, word))
    left_to_right = _distance(drawn, _basic(font, shaped))
    assert expected < 0.08, f"{engine}: {word!r} differs from its shaped right-to-left form by {expected:.3f}"
    assert unshaped > 0.15 and left_to_right > 0.15, (unshaped, left_to_right)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Али علي", [("Али ", False), ("علي", True)]),
        ("علي Али", [("Али", False), ("علي ", True)]),
        ("מרים 12", [("12", False), ("מרים ", True)]),
    ],
)
def test_mixed_names_are_ordered_by_the_bidi_algorithm(
    name: str, expected: list[tuple[str, bool]], engine: str
) -> None:
    """Runs come in visual order (left to right on the picture), each with its direction."""
    runs = layout(name, True, text_layout.raqm_available())
    got = [(run.text, run.rtl) for run in runs]
    if engine == "fallback":  # the Arabic letters were replaced by their presentation forms first
        expected = [(arabic_reshaper.reshape(text), rtl) for text, rtl in expected]
    assert got == expected


def test_mixed_name_draws_cyrillic_left_of_arabic(engine: str) -> None:
    sprite = np.asarray(render("Али علي", SIZE, (0, 0, 0), bold=True).getchannel("A"), dtype=np.float64)
    cyrillic = np.asarray(render("Али", SIZE, (0, 0, 0), bold=True).getchannel("A"), dtype=np.float64)
    width = cyrillic.shape[1]
    assert (
        _distance(sprite[:, :width][-cyrillic.shape[0] :], cyrillic) < 0.15
        or _distance(sprite[: cyrillic.shape[0], :width], cyrillic) < 0.15
    )


def test_this_machine_lays_out_with_raqm() -> None:
    """The test machine and CI shape with raqm (Pillow's bundled libraqm with the system's libfribidi): without it
    Indic conjuncts and emoji sequences cannot form. Install libfribidi0 (Debian) when this fails."""
    assert raqm_available(), "Pillow has no raqm layout: install libfribidi0"
    assert face(BOLD, 12).layout_engine == ImageFont.Layout.RAQM
