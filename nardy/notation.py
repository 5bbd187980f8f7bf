"""Move notation of docs/rules.md §5: canonical output, forgiving input.

Output (:func:`format_steps`, which lives with :class:`~nardy.move.Move` in :mod:`nardy.move` and is re-exported
here): one-die moves of a turn, separated by spaces, a checker's consecutive moves joined (``24/18/13``), hits marked
with ``*``, repeated moves counted (``13/7(2)``), sorted from the farthest point; ``bar`` and ``off``.

Input accepts ``/`` or ``-`` or a space between points, ``bar``/``бар``/``25``, ``off``/``борт``/``0``, upper or
lower case, Latin or Cyrillic letters, ``(n)`` repeats and ``*`` marks, each also after a space (``13/3 (2)``,
``bar/22 * 6/5``). The reserve of Acey-deucey and Dutch backgammon (checkers not yet entered, point 26) is written
``in`` and read from ``in``/``res``/``reserve``/``вв``/``ввод``/``резерв``/``26`` (``in/22``).

Numbers are decimal digits of any script (Unicode category Nd: ``13``, ``١٣``, ``１３``, ``१३``), read by their
value. Other number characters (superscripts ``²``, subscripts, circled ``①``, Roman numerals) are not digits: a word
holding one is refused with :class:`~nardy.errors.InvalidMoveError` of code ``not_a_digit``.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from nardy.errors import InvalidMoveError
from nardy.move import RESERVE_POINT, point_name
from nardy.move import format_steps as format_steps
from nardy.position import BAR, OFF


@dataclass(frozen=True, slots=True)
class Segment:
    """One written move of a checker: its points from start to end, the points marked as hits, and a repeat count."""

    points: tuple[int, ...]
    hits: frozenset[int]
    count: int = 1

    def hops(self) -> list[tuple[int, int]]:
        """Return the consecutive point pairs of the segment."""
        return list(zip(self.points, self.points[1:], strict=False))


# Cyrillic letters that look like Latin ones, so that "оff" or "bаr" typed on a Russian keyboard still parse
_LOOKALIKES = str.maketrans("аеорсхукмтвн", "aeopcxykmtbh")
_BAR_WORDS = {"bar", "b", "бар", "бap", "25"}
_OFF_WORDS = {"off", "o", "борт", "бортик", "вне", "0", "x"}
_RESERVE_WORDS = {"in", "res", "reserve", "вв", "ввод", "резерв", "26"}
_TOKEN = re.compile(r"\s*(?P<body>[^\s(]+)(?:\s*\((?P<count>\w+)\))?")
_SPACED_HIT = re.compile(r"(?<=[^\s*])\s+\*(?=\s|$)")  # "bar/22 * 6/5": a lone star marks the move before it
MAX_TEXT = 200


def _point(word: str, text: str) -> tuple[int, bool]:
    hit = word.endswith("*")
    word = word.rstrip("*")
    low = word.casefold()
    if low in _BAR_WORDS or low.translate(_LOOKALIKES) in _BAR_WORDS:
        return BAR, hit
    if low in _OFF_WORDS or low.translate(_LOOKALIKES) in _OFF_WORDS:
        return OFF, hit
    if low in _RESERVE_WORDS:
        return RESERVE_POINT, hit
    number = _number(word, text)
    if number is not None and 1 <= number <= 24:
        return number, hit
    raise InvalidMoveError(f"{word!r} is not a point (1..24, bar, off or in) in move {text!r}")


def _number(word: str, text: str) -> int | None:
    """Return the value of ``word`` written in decimal digits of any script, or None when it holds no digit.

    Raises:
        InvalidMoveError: ``word`` holds a number character that is not a decimal digit (``²``, ``①``, ``Ⅻ``).
    """
    if word.isdecimal():
        return int(word)  # int() reads every Nd digit; the text is at most MAX_TEXT characters
    for char in word:
        if unicodedata.category(char) in ("No", "Nl"):
            raise InvalidMoveError(
                f"{char!r} ({unicodedata.name(char, 'a number character')}) is not a decimal digit in move {text!r}:"
                " write points with the digits 0-9",
                "not_a_digit",
            )
    return None


def parse_segments(text: str) -> list[Segment]:
    """Return the written moves of a turn text, in the order written.

    Raises:
        InvalidMoveError: the text is empty, too long, or holds something that is not a move.
    """
    if len(text) > MAX_TEXT:
        raise InvalidMoveError(f"move text is too long ({len(text)} characters, at most {MAX_TEXT})")
    cleaned = re.sub(r"\s*[/\-–—>→:]+\s*", "/", text.strip()).replace(",", " ").replace(";", " ")
    cleaned = _SPACED_HIT.sub("*", cleaned)
    if not cleaned:
        raise InvalidMoveError("empty move")
    bare: list[str] = []
    segments: list[Segment] = []
    pos = 0
    while pos < len(cleaned):
        match = _TOKEN.match(cleaned, pos)
        if not match or not match.group("body"):
            if cleaned[pos:].strip():
                raise InvalidMoveError(f"cannot read {cleaned[pos:]!r} in move {text!r}")
            break
        pos = match.end()
        body, count_text = match.group("body"), match.group("count")
        count = 1 if count_text is None else _number(count_text, text)
        if count is None:
            raise InvalidMoveError(f"repeat count {count_text!r} is not a number in move {text!r}")
        if not 1 <= count <= 4:
            raise InvalidMoveError(f"repeat count ({count}) must be 1..4 in move {text!r}")
        words = [w for w in body.split("/") if w]
        if len(words) == 1 and count == 1 and "/" not in body:
            bare.append(words[0])
            continue
        if len(words) < 2:
            raise InvalidMoveError(f"{body!r} needs a start and an end point in move {text!r}")
        segments.append(_segment(words, count, text))
    if bare:
        if segments or len(bare) % 2:
            raise InvalidMoveError(f"cannot pair the points {' '.join(bare)!r} in move {text!r}")
        segments = [_segment(bare[i : i + 2], 1, text) for i in range(0, len(bare), 2)]
    return segments


def _segment(words: list[str], count: int, text: str) -> Segment:
    read = [_point(w, text) for w in words]
    points = tuple(p for p, _ in read)
    for a, b in itertools.pairwise(points):
        if b >= a or a == OFF or b == BAR:
            raise InvalidMoveError(
                f"{point_name(a)}/{point_name(b)} does not move towards home in move {text!r}", "wrong_direction"
            )
    return Segment(points, frozenset(p for p, h in read if h), count)
