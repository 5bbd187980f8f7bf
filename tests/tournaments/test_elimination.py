"""Single and double elimination: bracket order, byes to top seeds, worked examples, grand final, withdrawals."""

from __future__ import annotations

import pytest
from tournament_helpers import favourite, field, play_out

from tournaments import (
    InvalidOptionError,
    InvalidResultError,
    Match,
    NotPlayableError,
    Result,
    TournamentOverError,
    UnknownPlayerError,
    bracket_order,
    double_elimination,
    single_elimination,
)
from tournaments.elimination import Source


def ids(matches: tuple[Match, ...]) -> list[tuple[str, str, str]]:
    return [(m.id, m.first, m.second) for m in matches]


def test_bracket_order() -> None:
    assert bracket_order(1) == (1,)
    assert bracket_order(2) == (1, 2)
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert bracket_order(16)[:4] == (1, 16, 8, 9)
    with pytest.raises(InvalidOptionError, match="power of two"):
        bracket_order(6)


def test_single_eight_players() -> None:
    t = single_elimination(field(8))
    assert ids(t.playable()) == [
        ("W1-1", "p1", "p8"),
        ("W1-2", "p4", "p5"),
        ("W1-3", "p2", "p7"),
        ("W1-4", "p3", "p6"),
    ]
    assert t.byes() == ()
    t = play_out(t)
    assert [m.id for m, _ in t.played()][-3:] == ["W2-1", "W2-2", "W3-1"]
    final = t.played()[-1][0]
    assert (final.first, final.second) == ("p1", "p2")  # 1 and 2 meet only in the final
    assert t.champion == "p1" and t.winners() == ("p1",)
    assert len(t.played()) == 7
    table = t.standings()
    assert [(r.place, r.player, r.reached) for r in table] == [
        (1, "p1", 4),
        (2, "p2", 3),
        (3, "p3", 2),
        (4, "p4", 2),
        (5, "p5", 1),
        (6, "p6", 1),
        (7, "p7", 1),
        (8, "p8", 1),
    ]


def test_single_five_players_top_seeds_get_byes() -> None:
    t = single_elimination(field(5))
    assert [b.player for b in t.byes()] == ["p1", "p2", "p3"]
    # p2 and p3 both have byes: their round-2 match is playable at once
    assert ids(t.playable()) == [("W1-2", "p4", "p5"), ("W2-2", "p2", "p3")]
    t = t.record(Result("W1-2", "p5", 0, 1))  # an upset
    assert ids(t.playable()) == [("W2-1", "p1", "p5"), ("W2-2", "p2", "p3")]
    t = play_out(t)
    assert len(t.played()) == 4 and t.champion == "p1"


@pytest.mark.parametrize(("n", "byes"), [(4, 0), (7, 1), (9, 7)])
def test_single_byes(n: int, byes: int) -> None:
    t = single_elimination(field(n))
    assert [b.player for b in t.byes()] == [f"p{i}" for i in range(1, byes + 1)]
    done = play_out(t)
    assert len(done.played()) == n - 1 and done.champion == "p1"


def test_single_nine_players_upsets() -> None:
    t = single_elimination(field(9))
    assert ids(t.playable()) == [
        ("W1-2", "p8", "p9"),
        ("W2-2", "p4", "p5"),
        ("W2-3", "p2", "p7"),
        ("W2-4", "p3", "p6"),
    ]
    t = t.record(Result("W1-2", "p9", 0, 1))
    assert ids(t.playable())[0] == ("W2-1", "p1", "p9")
    t = play_out(t, lambda m: Result(m.id, m.second))  # the lower slot always wins from here
    assert t.champion is not None
    table = t.standings()
    assert table[0].player == t.champion and not table[0].eliminated
    assert all(r.eliminated for r in table[1:])


def test_double_four_players() -> None:
    t = double_elimination(field(4))
    t = play_out(t)
    assert ids(tuple(m for m, _ in t.played())) == [
        ("W1-1", "p1", "p4"),
        ("W1-2", "p2", "p3"),
        ("W2-1", "p1", "p2"),
        ("L1-1", "p4", "p3"),
        ("L2-1", "p2", "p3"),
        ("GF1", "p1", "p2"),
    ]
    assert t.champion == "p1" and len(t.played()) == 6  # 2N − 2
    assert [(r.player, r.reached) for r in t.standings()] == [("p1", 4), ("p2", 3), ("p3", 2), ("p4", 1)]


def test_double_bracket_reset() -> None:
    def upset_final(m: Match) -> Result:
        return Result(m.id, "p2") if m.id == "GF1" else favourite(m)

    t = play_out(double_elimination(field(4)), upset_final)
    assert [m.id for m, _ in t.played()][-2:] == ["GF1", "GF2"]
    gf2 = t.played()[-1][0]
    assert (gf2.first, gf2.second) == ("p2", "p1")
    assert t.champion == "p1" and len(t.played()) == 7  # 2N − 1
    no_reset = play_out(double_elimination(field(4), bracket_reset=False), upset_final)
    assert no_reset.champion == "p2" and len(no_reset.played()) == 6


@pytest.mark.parametrize("n", [2, 5, 7, 8, 9])
def test_double_favourites(n: int) -> None:
    t = play_out(double_elimination(field(n)))
    assert t.champion == "p1"
    assert len(t.played()) == 2 * n - 2
    gf = t.played()[-1][0]
    assert (gf.id, gf.first, gf.second) == ("GF1", "p1", "p2")
    places = [r.player for r in t.standings()]
    assert places[:3] == ["p1", "p2", "p3"][:n]


def test_double_matches_run_in_parallel() -> None:
    t = double_elimination(field(8))
    for mid in ("W1-1", "W1-2", "W1-3", "W1-4"):
        t = t.record(favourite(next(m for m in t.playable() if m.id == mid)))
    # the losers' round 1 and the winners' round 2 are both playable now
    assert {m.id for m in t.playable()} == {"W2-1", "W2-2", "L1-1", "L1-2"}
    assert {m.bracket for m in t.playable()} == {"winners", "losers"}


def test_elimination_withdrawal() -> None:
    t = single_elimination(field(4)).record(Result("W1-1", "p1"))
    t = t.withdraw("p2")  # p2's pending match is forfeited; p3 advances
    assert ids(t.playable()) == [("W2-1", "p1", "p3")]
    forfeited = [r for _, r in t.played() if r.forfeit]
    assert len(forfeited) == 1 and forfeited[0].winner == "p3"
    with pytest.raises(UnknownPlayerError, match="p4"):
        t.withdraw("p4")  # already out
    t = t.withdraw("p1")
    assert t.is_over and t.champion == "p3"

    d = double_elimination(field(4)).withdraw("p4")
    d = play_out(d)
    # p4 forfeits W1 and the losers' match: two forfeits, still 2N − 2 matches
    assert sum(r.forfeit for _, r in d.played()) == 2 and len(d.played()) == 6
    assert d.standings()[-1].player == "p4"


def test_elimination_errors() -> None:
    t = single_elimination(field(4))
    with pytest.raises(InvalidResultError, match="drawn match is not possible here"):
        t.record(Result("W1-1", None))
    with pytest.raises(NotPlayableError, match="W2-1"):
        t.record(Result("W2-1", "p1"))
    t = play_out(t)
    with pytest.raises(TournamentOverError):
        t.record(Result("W2-1", "p1"))


def test_bracket_nodes_cover_the_whole_bracket() -> None:
    t = double_elimination(field(5))
    nodes = {n.id: n for n in t.bracket()}
    assert list(nodes) == [
        *("W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1"),
        *("L1-1", "L1-2", "L2-1", "L2-2", "L3-1", "L4-1", "GF1"),
    ]
    w11 = nodes["W1-1"]
    assert (w11.players, w11.empty, w11.winner, w11.is_bye) == (("p1", None), (False, True), "p1", True)
    assert w11.sources == (Source("seed", "1"), Source("seed", "8"))
    assert nodes["W1-2"].is_playable and nodes["W1-2"].sources[1] == Source("seed", "5")
    assert nodes["W2-1"].players == ("p1", None) and nodes["W2-1"].empty == (False, False)  # waits for W1-2
    assert nodes["L1-2"].empty == (True, True) and nodes["L1-2"].winner is None  # nobody comes
    assert nodes["L2-1"].sources == (Source("loser", "W2-2"), Source("winner", "L1-1"))
    assert nodes["GF1"].sources == (Source("winner", "W3-1"), Source("winner", "L4-1"))
    assert {m.id for m in t.matches()} == {n.id for n in t.bracket() if n.is_match}


def test_bracket_nodes_follow_the_results() -> None:
    def upset_final(m: Match) -> Result:
        return Result(m.id, "p2", 0, 1) if m.id == "GF1" else favourite(m)

    t = play_out(double_elimination(field(4)), upset_final)
    nodes = {n.id: n for n in t.bracket()}
    assert nodes["GF2"].players == ("p2", "p1") and nodes["GF2"].winner == "p1" == t.champion
    assert nodes["GF1"].result == Result("GF1", "p2", 0, 1)
    played = {m.id: (m, r) for m, r in t.played()}
    for node in t.bracket():
        assert node.is_match == (node.id in played)
        if node.id in played:
            match, result = played[node.id]
            assert node.players == (match.first, match.second) and node.result == result
            assert node.winner == result.winner
    single = single_elimination(field(8))
    assert [n.id for n in single.bracket()][-1] == "W3-1" and len(single.bracket()) == 7


def test_double_unbeaten_finalist_ranks_first_or_second_throughout() -> None:
    # a regression: winners'-bracket matches counted round 0, so the unbeaten player sank below everybody still in the
    # losers' bracket (16th of 16 after the winners' final, 9th once eight had fallen)
    t = double_elimination(field(16))
    underdog = "p16"  # the lowest seed wins every winners'-bracket match; elsewhere the favourite wins

    def rule(match: Match) -> Result:
        if underdog in (match.first, match.second):
            return Result(match.id, underdog, int(match.first == underdog), int(match.second == underdog))
        return favourite(match)

    seen_gf = False
    while not t.is_over:
        match = t.playable()[0]
        if match.id == "GF1":
            seen_gf = True
            break
        t = t.record(rule(match))
        table = t.standings()
        row = next(r for r in table if r.player == underdog)
        beaten = {m.opponent(r.winner) for m, r in t.played() if r.winner}
        unbeaten = [p.id for p in t.players if p.id not in beaten]
        assert row.place <= len(unbeaten), (match.id, row)  # nobody once beaten stands above an unbeaten player
        if t.playable() and all(m.bracket != "winners" for m in t.playable()):  # the winners' final is over
            assert row.place in (1, 2), (match.id, row)
    assert seen_gf
    table = t.standings()
    assert {r.player for r in table[:2]} == {underdog, "p1"}  # the two finalists, unbeaten first on equal stage
    assert table[0].player == underdog and table[0].reached == table[1].reached
    assert [r.place for r in table[:2]] == [1, 2]


def test_double_standings_stage_of_players_still_in() -> None:
    t = double_elimination(field(8))
    for mid in ("W1-1", "W1-2", "W1-3", "W1-4"):
        t = t.record(favourite(next(m for m in t.playable() if m.id == mid)))
    table = {r.player: r for r in t.standings()}
    # the winners of round 1 are guaranteed at least the losers' round 2 they would drop into; the losers of round 1
    # stand in the losers' round 1, below them
    assert [r.player for r in t.standings()] == ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]
    assert all(table[p].reached == 2 and table[p].unbeaten for p in ("p1", "p2", "p3", "p4"))
    assert all(table[p].reached == 1 and not table[p].unbeaten for p in ("p5", "p6", "p7", "p8"))
