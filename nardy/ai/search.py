"""The hard player's search: fast candidate generation (legal turns as generator states, batched as arrays, also
used in training), the after-move valuation at 0-ply, the 1-ply look-ahead and the 2-ply search over the 21 rolls,
and the budgets that bound a decision's work (positions valued, never time)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from nardy.ai.features import F64, SIDE, U8, positions_array, swap
from nardy.ai.network import equity
from nardy.move import Move
from nardy.movegen import legal_states
from nardy.options import Options
from nardy.position import Position
from nardy.variants import Variant
from nardy.variants.base import State, from_state

DEFAULT_OPTIONS = Options()


def candidate_states(
    variant: Variant, position: Position, dice: tuple[int, int], first_turn: bool, options: Options = DEFAULT_OPTIONS
) -> list[State]:
    """Return the generator states (mover's frame) after every legal turn; empty when the roll is forfeited (no
    Move or step objects are made: :func:`nardy.movegen.legal_states`)."""
    return legal_states(variant, position, dice, first_turn, options)


def candidate_states_of(
    variant: Variant, state: State, dice: tuple[int, int], first_turn: bool, options: Options = DEFAULT_OPTIONS
) -> list[State]:
    """Return :func:`candidate_states` of a generator state."""
    return candidate_states(variant, from_state(state), dice, first_turn, options)


def states_array(states: list[State]) -> U8:
    """Return generator states as a ``(n, 2 * L)`` batch, ``L`` the side length of the states (half the length of
    the first one; 25 for an empty list)."""
    width = len(states[0]) if states else 2 * SIDE
    return np.frombuffer(b"".join(states), dtype=np.uint8).reshape(len(states), width)


# the hard player's look-ahead budget in replies valued per decision (see benchmarks/ai_strength.py, section speed)
NODE_BUDGET = 16_000


@dataclass(frozen=True)
class SearchSettings:
    """How far the hard player searches (see :class:`nardy.ai.players.HardPlayer`): the 1-ply look-ahead on the best
    ``lookahead`` candidates within ``window`` of the best 0-ply equity, at most ``node_budget`` replies valued; then
    the 2-ply search on the best ``deep`` of those within ``deep_window`` of the best 1-ply value, at most
    ``deep_budget`` positions valued (``deep`` 0: none). Budgets count work, never time."""

    lookahead: int = 4
    window: float = 0.12
    node_budget: int = NODE_BUDGET
    deep: int = 0
    deep_window: float = 0.10
    deep_budget: int = 30_000


# by variant (absent: the defaults); chosen by benchmarks/ai_strength.py, sections judged and speed, and measured in
# nardy/ai/weights/README.md (short nardy's wider search: issue 35)
SEARCH: dict[str, SearchSettings] = {
    "short": SearchSettings(lookahead=8, window=0.25, deep=3, deep_window=0.15, deep_budget=50_000),
    "long": SearchSettings(deep=2),
}


def search_settings(variant: str) -> SearchSettings:
    """Return the hard player's search settings for ``variant`` (:data:`SEARCH`, else the defaults)."""
    return SEARCH.get(variant, SearchSettings())


ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls with their chances."""


class Valuer(Protocol):
    """What the search values positions with: a variant and the chances of a batch of positions for the side on
    roll (the hard player: its network, with the race tables where they apply)."""

    variant: Variant

    def probabilities(self, batch: U8) -> F64:
        """Return the output probabilities of an ``(n, 2 * L)`` batch for the side on roll."""
        ...


def finish_sign(variant: Variant) -> float:
    """Return +1 where bearing off all first wins, -1 where it loses (Misère)."""
    return -1.0 if variant.first_off_loses else 1.0


def won_values(variant: Variant, batch: U8, positions: Sequence[Position], options: Options) -> F64:
    """Return the mover's value of each position that ends the game (the mover has borne off all), NaN elsewhere:
    what it wins, or in Misère minus what the other side wins (a last-roll draw counts as that loss too, so the
    players always avoid finishing first there). A position the variant ends at once (Plakoto's mother rule,
    :meth:`~nardy.variants.base.Variant.sudden_result`) is valued by that result: plus or minus its points, 0 for
    a draw."""
    values = np.full(len(positions), np.nan)
    sign = finish_sign(variant)
    half = batch.shape[1] // 2
    finished = batch[:, :half].sum(axis=1) == 0
    for i in np.flatnonzero(finished):
        values[i] = sign * variant.game_value(positions[int(i)], options).points
    if type(variant).sudden_result is not Variant.sudden_result:
        for i in np.flatnonzero(~finished):
            sudden = variant.sudden_result(positions[int(i)], options)
            if sudden is not None:
                who, value, _ = sudden
                values[i] = 0.0 if who is None else (1.0 if who == 0 else -1.0) * value.points
    return values


def zero_ply(valuer: Valuer, positions: Sequence[Position], options: Options) -> F64:
    """Return the 0-ply equity of each position after a move, for the side that moved (a position that ends the
    game: its result, see :func:`won_values`)."""
    batch = positions_array(list(positions))
    values = -equity(valuer.variant.name, valuer.probabilities(swap(batch)))
    won = won_values(valuer.variant, batch, positions, options)
    return np.asarray(np.where(np.isnan(won), values, won))


def turns_by_roll(
    variant: Variant, position: Position, first_turn: bool, options: Options, into: list[bytes]
) -> tuple[list[tuple[int, int, float]], float]:
    """Append to ``into`` the generator states after every legal turn of ``position``'s mover for each of the 21
    rolls; return each roll's (start, stop, chance) in ``into`` and the chance of a forfeited roll."""
    spans: list[tuple[int, int, float]] = []
    forfeits = 0.0
    for d1, d2, weight in ROLLS:
        states = candidate_states(variant, position, (d1, d2), first_turn, options)
        if not states:
            forfeits += weight
            continue
        spans.append((len(into), len(into) + len(states), weight))
        into.extend(states)
    return spans, forfeits


def after_move(valuer: Valuer, batch: U8, states: Sequence[bytes], options: Options) -> F64:
    """Return the mover's 0-ply value of each generator state after its move (the mover's frame, ``batch`` their
    array): the equity for the side it moved against, or the result where the move bore off all (what it wins, in
    Misère minus that)."""
    variant = valuer.variant
    values = -equity(variant.name, valuer.probabilities(swap(batch)))
    sign = finish_sign(variant)
    for i in np.flatnonzero(batch[:, : batch.shape[1] // 2].sum(axis=1) == 0):
        values[i] = sign * variant.game_value(from_state(states[int(i)]), options).points
    return values


def one_ply(valuer: Valuer, position: Position, options: Options, opponent_first: bool) -> tuple[float, int]:
    """Return the 1-ply equity of ``position`` (after our move, our frame) and the number of replies it valued: the
    average over the opponent's 21 rolls of our 0-ply equity after its best reply (``opponent_first``: the reply is
    the opponent's first turn)."""
    variant = valuer.variant
    replies: list[bytes] = []
    spans, forfeits = turns_by_roll(variant, position.swapped(), opponent_first, options, replies)
    total = 0.0
    if replies:
        batch = states_array(replies)
        # our equity, on roll after the reply: minus the replier's value
        ours = -after_move(valuer, batch, replies, options)
        if type(variant).sudden_result is not Variant.sudden_result:  # Plakoto's mother rule
            for i in np.flatnonzero(batch[:, : batch.shape[1] // 2].sum(axis=1) > 0):
                sudden = variant.sudden_result(from_state(replies[int(i)]), options)
                if sudden is not None:
                    who, value, _ = sudden
                    ours[i] = 0.0 if who is None else (-1.0 if who == 0 else 1.0) * value.points
        for start, stop, weight in spans:
            total += weight * float(np.min(ours[start:stop]))
    if forfeits:
        total += forfeits * float(equity(variant.name, valuer.probabilities(positions_array([position])))[0])
    return total, len(replies)


def two_ply(
    valuer: Valuer, position: Position, options: Options, opponent_first: bool, limit: int
) -> tuple[float | None, int]:
    """Return the 2-ply equity of ``position`` (after our move, our frame) and the number of positions valued:
    for each of the opponent's 21 rolls its best reply at 0-ply, then our 1-ply value of the result (the mean
    over our 21 rolls of our best move at 0-ply); a forfeited roll leaves the position as it is. When the
    search would value more than ``limit`` positions it stops before the second level: (None, what it valued)."""
    variant = valuer.variant
    replies: list[bytes] = []
    spans, forfeits = turns_by_roll(variant, position.swapped(), opponent_first, options, replies)
    total = 0.0  # the chance-weighted value of the replies that end the game
    # our positions on roll after the opponent's choice, with their chances (a forfeit leaves ours as it is)
    ours_on_roll: list[tuple[Position, float]] = [(position, forfeits)] if forfeits else []
    if replies:
        theirs = after_move(valuer, states_array(replies), replies, options)
        for start, stop, weight in spans:
            best = start + int(np.argmax(theirs[start:stop]))
            reply = from_state(replies[best])
            if sum(reply.me) == 0:
                total -= weight * float(theirs[best])
            else:
                ours_on_roll.append((reply.swapped(), weight))
    moves: list[bytes] = []
    blocks = [turns_by_roll(variant, ours, False, options, moves) for ours, _ in ours_on_roll]
    if len(replies) + len(moves) > limit:
        return None, len(replies)
    after = after_move(valuer, states_array(moves), moves, options) if moves else np.zeros(0)
    standing = [ours.swapped() for (ours, _), (_, forfeited) in zip(ours_on_roll, blocks, strict=True) if forfeited]
    # where we cannot move the opponent is on roll
    standing_values: list[float] = (
        (-equity(variant.name, valuer.probabilities(positions_array(standing)))).tolist() if standing else []
    )
    stay = iter(standing_values)
    for (_, chance), (rolls, forfeited) in zip(ours_on_roll, blocks, strict=True):
        value = sum(weight * float(np.max(after[start:stop])) for start, stop, weight in rolls)
        if forfeited:
            value += forfeited * float(next(stay))
        total += chance * value
    return total, len(replies) + len(moves) + len(standing)


def look_ahead(
    values: F64,
    moves: Sequence[Move],
    *,
    lookahead: int,
    window: float,
    budget: int,
    one_ply_of: Callable[[Position], tuple[float, int]],
) -> tuple[F64 | None, int]:
    """Return the 1-ply equities (``one_ply_of``: value and replies valued) of the best ``lookahead`` moves by their
    0-ply ``values`` within ``window`` of the best (``-inf`` for the others), and the replies valued. A candidate is
    started only while fewer than ``budget`` replies have been valued. None instead of the equities when there is
    nothing to compare: no look-ahead, fewer than two moves or candidates, a best move that ends the game, or fewer
    than two candidates valued."""
    if lookahead <= 0 or len(moves) < 2:
        return None, 0
    order = np.argsort(-values)
    best = values[order[0]]
    if sum(moves[int(order[0])].position.me) == 0:
        return None, 0
    chosen = [int(i) for i in order[:lookahead] if values[i] >= best - window]
    if len(chosen) < 2:
        return None, 0
    refined = np.full(len(moves), -np.inf)
    spent = 0
    for i in chosen:
        if spent >= budget:
            break
        refined[i], evaluated = one_ply_of(moves[i].position)
        spent += evaluated
    if np.isfinite(refined).sum() < 2:
        return None, spent
    return refined, spent


def deepen(
    refined: F64,
    *,
    count: int,
    window: float,
    budget: int,
    two_ply_of: Callable[[Position, int], tuple[float | None, int]],
    moves: Sequence[Move],
) -> tuple[F64 | None, int]:
    """Return the 2-ply equities (``two_ply_of``: value, or None past the given limit, and positions valued) of the
    best ``count`` moves by their 1-ply values ``refined`` within ``window`` of the best (``-inf`` for the others),
    and the positions valued; a candidate whose search would pass what is left of ``budget`` stops the search.
    None instead of the equities when fewer than two candidates qualify or were searched."""
    order = [int(i) for i in np.argsort(-refined) if np.isfinite(refined[i])]
    best = refined[order[0]]
    chosen = [i for i in order[:count] if refined[i] >= best - window]
    if len(chosen) < 2:
        return None, 0
    deeper = np.full(len(moves), -np.inf)
    spent = 0
    for i in chosen:
        value, evaluated = two_ply_of(moves[i].position, budget - spent)
        spent += evaluated
        if value is None:
            break
        deeper[i] = value
    return (deeper if int(np.isfinite(deeper).sum()) >= 2 else None), spent
