"""Swiss system: default rounds, pairings by score (worked examples), byes, rematch avoidance, withdrawals."""

from __future__ import annotations

from collections import Counter

import pytest
from tournament_helpers import field, play_out

from tournaments import (
    InvalidOptionError,
    NotPlayableError,
    Result,
    TournamentOverError,
    UnknownPlayerError,
    default_rounds,
    pair_round,
    swiss,
)


def rounds_of(t: object) -> list[tuple[list[tuple[str, str]], list[str]]]:
    return [
        ([(m.first, m.second) for m in r.matches], [b.player for b in r.byes])
        for r in t.paired  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize(("n", "rounds"), [(2, 2), (3, 3), (4, 3), (5, 4), (7, 4), (8, 4), (9, 5), (16, 5), (17, 6)])
def test_default_rounds(n: int, rounds: int) -> None:
    assert default_rounds(n) == rounds
    assert swiss(field(n)).rounds == rounds


def test_four_players_favourites_win() -> None:
    t = play_out(swiss(field(4)))
    # round 1: top half v bottom half; round 2: the winners meet, the losers meet; round 3: the only new pairs
    assert rounds_of(t) == [
        ([("p1", "p3"), ("p2", "p4")], []),
        ([("p1", "p2"), ("p3", "p4")], []),
        ([("p1", "p4"), ("p2", "p3")], []),
    ]
    assert [(r.place, r.player, r.points) for r in t.standings()] == [
        (1, "p1", 3),
        (2, "p2", 2),
        (3, "p3", 1),
        (4, "p4", 0),
    ]
    assert t.winners() == ("p1",)


def test_five_players_byes_to_the_lowest_ranked_without_one() -> None:
    t = play_out(swiss(field(5)))
    assert rounds_of(t) == [
        ([("p1", "p3"), ("p2", "p4")], ["p5"]),
        # after round 1: p1, p2, p5 (bye) on 1; p3, p4 on 0 → p4 (lowest) has the bye; p5 meets p3 across groups
        ([("p1", "p2"), ("p5", "p3")], ["p4"]),
        ([("p1", "p4"), ("p2", "p5")], ["p3"]),
        ([("p1", "p5"), ("p3", "p4")], ["p2"]),
    ]
    assert all(b.points == 1.0 for r in t.paired for b in r.byes)
    table = t.standings()
    assert [(r.player, r.points) for r in table] == [("p1", 4), ("p2", 3), ("p3", 3), ("p4", 1), ("p5", 1)]


def test_seven_players() -> None:
    t = play_out(swiss(field(7)))
    assert [byes for _, byes in rounds_of(t)] == [["p7"], ["p6"], ["p5"], ["p4"]]
    # round 2: p1 p2 p3 and p7 (bye) on 1 point: 1 v 3, 2 v 7 (top half v bottom half); p4 v p5; p6 the bye
    assert rounds_of(t)[1] == ([("p1", "p3"), ("p2", "p7"), ("p4", "p5")], ["p6"])
    assert t.standings()[0].player == "p1" and t.standings()[0].points == 4


def test_eight_players() -> None:
    t = play_out(swiss(field(8)))
    assert rounds_of(t) == [
        ([("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8")], []),
        ([("p1", "p3"), ("p2", "p4"), ("p5", "p7"), ("p6", "p8")], []),
        ([("p1", "p2"), ("p3", "p5"), ("p4", "p6"), ("p7", "p8")], []),
        ([("p1", "p4"), ("p2", "p3"), ("p5", "p8"), ("p6", "p7")], []),
    ]
    assert [r.points for r in t.standings()] == [4, 3, 2, 2, 2, 2, 1, 0]


def test_nine_players() -> None:
    t = play_out(swiss(field(9)))
    assert len(t.paired) == 5
    assert rounds_of(t)[0] == ([("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8")], ["p9"])
    assert [byes for _, byes in rounds_of(t)] == [["p9"], ["p8"], ["p7"], ["p6"], ["p5"]]
    met = Counter(frozenset((m.first, m.second)) for r in t.paired for m in r.matches)
    assert max(met.values()) == 1


def test_draws_and_match_points() -> None:
    t = swiss(field(4))
    t = t.record(Result("S1-1", None)).record(Result("S1-2", "p4", 0, 1))
    table = {r.player: r.points for r in t.standings()}
    assert table == {"p1": 0.5, "p3": 0.5, "p4": 1.0, "p2": 0.0}
    # round 2: p4 alone on 1, p1 and p3 on ½ (already met), p2 on 0: no rematch → p4 v p1 or p3, the other v p2
    pairs = {frozenset((m.first, m.second)) for m in t.playable()}
    assert frozenset(("p1", "p3")) not in pairs and frozenset(("p2", "p4")) not in pairs
    assert pairs == {frozenset(("p4", "p1")), frozenset(("p3", "p2"))}


def test_rematch_only_when_unavoidable() -> None:
    # two players, two rounds: the second round must be a rematch
    t = play_out(swiss(field(2)))
    assert rounds_of(t) == [([("p1", "p2")], []), ([("p1", "p2")], [])]


def test_pair_round_score_differences() -> None:
    ranked = ["a", "b", "c", "d"]
    # a (2) floats down to b (1), c (1) down to d (0): squared differences 1 + 1 beat 4 + 0 (a v d, b v c)
    pairs, bye = pair_round(ranked, {"a": 2, "b": 1, "c": 1, "d": 0}, Counter(), Counter())
    assert bye is None and pairs == (("a", "b"), ("c", "d"))
    # a and b already met: the rematch costs more than any score difference
    pairs, bye = pair_round(ranked, {"a": 2, "b": 2, "c": 1, "d": 1}, Counter({frozenset("ab"): 1}), Counter())
    assert set(pairs) == {("a", "c"), ("b", "d")}
    pairs, bye = pair_round(["a", "b", "c"], {"a": 1, "b": 1, "c": 0}, Counter(), Counter({"c": 1}))
    assert bye == "b" and pairs == (("a", "c"),)


def test_more_rounds_than_byes_available() -> None:
    # 3 players, 4 rounds: the fourth bye goes to the lowest-ranked of those with the fewest byes
    t = play_out(swiss(field(3), rounds=4))
    byes = Counter(b.player for r in t.paired for b in r.byes)
    assert sum(byes.values()) == 4 and max(byes.values()) == 2 and min(byes.values()) == 1


def test_withdrawal() -> None:
    t = swiss(field(6))
    t = t.withdraw("p2")  # p2's round-1 match is forfeited; p2 is not paired again
    forfeits = [r for r in t.results if r.forfeit]
    assert len(forfeits) == 1 and forfeits[0].winner != "p2"
    t = play_out(t)
    later = [p for r in t.paired[1:] for m in r.matches for p in (m.first, m.second)]
    assert "p2" not in later
    # 5 players left: one bye each round from round 2
    assert all(len(r.byes) == 1 for r in t.paired[1:])
    assert "p2" in {r.player for r in t.standings()}
    with pytest.raises(TournamentOverError):
        t.withdraw("p1")


def test_withdrawal_completing_a_round_pairs_the_next() -> None:
    t = swiss(field(4)).record(Result("S1-1", "p1"))
    t = t.withdraw("p4")
    assert len(t.paired) == 2
    assert all("p4" not in (m.first, m.second) for m in t.playable())
    assert t.paired[1].byes and t.paired[1].byes[0].player != "p4"


def test_errors() -> None:
    t = swiss(field(4))
    with pytest.raises(NotPlayableError, match="S2-1"):
        t.record(Result("S2-1", "p1"))
    with pytest.raises(UnknownPlayerError):
        t.withdraw("nobody")
    with pytest.raises(InvalidOptionError, match="rounds"):
        swiss(field(4), rounds=0)
    with pytest.raises(InvalidOptionError, match="match length"):
        swiss(field(4), length=-1)
