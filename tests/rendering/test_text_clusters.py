"""Grapheme clusters (UAX #29) and cutting names between them, never inside an emoji sequence, flag or conjunct."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rendering.fonts import fit_text
from rendering.names import ELLIPSIS, drawable_name
from rendering.text_clusters import graphemes

FAMILY = "👨\u200d👩\u200d👧\u200d👦"
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


@pytest.mark.parametrize(
    ("text", "clusters"),
    [
        (FAMILY + "x", [FAMILY, "x"]),
        ("👍🏽👍", ["👍🏽", "👍"]),
        ("🇺🇦🇷🇺🇰", ["🇺🇦", "🇷🇺", "🇰"]),
        ("1️⃣2", ["1️⃣", "2"]),
        ("🏳️\u200d🌈!", ["🏳️\u200d🌈", "!"]),
        (SCOTLAND + "a", [SCOTLAND, "a"]),
        ("👩🏿\u200d💻", ["👩🏿\u200d💻"]),
        ("अर्जुन", ["अ", "र्जु", "न"]),  # GB9c: र + virama + ज is one conjunct
        ("क्षि", ["क्षि"]),
        ("สมชาย", ["ส", "ม", "ช", "า", "ย"]),
        ("ำก", ["ำ", "ก"]),  # a lone spacing mark is its own cluster
        ("e\u0301\u0323x", ["e\u0301\u0323", "x"]),
        ("Ệ", ["Ệ"]),
        ("\u1100\u1161\u11a8\u1100", ["\u1100\u1161\u11a8", "\u1100"]),  # Hangul jamo L V T, then L
        ("한국", ["한", "국"]),
        ("a\r\nb", ["a", "\r\n", "b"]),
        ("a\u200db", ["a\u200d", "b"]),  # ZWJ joins only pictographs to what follows
        ("\u0600\u0661", ["\u0600\u0661"]),  # a prepended Arabic number sign
        ("", []),
    ],
)
def test_graphemes(text: str, clusters: list[str]) -> None:
    assert graphemes(text) == clusters


HARD_CLUSTERS = [FAMILY, SCOTLAND, "👍🏽", "🇺🇦", "1️⃣", "🏳️\u200d🌈", "र्जु", "e\u0301", "ễ", "王", "م", "ა", " ", "x"]
NAMES = st.lists(
    st.one_of(st.sampled_from(HARD_CLUSTERS), st.characters(exclude_categories=["Cs", "Cc"])), max_size=40
).map("".join)


def _is_cluster_prefix_plus_ellipsis(cut: str, whole: str) -> bool:
    """Return whether ``cut`` is ``whole``, or whole clusters from the start of ``whole`` (then right-stripped) plus
    the ellipsis."""
    if cut == whole:
        return True
    if not cut.endswith(ELLIPSIS):
        return False
    head = cut[: -len(ELLIPSIS)]
    clusters = graphemes(whole)
    prefixes = {"".join(clusters[:k]).rstrip() for k in range(len(clusters) + 1)}
    return head in prefixes


@settings(max_examples=300, deadline=None)
@given(name=NAMES, limit=st.integers(min_value=2, max_value=40))
def test_drawable_name_cuts_between_clusters(name: str, limit: int) -> None:
    whole = drawable_name(name, 10_000)
    cut = drawable_name(name, limit)
    assert len(cut) <= limit
    assert _is_cluster_prefix_plus_ellipsis(cut, whole), (cut, whole)


@settings(max_examples=100, deadline=None)
@given(name=NAMES, width=st.integers(min_value=0, max_value=400))
def test_fit_text_cuts_between_clusters(name: str, width: int) -> None:
    whole = drawable_name(name, 10_000)
    try:
        cut = fit_text(whole, 18, width, bold=True)
    except (RuntimeError, OSError, ValueError):  # the shaper refused the text; name_sprite falls back
        return
    assert _is_cluster_prefix_plus_ellipsis(cut, whole), (cut, whole)


def test_the_old_cut_split_clusters() -> None:
    """The defect: cutting by characters split a family in half and left a dangling joiner."""
    name = "Ann " + FAMILY * 10
    old_cut = name[:31].rstrip() + ELLIPSIS  # what drawable_name returned before: 3 families and a half
    assert not _is_cluster_prefix_plus_ellipsis(old_cut, name)
    assert drawable_name(name) == "Ann " + FAMILY * 3 + ELLIPSIS


def test_combining_marks_are_capped() -> None:
    assert drawable_name("Z" + "\u0301" * 50 + "alg") == "Z" + "\u0301" * 4 + "alg"


def test_subdivision_flags_and_new_emoji_survive_cleaning() -> None:
    assert drawable_name(f"Scot {SCOTLAND}") == f"Scot {SCOTLAND}"
    assert drawable_name("a\U000e0067b") == "ab"  # a tag character elsewhere is dropped


def _conformance_cases() -> list[tuple[str, list[str]]]:
    """Return Unicode's own test cases (``unicode/GraphemeBreakTest-15.0.0.txt``, from Debian's unicode-data package):
    each text with its expected clusters, leaving out those with characters this Python's tables do not know."""
    cases: list[tuple[str, list[str]]] = []
    path = Path(__file__).with_name("unicode") / "GraphemeBreakTest-15.0.0.txt"
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("#")[0].split()
        if not fields:
            continue
        clusters: list[str] = []
        current = ""
        for field in fields:
            if field in ("÷", "×"):
                if field == "÷" and current:
                    clusters.append(current)
                    current = ""
            else:
                current += chr(int(field, 16))
        text = "".join(clusters)
        if not any(unicodedata.category(char) == "Cn" for char in text):
            cases.append((text, clusters))
    return cases


def test_unicode_grapheme_break_conformance() -> None:
    cases = _conformance_cases()
    assert len(cases) > 500
    wrong = [(text, clusters, graphemes(text)) for text, clusters in cases if graphemes(text) != clusters]
    assert not wrong, wrong[:5]
