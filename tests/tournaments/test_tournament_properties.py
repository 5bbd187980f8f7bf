"""Hypothesis properties of every format: schedules, Swiss pairing rules, elimination invariants."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import field, random_rule

from tournaments import (
    Elimination,
    Result,
    Swiss,
    default_rounds,
    double_elimination,
    double_round_robin,
    round_robin,
    single_elimination,
    swiss,
)

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 16), double=st.booleans())
def test_round_robin_schedule(n: int, double: bool) -> None:
    t = (double_round_robin if double else round_robin)(field(n))
    cycles = 2 if double else 1
    meetings: Counter[frozenset[str]] = Counter()
    firsts: dict[frozenset[str], list[str]] = {}
    for r in t.rounds:
        seen = [p for m in r.matches for p in (m.first, m.second)] + [b.player for b in r.byes]
        assert sorted(seen) == sorted(p.id for p in t.players)  # everybody once per round: a match or a rest
        assert len(r.byes) == n % 2 and all(b.points == 0 for b in r.byes)
        for m in r.matches:
            pair = frozenset((m.first, m.second))
            meetings[pair] += 1
            firsts.setdefault(pair, []).append(m.first)
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {cycles}
    if double:
        assert all(len(set(f)) == 2 for f in firsts.values())
    rests = Counter(b.player for r in t.rounds for b in r.byes)
    assert set(rests.values()) <= {cycles}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 11), seed=seeds, withdrawals=st.integers(0, 2))
def test_round_robin_play_out_with_withdrawals(n: int, seed: int, withdrawals: int) -> None:
    rng = random.Random(seed)
    t = round_robin(field(n))
    rule = random_rule(rng, draws=True)
    withdrew_at: dict[str, int] = {}
    while not t.is_over:
        if withdrawals and rng.random() < 0.1:
            still = [p.id for p in t.players if p.id not in t.withdrawn]
            player = rng.choice(still)
            withdrew_at[player] = len(t.results)
            t = t.withdraw(player)
            withdrawals -= 1
            continue
        t = t.record(rule(rng.choice(t.playable())))
    assert len(t.results) == n * (n - 1) // 2
    table = t.standings()
    assert sum(r.points for r in table) == n * (n - 1) // 2
    assert table[0].place == 1 and t.winners()
    played = t.played()
    for player, at in withdrew_at.items():
        later = [r for m, r in played[at:] if player in (m.first, m.second)]
        assert all(r.forfeit and r.winner != player for r in later)  # every remaining match lost by forfeit


def _rematch_free_exists(players: Sequence[str], met: Counter[frozenset[str]], bye_ok: set[str]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    if len(players) % 2 and first in bye_ok and _rematch_free_exists(rest, met, set()):
        return True
    for i, other in enumerate(rest):
        if not met[frozenset((first, other))]:
            remaining = rest[:i] + rest[i + 1 :]
            if _rematch_free_exists(remaining, met, bye_ok if len(players) % 2 else set()):
                return True
    return False


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 12), seed=seeds, withdraw=st.booleans(), extra=st.integers(0, 2))
def test_swiss_rules(n: int, seed: int, withdraw: bool, extra: int) -> None:
    rng = random.Random(seed)
    t: Swiss = swiss(field(n), rounds=default_rounds(n) + extra)
    active_at = {1: frozenset(p.id for p in t.players)}
    rule = random_rule(rng, draws=True)
    while not t.is_over:
        if withdraw and rng.random() < 0.05:
            still = [p.id for p in t.players if p.id not in t.withdrawn]
            t = t.withdraw(rng.choice(still))
        else:
            t = t.record(rule(rng.choice(t.playable())))
        if len(t.paired) not in active_at:
            active_at[len(t.paired)] = frozenset(p.id for p in t.players if p.id not in t.withdrawn)
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for r in t.paired:
        active = active_at[r.number]
        seen = [p for m in r.matches for p in (m.first, m.second)] + [b.player for b in r.byes]
        assert sorted(seen) == sorted(active)  # everybody still in is paired once, or has the bye
        assert len(r.byes) == len(active) % 2
        fewest = min(byes[p] for p in active)
        eligible = {p for p in active if byes[p] == fewest} if len(active) % 2 else set()
        for b in r.byes:
            assert b.points == 1.0
            assert b.player in eligible  # a second bye only once everybody still in has had one
        pairs = [frozenset((m.first, m.second)) for m in r.matches]
        if any(met[p] for p in pairs):  # a rematch only when no pairing without one exists
            assert not _rematch_free_exists(sorted(active), met, eligible)
        met.update(pairs)
        byes.update(b.player for b in r.byes)
    if not withdraw and not extra:
        assert max(byes.values(), default=0) <= 1
        assert len(t.paired) == t.rounds


def _play_elimination(t: Elimination, rng: random.Random, withdraw: bool) -> tuple[Elimination, list[Result]]:
    losses: Counter[str] = Counter()
    limit = 2 if t.double else 1
    recorded: list[Result] = []
    while not t.is_over:
        if withdraw and rng.random() < 0.05:
            out = {r.player for r in t.standings() if r.eliminated}
            still = [p.id for p in t.players if p.id not in t.withdrawn and p.id not in out]
            t = t.withdraw(rng.choice(still))
            continue
        match = rng.choice(t.playable())
        assert losses[match.first] < limit and losses[match.second] < limit  # out after the last loss
        result = Result(match.id, rng.choice((match.first, match.second)))
        recorded.append(result)
        t = t.record(result)
        losses.clear()
        losses.update(m.opponent(r.winner) for m, r in t.played() if r.winner)
    return t, recorded


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 20), seed=seeds, withdraw=st.booleans())
def test_single_elimination_rules(n: int, seed: int, withdraw: bool) -> None:
    t, _ = _play_elimination(single_elimination(field(n)), random.Random(seed), withdraw)
    assert t.champion is not None and t.winners() == (t.champion,)
    assert len(t.played()) == n - 1
    losses = Counter(m.opponent(r.winner) for m, r in t.played() if r.winner)
    assert set(losses.values()) == {1} and len(losses) == n - 1 and t.champion not in losses
    rounds = max(m.round for m, _ in t.played())
    for m, _ in t.played():
        if {m.first, m.second} == {"p1", "p2"}:
            assert m.round == rounds  # 1 and 2 can meet only in the final
    table = t.standings()
    assert table[0].player == t.champion and [r.place for r in table].count(1) == 1


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 20), seed=seeds, withdraw=st.booleans(), reset=st.booleans())
def test_double_elimination_rules(n: int, seed: int, withdraw: bool, reset: bool) -> None:
    t, _ = _play_elimination(double_elimination(field(n), bracket_reset=reset), random.Random(seed), withdraw)
    assert t.champion is not None
    played = t.played()
    assert len(played) in (2 * n - 2, 2 * n - 1)
    losses = Counter(m.opponent(r.winner) for m, r in played if r.winner)
    assert losses[t.champion] <= 1
    assert all(losses[p.id] == 2 for p in t.players if p.id != t.champion) or (
        not reset and sorted(losses[p.id] for p in t.players).count(1) == 2
    )
    finals = [m for m, _ in played if m.bracket == "final"]
    assert len(finals) in (1, 2) and (reset or len(finals) == 1)
    assert len(played) == 2 * n - 2 + (len(finals) - 1)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 20), seed=seeds, reset=st.booleans())
def test_double_elimination_standings_order(n: int, seed: int, reset: bool) -> None:
    # after every result, the players still in come first, by the stage they are sure of, the unbeaten
    # above the once beaten at the same stage; an unbeaten player is never below a once-beaten one at a lower stage
    rng = random.Random(seed)
    t = double_elimination(field(n), bracket_reset=reset)
    while not t.is_over:
        match = rng.choice(t.playable())
        t = t.record(Result(match.id, rng.choice((match.first, match.second))))
        beaten = Counter(m.opponent(r.winner) for m, r in t.played() if r.winner)
        table = t.standings()
        keys = [(not r.eliminated, r.reached, r.unbeaten) for r in table]
        assert keys == sorted(keys, reverse=True)
        for row in table:
            assert row.unbeaten == (not row.eliminated and beaten[row.player] == 0)
            assert row.reached >= 1
        in_winners = [r for r in table if r.unbeaten]
        if len(in_winners) == 1 and not t.is_over:  # the winners' bracket is decided: its champion is first or second
            assert in_winners[0].place <= 2
