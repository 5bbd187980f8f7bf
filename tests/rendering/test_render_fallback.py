"""Font fallback: every hard name a Telegram user may have is drawn with real glyphs, not the .notdef box (tofu).

For each name of :data:`HARD`, each of its grapheme clusters is checked in the font the layout chose for it: the
font's cmap maps every (non-ignorable) character of the cluster, and the cluster drawn alone in that font has ink and
differs from that font's .notdef glyph drawn at the same size. Emoji sequences (skin tone, ZWJ family, flags, keycap,
subdivision flag) must also become one glyph: no wider than one emoji and a half. The same check with DejaVu Sans
forced for every cluster measures what the renderer drew before the fallback existed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import test_render_golden as board_goldens
from PIL import Image, ImageDraw
from render_helpers import decode

from nardy.position import Position, make_side
from rendering import render_board_image
from rendering.names import drawable_name, name_sprite
from rendering.scenes import SCENES
from rendering.sprites import text
from rendering.text_clusters import graphemes
from rendering.text_fonts import BOLD, covers, face, is_emoji_font, table, wants_emoji
from rendering.text_layout import layout, raqm_available

SIZE = 28
START = Position(make_side({24: 2, 13: 5, 8: 3, 6: 5}), make_side({24: 2, 13: 5, 8: 3, 6: 5}))
HARD = [
    "😀",
    "👍🏽",
    "👨\u200d👩\u200d👧\u200d👦",
    "🇺🇦",
    "王小明",
    "さくら",
    "김민준",
    "अर्जुन",
    "สมชาย",
    "𝓕",
    "𝐀",
    "𝕬",
    "Ⓐ",
    "مريم",
    "דוד",
    "Али علي",
    "ნინო",
    "Արամ",
    "Ёлка Щука",
    "Ωμέγα",
    "Nguyễn Thị Ướt Ặ",
    "1️⃣",
    "🏳️\u200d🌈",
    "🇷🇺",
    "🇰🇿",
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "❤️",
    "🔥🎲",
    "👩🏿\u200d💻",
    "カタカナ",
    "漢字",
    "پرویز",
    "বাংলা",
    "தமிழ்",
    "ગુજરાતી",
    "ಕನ್ನಡ",
    "മലയാളം",
    "తెలుగు",
    "ਪੰਜਾਬੀ",
    "ລາວ",
    "ខ្មែរ",
    "မြန်မာ",
    "አበበ",
    "සිංහල",
    "ℍ𝔸ℕ𝕊 𝟙𝟚𝟛",
    "♔♛",
    "Zoë Ångström",
]
EMOJI_SEQUENCES = [name for name in HARD if wants_emoji(name) and len(graphemes(name)) == 1 and len(name) > 1]


def _draw(font_name: str, value: str) -> np.ndarray:
    """Return ``value`` drawn alone in the shipped font ``font_name`` (no fallback) as a greyscale array."""
    emoji = is_emoji_font(font_name)
    font = face(font_name, table().emoji_strike if emoji else SIZE)
    left, top, right, bottom = font.getbbox(value)
    image = Image.new("RGBA", (max(1, int(right - left)) + 4, max(1, int(bottom - top)) + 4), (255, 255, 255, 255))
    ImageDraw.Draw(image).text((2 - left, 2 - top), value, font=font, fill=(0, 0, 0, 255), embedded_color=emoji)
    return np.asarray(image.convert("L"))


def _is_real_glyph(font_name: str, cluster: str) -> bool:
    """Return whether ``cluster`` is mapped by ``font_name`` and draws as something other than its .notdef box."""
    if not covers(font_name, cluster):
        return False
    drawn = _draw(font_name, cluster)
    if not (drawn < 200).any():
        return cluster.isspace()
    tofu = _draw(font_name, "\U0010fffd")  # a private-use code point no shipped font maps
    return drawn.shape != tofu.shape or bool((drawn != tofu).any())


def _clusters_and_fonts(name: str, *, dejavu_only: bool) -> list[tuple[str, str]]:
    runs = layout(drawable_name(name), True, raqm_available())
    pairs = [(cluster, run.font) for run in runs for cluster in run.clusters]
    return [(cluster, BOLD) for cluster, _ in pairs] if dejavu_only else pairs


def drawn(name: str, *, dejavu_only: bool = False) -> bool:
    """Return whether every cluster of ``name`` is drawn with real glyphs (in DejaVu Sans Bold alone if asked)."""
    return all(_is_real_glyph(font, cluster) for cluster, font in _clusters_and_fonts(name, dejavu_only=dejavu_only))


def test_the_set_is_big_enough() -> None:
    assert len(HARD) >= 40
    assert len(EMOJI_SEQUENCES) >= 7


@pytest.mark.parametrize("name", HARD)
def test_every_cluster_is_a_real_glyph(name: str) -> None:
    for cluster, font in _clusters_and_fonts(name, dejavu_only=False):
        assert _is_real_glyph(font, cluster), f"{cluster!r} drawn as .notdef in {font}"


def test_dejavu_alone_drew_far_fewer(capsys: pytest.CaptureFixture[str]) -> None:
    """The defect: with DejaVu Sans alone (the renderer before fallback) most of these names were boxes."""
    before = sum(drawn(name, dejavu_only=True) for name in HARD)
    after = sum(drawn(name) for name in HARD)
    with capsys.disabled():
        print(f"\nhard names drawn with real glyphs: DejaVu alone {before} of {len(HARD)}, with fallback {after}")
    assert after == len(HARD)
    assert before <= len(HARD) // 2


@pytest.mark.skipif(not raqm_available(), reason="emoji sequences form one glyph only with raqm shaping")
@pytest.mark.parametrize("sequence", EMOJI_SEQUENCES)
def test_emoji_sequences_are_one_glyph(sequence: str) -> None:
    single = text("😀", SIZE, (0, 0, 255), bold=True)
    sprite = text(sequence, SIZE, (0, 0, 255), bold=True)
    assert sprite.width <= 1.5 * single.width, f"{sequence!r} drawn as several glyphs ({sprite.width} px)"
    pixels = np.asarray(sprite)
    rgb = pixels[:, :, :3][pixels[:, :, 3] > 128].astype(int)
    assert (np.abs(rgb - (0, 0, 255)).max(axis=1) > 60).mean() > 0.5, "emoji drawn in the text colour"


def test_emoji_are_in_colour_and_text_in_the_asked_colour() -> None:
    sprite = np.asarray(text("Ann 😀", SIZE, (0, 0, 255), bold=True))
    opaque = sprite[sprite[:, :, 3] > 200][:, :3]
    assert ((opaque[:, 2] > 200) & (opaque[:, 0] < 60)).any()  # the blue letters
    assert ((opaque[:, 0] > 200) & (opaque[:, 1] > 150) & (opaque[:, 2] < 100)).any()  # the yellow face


def test_ascii_names_keep_the_dejavu_path() -> None:
    """A name DejaVu Sans draws is one left-to-right DejaVu run, so boards with such names look as before."""
    for name in ("Boris", "Анна", "Player 12", "Ωμέγα"):
        runs = layout(name, True, raqm_available())
        assert len(runs) == 1 and runs[0].font == BOLD and not runs[0].rtl


@pytest.mark.parametrize("name", HARD)
def test_hard_names_draw_on_every_picture(name: str) -> None:
    assert name_sprite(name, 20, 400, (0, 0, 0)).width > 4
    render_board_image(START, "short", names=(name, name[::-1]), width=320, match_score=(1, 0), match_length=3)


@pytest.mark.skipif(not raqm_available(), reason="the goldens are raqm's layout (test_render_rtl checks raqm is here)")
@pytest.mark.parametrize("scene", ["hard_names_board"])
def test_hard_names_scene_matches_golden(scene: str) -> None:
    """The hard names on a board and on the opening roll (``UPDATE_GOLDENS=1`` rewrites the goldens, as for the
    other scenes; look at them before committing)."""
    image = decode(SCENES[scene]("classic", board_goldens.WIDTH, "png"))
    path: Path = board_goldens.GOLDEN_DIR / f"classic__{scene}.png"
    if board_goldens.update_requested():
        image.save(path, "PNG", optimize=True)
        pytest.skip(f"golden written: {path.name}")
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"size changed: {golden.size} -> {image.size}"
    diff = np.abs(np.asarray(image, dtype=np.int16) - np.asarray(golden, dtype=np.int16))
    assert float(diff.mean()) <= board_goldens.MEAN_TOLERANCE, f"{path.name}: mean difference {diff.mean():.2f}"
    share = float((diff.max(axis=2) > board_goldens.PIXEL_TOLERANCE).mean())
    assert share <= board_goldens.MAX_SHARE, f"{path.name}: {share:.2%} of pixels differ too much"


@pytest.mark.parametrize(
    ("sequence", "shown"),
    [("👨\u200d👩\u200d👧\u200d👦", "👨"), ("👍🏽", "👍"), ("1️⃣", "1"), ("🏳️\u200d🌈", "🏳"), ("🇺🇦", "🇺🇦")],
)
def test_without_raqm_an_emoji_sequence_is_its_first_emoji(sequence: str, shown: str) -> None:
    """Without shaping no ligature forms: the first emoji is drawn rather than a row of parts (a flag stays two
    regional letters), even next to Arabic, which is reshaped on its own."""
    runs = layout(f"{sequence} مريم", True, False)
    emoji = [run for run in runs if is_emoji_font(run.font)]
    assert [run.text for run in emoji] == [shown]
