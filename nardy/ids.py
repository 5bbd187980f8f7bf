"""Compact text ids of positions and match states.

Three formats live here. All of them are plain ASCII, carry no whitespace and decode strictly: anything that
is not exactly what the encoder would have written raises :class:`~nardy.errors.InvalidIdError` (a
``ValueError``) whose message says what was wrong and quotes the offending id. Surrounding whitespace is
ignored when decoding.

GNU Backgammon Position ID (short nardy / backgammon)
=====================================================

:func:`position_id` and :func:`position_from_id` implement the Position ID of GNU Backgammon, as described in
its manual ("A technical description of the Position ID"):

* The *key* is a string of at most 80 bits. For each of the two sides in turn, for each of its 25 points in
  its own frame (points 1..24, then the bar), append one ``1`` bit per checker on that point followed by a
  single ``0`` bit. That is 50 ``0`` bits plus one ``1`` bit per checker still in play (at most 30), so never
  more than 80 bits; the key is padded with ``0`` bits to exactly 80.
* The bits are packed little-endian into 10 bytes: bit ``i`` of the string is bit ``i % 8`` (value
  ``1 << (i % 8)``) of byte ``i // 8``.
* The *id* is the standard base64 encoding (alphabet ``A-Z a-z 0-9 + /``) of those 10 bytes without the
  ``==`` padding: 14 characters. The last character carries 4 unused bits, which must be zero.

Which side comes first: the manual's worked example labels the first half "player on roll", but that
example (the opening position) is symmetric and cannot tell. GNU Backgammon's own engine (the ``gnubg_nn``
package, used only as a test oracle) was checked instead: a board there is ``[side 0, side 1]`` with side 1
the player on roll (it is the side ``moves`` moves), and its ids encode side 0 first. So the **side not on
roll (``Position.opp``) is encoded first and the side on roll (``Position.me``) second**; the tests pin
this against ``gnubg_nn`` on a thousand random positions. The opening
position is ``4HPwATDgc/ABMA``. Both sides use the same frame as :class:`~nardy.position.Position`, so no
mirroring is involved.

GNU Backgammon Match ID
=======================

:func:`match_id` and :func:`match_state_from_id` implement the Match ID of GNU Backgammon ("A technical
description of the Match ID", and ``matchid.c`` of GNU Backgammon 1.x built with its default extended Match ID).
The manual's key is a string of 66 bits; GNU Backgammon writes one more, bit 67. Every field is written least
significant bit first, in this order (bit numbers are 1-based, as in the manual):

====== ===== ================================================================================
bits   width field
====== ===== ================================================================================
1-4    4     base-2 logarithm of the cube value (1 .. 32768)
5-6    2     cube owner: 0 or 1 for that player, 3 for a centred cube (2 is invalid)
7      1     player on roll, or the player who has rolled (the dice owner)
8      1     1 if this game is the Crawford game
9-11   3     game state: 0 no game started, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube
12     1     player whose turn it is to act (differs from bit 7 while a double or resignation is pending)
13     1     1 if a double is being offered
14-15  2     resignation offered: 0 none, 1 single game, 2 gammon, 3 backgammon
16-18  3     first die, the **larger** of the two (0 if the dice have not been rolled)
19-21  3     second die, the smaller (0 if the dice have not been rolled)
22-36  15    match length (0 for money play)
37-51  15    score of player 0
52-66  15    score of player 1
67     1     1 if the Jacoby rule is **not** in use (inverted, so that ids written before the bit existed read
             as GNU Backgammon's default, Jacoby on)
====== ===== ================================================================================

The bits are packed little-endian into 9 bytes exactly as the position key (the 5 bits after bit 67 are
zero) and the id is the standard base64 encoding of those 9 bytes: 12 characters, no padding. The manual's
example, a 9-point match at 2-4 where player 0 owns a 2-cube and player 1 has rolled 52, is
``QYkqASAAIAAA`` (the rolled dice are written 5 then 2 whatever order they were rolled in, as GNU Backgammon
does). GNU Backgammon writes its Jacoby setting into bit 67 in match play too, where the rule never applies;
with its default settings that bit is 0. When decoding, the 5 spare bits are ignored, as GNU Backgammon does,
and dice written smaller first (as older GNU Backgammon versions did) are read as written. Every other field is
checked, and the ids GNU Backgammon refuses are refused too: a Crawford game in money play, a match longer than
64 points (GNU Backgammon's ``MAXSCORE``), and a score at or above the match length (GNU Backgammon itself
refuses only a score above it; a score equal to the length is a finished match, in which no game is played).

Long nardy position id (this project's own format, version 1)
==============================================================

A GNU Backgammon id would happily hold the checker counts of a long nardy position, but it would be read as a
backgammon position by any program that accepts it, so long nardy positions get an id of their own that can
never be mistaken for one. :func:`long_position_id` and :func:`long_position_from_id` read and write::

    "L" "1" <14 characters>

* ``L`` marks a long nardy position; ``1`` is the format version. Other versions are refused.
* The 14 characters encode an 80-bit key built exactly like the GNU Backgammon position key above (a run of
  ``1`` bits per checker on each of the 25 points of a side, each run closed by a ``0``, padded with ``0`` to
  80 bits, packed little-endian into 10 bytes), except that **the side on roll (``Position.me``) comes
  first** and the opponent (``Position.opp``) second. Each side is in its own frame as in
  :class:`~nardy.position.Position` (index ``i`` is the side's point ``i + 1``, index 24 its bar, which is
  always empty in long nardy but is encoded anyway).
* The 10 bytes are written in the URL-safe base64 alphabet (``A-Z a-z 0-9 - _``) without padding, so the
  whole id is 16 characters that need no escaping in URLs, file names or Telegram callback data. The 4
  unused bits of the last character must be zero.

The long nardy opening position (15 checkers on each side's point 24) is ``L1AACA_z8AAID_Pw``
(:data:`LONG_OPENING_ID`).

Ids of the other variants (the same format, one prefix each)
============================================================

Every variant that is not played on GNU Backgammon's terms has a prefix of its own (``Variant.id_prefix``, a
capital letter and the version ``1``): ``L1`` long nardy, ``F1`` Fevga, ``G1`` Gul bara, ``P1`` Plakoto,
``A1`` Acey-deucey, ``D1`` Dutch. :func:`extended_position_id` writes the prefix and the URL-safe base64 of the
run-length key built as above over *all* the entries of a side (``Variant.side_length``: 25, or 26 with a
reserve, or 49 with Plakoto's pinned flags, see :mod:`nardy.position`), the side on roll first. The key has
``2 * length + 30`` bits at most, padded with ``0`` to whole bytes, and the text has as many characters as those
bytes need (unused low bits of the last character zero): 14 characters for 25 entries (the ``L1`` id is the case
``length = 25``), 15 for 26, 22 for 49. :func:`position_from_any_id` tells them apart by prefix and length (a
GNU Backgammon id is 14 characters with no prefix).

None of the decoders checks the rules of a variant (two colours on one point, blocked primes, ...): they only
guarantee 25 counters per side, none negative and at most 15 checkers per side. Check the result with the
variant's own validation when that matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nardy.errors import InvalidIdError, InvalidPositionError, NardyError
from nardy.position import CHECKERS, SIDE_LENGTH, Position, Side
from nardy.variants import get_variant

__all__ = [
    "GAME_DROPPED",
    "GAME_NONE",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "LONG_ID_PREFIX",
    "LONG_OPENING_ID",
    "MAX_MATCH_LENGTH",
    "OPENING_POSITION_ID",
    "RESIGN_BACKGAMMON",
    "RESIGN_GAMMON",
    "RESIGN_NONE",
    "RESIGN_SINGLE",
    "MatchState",
    "long_position_from_id",
    "long_position_id",
    "match_id",
    "match_state_from_id",
    "position_from_id",
    "position_id",
]

_STANDARD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_URLSAFE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

_POSITION_KEY_BYTES = 10
_POSITION_ID_LENGTH = 14

_MATCH_KEY_BYTES = 9
_MATCH_ID_LENGTH = 12

LONG_ID_PREFIX = "L1"
"""Prefix of every long nardy id: ``L`` for long nardy, ``1`` for version 1 of the format."""

OPENING_POSITION_ID = "4HPwATDgc/ABMA"
"""GNU Backgammon Position ID of the backgammon / short nardy opening position."""

LONG_OPENING_ID = "L1AACA_z8AAID_Pw"
"""Long nardy id of the long nardy opening position (15 checkers on each side's point 24)."""

GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4

RESIGN_NONE = 0
RESIGN_SINGLE = 1
RESIGN_GAMMON = 2
RESIGN_BACKGAMMON = 3

MAX_MATCH_LENGTH = 64
"""The longest match a Match ID may carry: GNU Backgammon refuses longer ones (its ``MAXSCORE``)."""

_MAX_CUBE_LOG = 15
_MAX_FIELD15 = (1 << 15) - 1
_CENTRED_CUBE_CODE = 3


# ----------------------------------------------------------------------------------------------------
# base64 of a little-endian bit string


def _encode_key(key: int, n_bytes: int, length: int, alphabet: str) -> str:
    """Return ``key`` (bit ``i`` is bit ``i`` of the bit string) as ``length`` base64 characters."""
    data = key.to_bytes(n_bytes, "little")
    pad_bits = 6 * length - 8 * n_bytes
    stream = int.from_bytes(data, "big") << pad_bits
    return "".join(alphabet[(stream >> (6 * (length - 1 - i))) & 0x3F] for i in range(length))


def _decode_key(text: str, n_bytes: int, length: int, alphabet: str, label: str, offset: int = 0) -> int:
    """Return the bit string (as an int, bit ``i`` = bit ``i``) encoded by ``length`` base64 characters.

    ``label`` names the id in error messages; ``offset`` is added to reported character positions.

    Raises:
        InvalidIdError: ``text`` has the wrong length, holds characters outside ``alphabet`` or sets the
            unused bits of its last character.
    """
    if len(text) != length:
        raise InvalidIdError(f"{label} has {len(text)} characters, expected {length}")
    bad = [(index, char) for index, char in enumerate(text) if char not in alphabet]
    if bad:
        listed = ", ".join(f"{char!r} at {offset + index}" for index, char in bad)
        kind = "URL-safe base64" if alphabet == _URLSAFE_ALPHABET else "base64"
        raise InvalidIdError(f"{label} has characters outside the {kind} alphabet: {listed}")
    stream = 0
    for char in text:
        stream = (stream << 6) | alphabet.index(char)
    pad_bits = 6 * length - 8 * n_bytes
    if stream & ((1 << pad_bits) - 1):
        raise InvalidIdError(
            f"{label} is not canonical: the {pad_bits} unused low bits of its last character {text[-1]!r} must be zero"
        )
    data = (stream >> pad_bits).to_bytes(n_bytes, "big")
    return int.from_bytes(data, "little")


# ----------------------------------------------------------------------------------------------------
# position keys


def _checked_side(side: object, name: str, length: int = SIDE_LENGTH) -> Side:
    """Return ``side`` as a tuple after checking it can be encoded.

    Raises:
        InvalidPositionError: not a sequence of ``length`` non-negative ints, or more than 15 checkers.
    """
    if not isinstance(side, Sequence) or isinstance(side, str | bytes):
        raise InvalidPositionError(f"side {name} must be a sequence of {length} ints, got {side!r}")
    counts = tuple(side)
    if len(counts) != length:
        raise InvalidPositionError(f"side {name} has {len(counts)} counters, expected {length}: {counts}")
    for index, count in enumerate(counts):
        if not isinstance(count, int) or isinstance(count, bool):
            raise InvalidPositionError(f"side {name} index {index} holds {count!r}, not an int")
        if count < 0:
            raise InvalidPositionError(f"side {name} has a negative count {count} at index {index}")
    total = sum(counts)
    if total > CHECKERS:
        raise InvalidPositionError(f"side {name} has {total} checkers, more than {CHECKERS}: {counts}")
    return counts


def _position_key(first: Side, second: Side) -> int:
    """Return the run-length key of two checked sides, ``first`` encoded first."""
    key = 0
    bit = 0
    for side in (first, second):
        for count in side:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return key


def _sides_from_key(key: int, label: str, names: tuple[str, str], length: int = SIDE_LENGTH) -> tuple[Side, Side]:
    """Return the two sides (in key order) of a run-length key.

    Raises:
        InvalidIdError: more than 30 checkers, more than 15 on a side, or 1-bits after the last point.
    """
    ones = key.bit_count()
    if ones > 2 * CHECKERS:
        raise InvalidIdError(f"{label} holds {ones} checkers, more than {2 * CHECKERS} ({CHECKERS} per side)")
    sides: list[Side] = []
    bit = 0
    for name in names:
        counts: list[int] = []
        for _ in range(length):
            count = 0
            while (key >> bit) & 1:
                count += 1
                bit += 1
            bit += 1  # the 0 closing the point
            counts.append(count)
        total = sum(counts)
        if total > CHECKERS:
            raise InvalidIdError(f"{label} puts {total} checkers on side {name}, more than {CHECKERS}: {tuple(counts)}")
        sides.append(tuple(counts))
    rest = key >> bit
    if rest:
        stray = bit + (rest & -rest).bit_length() - 1
        raise InvalidIdError(
            f"{label} has a 1-bit at key bit {stray} (counting from 0), after the last point of both sides "
            f"ended at bit {bit - 1}: the rest of the key must be 0-bits"
        )
    return sides[0], sides[1]


def _text(text: object, what: str) -> str:
    """Return ``text`` without surrounding whitespace.

    Raises:
        InvalidIdError: ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"{what} must be a string, got {type(text).__name__} {text!r}")
    return text.strip()


def position_id(position: Position) -> str:
    """Return the 14-character GNU Backgammon Position ID of ``position`` (short nardy / backgammon).

    The side not on roll (``position.opp``) is encoded first, as GNU Backgammon does; the result equals
    ``gnubg_nn.position_id([opp, me])``. The opening position gives ``4HPwATDgc/ABMA``.

    Raises:
        InvalidPositionError: a side is not 25 non-negative ints or has more than 15 checkers.
    """
    me = _checked_side(position.me, "me")
    opp = _checked_side(position.opp, "opp")
    return _encode_key(_position_key(opp, me), _POSITION_KEY_BYTES, _POSITION_ID_LENGTH, _STANDARD_ALPHABET)


def position_from_id(text: str) -> Position:
    """Return the position of a GNU Backgammon Position ID, the side on roll as ``me``.

    Surrounding whitespace is ignored. The result satisfies ``position_id(result) == text.strip()``.

    Raises:
        InvalidIdError: not 14 characters of the standard base64 alphabet, unused bits set, more than 15
            checkers on a side, or stray bits after the last point. The message quotes the id.
    """
    what = "position id"
    cleaned = _text(text, what)
    label = f"{what} {cleaned!r}"
    key = _decode_key(cleaned, _POSITION_KEY_BYTES, _POSITION_ID_LENGTH, _STANDARD_ALPHABET, label)
    opp, me = _sides_from_key(key, label, ("opp (not on roll)", "me (on roll)"))
    return Position(me, opp)


def long_position_id(position: Position) -> str:
    """Return the 16-character long nardy id of ``position``: ``L1`` and 14 URL-safe base64 characters.

    The side on roll (``position.me``) is encoded first; see the module docstring for the format.

    Raises:
        InvalidPositionError: a side is not 25 non-negative ints or has more than 15 checkers.
    """
    me = _checked_side(position.me, "me")
    opp = _checked_side(position.opp, "opp")
    body = _encode_key(_position_key(me, opp), _POSITION_KEY_BYTES, _POSITION_ID_LENGTH, _URLSAFE_ALPHABET)
    return LONG_ID_PREFIX + body


def long_position_from_id(text: str) -> Position:
    """Return the position of a long nardy id written by :func:`long_position_id`.

    Surrounding whitespace is ignored.

    Raises:
        InvalidIdError: not a string, wrong length, no ``L`` prefix, an unsupported version, characters
            outside the URL-safe base64 alphabet, unused bits set, more than 15 checkers on a side, or stray
            bits after the last point. The message quotes the id.
    """
    what = "long nardy id"
    cleaned = _text(text, what)
    expected = len(LONG_ID_PREFIX) + _POSITION_ID_LENGTH
    looks_gnubg = len(cleaned) == _POSITION_ID_LENGTH and all(char in _STANDARD_ALPHABET for char in cleaned)
    hint = " (this looks like a GNU Backgammon position id: use position_from_id)" if looks_gnubg else ""
    if not cleaned.startswith(LONG_ID_PREFIX[0]):
        raise InvalidIdError(f"{what} {cleaned!r} does not start with {LONG_ID_PREFIX[0]!r}{hint}")
    if len(cleaned) >= 2 and cleaned[1] != LONG_ID_PREFIX[1]:
        raise InvalidIdError(
            f"{what} {cleaned!r} has format version {cleaned[1]!r}; only version {LONG_ID_PREFIX[1]!r} is known{hint}"
        )
    if len(cleaned) != expected:
        raise InvalidIdError(f"{what} {cleaned!r} has {len(cleaned)} characters, expected {expected}{hint}")
    label = f"{what} {cleaned!r}"
    body = cleaned[len(LONG_ID_PREFIX) :]
    key = _decode_key(
        body, _POSITION_KEY_BYTES, _POSITION_ID_LENGTH, _URLSAFE_ALPHABET, label, offset=len(LONG_ID_PREFIX)
    )
    me, opp = _sides_from_key(key, label, ("me (on roll)", "opp (not on roll)"))
    return Position(me, opp)


# ----------------------------------------------------------------------------------------------------
# match ids


def _is_int(value: object) -> bool:
    """Return whether ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match and cube state carried by a GNU Backgammon Match ID.

    Players are numbered 0 and 1 as in GNU Backgammon. ``player_on_roll`` is the dice owner (the player on
    roll or who has rolled); ``turn`` is the player who must act now (the opponent while a double or a
    resignation is pending). ``cube_owner`` is 0, 1 or ``None`` for a centred cube. ``game_state`` is one
    of ``GAME_NONE``, ``GAME_PLAYING``, ``GAME_OVER``, ``GAME_RESIGNED``, ``GAME_DROPPED``; ``resignation``
    one of ``RESIGN_NONE``, ``RESIGN_SINGLE``, ``RESIGN_GAMMON``, ``RESIGN_BACKGAMMON``. ``dice`` is
    ``(0, 0)`` when not rolled, in any order (the id always writes the larger die first). ``match_length`` is 0
    for money play. ``score`` is ``(player 0, player 1)``. ``jacoby`` is GNU Backgammon's Jacoby flag (bit 67,
    stored inverted); its default, True, is what ids without that bit mean. GNU Backgammon writes its Jacoby
    setting in money play and the flag False (bit 67 set) in every match, where the rule does not apply
    (:meth:`nardy.game.Game.match_state` does the same).

    Raises (on construction):
        NardyError: a field outside what the format can hold or what GNU Backgammon accepts (cube not a power of
            two up to 32768, a player not 0/1, dice not both 0 or both 1..6, a match length above 64, a score
            outside 0..32767 or, in match play, not below the length, a Crawford game in money play, ...).
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = RESIGN_NONE
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True

    def __post_init__(self) -> None:
        """Check every field against what the match id can hold.

        Raises:
            NardyError: the first field that is out of range, named in the message.
        """
        problem = self._problem()
        if problem is not None:
            raise NardyError(f"invalid match state: {problem}")

    def _problem(self) -> str | None:
        """Return a description of the first invalid field, or ``None`` when all are valid."""
        cube = self.cube_value
        if not _is_int(cube) or cube < 1 or cube & (cube - 1) or cube > 1 << _MAX_CUBE_LOG:
            return f"cube_value {cube!r} is not a power of two from 1 to {1 << _MAX_CUBE_LOG}"
        if self.cube_owner is not None and (not _is_int(self.cube_owner) or self.cube_owner not in (0, 1)):
            return f"cube_owner {self.cube_owner!r} is not 0, 1 or None (centred)"
        for name in ("player_on_roll", "turn"):
            value = getattr(self, name)
            if not _is_int(value) or value not in (0, 1):
                return f"{name} {value!r} is not 0 or 1"
        for name in ("crawford", "double_offered", "jacoby"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                return f"{name} {value!r} is not a bool"
        if not _is_int(self.game_state) or not GAME_NONE <= self.game_state <= GAME_DROPPED:
            return f"game_state {self.game_state!r} is not one of 0..4"
        if not _is_int(self.resignation) or not RESIGN_NONE <= self.resignation <= RESIGN_BACKGAMMON:
            return f"resignation {self.resignation!r} is not one of 0..3"
        dice = self.dice
        if (
            not isinstance(dice, tuple)
            or len(dice) != 2
            or not all(_is_int(die) for die in dice)
            or (dice != (0, 0) and not all(1 <= die <= 6 for die in dice))
        ):
            return f"dice {dice!r} are not (0, 0) or two values 1..6"
        if not _is_int(self.match_length) or not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            return f"match_length {self.match_length!r} is not in 0..{MAX_MATCH_LENGTH} (GNU Backgammon's limit)"
        score = self.score
        if (
            not isinstance(score, tuple)
            or len(score) != 2
            or not all(_is_int(points) and 0 <= points <= _MAX_FIELD15 for points in score)
        ):
            return f"score {score!r} is not two values in 0..{_MAX_FIELD15}"
        if self.match_length and max(score) >= self.match_length:
            return f"score {score[0]}-{score[1]} is not below the match length {self.match_length}"
        if not self.match_length and self.crawford:
            return "crawford is set in money play (match_length 0), where there is no Crawford game"
        return None


_MATCH_FIELDS: tuple[tuple[str, int], ...] = (
    ("cube", 4),
    ("cube_owner", 2),
    ("player_on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


def _match_values(state: MatchState) -> dict[str, int]:
    """Return the raw field values of the match key of ``state``."""
    return {
        "cube": state.cube_value.bit_length() - 1,
        "cube_owner": _CENTRED_CUBE_CODE if state.cube_owner is None else state.cube_owner,
        "player_on_roll": state.player_on_roll,
        "crawford": int(state.crawford),
        "game_state": state.game_state,
        "turn": state.turn,
        "double_offered": int(state.double_offered),
        "resignation": state.resignation,
        "die1": max(state.dice),  # GNU Backgammon writes the larger die first
        "die2": min(state.dice),
        "match_length": state.match_length,
        "score0": state.score[0],
        "score1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }


def match_id(state: MatchState) -> str:
    """Return the 12-character GNU Backgammon Match ID of ``state``.

    The manual's example (9-point match, score 2-4, player 0 owns a 2-cube, player 1 has rolled 52, player 1
    to act) gives ``QYkqASAAIAAA``. The result is the id GNU Backgammon writes for the same state: the larger
    die first, and bit 67 set when ``state.jacoby`` is False.

    Raises:
        NardyError: ``state`` holds a value the format cannot express (only possible if its fields were
            mutated around the dataclass checks).
    """
    problem = state._problem()
    if problem is not None:
        raise NardyError(f"invalid match state: {problem}")
    values = _match_values(state)
    key = 0
    bit = 0
    for name, width in _MATCH_FIELDS:
        key |= values[name] << bit
        bit += width
    return _encode_key(key, _MATCH_KEY_BYTES, _MATCH_ID_LENGTH, _STANDARD_ALPHABET)


def match_state_from_id(text: str) -> MatchState:
    """Return the match state of a GNU Backgammon Match ID.

    Surrounding whitespace is ignored, and so are the 5 spare bits after bit 67 (as GNU Backgammon does); bit 67
    gives ``jacoby`` (set means Jacoby off). Dice are returned in the order written, so ``match_id(result)``
    equals ``text`` whenever the spare bits are zero and the larger die comes first (as GNU Backgammon writes).

    Raises:
        InvalidIdError: not 12 characters of the standard base64 alphabet, a cube owner of 2, a game state
            above 4, only one die or a die of 7, and what GNU Backgammon refuses: a Crawford game in money play,
            a match longer than 64, a score at or above the match length. The message names the field and
            quotes the id.
    """
    what = "match id"
    cleaned = _text(text, what)
    key = _decode_key(cleaned, _MATCH_KEY_BYTES, _MATCH_ID_LENGTH, _STANDARD_ALPHABET, f"{what} {cleaned!r}")
    values: dict[str, int] = {}
    bit = 0
    for name, width in _MATCH_FIELDS:
        values[name] = (key >> bit) & ((1 << width) - 1)
        bit += width
    owner = values["cube_owner"]
    if owner == 2:
        raise InvalidIdError(f"{what} {cleaned!r} has cube owner code 2 (binary 10): only 0, 1 and 3 are valid")
    try:
        return MatchState(
            cube_value=1 << values["cube"],
            cube_owner=None if owner == _CENTRED_CUBE_CODE else owner,
            player_on_roll=values["player_on_roll"],
            crawford=bool(values["crawford"]),
            game_state=values["game_state"],
            turn=values["turn"],
            double_offered=bool(values["double_offered"]),
            resignation=values["resignation"],
            dice=(values["die1"], values["die2"]),
            match_length=values["match_length"],
            score=(values["score0"], values["score1"]),
            jacoby=not values["no_jacoby"],
        )
    except NardyError as error:
        raise InvalidIdError(f"{what} {cleaned!r} decodes to an {error}") from None


def _extended_sizes(length: int) -> tuple[int, int]:
    """Return ``(bytes, characters)`` of the key of two sides of ``length`` entries (at most 15 checkers each)."""
    n_bytes = -(-(2 * length + 2 * CHECKERS) // 8)
    return n_bytes, -(-(8 * n_bytes) // 6)


def extended_position_id(prefix: str, position: Position, length: int = SIDE_LENGTH) -> str:
    """Return the id of a position of a variant with its own id prefix (see the module docstring): ``prefix`` and
    the URL-safe base64 of the run-length key of both sides' ``length`` entries, the side on roll first.

    Raises:
        InvalidPositionError: a side is not ``length`` non-negative ints or has more than 15 checkers.
    """
    me = _checked_side(position.me, "me", length)
    opp = _checked_side(position.opp, "opp", length)
    n_bytes, n_chars = _extended_sizes(length)
    return prefix + _encode_key(_position_key(me, opp), n_bytes, n_chars, _URLSAFE_ALPHABET)


def extended_position_from_id(prefix: str, text: str, length: int = SIDE_LENGTH) -> Position:
    """Return the position of an id written by :func:`extended_position_id` with the same prefix and length.

    Raises:
        InvalidIdError: not a string, another prefix, the wrong length, characters outside the URL-safe alphabet,
            unused bits set, more than 15 checkers on a side, or stray bits after the last entry.
    """
    what = f"{prefix} position id"
    cleaned = _text(text, what)
    if not cleaned.startswith(prefix):
        raise InvalidIdError(f"{what} {cleaned!r} does not start with {prefix!r}")
    n_bytes, n_chars = _extended_sizes(length)
    label = f"{what} {cleaned!r}"
    key = _decode_key(cleaned[len(prefix) :], n_bytes, n_chars, _URLSAFE_ALPHABET, label, offset=len(prefix))
    me, opp = _sides_from_key(key, label, ("me (on roll)", "opp (not on roll)"), length)
    return Position(me, opp)


def variant_position_id(variant_name: str, position: Position) -> str:
    """Return the id of ``position`` used for ``variant_name``: the GNU Backgammon Position ID for short nardy and
    the other variants on its board that need nothing more (Hypergammon, Nackgammon, Portes, Misère: a Position ID
    holds any number of checkers up to 15 a side), the ``L1`` id for long nardy, and the variant's own prefixed id
    (:func:`extended_position_id`) for the others. Falls back to the readable key for a position that cannot be
    encoded (or an unknown variant name)."""
    try:
        variant = get_variant(variant_name)
        if variant.id_prefix is None:
            return position_id(position)
        return extended_position_id(variant.id_prefix, position, variant.side_length)
    except NardyError:
        return position.key()


def position_from_any_id(text: str) -> tuple[str, Position]:
    """Return ``(variant name, position)`` decoded from a short-nardy (gnubg) id, a long-nardy (``L1``) id or
    another variant's prefixed id.

    Raises:
        InvalidIdError: the text is no kind of id.
    """
    from nardy.variants import registered_variants

    stripped = text.strip()
    if stripped.startswith(LONG_ID_PREFIX):
        return "long", long_position_from_id(stripped)
    for variant in registered_variants():
        prefix = variant.id_prefix
        expected = len(prefix or "") + _extended_sizes(variant.side_length)[1]
        if prefix and prefix != LONG_ID_PREFIX and stripped.startswith(prefix) and len(stripped) == expected:
            return variant.name, extended_position_from_id(prefix, stripped, variant.side_length)
    return "short", position_from_id(stripped)
