"""Hand-written evaluation of positions (the medium and easy players), vectorised over batches.

Every function takes a ``(n, 2 * L)`` batch of positions *after* a move, in the mover's frame (columns 0..L-1 the
side that has just moved, L..2L-1 the side about to roll; ``L`` is the variant's side length, 25, 26 with a reserve,
49 in Plakoto), and returns a score for the side that has just moved. Scores are in "pip-like" units;
:func:`heuristic_equity` squashes them into a rough cubeless equity in (-1, 1).

Long nardy, Fevga and Gul bara share :func:`long_score` (blocks along the opponent's path, no hitting; Fevga's
start rule and start-quarter ban and Gul bara's escalating doubles are left to the move generator); Acey-deucey and
Dutch backgammon :func:`short_score` with the reserve counted as the bar (Dutch: no hits before home); Plakoto
:func:`plakoto_score` (pins and the mother).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from nardy.ai.features import _LONG_PATH, F64, SIDE, U8, _window_sum, checkers_of, family, longest_run
from nardy.position import PINNED_SIDE_LENGTH as PINNED_SIDE

_PIP_VALUES: Final = np.arange(1, 26, dtype=np.float64)
# value of holding (2+ checkers on) each of my points 1..24 in short nardy
_SHORT_POINT_VALUE: Final = np.array(
    [
        1.0,
        3.0,
        4.5,
        6.0,
        8.0,
        7.0,
        6.0,
        3.0,
        1.5,
        1.0,
        0.5,
        0.5,
        0.5,
        0.5,
        0.5,
        0.5,
        0.5,
        1.0,
        2.0,
        5.0,
        5.0,
        3.0,
        2.0,
        2.0,
    ]
)
_SCALE: Final = 25.0
# the long-nardy board's cost of each checker left on the head (long nardy's easy level pays more: EASY_LONG_PLAN)
HEAD_COST: Final = 0.5


def _contact_short(me: F64, opp: F64) -> F64:
    """Return 1.0 where the sides of a short nardy batch can still hit each other, else 0.0."""
    opp_mine = opp[:, ::-1]
    opp_back = np.where(opp_mine.any(axis=1), np.argmax(opp_mine > 0, axis=1), 25)
    points = me[:, :24]
    my_front = np.where(points.any(axis=1), 24 - np.argmax(points[:, ::-1] > 0, axis=1), 0)
    my_front = np.where(me[:, 24] > 0, 25, my_front)
    return (my_front > opp_back).astype(np.float64)


# bear-off wastage (pips) of each checker left, and of each checker above the first on points 1 and 2 and above the
# third on point 3 (stacks deep in the home board waste pips of later rolls), and of each gap below the highest point
_CHECKER_WASTE: Final = 2.0
_LOW_STACK_WASTE: Final = np.array([2.0, 1.0, 1.0])
_LOW_STACK_FREE: Final = np.array([1.0, 1.0, 3.0])
_GAP_WASTE: Final = 1.0
_BEAR_OFF_HIT: Final = 2.0
# Dutch backgammon: the share of the usual shots at a blot while the opponent has no checker home (it can hit only
# when a first die brings one home); the cost of a reserve checker per opponent home point blocking its entry
_DUTCH_NO_HOME_HIT: Final = 0.3
_RESERVE_ENTRY: Final = 1.0


def effective_pips(side: F64) -> F64:
    """Return the pip count plus an estimate of the pips the side will waste bearing off, for a ``(n, 25)`` batch of
    sides (own frame).

    Every checker left costs about two pips (a move that bears off more checkers is better for the same pips),
    checkers piled on the lowest points and gaps in the home board cost more (rolls that cannot be used in full).
    """
    pips = side @ _PIP_VALUES
    checkers = side.sum(axis=1)
    home = side[:, :6]
    low = (np.maximum(home[:, :3] - _LOW_STACK_FREE, 0.0) * _LOW_STACK_WASTE).sum(axis=1)
    occupied = home > 0
    # empty home points below the highest occupied point (all of them, while a checker is still outside)
    highest = np.where(occupied.any(axis=1), 6 - np.argmax(occupied[:, ::-1], axis=1), 0)
    highest = np.where(side[:, 6:].sum(axis=1) > 0, 6, highest)
    below = np.arange(1, 7)[None, :] < highest[:, None]
    gaps = (below & ~occupied).sum(axis=1)
    return np.asarray(pips + _CHECKER_WASTE * checkers + low + _GAP_WASTE * gaps)


def _race(pm: F64, po: F64) -> F64:
    """Return a race score for the side that has just moved (the other side rolls next), from the effective pip
    counts of both sides (:func:`effective_pips`)."""
    # the side on roll is worth about 4 pips plus 4 % of its count
    lead = po - pm - (4.0 + 0.04 * po)
    return np.asarray(_SCALE * np.tanh(lead / (0.08 * np.maximum(pm, po) + 4.0)) * 1.5)


def short_score(batch: U8, checkers: int = 15, *, no_hit_before_home: bool = False) -> F64:
    """Return the hand-written score of short nardy positions after a move, for the side that moved.

    ``checkers`` is how many checkers a side plays with (Hypergammon: 3); every term counts checkers or points and
    so holds for any number, only the end of the race depends on it.

    A batch of 26-entry sides (Acey-deucey, Dutch: index 25 the reserve) is scored with every reserve checker
    counted as on the bar for the pips and for contact (it has the whole way to go), but charged only for the
    opponent's home points that make entering it hard (a reserve, unlike the bar, never stops the other checkers).
    ``no_hit_before_home`` (Dutch backgammon): a side without a checker in its home board cannot hit yet, so the
    shots at my blots are discounted while the opponent has none there.
    """
    half = batch.shape[1] // 2
    me = batch[:, :SIDE].astype(np.float64)
    opp = batch[:, half : half + SIDE].astype(np.float64)
    my_reserve = np.zeros(me.shape[0])
    opp_reserve = np.zeros(me.shape[0])
    if half > SIDE:  # the reserve counts as the bar for pips and contact
        my_reserve = batch[:, SIDE].astype(np.float64)
        opp_reserve = batch[:, half + SIDE].astype(np.float64)
    my_bar_only = me[:, 24].copy()
    opp_bar_only = opp[:, 24].copy()
    me[:, 24] += my_reserve
    opp[:, 24] += opp_reserve
    pm = me @ _PIP_VALUES
    po = opp @ _PIP_VALUES
    contact = _contact_short(me, opp)
    race = _race(effective_pips(me), effective_pips(opp))
    points = me[:, :24]
    opp_points = opp[:, :24]
    made = points >= 2
    opp_made = opp_points >= 2
    opp_home = opp_made[:, :6].sum(axis=1)
    my_home = made[:, :6].sum(axis=1)
    # blots: shots from the opponent (in my frame; index 0 = its bar, index m = my point m)
    opp_mine = opp[:, ::-1]
    occupied = (opp_mine > 0).astype(np.float64)
    blots = np.concatenate((np.zeros((me.shape[0], 1)), (points == 1).astype(np.float64)), axis=1)
    direct = _window_sum(occupied, 1, 6)
    indirect = _window_sum(occupied, 7, 11)
    hit_prob = np.minimum(0.85, 0.2 + 0.11 * direct) * (direct > 0) + np.minimum(0.25, 0.06 * indirect) * (direct == 0)
    if no_hit_before_home:
        # the opponent may hit only with a checker already home (or one its first die brings home)
        hit_prob = hit_prob * np.where(opp[:, :6].sum(axis=1) > 0, 1.0, _DUTCH_NO_HOME_HIT)[:, None]
    loss = (25.0 - np.arange(25)) + 8.0 + 2.0 * opp_home[:, None]
    # a checker hit while bearing off gives the race back: it costs about twice as much
    loss = loss * np.where(me[:, 6:].sum(axis=1) == 0, _BEAR_OFF_HIT, 1.0)[:, None]
    blot_risk = (blots * hit_prob * loss).sum(axis=1)
    # the single worst blot counts fully, the rest half (one roll rarely hits two)
    worst = (blots * hit_prob * loss).max(axis=1)
    blot_penalty = 0.5 * (blot_risk + worst)
    structure = made.astype(np.float64) @ _SHORT_POINT_VALUE
    prime = longest_run(made)
    prime_bonus = np.maximum(prime - 2, 0) * 5.0
    opp_prime_penalty = np.maximum(longest_run(opp_made) - 2, 0) * 3.0 * (points[:, 12:].sum(axis=1) > 0)
    on_bar = opp_bar_only * (6.0 + 3.0 * my_home) + opp_reserve * _RESERVE_ENTRY * my_home
    my_bar = my_bar_only * (4.0 + 2.0 * opp_home) + my_reserve * _RESERVE_ENTRY * opp_home
    stacks = np.maximum(points - 3, 0).sum(axis=1) * 1.5
    back = points[:, 18:24].sum(axis=1) * 1.0
    off_lead = _CHECKER_WASTE * (opp.sum(axis=1) - me.sum(axis=1))
    contact_score = (po - pm) + off_lead + structure + prime_bonus + on_bar - my_bar - blot_penalty - stacks - back
    contact_score = contact_score - opp_prime_penalty
    return np.asarray(np.where(contact > 0, contact_score, race + 2.0 * (me[:, :6].sum(axis=1) < checkers)))


def long_score(batch: U8, blocking: float = 1.0, head: float = HEAD_COST) -> F64:
    """Return the hand-written score of long nardy positions after a move, for the side that moved.

    ``blocking`` weighs the terms of blocks and blocking points (1 = the medium player of Fevga and Gul bara; their
    easy player plays with 0, long nardy's with 0.3) and ``head`` is the cost of each checker left on the head (0.5;
    long nardy's easy player pays 2, so it takes a checker from the head nearly every time it may).
    """
    me = batch[:, :SIDE].astype(np.float64)
    opp = batch[:, SIDE:].astype(np.float64)
    pm = me @ _PIP_VALUES
    po = opp @ _PIP_VALUES
    points = me[:, :24]
    opp_points = opp[:, :24]
    held = points > 0
    opp_held = opp_points > 0
    # blocks along the other side's path (its point 1 first); they matter while it still has checkers behind them
    my_block = longest_run(held[:, _LONG_PATH][:, 6:])
    opp_block = longest_run(opp_held[:, _LONG_PATH][:, 6:])
    opp_behind = (opp_points[:, 12:].sum(axis=1) > 0).astype(np.float64)
    me_behind = (points[:, 12:].sum(axis=1) > 0).astype(np.float64)
    block_value = np.array([0, 0, 1, 3, 6, 10, 16, 20, 24, 28, 32, 36, 40], dtype=np.float64)
    mine = block_value[np.minimum(my_block, 12).astype(int)] * opp_behind
    theirs = block_value[np.minimum(opp_block, 12).astype(int)] * me_behind
    # points held in the opponent's entry quarter (my 13..18) and my outer board make its way harder
    blocking_points = held[:, 12:18].sum(axis=1) * 1.5 + held[:, 6:12].sum(axis=1) * 1.0
    spread = held.sum(axis=1) * 1.0
    stacks = np.maximum(points[:, :23] - 3, 0).sum(axis=1) * 1.5
    head_cost = points[:, 23] * head
    off_bonus = (15 - me.sum(axis=1)) * 0.5
    mars_risk = 3.0 * ((me.sum(axis=1) == 15) & (opp.sum(axis=1) < 15))
    race = po - pm - 6.0
    blocks = blocking * (mine - theirs + blocking_points)
    return np.asarray(race + blocks + spread - stacks - head_cost + off_bonus - mars_risk)


def misere_score(batch: U8) -> F64:
    """Return the hand-written score of Misère positions after a move, for the side that moved.

    The aim is reversed (the first to bear off all loses), so every race term of :func:`short_score` changes sign:
    the side *behind* in the race is better off, the side on roll (about to move its pips) is worse off by about what
    it is better off in a normal race, checkers still in play are worth keeping, a hit of the opponent (which sends
    its checker back) is bad and a blot of mine the opponent may hit is welcome, points of the opponent that hold my
    checkers back are good for me and my points that hold its checkers back are bad.
    """
    me = batch[:, :SIDE].astype(np.float64)
    opp = batch[:, SIDE:].astype(np.float64)
    pm = me @ _PIP_VALUES
    po = opp @ _PIP_VALUES
    contact = _contact_short(me, opp)
    left = me.sum(axis=1) - opp.sum(axis=1)
    # lead in "pips still to play": positive when I am behind (the good side here); the opponent rolls next
    lead = pm - po + _CHECKER_WASTE * left + (4.0 + 0.04 * po)
    race = _SCALE * np.tanh(lead / (0.08 * np.maximum(pm, po) + 4.0)) * 1.5
    points = me[:, :24]
    made = points >= 2
    opp_made = opp[:, :24] >= 2
    opp_mine = opp[:, ::-1]
    occupied = (opp_mine > 0).astype(np.float64)
    blots = np.concatenate((np.zeros((me.shape[0], 1)), (points == 1).astype(np.float64)), axis=1)
    direct = _window_sum(occupied, 1, 6)
    indirect = _window_sum(occupied, 7, 11)
    hit_prob = np.minimum(0.85, 0.2 + 0.11 * direct) * (direct > 0) + np.minimum(0.25, 0.06 * indirect) * (direct == 0)
    # a hit of my blot on point m gives me back 25 - m pips to play
    gain = (blots * hit_prob * (25.0 - np.arange(25))).sum(axis=1) * 0.5
    my_back = (points[:, 12:].sum(axis=1) + me[:, 24] > 0).astype(np.float64)
    opp_back = (opp[:, 12:24].sum(axis=1) + opp[:, 24] > 0).astype(np.float64)
    held_back = np.maximum(longest_run(opp_made) - 2, 0) * 3.0 * my_back
    holding = np.maximum(longest_run(made) - 2, 0) * 3.0 * opp_back
    stuck = me[:, 24] * 1.5 * opp_made[:, :6].sum(axis=1) - opp[:, 24] * 1.5 * made[:, :6].sum(axis=1)
    contact_score = lead + gain + held_back - holding + stuck
    return np.asarray(np.where(contact > 0, contact_score, race))


# Plakoto: the value of an opposing checker pinned on its point q (pips: a base plus per point of its way left), and
# of a pinned mother (the last checker on its 24: the game is lost at once when the pinner's own 24 is empty)
_PIN_BASE: Final = 4.0
_PIN_PER_POINT: Final = 0.75
_MOTHER_PIN: Final = 40.0
_MOTHER_LOST: Final = 100.0
_PLAKOTO_POINTS: Final = np.arange(1, 25, dtype=np.float64)


def plakoto_score(batch: U8) -> F64:
    """Return the hand-written score of Plakoto positions (49-entry sides: free checkers 0..23, pinned flags
    25..48) after a move, for the side that moved.

    Pips count a pinned checker on its point. A pinned opposing checker is worth more the further it still has to
    go (it cannot move, and its side cannot bear off, until the pinner leaves: the pinner holding a pin keeps that
    value, moving it away loses it); my pinned checkers cost the same. A pinned mother (the last checker on a
    side's 24) is worth :data:`_MOTHER_PIN` to the pinner, less for each checker the pinner still has on its own
    24 (which must leave before it wins). My lone free checkers (blots) that the opponent's free checkers can reach
    are charged the chance of a pin times what it would cost; a lone checker on my 24 (my mother) costs
    :data:`_MOTHER_LOST` when a pin there would lose at once. Points of two or more (closed to the opponent), primes
    and stacks are valued as in short nardy; without contact the race decides.
    """
    me = batch[:, :PINNED_SIDE].astype(np.float64)
    opp = batch[:, PINNED_SIDE:].astype(np.float64)
    n = me.shape[0]
    free, pinned = me[:, :24], me[:, 25:49]
    opp_free, opp_pinned = opp[:, :24], opp[:, 25:49]
    mine = free + pinned
    theirs = opp_free + opp_pinned
    pm = mine @ _PLAKOTO_POINTS
    po = theirs @ _PLAKOTO_POINTS
    # contact: one of my checkers above the opponent's rearmost (in my frame), or a pin on the board
    theirs_mine = theirs[:, ::-1]
    opp_back = np.where(theirs_mine.any(axis=1), np.argmax(theirs_mine > 0, axis=1) + 1, 25)
    my_front = np.where(mine.any(axis=1), 24 - np.argmax(mine[:, ::-1] > 0, axis=1), 0)
    pins_on_board = (pinned.sum(axis=1) + opp_pinned.sum(axis=1)) > 0
    contact = ((my_front > opp_back) | pins_on_board).astype(np.float64)
    zeros = np.zeros((n, 1))
    race = _race(
        effective_pips(np.concatenate((mine, zeros), axis=1)), effective_pips(np.concatenate((theirs, zeros), axis=1))
    )
    # pins: the opposing checker pinned on its point q (index q - 1) has q pips of way left
    pin_values = _PIN_BASE + _PIN_PER_POINT * _PLAKOTO_POINTS
    my_pins = opp_pinned @ pin_values
    their_pins = pinned @ pin_values
    mother_for = opp_pinned[:, 23] * np.maximum(_MOTHER_PIN - 2.0 * free[:, 23], 10.0)
    mother_against = pinned[:, 23] * np.maximum(_MOTHER_PIN - 2.0 * opp_free[:, 23], 10.0)
    # blots: my lone free checkers on a point without a pinned opposing checker under them
    opp_pinned_mine = opp_pinned[:, ::-1]
    lone = ((free == 1) & (opp_pinned_mine == 0)).astype(np.float64)
    blots = np.concatenate((zeros, lone), axis=1)  # index = my point
    occupied = np.concatenate((zeros, (opp_free[:, ::-1] > 0).astype(np.float64)), axis=1)
    direct = _window_sum(occupied, 1, 6)
    indirect = _window_sum(occupied, 7, 11)
    hit_prob = np.minimum(0.85, 0.2 + 0.11 * direct) * (direct > 0) + np.minimum(0.25, 0.06 * indirect) * (direct == 0)
    loss = np.concatenate((zeros, np.broadcast_to(pin_values, (n, 24))), axis=1).copy()
    # my mother: pinned while the opponent's 24 is empty loses at once, else it is a pinned mother
    loss[:, 24] = np.where(opp_free[:, 23] == 0, _MOTHER_LOST, _MOTHER_PIN)
    risk = blots * hit_prob * loss
    blot_penalty = 0.5 * (risk.sum(axis=1) + risk.max(axis=1))
    made = free >= 2
    opp_made = opp_free >= 2
    structure = (made | (opp_pinned_mine > 0)).astype(np.float64) @ _SHORT_POINT_VALUE * 0.7
    prime_bonus = np.maximum(longest_run(made | (opp_pinned_mine > 0)) - 2, 0) * 5.0
    opp_prime_penalty = np.maximum(longest_run(opp_made) - 2, 0) * 3.0 * (mine[:, 12:].sum(axis=1) > 0)
    stacks = np.maximum(free[:, :23] - 3, 0).sum(axis=1) * 1.5
    off_lead = _CHECKER_WASTE * (opp.sum(axis=1) - me.sum(axis=1))
    contact_score = (po - pm) + off_lead + structure + prime_bonus - opp_prime_penalty - stacks
    contact_score = contact_score + my_pins - their_pins + mother_for - mother_against - blot_penalty
    return np.asarray(np.where(contact > 0, contact_score, race))


def heuristic_score(variant: str, batch: U8, *, blocking: float = 1.0, head: float = HEAD_COST) -> F64:
    """Return the hand-written score of ``variant`` positions after a move, for the side that moved.

    Every variant of the short-nardy board but Misère has :func:`short_score` (for its number of checkers),
    Misère has :func:`misere_score` (the aim reversed), long nardy :func:`long_score`. ``blocking`` weighs the block
    terms of the long-nardy board and ``head`` is its cost of a checker left on the head.

    Raises:
        ValueError: an unknown variant name.
    """
    kind = family(variant)
    if kind == "long":
        return long_score(batch, blocking, head)
    if kind == "plakoto":
        return plakoto_score(batch)
    if variant == "misere":
        return misere_score(batch)
    return short_score(batch, checkers_of(variant), no_hit_before_home=variant == "dutch")


def heuristic_equity(variant: str, batch: U8) -> F64:
    """Return a rough cubeless equity in (-1, 1) of positions after a move, for the side that moved.

    Raises:
        ValueError: an unknown variant name.
    """
    return np.asarray(np.tanh(heuristic_score(variant, batch) / (2.0 * _SCALE)))
