"""More hypothesis properties (whole tournaments with drawn random results and withdrawals), beside
test_tournament_properties: Swiss pairings checked against brute force, double round robin play-out, elimination
brackets and byes, the double-elimination loser paths and the grand-final reset, and one more FIBS example."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import field, random_rule

from tournaments import (
    Elimination,
    Rating,
    Result,
    Swiss,
    bracket_order,
    default_rounds,
    double_elimination,
    double_round_robin,
    rate_match,
    rating_change,
    single_elimination,
    swiss,
    swiss_standings,
    win_probability,
)

seeds = st.integers(0, 2**32 - 1)


def _pairings(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect pairing of an even number of players."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in _pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def _key(
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    ranked: Sequence[str],
    scores: dict[str, float],
    met: Counter[frozenset[str]],
) -> tuple[int, int, int]:
    """The §8 priorities in order: rematches, how far above the bottom the bye is, squared score differences."""
    rematches = sum(met[frozenset(p)] for p in pairs)
    bye_height = 0 if bye is None else len(ranked) - 1 - ranked.index(bye)
    spread = sum(round(2 * (scores[a] - scores[b])) ** 2 for a, b in pairs)
    return rematches, bye_height, spread


def _best_key(
    ranked: Sequence[str], scores: dict[str, float], met: Counter[frozenset[str]], eligible: Sequence[str]
) -> tuple[int, int, int]:
    options = [None] if len(ranked) % 2 == 0 else list(eligible)
    return min(
        _key(pairs, bye, ranked, scores, met) for bye in options for pairs in _pairings([p for p in ranked if p != bye])
    )


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 10), seed=seeds, withdrawals=st.integers(0, 2), extra=st.integers(0, 2))
def test_swiss_pairings_are_optimal_by_brute_force(n: int, seed: int, withdrawals: int, extra: int) -> None:
    """Each round: no rematch while a rematch-free pairing exists, the bye to the lowest-ranked eligible player and
    score groups kept together as far as possible: the pairing's (rematches, bye, score spread) is the least of all
    pairings, enumerated by brute force."""
    rng = random.Random(seed)
    t: Swiss = swiss(field(n), rounds=default_rounds(n) + extra)
    rule = random_rule(rng, draws=True)
    withdrawn_at: dict[int, frozenset[str]] = {1: frozenset()}
    while not t.is_over:
        if withdrawals and rng.random() < 0.08:
            t = t.withdraw(rng.choice([p.id for p in t.players if p.id not in t.withdrawn]))
            withdrawals -= 1
        else:
            t = t.record(rule(rng.choice(t.playable())))
        withdrawn_at.setdefault(len(t.paired), frozenset(t.withdrawn))
    played = t.played()
    for r in t.paired:
        before = [(m, res) for m, res in played if m.round < r.number]
        byes = [b for b in t.byes() if b.round < r.number]
        table = swiss_standings(t.players, before, byes)
        ranked = [row.player for row in table if row.player not in withdrawn_at[r.number]]
        scores = {row.player: row.points for row in table}
        met = Counter(frozenset((m.first, m.second)) for rr in t.paired[: r.number - 1] for m in rr.matches)
        had = Counter(b.player for b in byes)
        fewest = min(had[p] for p in ranked)
        eligible = [p for p in ranked if had[p] == fewest]
        pairs = [(m.first, m.second) for m in r.matches]
        bye = r.byes[0].player if r.byes else None
        assert all(ranked.index(a) < ranked.index(b) for a, b in pairs)  # the higher-ranked player first
        assert bye is None or bye in eligible  # at most one bye each, until everybody still in has had one
        assert _key(pairs, bye, ranked, scores, met) == _best_key(ranked, scores, met, eligible), f"round {r.number}"
    if not extra and not t.withdrawn:
        assert max(Counter(b.player for b in t.byes()).values(), default=0) <= 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), seed=seeds, withdrawals=st.integers(0, 2))
def test_double_round_robin_play_out(n: int, seed: int, withdrawals: int) -> None:
    """Everyone meets everyone twice (first and second swapped), one game per round at most, forfeits included."""
    rng = random.Random(seed)
    t = double_round_robin(field(n))
    rule = random_rule(rng, draws=True)
    while not t.is_over:
        if withdrawals and rng.random() < 0.05:
            t = t.withdraw(rng.choice([p.id for p in t.players if p.id not in t.withdrawn]))
            withdrawals -= 1
            continue
        t = t.record(rule(rng.choice(t.playable())))
    played = t.played()
    assert len(played) == n * (n - 1)
    meetings = Counter(frozenset((m.first, m.second)) for m, _ in played)
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {2}
    assert len({(m.first, m.second) for m, _ in played}) == n * (n - 1)  # each ordering once
    for number in {m.round for m, _ in played}:
        in_round = [p for m, _ in played if m.round == number for p in (m.first, m.second)]
        assert len(in_round) == len(set(in_round))
    assert sum(row.points for row in t.standings()) == n * (n - 1)
    for m, res in played:
        if {m.first, m.second} & set(t.withdrawn) and res.forfeit:
            assert res.winner not in t.withdrawn or not {m.first, m.second} - set(t.withdrawn)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), double=st.booleans())
def test_bracket_size_and_byes_go_to_the_top_seeds(n: int, double: bool) -> None:
    t = (double_elimination if double else single_elimination)(field(n))
    size = 1
    while size < n:
        size *= 2
    assert len(bracket_order(size)) == size and sorted(bracket_order(size)) == list(range(1, size + 1))
    first_round = [m for m in t.playable() if m.id.startswith("W1-")]
    assert len(first_round) == n - size // 2  # 2n − size players play; the size − n others have a bye
    in_round_1 = {p for m in first_round for p in (m.first, m.second)}
    expected_byes = {f"p{i}" for i in range(1, size - n + 1)}  # field(n): p1 is seed 1, p2 seed 2, ...
    assert {p.id for p in t.players} - in_round_1 == expected_byes
    assert {b.player for b in t.byes()} == expected_byes and len(t.byes()) == size - n
    for m in first_round:  # 1 v N, 2 v N−1, ...: the seeds of a first-round match add up to size + 1
        assert int(m.first[1:]) + int(m.second[1:]) == size + 1


def _play(t: Elimination, rng: random.Random, withdrawals: int, lb_wins_final: bool | None) -> Elimination:
    while not t.is_over:
        if withdrawals and rng.random() < 0.05:
            out = {r.player for r in t.standings() if r.eliminated}
            still = [p.id for p in t.players if p.id not in t.withdrawn and p.id not in out]
            if len(still) > 2:
                t = t.withdraw(rng.choice(still))
                withdrawals -= 1
                continue
        match = rng.choice(t.playable())
        if match.id == "GF1" and lb_wins_final is not None:
            winner = match.second if lb_wins_final else match.first
        else:
            winner = rng.choice((match.first, match.second))
        t = t.record(Result(match.id, winner, int(winner == match.first), int(winner == match.second)))
    return t


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(2, 24),
    seed=seeds,
    withdrawals=st.integers(0, 2),
    reset=st.booleans(),
    lb_wins=st.sampled_from([None, True, False]),
)
def test_double_elimination_loser_paths_and_reset(
    n: int, seed: int, withdrawals: int, reset: bool, lb_wins: bool | None
) -> None:
    t = _play(double_elimination(field(n), bracket_reset=reset), random.Random(seed), withdrawals, lb_wins)
    champion = t.champion
    assert champion is not None and t.winners() == (champion,)
    played = t.played()
    losses: Counter[str] = Counter()
    for m, res in played:
        assert res.winner is not None
        loser = m.opponent(res.winner)
        assert losses[m.first] < 2 and losses[m.second] < 2  # nobody plays after a second loss
        losses[loser] += 1
        if m.bracket == "winners":
            assert losses[res.winner] == 0  # the winners' bracket holds unbeaten players only
    finals = [(m, res) for m, res in played if m.bracket == "final"]
    gf1 = finals[0]
    wb_finalist, lb_finalist = gf1[0].first, gf1[0].second
    assert all(m.opponent(res.winner or "") != wb_finalist for m, res in played if m.bracket != "final")
    assert lb_finalist in {m.opponent(res.winner or "") for m, res in played if m.bracket == "winners"}
    lb_won_gf1 = gf1[1].winner == lb_finalist
    if reset and lb_won_gf1:
        assert [m.id for m, _ in finals] == ["GF1", "GF2"]  # the reset: a deciding second final
        assert champion == finals[1][1].winner
    else:
        assert [m.id for m, _ in finals] == ["GF1"] and champion == gf1[1].winner
    for p in t.players:
        if p.id == champion:
            assert losses[p.id] <= 1
        elif not reset and lb_won_gf1 and p.id == wb_finalist:
            assert losses[p.id] == 1  # without the reset one grand-final loss ends it
        else:
            assert losses[p.id] == 2  # out after exactly two losses
    assert len(played) == 2 * (n - 1) + losses[champion] - (not reset and lb_won_gf1)  # one loss per match
    table = t.standings()
    assert table[0].player == champion and table[0].place == 1 and not table[0].eliminated
    assert all(row.eliminated for row in table[1:])


def test_fibs_underdog_with_boost_to_3() -> None:
    # Ra = 1600 (experience 150), Rb = 1450 (experience 0), N = 3, the underdog wins.
    # D = 150; D·√N/2000 = 150 × 1.7320508 / 2000 = 0.1299038; 10^0.1299038 = 1.3486641;
    # P(underdog) = 1 / 2.3486641 = 0.4257739. K = 4·√3 = 6.9282032; base = K × (1 − P) = 6.9282032 × 0.5742261
    # = 3.9783548. Boosts: underdog max(1, 5 − 0/100) = 5 → gains 19.891774; favourite max(1, 5 − 150/100) = 3.5
    # → loses 13.924242.
    fav, dog = Rating(1600, 150), Rating(1450, 0)
    assert win_probability(1450, 1600, 3) == pytest.approx(0.4257739, abs=1e-7)
    assert rating_change(dog, fav, 3) == pytest.approx((19.891774, 13.924242), abs=1e-6)
    winner, loser = rate_match(dog, fav, 3)
    assert winner.value == pytest.approx(1469.891774, abs=1e-6) and winner.experience == 3
    assert loser.value == pytest.approx(1586.075758, abs=1e-6) and loser.experience == 153


def _cost(
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    ranked: Sequence[str],
    scores: dict[str, float],
    met: Counter[frozenset[str]],
) -> tuple[int, int, int, int]:
    """All four §8 priorities of a pairing, as ``pair_round`` weighs them: :func:`_key` and then the sum of squared
    distances from the ideal opponent (inside a score group g/2 places down, across groups the rank difference)."""
    groups: dict[float, list[str]] = {}
    for p in ranked:
        groups.setdefault(scores[p], []).append(p)
    place = {p: ranked.index(p) for p in ranked}
    ties = 0
    for a, b in pairs:
        if scores[a] == scores[b]:
            group = groups[scores[a]]
            ties += (abs(group.index(a) - group.index(b)) - len(group) // 2) ** 2
        else:
            ties += (place[a] - place[b]) ** 2
    return (*_key(pairs, bye, ranked, scores, met), ties)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 10), seed=seeds, withdrawals=st.integers(0, 2), extra=st.integers(0, 2))
def test_swiss_pairings_by_score_blocks_are_optimal_by_brute_force(
    n: int, seed: int, withdrawals: int, extra: int
) -> None:
    """The pairing by score blocks (``pairing._pair_by_blocks``, forced on for small fields) has the least cost of
    all pairings at all four priorities, by brute force; so does the pairing on every pair where it falls back."""
    from tournaments import pairing

    saved, radius = pairing.SPARSE_FROM, pairing._FIRST_RADIUS
    try:
        pairing.SPARSE_FROM, pairing._FIRST_RADIUS = 2, 1  # a narrow first window: the widening is used too
        rng = random.Random(seed)
        t: Swiss = swiss(field(n), rounds=default_rounds(n) + extra)
        rule = random_rule(rng, draws=True)
        while not t.is_over:
            if withdrawals and rng.random() < 0.08:
                t = t.withdraw(rng.choice([p.id for p in t.players if p.id not in t.withdrawn]))
                withdrawals -= 1
            else:
                t = t.record(rule(rng.choice(t.playable())))
        for number in range(1, len(t.paired) + 1):  # each round's standings, the withdrawn players kept in
            ranked, scores, met, had = _round_inputs(t, number)
            pairs, bye = pairing.pair_round(ranked, scores, met, had)
            _assert_least_cost(pairs, bye, ranked, scores, met, had, f"round {number}")
    finally:
        pairing.SPARSE_FROM, pairing._FIRST_RADIUS = saved, radius


def _assert_least_cost(
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    ranked: Sequence[str],
    scores: dict[str, float],
    met: Counter[frozenset[str]],
    had: Counter[str],
    where: str,
) -> None:
    """Assert by brute force that no pairing of ``ranked`` costs less than ``pairs`` and ``bye``."""
    fewest = min(had[p] for p in ranked)
    options = [None] if len(ranked) % 2 == 0 else [p for p in ranked if had[p] == fewest]
    best = min(_cost(ps, b, ranked, scores, met) for b in options for ps in _pairings([p for p in ranked if p != b]))
    assert _cost(pairs, bye, ranked, scores, met) == best, where


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(2, 10),
    halves=st.lists(st.integers(0, 6), min_size=10, max_size=10),
    met_bits=st.integers(0, 2**45 - 1),
    bye_bits=st.integers(0, 2**10 - 1),
    radius=st.integers(0, 2),
    by_score=st.booleans(),
)
def test_pair_round_by_score_blocks_on_any_input_by_brute_force(
    n: int, halves: list[int], met_bits: int, bye_bits: int, radius: int, by_score: bool
) -> None:
    """``pair_round`` by score blocks (forced on, first window ``radius``) on arbitrary inputs — scores in half
    points, ranked by score or not, any earlier meetings and byes — has the least cost at all four priorities."""
    from tournaments import pairing

    ranked = [f"p{i}" for i in range(n)]
    scores = {p: h / 2 for p, h in zip(ranked, halves, strict=False)}
    if by_score:
        ranked.sort(key=lambda p: -scores[p])
    pairs_of = [frozenset((a, b)) for i, a in enumerate(ranked) for b in ranked[i + 1 :]]
    met = Counter({pair: 1 + (met_bits >> (i + 1)) % 2 for i, pair in enumerate(pairs_of) if met_bits >> i & 1})
    had = Counter({p: 1 for i, p in enumerate(ranked) if bye_bits >> i & 1})
    saved, first = pairing.SPARSE_FROM, pairing._FIRST_RADIUS
    try:
        pairing.SPARSE_FROM, pairing._FIRST_RADIUS = 2, radius
        pairs, bye = pairing.pair_round(ranked, scores, met, had)
    finally:
        pairing.SPARSE_FROM, pairing._FIRST_RADIUS = saved, first
    _assert_least_cost(pairs, bye, ranked, scores, met, had, "")


def test_pair_round_by_score_blocks_widens_a_narrow_window() -> None:
    """A round whose best pairing needs a pair outside a first window of radius 2: a pairing found inside it reaches
    the least score spread but costs 13 at priority 4, the best costs 11; the window must grow to find it."""
    from tournaments import pairing

    ranked = ["p3", "p4", "p6", "p0", "p1", "p2", "p5", "p7", "p8"]
    scores = {p: 1.0 if p in ("p3", "p4", "p6") else 0.0 for p in ranked}
    met = Counter(
        frozenset(pair.split())
        for pair in ("p0 p6", "p1 p5", "p1 p6", "p1 p7", "p2 p3", "p2 p6", "p4 p7", "p4 p8", "p5 p6", "p6 p7")
    )
    saved, first = pairing.SPARSE_FROM, pairing._FIRST_RADIUS
    try:
        pairing.SPARSE_FROM, pairing._FIRST_RADIUS = 2, 2
        pairs, bye = pairing.pair_round(ranked, scores, met, Counter())
    finally:
        pairing.SPARSE_FROM, pairing._FIRST_RADIUS = saved, first
    assert _cost(pairs, bye, ranked, scores, met) == (0, 0, 4, 11)
    _assert_least_cost(pairs, bye, ranked, scores, met, Counter(), "")


def _round_inputs(
    t: Swiss, number: int, withdrawn: frozenset[str] = frozenset()
) -> tuple[list[str], dict[str, float], Counter[frozenset[str]], Counter[str]]:
    """What ``pair_round`` gets for round ``number`` of ``t`` (the rounds before it played), without ``withdrawn``."""
    byes = [b for b in t.byes() if b.round < number]
    table = swiss_standings(t.players, [(m, r) for m, r in t.played() if m.round < number], byes)
    ranked = [row.player for row in table if row.player not in withdrawn]
    scores = {row.player: row.points for row in table}
    met = Counter(frozenset((m.first, m.second)) for rr in t.paired[: number - 1] for m in rr.matches)
    return ranked, scores, met, Counter(b.player for b in byes)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(48, 128), seed=seeds, played=st.integers(1, 8), withdrawals=st.integers(0, 3))
def test_large_field_pairing_by_score_blocks_is_as_good_as_on_all_pairs(
    n: int, seed: int, played: int, withdrawals: int
) -> None:
    """From SPARSE_FROM players a round is paired by score blocks first; on random mid-tournament states (48 to 128
    players, 1 to 8 rounds played, draws, byes, withdrawals) its cost at all four priorities must equal that of the
    pairing on every pair."""
    from tournaments import pairing

    rng = random.Random(seed)
    t = swiss(field(n), rounds=played + 1)
    rule = random_rule(rng, draws=True)
    while len(t.paired) <= played and not t.is_over:
        if withdrawals and rng.random() < 0.02:
            t = t.withdraw(rng.choice([p.id for p in t.players if p.id not in t.withdrawn]))
            withdrawals -= 1
        else:
            t = t.record(rule(rng.choice(t.playable())))
    ranked, scores, met, had = _round_inputs(t, len(t.paired), frozenset(t.withdrawn))
    blocks = pairing.pair_round(ranked, scores, met, had)
    saved, radius = pairing.SPARSE_FROM, pairing._FIRST_RADIUS
    try:
        pairing._FIRST_RADIUS = 1  # a narrow first window: the widening is used
        narrow = pairing.pair_round(ranked, scores, met, had)
        pairing.SPARSE_FROM = 10**9
        full = pairing.pair_round(ranked, scores, met, had)
    finally:
        pairing.SPARSE_FROM, pairing._FIRST_RADIUS = saved, radius
    assert _cost(*blocks, ranked, scores, met) == _cost(*full, ranked, scores, met)
    assert _cost(*narrow, ranked, scores, met) == _cost(*full, ranked, scores, met)
