"""Extended grapheme clusters (UAX #29 with the Indic conjunct rule GB9c of Unicode 15.1), standard library only.

A grapheme cluster is what a reader sees as one character: a letter with its combining marks, a Hangul syllable
spelled in jamo, an Indic consonant conjunct (र्ज), an emoji with its skin tone, a ZWJ sequence (👨‍👩‍👧‍👦), a
flag (two regional indicators, or 🏴 with its tag characters), a keycap (1️⃣). Names are only ever cut between
clusters. The Grapheme_Cluster_Break property is derived from :mod:`unicodedata` (general category and Hangul syllable
arithmetic) plus the short explicit lists below; Extended_Pictographic is the emoji-data ranges.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from enum import IntEnum
from functools import lru_cache
from typing import Final


class Break(IntEnum):
    """Grapheme_Cluster_Break values (plus ``PICTO`` for Extended_Pictographic, which is Other otherwise)."""

    OTHER = 0
    CR = 1
    LF = 2
    CONTROL = 3
    EXTEND = 4
    ZWJ = 5
    REGIONAL = 6
    PREPEND = 7
    SPACING = 8
    L = 9
    V = 10
    T = 11
    LV = 12
    LVT = 13
    PICTO = 14


def _table(pairs: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    pairs.sort()
    return [a for a, _ in pairs], [b for _, b in pairs]


def _in(table: tuple[list[int], list[int]], cp: int) -> bool:
    index = bisect_right(table[0], cp) - 1
    return index >= 0 and cp <= table[1][index]


_PREPEND: Final = _table(
    [
        (0x0600, 0x0605),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x0D4E, 0x0D4E),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x111C2, 0x111C3),
        (0x1193F, 0x1193F),
        (0x11941, 0x11941),
        (0x11A3A, 0x11A3A),
        (0x11A84, 0x11A89),
        (0x11D46, 0x11D46),
        (0x11F02, 0x11F02),
    ]
)
_EXTEND_EXTRA: Final = _table(
    # Grapheme_Extend characters that are not Mn/Me: some spacing marks, halfwidth sound marks, emoji modifiers, tags
    [
        (0x09BE, 0x09BE),
        (0x09D7, 0x09D7),
        (0x0B3E, 0x0B3E),
        (0x0B57, 0x0B57),
        (0x0BBE, 0x0BBE),
        (0x0BD7, 0x0BD7),
        (0x0CC2, 0x0CC2),
        (0x0CD5, 0x0CD6),
        (0x0D3E, 0x0D3E),
        (0x0D57, 0x0D57),
        (0x0DCF, 0x0DCF),
        (0x0DDF, 0x0DDF),
        (0x1B35, 0x1B35),
        (0x200C, 0x200C),
        (0x302E, 0x302F),
        (0xFF9E, 0xFF9F),
        (0x1133E, 0x1133E),
        (0x11357, 0x11357),
        (0x114B0, 0x114B0),
        (0x114BD, 0x114BD),
        (0x115AF, 0x115AF),
        (0x11930, 0x11930),
        (0x1D165, 0x1D165),
        (0x1D16E, 0x1D172),
        (0x1F3FB, 0x1F3FF),
        (0xE0020, 0xE007F),
    ]
)
_NOT_SPACING: Final = _table(
    # Mc characters that are not SpacingMark (Myanmar, Tai Tham, Tai Viet, Ahom vowel signs)
    [
        (0x102B, 0x102C),
        (0x1038, 0x1038),
        (0x1062, 0x1064),
        (0x1067, 0x106D),
        (0x1083, 0x1083),
        (0x1087, 0x108C),
        (0x108F, 0x108F),
        (0x109A, 0x109C),
        (0x1A61, 0x1A61),
        (0x1A63, 0x1A64),
        (0xAA7B, 0xAA7B),
        (0xAA7D, 0xAA7D),
        (0x11720, 0x11721),
    ]
)
_PICTOGRAPHIC: Final = _table(
    [
        (0x00A9, 0x00A9),
        (0x00AE, 0x00AE),
        (0x203C, 0x203C),
        (0x2049, 0x2049),
        (0x2122, 0x2122),
        (0x2139, 0x2139),
        (0x2194, 0x2199),
        (0x21A9, 0x21AA),
        (0x231A, 0x231B),
        (0x2328, 0x2328),
        (0x2388, 0x2388),
        (0x23CF, 0x23CF),
        (0x23E9, 0x23F3),
        (0x23F8, 0x23FA),
        (0x24C2, 0x24C2),
        (0x25AA, 0x25AB),
        (0x25B6, 0x25B6),
        (0x25C0, 0x25C0),
        (0x25FB, 0x25FE),
        (0x2600, 0x2605),
        (0x2607, 0x2612),
        (0x2614, 0x2685),
        (0x2690, 0x2705),
        (0x2708, 0x2712),
        (0x2714, 0x2714),
        (0x2716, 0x2716),
        (0x271D, 0x271D),
        (0x2721, 0x2721),
        (0x2728, 0x2728),
        (0x2733, 0x2734),
        (0x2744, 0x2744),
        (0x2747, 0x2747),
        (0x274C, 0x274C),
        (0x274E, 0x274E),
        (0x2753, 0x2755),
        (0x2757, 0x2757),
        (0x2763, 0x2767),
        (0x2795, 0x2797),
        (0x27A1, 0x27A1),
        (0x27B0, 0x27B0),
        (0x27BF, 0x27BF),
        (0x2934, 0x2935),
        (0x2B05, 0x2B07),
        (0x2B1B, 0x2B1C),
        (0x2B50, 0x2B50),
        (0x2B55, 0x2B55),
        (0x3030, 0x3030),
        (0x303D, 0x303D),
        (0x3297, 0x3297),
        (0x3299, 0x3299),
        (0x1F000, 0x1F0FF),
        (0x1F10D, 0x1F10F),
        (0x1F12F, 0x1F12F),
        (0x1F16C, 0x1F171),
        (0x1F17E, 0x1F17F),
        (0x1F18E, 0x1F18E),
        (0x1F191, 0x1F19A),
        (0x1F1AD, 0x1F1E5),
        (0x1F201, 0x1F20F),
        (0x1F21A, 0x1F21A),
        (0x1F22F, 0x1F22F),
        (0x1F232, 0x1F23A),
        (0x1F23C, 0x1F23F),
        (0x1F249, 0x1F3FA),
        (0x1F400, 0x1F53D),
        (0x1F546, 0x1F64F),
        (0x1F680, 0x1F6FF),
        (0x1F774, 0x1F77F),
        (0x1F7D5, 0x1F7FF),
        (0x1F80C, 0x1F80F),
        (0x1F848, 0x1F84F),
        (0x1F85A, 0x1F85F),
        (0x1F888, 0x1F88F),
        (0x1F8AE, 0x1F8FF),
        (0x1F90C, 0x1F93A),
        (0x1F93C, 0x1F945),
        (0x1F947, 0x1FAFF),
        (0x1FC00, 0x1FFFD),
    ]
)
_LINKERS: Final = frozenset({0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D})
"""Indic_Conjunct_Break=Linker: the viramas of Devanagari, Bengali, Gujarati, Oriya, Telugu and Malayalam."""
_CONSONANTS: Final = _table(
    [
        (0x0915, 0x0939),
        (0x0958, 0x095F),
        (0x0978, 0x097F),
        (0x0995, 0x09A8),
        (0x09AA, 0x09B0),
        (0x09B2, 0x09B2),
        (0x09B6, 0x09B9),
        (0x09DC, 0x09DD),
        (0x09DF, 0x09DF),
        (0x09F0, 0x09F1),
        (0x0A95, 0x0AA8),
        (0x0AAA, 0x0AB0),
        (0x0AB2, 0x0AB3),
        (0x0AB5, 0x0AB9),
        (0x0AF9, 0x0AF9),
        (0x0B15, 0x0B28),
        (0x0B2A, 0x0B30),
        (0x0B32, 0x0B33),
        (0x0B35, 0x0B39),
        (0x0B5C, 0x0B5D),
        (0x0B5F, 0x0B5F),
        (0x0B71, 0x0B71),
        (0x0C15, 0x0C28),
        (0x0C2A, 0x0C39),
        (0x0C58, 0x0C5A),
        (0x0D15, 0x0D3A),
    ]
)
"""Indic_Conjunct_Break=Consonant."""


@lru_cache(maxsize=4096)
def break_class(char: str) -> Break:
    """Return the Grapheme_Cluster_Break class of one character."""
    cp = ord(char)
    if cp == 0x0D:
        return Break.CR
    if cp == 0x0A:
        return Break.LF
    if cp == 0x200D:
        return Break.ZWJ
    if _in(_EXTEND_EXTRA, cp):
        return Break.EXTEND
    if _in(_PREPEND, cp):
        return Break.PREPEND
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return Break.REGIONAL
    if 0xAC00 <= cp <= 0xD7A3:
        return Break.LV if (cp - 0xAC00) % 28 == 0 else Break.LVT
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return Break.L
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return Break.V
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return Break.T
    if _in(_PICTOGRAPHIC, cp):
        return Break.PICTO
    category = unicodedata.category(char)
    if category in ("Mn", "Me"):
        return Break.EXTEND
    if category == "Mc" or cp in (0x0E33, 0x0EB3):
        return Break.OTHER if _in(_NOT_SPACING, cp) else Break.SPACING
    if category in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        return Break.CONTROL
    return Break.OTHER


def _conjunct_class(char: str, kind: Break) -> int:
    """Return the Indic_Conjunct_Break class: 1 Consonant, 2 Linker, 3 Extend, 0 None."""
    cp = ord(char)
    if cp in _LINKERS:
        return 2
    if _in(_CONSONANTS, cp):
        return 1
    return 3 if kind in (Break.EXTEND, Break.ZWJ) else 0


_HANGUL_NEXT: Final = {
    Break.L: (Break.L, Break.V, Break.LV, Break.LVT),
    Break.LV: (Break.V, Break.T),
    Break.V: (Break.V, Break.T),
    Break.LVT: (Break.T,),
    Break.T: (Break.T,),
}


def graphemes(text: str) -> list[str]:
    """Return ``text`` split into extended grapheme clusters (UAX #29 rules GB3-GB13 and GB9c); ``"".join`` of the
    result is ``text``."""
    clusters: list[str] = []
    start = 0
    previous = Break.CONTROL
    pictographic = False  # the cluster so far ends in Extended_Pictographic Extend*
    pictographic_zwj = False  # ... Extended_Pictographic Extend* ZWJ
    regional = 0  # regional indicators in a row just before this character
    conjunct = 0  # 1: a consonant (then Extend*), 2: a consonant and a linker since (GB9c)
    for index, char in enumerate(text):
        kind = break_class(char)
        incb = _conjunct_class(char, kind)
        if index > 0:
            if previous in (Break.CR, Break.LF, Break.CONTROL) or kind in (Break.CR, Break.LF, Break.CONTROL):
                joined = previous == Break.CR and kind == Break.LF  # GB3-GB5
            else:
                joined = (
                    kind in _HANGUL_NEXT.get(previous, ())  # GB6-GB8
                    or kind in (Break.EXTEND, Break.ZWJ, Break.SPACING)  # GB9, GB9a
                    or previous == Break.PREPEND  # GB9b
                    or (incb == 1 and conjunct == 2)  # GB9c
                    or (kind == Break.PICTO and previous == Break.ZWJ and pictographic_zwj)  # GB11
                    or (kind == Break.REGIONAL and regional % 2 == 1)  # GB12, GB13
                )
            if not joined:
                clusters.append(text[start:index])
                start = index
        pictographic_zwj = kind == Break.ZWJ and pictographic
        pictographic = kind == Break.PICTO or (kind == Break.EXTEND and pictographic)
        regional = regional + 1 if kind == Break.REGIONAL else 0
        if incb == 1:
            conjunct = 1
        elif incb == 2 and conjunct:
            conjunct = 2
        elif incb != 3:
            conjunct = 0
        previous = kind
    if start < len(text):
        clusters.append(text[start:])
    return clusters
