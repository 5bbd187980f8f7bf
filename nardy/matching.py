"""Reading a typed turn against the legal turns of a roll."""

from __future__ import annotations

from itertools import permutations

from nardy.errors import AmbiguousMoveError, IllegalMoveError, IncompleteMoveError, InvalidMoveError
from nardy.move import Move, Step, point_name
from nardy.movegen import TurnPlan
from nardy.notation import parse_segments
from nardy.position import OFF

Hop = tuple[int, int, bool]  # from, to, hit required on arrival
MAX_HOPS = 8


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
        InvalidMoveError: the text cannot be read as a move.
        IllegalMoveError: no legal turn matches (with the reason and the position).
        IncompleteMoveError: the text plays only part of the roll and the rest is not forced.
        AmbiguousMoveError: the text matches several legal turns (they are listed).
    """
    where = f"(dice {plan.dice[0]}-{plan.dice[1]}, position {plan.position_id})"
    try:
        segments = parse_segments(text)
    except InvalidMoveError as error:
        raise InvalidMoveError(f"{error} {where}") from None
    if plan.forfeited:
        raise IllegalMoveError(f"no move is possible with this roll {where}")
    hops = [(a, b, b in seg.hits) for seg in segments for _ in range(seg.count) for a, b in seg.hops()]
    if len(hops) > MAX_HOPS:
        raise IllegalMoveError(f"{text!r} has more moves than the dice allow {where}")
    prefixes = _prefixes(plan, hops)
    if not prefixes:
        raise IllegalMoveError(f"{text!r} is not a legal move {where}: {_why(plan, hops)}")
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


def _why(plan: TurnPlan, hops: list[Hop]) -> str:
    first = plan.next_steps(())
    if plan.position.me[24] and hops and hops[0][0] != 25:
        return "a checker on the bar must enter first"
    sources = {s.src for s in first}
    reached = {dst for _, dst, _ in hops}  # points a written checker passes through need no checker of their own
    for src, dst, _ in hops:
        if not plan.position.me[src - 1] and src not in reached:
            return f"there is no checker of yours on point {point_name(src)}"
        if dst == OFF and any(plan.position.me[6:25]):
            return "you can bear off only when all your checkers are in your home board"
    if sources and all(h[0] not in sources for h in hops):
        return "legal first moves start from " + ", ".join(point_name(s) for s in sorted(sources, reverse=True))
    return "the dice do not allow these moves here"
