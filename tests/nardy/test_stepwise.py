"""The step-wise API for button UIs (TurnPlan) against the full-turn list (legal_moves).

For many positions and rolls of both variants (doubles and long nardy's first turns included) the set of every full
step sequence is built twice: by ``all_step_sequences`` (which follows ``next_steps``) and by a brute force over the
single steps of the variant, kept when the sequence is as long as the roll allows, ends in a legal turn's position and
obeys the larger-die rule. They must agree, and for every prefix ``next_steps`` must offer exactly the steps seen next
among the sequences extending it, so a UI that follows ``next_steps`` never dead-ends.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from nardy_testkit import LONG, LONG_OPTIONS, SHORT, Turn, apply_step, game_turns, pip_drop, pos, turns

from nardy import IllegalMoveError, Position, Step, TurnPlan
from nardy.movegen import all_step_sequences
from nardy.variants.base import from_state, to_state

Sequence_ = tuple[Step, ...]


MAX_PREFIXES = 1500


def _sample(rng: random.Random, items: list[Sequence_], count: int) -> list[Sequence_]:
    return items if len(items) <= count else rng.sample(items, count)


def check_plan(turn: Turn, rng: random.Random) -> None:
    plan = turn.plan()
    moves = turn.moves()
    legal = {m.position for m in moves}
    sequences = set(all_step_sequences(plan))
    if not moves:
        assert plan.forfeited
        assert sequences == {()}
        assert plan.next_steps(()) == []
        return
    assert not plan.forfeited
    assert {len(s) for s in sequences} == {plan.length} == {len(m.steps) for m in moves}

    # the end positions of all step sequences are exactly the legal turns
    ends = {}
    for seq in sequences:
        position = turn.position
        for step in seq:
            position = apply_step(turn.variant, position, step)
        ends[seq] = position
    for seq in _sample(rng, sorted(sequences), 200):
        assert plan.move_for(seq).position == ends[seq]
    assert set(ends.values()) == legal

    # each legal move's own steps are a valid sequence
    for move in moves:
        assert move.steps in sequences, move
        assert plan.is_complete(move.steps)
        assert plan.move_for(move.steps).position == move.position

    # the same sequences, found by brute force over single steps
    assert sequences == brute_sequences_for(turn, plan)

    # for every prefix, next_steps offers exactly what the full sequences do next
    following: dict[Sequence_, set[Step]] = {}
    reachable: dict[Sequence_, set[Position]] = {}
    for seq in sequences:
        for k in range(plan.length + 1):
            reachable.setdefault(seq[:k], set()).add(ends[seq])
            if k < plan.length:
                following.setdefault(seq[:k], set()).add(seq[k])
    # every prefix of up to one step, and a sample of the longer ones when there are very many
    short = [p for p in reachable if len(p) <= 1]
    longer = _sample(rng, sorted(p for p in reachable if len(p) > 1), MAX_PREFIXES)
    for prefix in short + longer:
        offered = plan.next_steps(prefix)
        assert len(offered) == len(set(offered))
        assert set(offered) == following.get(prefix, set()), (turn, prefix)
        if len(prefix) <= 1:
            assert plan.is_complete(prefix) == (len(prefix) == plan.length)
        for step in offered:
            assert step.die in plan.dice
            assert step.src - step.dst == pip_drop(step)
    # completions (a walk of the whole subtree each): the empty prefix and a sample
    for prefix in [(), *_sample(rng, sorted(reachable), 8)]:
        assert {m.position for m in plan.completions(prefix)} == reachable[prefix]
        # the incremental search of whole-turn buttons reaches the same positions, each by a path that plays it
        paths = plan.completion_paths(prefix, limit=10_000, max_nodes=1_000_000)
        assert paths is not None and {position for position, _ in paths} == reachable[prefix]
        for position, steps in paths:
            assert tuple(steps[: len(prefix)]) == tuple(prefix) and plan.position_after(steps) == position
            assert plan.is_complete(steps)

    # a UI that follows next_steps only never dead-ends
    for _ in range(5):
        played: list[Step] = []
        while offered := plan.next_steps(played):
            played.append(rng.choice(offered))
        assert plan.is_complete(played)
        assert plan.move_for(played).position in legal

    # a step that is not offered is refused
    first = set(plan.next_steps(()))
    for src in range(1, 26):
        for die in set(plan.dice):
            step = Step(src, max(src - die, 0), die)
            if step not in first and Step(src, max(src - die, 0), die, True) not in first:
                with pytest.raises(IllegalMoveError):
                    plan.next_steps((step,))


def brute_sequences_for(turn: Turn, plan: TurnPlan) -> set[Sequence_]:
    legal = {m.position for m in turn.moves()}
    d1, d2 = turn.dice
    pool = (d1,) * 4 if d1 == d2 else (d1, d2)
    out: set[Sequence_] = set()

    def walk(state: bytes, left: tuple[int, ...], seq: Sequence_) -> None:
        if len(seq) == plan.length:
            if from_state(state) in legal:
                out.add(seq)
            return
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for src, dst, hit, new in turn.variant.successors(state, die, plan.ctx):
                walk(new, tuple(rest), (*seq, Step(src, dst, die, hit)))

    walk(to_state(turn.position), pool, ())
    if plan.length == 1 and d1 != d2 and any(s[0].die == max(d1, d2) for s in out):
        out = {s for s in out if s[0].die == max(d1, d2)}  # one die only: the larger one when it can be played
    return out


def _fixed_corpus() -> list[Turn]:
    rng = random.Random(11)
    short = list(game_turns(SHORT, range(100, 104)))
    long = list(game_turns(LONG, range(100, 108), LONG_OPTIONS))
    picked = rng.sample(short, 100) + rng.sample(long, 100)
    picked += [t for t in long if t.first_turn]
    # doubles on top of the rolls the games had
    picked += [t.with_dice((rng.randint(1, 6),) * 2) for t in rng.sample(short, 20) + rng.sample(long, 20)]
    return picked


FIXED = _fixed_corpus()


@pytest.mark.parametrize("chunk", range(6))
def test_stepwise_agrees_with_full_turns(chunk: int) -> None:
    rng = random.Random(chunk)
    for turn in FIXED[chunk::6]:
        check_plan(turn, rng)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns("short"))
def test_stepwise_short(turn: Turn) -> None:
    check_plan(turn, random.Random(0))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns("long"))
def test_stepwise_long(turn: Turn) -> None:
    check_plan(turn, random.Random(0))


@pytest.mark.parametrize("variant", [SHORT, LONG])
def test_one_die_turn_uses_the_larger_die(variant: object) -> None:
    """The last checker on 3 with 6-5: only one die can be played, so the 6 bears it off (not the 5)."""
    position = pos({3: 1}, {24: 15} if variant is LONG else {19: 15})
    plan = TurnPlan(variant, position, (6, 5))  # type: ignore[arg-type]
    assert plan.next_steps(()) == [Step(3, 0, 6)]
    assert [m.steps for m in plan.moves()] == [(Step(3, 0, 6),)]
    with pytest.raises(IllegalMoveError):
        plan.next_steps((Step(3, 0, 5),))


def test_long_first_turn_plan() -> None:
    """The head exception in the step-wise API: 6-6 on the first turn, two head checkers, two sixes lost."""
    plan = TurnPlan(LONG, LONG.initial_position(), (6, 6), first_turn=True)
    assert plan.length == 2
    assert plan.next_steps(()) == [Step(24, 18, 6)]
    assert plan.next_steps((Step(24, 18, 6),)) == [Step(24, 18, 6)]
    assert plan.is_complete((Step(24, 18, 6), Step(24, 18, 6)))
    later = TurnPlan(LONG, LONG.initial_position(), (6, 6))
    assert later.length == 1


def test_short_bar_must_enter_first() -> None:
    position = pos({25: 1, 13: 14}, {19: 15})
    plan = TurnPlan(SHORT, position, (3, 1))
    assert {s.src for s in plan.next_steps(())} == {25}
