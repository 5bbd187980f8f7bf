"""Input encodings of positions for the neural networks, vectorised over many positions at once.

A batch of positions is a ``(n, 2 * L)`` ``uint8`` array: columns 0..L-1 the side on roll, L..2L-1 the other side,
both in their own frame (the layout of :class:`~nardy.position.Position` and of the move generator's states), where
``L`` is the variant's side length (:func:`side_length`): 25, 26 for the variants with a reserve (Acey-deucey,
Dutch), 49 for Plakoto (free checkers and pinned flags). Every encoding is from the point of view of the side on
roll.

Per side the encoding holds a TD-Gammon-style unary code of every point (``>=1``, ``>=2``, ``>=3``, and the excess
over 3), the bar (short nardy), the checkers borne off and the pip count, followed by a few hand-made features that
make self-play learn faster: exposed blots and shots, home-board points, the longest prime or block, back checkers.
Fevga and Gul bara have long nardy's encoding. Plakoto's codes the free checkers of every point, the pinned flags,
and its pins, mothers and blots. Acey-deucey and Dutch have short nardy's encoding with each reserve checker counted
on the bar for pips, contact and checkers off (the bar input itself holds only the checkers hit), then four inputs
of their own: each side's reserve and whether each side may hit (Dutch: a checker at home).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from nardy.position import PINNED_SIDE_LENGTH as PINNED_SIDE
from nardy.position import RESERVE_SIDE_LENGTH as RESERVE_SIDE
from nardy.position import Position

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

SIDE = 25
_POINT_VALUES: Final = np.arange(1, 26, dtype=np.float64)  # pip value of each counter (bar = 25)
# long nardy: the mover's index of each point of the opponent's path, opponent's point 1 first
_LONG_PATH: Final = np.array([(q + 12 - 1) % 24 for q in range(1, 25)])
# the variants played on the short-nardy board (opposite geometry, hitting, the bar) and their checkers per side
SHORT_FAMILY: Final[dict[str, int]] = {"short": 15, "hypergammon": 3, "nackgammon": 15, "portes": 15, "misere": 15}
# the variants of the long-nardy board (parallel geometry, no hitting, 25 entries a side)
LONG_FAMILY: Final = ("long", "fevga", "gulbara")
# the variants whose checkers start in a reserve (26 entries a side: index 25 the reserve), on the short-nardy board
RESERVE_FAMILY: Final = ("acey_deucey", "dutch")
# the variants with pinned checkers (49 entries a side: 0..24 free checkers, 25 + i the pinned flag of point i + 1)
PINNED_FAMILY: Final = ("plakoto",)
_SIDE_LENGTHS: Final = {"short": 25, "long": 25, "reserve": 26, "plakoto": 49}


def family(variant: str) -> str:
    """Return the family of ``variant``'s board and encoding: ``short`` for the variants played on the short-nardy
    board (:data:`SHORT_FAMILY`), ``long`` for long nardy, Fevga and Gul bara, ``reserve`` for Acey-deucey and
    Dutch backgammon, ``plakoto`` for Plakoto.

    Raises:
        ValueError: an unknown variant name.
    """
    if variant in SHORT_FAMILY:
        return "short"
    if variant in LONG_FAMILY:
        return "long"
    if variant in RESERVE_FAMILY:
        return "reserve"
    if variant in PINNED_FAMILY:
        return "plakoto"
    raise ValueError(f"no encoding for variant {variant!r}")


def side_length(variant: str) -> int:
    """Return the number of entries of one side of ``variant`` in a batch (25, 26 with a reserve, 49 in Plakoto).

    Raises:
        ValueError: an unknown variant name.
    """
    return _SIDE_LENGTHS[family(variant)]


def checkers_of(variant: str) -> int:
    """Return how many checkers each side of ``variant`` plays with (15, Hypergammon 3).

    Raises:
        ValueError: an unknown variant name.
    """
    family(variant)
    return SHORT_FAMILY.get(variant, 15)


def positions_array(positions: list[Position], length: int | None = None) -> U8:
    """Return the ``(n, 2 * L)`` batch of ``positions`` (side on roll first); ``L`` is ``length``, else the length
    of the first position's sides (25 for an empty list)."""
    if length is None:
        length = len(positions[0].me) if positions else SIDE
    return np.array([p.me + p.opp for p in positions], dtype=np.uint8).reshape(len(positions), 2 * length)


def swap(batch: U8) -> U8:
    """Return the batch seen by the other side (the other side on roll)."""
    half = batch.shape[1] // 2
    return np.concatenate((batch[:, half:], batch[:, :half]), axis=1)


def _unary(counts: F64, excess_scale: float) -> F64:
    """Return the 4-unit code of ``counts`` (n, 24) as (n, 96)."""
    n = counts.shape[0]
    out = np.empty((n, 24, 4))
    out[:, :, 0] = counts >= 1
    out[:, :, 1] = counts >= 2
    out[:, :, 2] = counts >= 3
    out[:, :, 3] = np.maximum(counts - 3, 0) / excess_scale
    return out.reshape(n, 96)


def longest_run(held: npt.NDArray[np.bool_]) -> F64:
    """Return, per row of ``held`` (n, k ≤ 62), the length of the longest run of consecutive true values."""
    bits = held.astype(np.int64) @ (np.int64(1) << np.arange(held.shape[1], dtype=np.int64))
    best = np.zeros(held.shape[0])
    while bits.any():
        best += bits != 0
        bits &= bits >> 1
    return best


def _window_sum(values: F64, low: int, high: int) -> F64:
    """Return ``out[:, p] = sum(values[:, p - high .. p - low])`` (indices below 0 count as 0), for (n, 25) input."""
    n, width = values.shape
    padded = np.concatenate((np.zeros((n, high + 1)), values), axis=1)
    csum = np.cumsum(padded, axis=1)
    p = np.arange(width) + high + 1
    return np.asarray(csum[:, p - low] - csum[:, p - high - 1])


def _short_side(me: F64, opp: F64, checkers: int = 15) -> F64:
    """Return the features of side ``me`` (n, 25 own frame) against ``opp`` in short nardy (``checkers`` a side)."""
    points = me[:, :24]
    # the opponent in my frame: index 0 = its bar, index m = my point m
    opp_mine = opp[:, ::-1]
    opp_occupied = (opp_mine > 0).astype(np.float64)
    blots = np.concatenate((np.zeros((me.shape[0], 1)), (points == 1).astype(np.float64)), axis=1)  # index = point
    direct = _window_sum(opp_occupied, 1, 6) > 0
    indirect = (_window_sum(opp_occupied, 7, 11) > 0) & ~direct
    # the opponent's rearmost checker, as my point (0 = on its bar): contact while any of mine is above it
    opp_back = np.where(opp_mine.any(axis=1), np.argmax(opp_mine > 0, axis=1), 25)
    my_front = np.where(points.any(axis=1), 24 - np.argmax(points[:, ::-1] > 0, axis=1), 0)
    my_front = np.where(me[:, 24] > 0, 25, my_front)
    contact = (my_front > opp_back).astype(np.float64)
    exposed = blots * contact[:, None]
    pips = me @ _POINT_VALUES
    made = points >= 2
    extra = np.stack(
        (
            me[:, 24] / 2.0,
            (checkers - me.sum(axis=1)) / checkers,
            pips / 100.0,
            (exposed * direct).sum(axis=1) / 3.0,
            (exposed * indirect).sum(axis=1) / 3.0,
            ((exposed * direct)[:, 1:] * (25 - np.arange(1, 25))).sum(axis=1) / 40.0,
            made[:, :6].sum(axis=1) / 6.0,
            longest_run(made) / 6.0,
            points[:, 18:24].sum(axis=1) / 5.0,
            contact,
        ),
        axis=1,
    )
    return np.concatenate((_unary(points, 2.0), extra), axis=1)


def _long_side(me: F64, opp: F64) -> F64:
    """Return the features of side ``me`` (n, 25 own frame) against ``opp`` in long nardy."""
    points = me[:, :24]
    held = points > 0
    # my held points in the order of the opponent's path (its point 1 first): my blocks in front of it
    held_on_path = held[:, _LONG_PATH]
    pips = me @ _POINT_VALUES
    off = 15 - me.sum(axis=1)
    extra = np.stack(
        (
            off / 15.0,
            pips / 200.0,
            points[:, 23] / 15.0,
            points[:, :6].sum(axis=1) / 15.0,
            held.sum(axis=1) / 12.0,
            longest_run(held_on_path) / 6.0,
            longest_run(held_on_path[:, 12:]) / 6.0,
            (off > 0).astype(np.float64),
            (points[:, 12:].sum(axis=1) > 0).astype(np.float64),
        ),
        axis=1,
    )
    return np.concatenate((_unary(points, 4.0), extra), axis=1)


def _plakoto_side(me: F64, opp: F64) -> F64:
    """Return the features of side ``me`` (n, 49 own frame: free checkers 0..23, pinned flags 25..48) against
    ``opp`` in Plakoto."""
    free, pinned = me[:, :24], me[:, 25:49]
    opp_free, opp_pinned = opp[:, :24], opp[:, 25:49]
    mine = free + pinned
    n = me.shape[0]
    # the opponent's free checkers in my frame (index 0 unused, index m = my point m) and its pins under mine
    occupied = np.concatenate((np.zeros((n, 1)), (opp_free[:, ::-1] > 0).astype(np.float64)), axis=1)
    lone = (free == 1) & (opp_pinned[:, ::-1] == 0)
    blots = np.concatenate((np.zeros((n, 1)), lone.astype(np.float64)), axis=1)
    direct = _window_sum(occupied, 1, 6) > 0
    made = free >= 2
    pips = mine @ _POINT_VALUES[:24]
    extra = np.stack(
        (
            (15 - me.sum(axis=1)) / 15.0,
            pips / 200.0,
            pinned.sum(axis=1) / 3.0,
            (pinned * np.arange(1, 25)).sum(axis=1) / 50.0,
            (free[:, 23] == 1).astype(np.float64),
            (free[:, 23] >= 2).astype(np.float64),
            pinned[:, 23],
            opp_pinned[:, 23] * (free[:, 23] == 0),
            (blots * direct).sum(axis=1) / 3.0,
            made[:, :6].sum(axis=1) / 6.0,
            longest_run(made | (opp_pinned[:, ::-1] > 0)) / 6.0,
            (mine[:, 6:].sum(axis=1) == 0).astype(np.float64),
        ),
        axis=1,
    )
    return np.concatenate((_unary(free, 4.0), pinned, extra), axis=1)


def encode(variant: str, batch: U8) -> F64:
    """Return the network inputs ``(n, inputs(variant))`` of a ``(n, 2 * side_length(variant))`` batch, from the side
    on roll.

    Every variant of the short-nardy board (:data:`SHORT_FAMILY`) has the short encoding, scaled to its checkers;
    Fevga and Gul bara long nardy's; Plakoto its own (:func:`_plakoto_side`); Acey-deucey and Dutch
    :func:`_reserve_inputs`.

    Raises:
        ValueError: an unknown variant name.
    """
    kind = family(variant)
    if kind == "reserve":
        return _reserve_inputs(batch, no_hit_before_home=variant == "dutch")
    if kind == "plakoto":
        me49 = batch[:, :PINNED_SIDE].astype(np.float64)
        opp49 = batch[:, PINNED_SIDE:].astype(np.float64)
        return np.concatenate((_plakoto_side(me49, opp49), _plakoto_side(opp49, me49)), axis=1)
    me = batch[:, :SIDE].astype(np.float64)
    opp = batch[:, SIDE:].astype(np.float64)
    if kind == "long":
        return np.concatenate((_long_side(me, opp), _long_side(opp, me)), axis=1)
    checkers = checkers_of(variant)
    return np.concatenate((_short_side(me, opp, checkers), _short_side(opp, me, checkers)), axis=1)


# the column of the bar input in a side's short-nardy features (after the 96-unit code of the points)
_SHORT_BAR_COLUMN: Final = 96


def _reserve_inputs(batch: U8, *, no_hit_before_home: bool) -> F64:
    """Return the inputs of a batch of 26-entry sides (Acey-deucey, Dutch): short nardy's features of both sides
    with the reserve counted on the bar (pips 25 each, contact, checkers off), the bar input holding only the
    checkers hit, then each side's reserve / 15 and whether each side may hit (always, or in Dutch a checker on its
    home board). Short nardy's 212 inputs come first, so a short-nardy network extended by zero weights for the last
    four is a valid start (``python -m nardy.ai.train --init-from``)."""
    me26 = batch[:, :RESERVE_SIDE].astype(np.float64)
    opp26 = batch[:, RESERVE_SIDE:].astype(np.float64)
    me = me26[:, :SIDE].copy()
    opp = opp26[:, :SIDE].copy()
    me[:, 24] += me26[:, SIDE]
    opp[:, 24] += opp26[:, SIDE]
    mine = _short_side(me, opp)
    theirs = _short_side(opp, me)
    mine[:, _SHORT_BAR_COLUMN] = me26[:, 24] / 2.0
    theirs[:, _SHORT_BAR_COLUMN] = opp26[:, 24] / 2.0
    if no_hit_before_home:
        my_hit = (me26[:, :6].sum(axis=1) > 0).astype(np.float64)
        their_hit = (opp26[:, :6].sum(axis=1) > 0).astype(np.float64)
    else:
        my_hit = their_hit = np.ones(batch.shape[0])
    extra = np.stack((me26[:, SIDE] / 15.0, opp26[:, SIDE] / 15.0, my_hit, their_hit), axis=1)
    return np.concatenate((mine, theirs, extra), axis=1)


def input_size(variant: str) -> int:
    """Return the number of network inputs of ``variant``.

    Raises:
        ValueError: an unknown variant name, or one without a network encoding.
    """
    return int(encode(variant, np.zeros((1, 2 * side_length(variant)), dtype=np.uint8)).shape[1])
