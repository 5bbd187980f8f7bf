"""Round robin and double round robin: circle-method schedules, rests, results, withdrawals (worked examples)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from tournament_helpers import field, play_out

from tournaments import (
    InvalidOptionError,
    InvalidPlayersError,
    InvalidResultError,
    NotPlayableError,
    Player,
    Result,
    ScoreMismatchError,
    Tournament,
    TournamentOverError,
    UnknownPlayerError,
    circle_rounds,
    double_elimination,
    double_round_robin,
    forfeit,
    round_robin,
    single_elimination,
    swiss,
)


def pairs(t_rounds: object) -> list[list[tuple[str, str]]]:
    return [[(m.first, m.second) for m in r.matches] for r in t_rounds]  # type: ignore[attr-defined]


def test_four_players_schedule() -> None:
    t = round_robin(field(4))
    # circle method, seed 1 fixed, the others rotate; seed 1 is second in the odd rounds
    assert pairs(t.rounds) == [
        [("p1", "p4"), ("p2", "p3")],
        [("p3", "p1"), ("p4", "p2")],
        [("p1", "p2"), ("p3", "p4")],
    ]
    assert [m.id for m in t.rounds[0].matches] == ["R1-1", "R1-2"]
    assert all(not r.byes for r in t.rounds)


def test_seeds_follow_rating_not_entry_order() -> None:
    players = (Player("low", 1400), Player("top", 1800), Player("mid", 1600), Player("mid2", 1600))
    first_round = pairs(round_robin(players).rounds)[0]
    assert first_round == [("top", "low"), ("mid", "mid2")]


def test_five_players_one_rest_per_round() -> None:
    t = round_robin(field(5))
    assert len(t.rounds) == 5
    # the rest is the player facing the empty slot: circle [p2 p3 p4 p5 -] turns right each round
    assert [r.byes[0].player for r in t.rounds] == ["p1", "p4", "p2", "p5", "p3"]
    assert all(len(r.byes) == 1 and r.byes[0].points == 0.0 and len(r.matches) == 2 for r in t.rounds)
    final = play_out(t)
    table = final.standings()
    assert [(row.player, row.points) for row in table] == [("p1", 4), ("p2", 3), ("p3", 2), ("p4", 1), ("p5", 0)]
    assert final.winners() == ("p1",)


def test_seven_players_play_out() -> None:
    t = play_out(round_robin(field(7)))
    assert len(t.rounds) == 7
    assert len(t.results) == 21
    assert [row.points for row in t.standings()] == [6, 5, 4, 3, 2, 1, 0]


def test_eight_players_double_swaps_first_player() -> None:
    t = double_round_robin(field(8))
    assert len(t.rounds) == 14
    first_cycle, second_cycle = t.rounds[:7], t.rounds[7:]
    for a, b in zip(first_cycle, second_cycle, strict=True):
        assert [(m.second, m.first) for m in a.matches] == [(m.first, m.second) for m in b.matches]
    assert t.rounds[7].number == 8
    assert t.rounds[7].matches[0].id == "R8-1"
    done = play_out(t)
    assert [row.points for row in done.standings()] == [14, 12, 10, 8, 6, 4, 2, 0]


def test_nine_players() -> None:
    t = round_robin(field(9))
    assert len(t.rounds) == 9
    assert Counter(b.player for r in t.rounds for b in r.byes) == Counter({f"p{i}": 1 for i in range(1, 10)})
    assert sum(len(r.matches) for r in t.rounds) == 36


def test_rounds_are_played_in_order() -> None:
    t = round_robin(field(4))
    assert [m.id for m in t.playable()] == ["R1-1", "R1-2"]
    with pytest.raises(NotPlayableError, match="R2-1"):
        t.record(Result("R2-1", "p3"))
    t = t.record(Result("R1-2", "p3", 0, 1))
    assert [m.id for m in t.playable()] == ["R1-1"]
    with pytest.raises(NotPlayableError, match="R1-2"):
        t.record(Result("R1-2", "p3"))
    t = t.record(Result("R1-1", None))  # a drawn match
    assert t.current_round() == t.rounds[1]
    table = {row.player: row for row in t.standings()}
    assert table["p1"].points == table["p4"].points == 0.5
    assert table["p3"].points == 1 and table["p3"].wins == 1 and table["p2"].losses == 1
    assert table["p1"].draws == 1


def test_result_must_fit_the_match() -> None:
    t = round_robin(field(4))
    with pytest.raises(InvalidResultError, match="winner 'p2' is neither 'p1' nor 'p4'"):
        t.record(Result("R1-1", "p2"))
    with pytest.raises(InvalidResultError, match="negative"):
        t.record(Result("R1-1", "p1", -1, 0))
    with pytest.raises(InvalidResultError, match="forfeit needs a winner"):
        t.record(Result("R1-1", None, forfeit=True))
    with pytest.raises(InvalidResultError, match="only in matches to 1 point"):
        round_robin(field(4), length=3).record(Result("R1-1", None))


@pytest.mark.parametrize(
    "build",
    [
        lambda: round_robin(field(4), length=3),
        lambda: swiss(field(4), rounds=2, length=3),
        lambda: single_elimination(field(4), length=3),
        lambda: double_elimination(field(4), length=3),
    ],
    ids=["round robin", "Swiss", "single elimination", "double elimination"],
)
def test_a_winner_with_fewer_game_points_is_refused(build: Callable[[], Tournament]) -> None:
    t = build()
    match = t.playable()[0]
    for result in (Result(match.id, match.first, 1, 3), Result(match.id, match.second, 3, 1)):
        with pytest.raises(ScoreMismatchError) as refused:
            t.record(result)
        assert isinstance(refused.value, InvalidResultError) and isinstance(refused.value, ValueError)
        loser = match.opponent(result.winner or "")
        assert str(refused.value) == (
            f"match {match.id}: winner {result.winner!r} scored fewer game points than {loser!r} (1–3)"
        )
    assert t.playable() == build().playable()  # nothing recorded
    # a win on more points, level points (a forfeit is 0–0, a score capped at the length) and a forfeit are accepted
    assert t.record(Result(match.id, match.second, 1, 3)).played()[0][1].winner == match.second
    assert t.record(Result(match.id, match.first, 3, 3)).played()
    assert t.record(forfeit(match, match.first)).played()[0][1].forfeit


def test_withdrawal_forfeits_every_remaining_match() -> None:
    t = round_robin(field(4)).record(Result("R1-1", "p4", 0, 1)).record(Result("R1-2", "p2", 1, 0))
    t = t.withdraw("p4")
    forfeits = [r for r in t.results if r.forfeit]
    assert {r.match_id for r in forfeits} == {"R2-2", "R3-2"}
    assert all(r.winner != "p4" for r in forfeits)
    assert [m.id for m in t.playable()] == ["R2-1"]
    t = play_out(t)
    table = {row.player: row for row in t.standings()}
    assert table["p4"].points == 1  # the win before withdrawing stays
    assert table["p4"].forfeits == 2
    cells = {(c.player, c.opponent): c for line in t.cross_table().cells for c in line if c is not None}
    assert cells["p1", "p4"].forfeits == (False,) and cells["p1", "p4"].points == (0.0,)
    assert cells["p2", "p4"].forfeits == (True,) and cells["p2", "p4"].points == (1.0,)
    assert cells["p4", "p3"].forfeits == (True,) and cells["p4", "p3"].scores == ((0, 0),)
    with pytest.raises(TournamentOverError):
        t.withdraw("p1")


def test_withdraw_unknown_or_twice() -> None:
    t = round_robin(field(4))
    with pytest.raises(UnknownPlayerError, match="'zz'"):
        t.withdraw("zz")
    t = t.withdraw("p2")
    with pytest.raises(UnknownPlayerError, match="'p2'"):
        t.withdraw("p2")


def test_cross_table() -> None:
    t = play_out(double_round_robin(field(3)))
    table = t.cross_table()
    assert table.players == ("p1", "p2", "p3")
    assert table.cells[0][0] is None
    cell = table.cells[0][1]
    assert cell is not None
    assert (cell.player, cell.opponent, cell.points) == ("p1", "p2", (1.0, 1.0))
    assert sorted(cell.scores) == [(1, 0), (1, 0)]
    back = table.cells[1][0]
    assert back is not None and back.points == (0.0, 0.0)


def test_over_and_errors() -> None:
    t = play_out(round_robin(field(2)))
    assert t.is_over and t.playable() == () and t.winners() == ("p1",)
    with pytest.raises(TournamentOverError):
        t.record(Result("R1-1", "p1"))
    with pytest.raises(InvalidPlayersError, match="at least 2"):
        round_robin([Player("a")])
    with pytest.raises(InvalidPlayersError, match="twice"):
        round_robin([Player("a"), Player("a")])
    with pytest.raises(InvalidOptionError, match="match length"):
        round_robin(field(4), length=0)
    with pytest.raises(InvalidOptionError, match="3"):
        circle_rounds(field(4), cycles=3)
