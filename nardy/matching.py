"""Reading a typed turn against the legal turns of a roll."""

from __future__ import annotations

from itertools import accumulate, islice, permutations

from nardy.errors import AmbiguousMoveError, IllegalMoveError, IncompleteMoveError, InvalidMoveError
from nardy.move import RESERVE_POINT, Move, Step, point_name
from nardy.movegen import TurnPlan
from nardy.notation import parse_segments
from nardy.position import BAR, OFF, RESERVE_SIDE_LENGTH
from nardy.variants.base import State, to_state

Hop = tuple[int, int, bool]  # from, to, hit required on arrival
MAX_HOPS = 8
MAX_ORDERS = 120  # orders of the written moves tried when explaining why a text is refused


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


def _realise(plan: TurnPlan, played: tuple[Step, ...], hop: Hop) -> list[tuple[Step, ...]]:
    """Return the step sequences that carry one checker from hop[0] to hop[1] after ``played``."""
    src, dst, hit = hop
    out: list[tuple[Step, ...]] = []
    stack: list[tuple[tuple[Step, ...], int]] = [((), src)]
    while stack:
        seq, at = stack.pop()
        for step in plan.next_steps(played + seq):
            if step.src != at:
                continue
            if step.dst == dst:
                if not hit or step.hit:
                    out.append((*seq, step))
            elif step.dst > dst and step.dst != OFF:
                stack.append(((*seq, step), step.dst))
    return out


def _prefixes(plan: TurnPlan, hops: list[Hop]) -> set[tuple[Step, ...]]:
    found: set[tuple[Step, ...]] = set()
    for order in set(permutations(hops)):
        frontier: set[tuple[Step, ...]] = {()}
        for hop in order:
            frontier = {p + seq for p in frontier for seq in _realise(plan, p, hop)}
            if not frontier:
                break
        found |= frontier
    return found


def match_move(plan: TurnPlan, text: str) -> Move:
    """Return the legal turn that ``text`` describes for ``plan``'s position and roll.

    A partial turn is accepted when the rest of it is forced.

    Raises:
        InvalidMoveError: the text cannot be read as a move (or enters from a reserve the variant has not).
        IllegalMoveError: no legal turn matches (with the reason and the position; ``code`` names the rule, one
            of :data:`~nardy.errors.ILLEGAL_MOVE_CODES`).
        IncompleteMoveError: the text plays only part of the roll and the rest is not forced.
        AmbiguousMoveError: the text matches several legal turns (they are listed).
    """
    where = f"(dice {plan.dice[0]}-{plan.dice[1]}, position {plan.position_id})"
    try:
        segments = parse_segments(text)
    except InvalidMoveError as error:
        raise InvalidMoveError(f"{error} {where}", error.code) from None
    if plan.variant.side_length != RESERVE_SIDE_LENGTH and any(RESERVE_POINT in seg.points for seg in segments):
        title = plan.variant.titles.get("en", plan.variant.name)
        raise InvalidMoveError(f"{text!r} starts from the reserve, and {title} has none {where}")
    if plan.forfeited:
        raise IllegalMoveError(f"no move is possible with this roll {where}")
    hops = [(a, b, b in seg.hits) for seg in segments for _ in range(seg.count) for a, b in seg.hops()]
    if len(hops) > MAX_HOPS:
        raise IllegalMoveError(f"{text!r} has more moves than the dice allow {where}", "die_not_rolled")
    prefixes = _prefixes(plan, hops)
    if not prefixes:
        code, reason = _why(plan, hops)
        raise IllegalMoveError(f"{text!r} is not a legal move {where}: {reason}", code)
    full = {p for p in prefixes if len(p) == plan.length}
    if full:
        results: dict[object, tuple[Step, ...]] = {}
        for steps in sorted(full):
            results.setdefault(plan.position_after(steps), steps)
        if len(results) == 1:
            return plan.move_for(next(iter(results.values())))
        options = sorted(plan.move_for(s).notation for s in results.values())
        raise AmbiguousMoveError(f"{text!r} can mean {' or '.join(options)} {where}")
    completions: dict[object, Move] = {}
    for steps in sorted(prefixes):
        for move in plan.completions(steps):
            completions.setdefault(move.position, move)
    if len(completions) == 1:
        return next(iter(completions.values()))
    shortest = min(prefixes, key=len)
    raise IncompleteMoveError(
        f"{text!r} plays {len(shortest)} of {plan.length} dice; the rest is not forced {where}", shortest
    )


def _why(plan: TurnPlan, hops: list[Hop]) -> tuple[str, str]:
    """Return ``(code, reason)``: which rule refuses ``hops`` (see :data:`~nardy.errors.ILLEGAL_MOVE_CODES`).

    The written moves are replayed one die at a time with the single-step rules only (no must-play), in the
    written order first and then in other orders: the order that gets furthest names the rule that stops it. When
    every written move can be played that way, the must-play rules are what refuses the text.
    """
    start = to_state(plan.position)
    d1, d2 = plan.dice
    pool = (d1,) * plan.count if d1 == d2 else (d1, d2)
    best: tuple[int, str, str] | None = None
    for order in islice(dict.fromkeys(permutations(hops)), MAX_ORDERS):
        frontier: list[tuple[State, tuple[int, ...]]] = [(start, pool)]
        for depth, hop in enumerate(order):
            following = [way for state, left in frontier for way in _hop_ways(plan, state, left, hop)]
            if not following:
                if best is None or depth > best[0]:
                    best = (depth, *_hop_refusal(plan, *frontier[0], hop))
                break
            frontier = following
        else:
            return _must_play(plan, frontier, pool)
    assert best is not None
    return best[1], best[2]


def _hop_ways(plan: TurnPlan, state: State, left: tuple[int, ...], hop: Hop) -> list[tuple[State, tuple[int, ...]]]:
    """Return the (state, dice left) after each way of carrying one checker from hop[0] to hop[1] with single
    legal steps, ignoring the must-play rules (as :func:`_realise` does with them)."""
    src, dst, hit = hop
    out: list[tuple[State, tuple[int, ...]]] = []
    stack = [(state, left, src)]
    while stack:
        now, dice, at = stack.pop()
        for die in set(dice):
            rest = _without(dice, die)
            for step_src, step_dst, step_hit, new in plan.variant.successors(now, die, plan.ctx):
                if step_src != at:
                    continue
                if step_dst == dst:
                    if not hit or step_hit:
                        out.append((new, rest))
                elif step_dst > dst and step_dst != OFF:
                    stack.append((new, rest, step_dst))
    return out


def _die_orders(left: tuple[int, ...], src: int, dst: int) -> list[tuple[int, ...]]:
    """Return the orders of dice from ``left`` that carry a checker from ``src`` exactly to ``dst`` (or, for a
    bear-off, past point 1 with the last die only), larger dice first. A checker entering from the reserve
    (``src`` 26) enters as from the bar (25)."""
    orders: set[tuple[int, ...]] = set()
    start = BAR if src == RESERVE_POINT else src
    for size in range(1, len(left) + 1):
        for order in permutations(left, size):
            points = list(accumulate(order, lambda at, die: at - die, initial=start))[1:]
            if any(point <= max(dst, 0) for point in points[:-1]):
                continue
            if points[-1] == dst or (dst == OFF and points[-1] <= 0):
                orders.add(order)
    return sorted(orders, key=lambda order: (len(order), [-die for die in order]))


def _hop_refusal(plan: TurnPlan, state: State, left: tuple[int, ...], hop: Hop) -> tuple[str, str]:
    """Return ``(code, reason)`` for a written move that no single legal steps can play from ``state``."""
    variant = plan.variant
    src, dst, hit = hop
    any_die = max(left, default=1)
    if not state[src - 1] or (variant.has_bar and state[BAR - 1] and src != BAR):
        return variant.step_refusal(state, src, any_die, plan.ctx)
    if dst == OFF and sum(state[6:BAR]) > (src > 6):  # checkers outside home besides the one written
        return "bear_off_early", "you can bear off only when all your checkers are in your home board"
    orders = _die_orders(left, src, dst)
    if not orders:
        d1, d2 = plan.dice
        used = " left" if _die_orders((d1,) * plan.count if d1 == d2 else (d1, d2), src, dst) else ""
        span = (BAR if src == RESERVE_POINT else src) - dst
        distance = f"{span} point{'s' if span > 1 else ''}" if dst != OFF else f"{point_name(src)} off"
        return "die_not_rolled", f"no die{used} of the roll {d1}-{d2} moves {distance}"
    found: tuple[int, str, str] | None = None
    for order in orders:
        now, at = state, src
        for depth, die in enumerate(order):
            step = next((s for s in variant.successors(now, die, plan.ctx) if s[0] == at), None)
            if step is None:
                reason = variant.step_refusal(now, at, die, plan.ctx)
                if found is None or depth > found[0]:
                    found = (depth, *reason)
                break
            now, at = step[3], step[1]
        else:
            if hit:
                return "generic", f"there is no blot to hit on point {point_name(dst)}"
    if found is None:
        return "generic", "the dice do not allow these moves here"
    return found[1], found[2]


def _must_play(plan: TurnPlan, ends: list[tuple[State, tuple[int, ...]]], pool: tuple[int, ...]) -> tuple[str, str]:
    """Return ``(code, reason)`` for written moves that single legal steps can play, but not as a legal turn."""
    state, left = min(ends, key=lambda end: len(end[1]))
    used = len(pool) - len(left)
    d1, d2 = plan.dice
    if used < plan.length:
        if d1 == d2:
            return "must_use_both", f"{plan.length} moves of {d1} can be played with this double, and all must be"
        return "must_use_both", f"both dice {d1}-{d2} can be played, and both must be"
    if plan.length == 1 and d1 != d2:
        return "must_use_larger", f"only one die can be played, and then it must be the larger, {max(d1, d2)}"
    if not plan.variant.turn_end_ok(state, plan.ctx):
        return "block_rule", "the turn would end with six points in a row and no opponent checker ahead of them"
    return "generic", "the dice do not allow these moves here"
