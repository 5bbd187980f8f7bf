"""Arena scoring and standings (tournaments/arena.py): hand-computed sheets (fire, berserk, status bonus, wins on
time), the tie-breaks, the errors, and hypothesis properties of any sequence of games."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.arena import ArenaGame, ArenaRules, ArenaStanding, SheetEntry, arena_standings, game_points
from tournaments.errors import InvalidOptionError, InvalidPlayersError, InvalidResultError, UnknownPlayerError

PLAYERS = ("a", "b", "c", "d", "e")
EQUAL = dict.fromkeys(PLAYERS, 1500.0)


def win(
    winner: str,
    loser: str,
    *,
    points: int = 1,
    berserk: tuple[bool, bool] = (False, False),
    moves: tuple[int, int] = (0, 0),
    on_time: bool = False,
) -> ArenaGame:
    """A game that ``winner`` (listed first) won against ``loser``."""
    return ArenaGame((winner, loser), 0, points, berserk, moves, on_time)


def line(table: list[ArenaStanding], player: str) -> ArenaStanding:
    return next(row for row in table if row.player == player)


def points_of(table: list[ArenaStanding], player: str) -> list[int]:
    return [entry.points for entry in line(table, player).sheet]


def test_the_third_win_in_a_row_and_the_next_score_double() -> None:
    games = [win("a", "b"), win("a", "c"), win("a", "d"), win("a", "e")]
    table = arena_standings(PLAYERS, games, EQUAL)
    a = line(table, "a")
    assert [e.points for e in a.sheet] == [2, 2, 4, 4]
    assert [e.fire for e in a.sheet] == [False, False, True, True]
    assert (a.score, a.games, a.wins, a.fire, a.rank) == (12, 4, 4, True, 1)


def test_the_fire_ends_with_a_loss_and_needs_two_new_wins() -> None:
    games = [win("a", "b"), win("a", "c"), win("a", "d"), win("e", "a"), win("a", "b"), win("a", "c"), win("a", "d")]
    table = arena_standings(PLAYERS, games, EQUAL)
    a = line(table, "a")
    assert [e.points for e in a.sheet] == [2, 2, 4, 0, 2, 2, 4]
    assert [e.fire for e in a.sheet] == [False, False, True, True, False, False, True]
    assert [e.won for e in a.sheet] == [True, True, True, False, True, True, True]
    assert a.score == 16 and a.fire


def test_a_player_is_on_fire_after_two_wins_even_before_the_next_game() -> None:
    table = arena_standings(PLAYERS, [win("a", "b"), win("a", "c")], EQUAL)
    assert line(table, "a").fire and not line(table, "b").fire


def test_berserk_scores_one_more_from_seven_own_moves_on_a_win_only() -> None:
    short = win("a", "b", berserk=(True, False), moves=(6, 6))
    enough = win("a", "b", berserk=(True, False), moves=(7, 6))
    lost = ArenaGame(("a", "b"), 1, berserk=(True, False), moves=(30, 30))
    assert game_points(short, 0, fire=False) == 2
    assert game_points(enough, 0, fire=False) == 3
    assert game_points(lost, 0, fire=False) == 0
    assert game_points(lost, 0, fire=True) == 0
    # the berserk point is not doubled on fire
    assert game_points(enough, 0, fire=True) == 5
    # the opponent's berserk gives the winner nothing
    assert game_points(win("b", "a", berserk=(False, True), moves=(20, 20)), 0, fire=False) == 2
    assert game_points(enough, 0, fire=False, rules=ArenaRules(berserk_min_moves=8)) == 2


def test_the_sheet_marks_a_berserk_game_whatever_its_result() -> None:
    games = [ArenaGame(("a", "b"), 1, berserk=(True, True), moves=(10, 10))]
    table = arena_standings(PLAYERS, games, EQUAL)
    assert line(table, "a").sheet == (SheetEntry(points=0, fire=False, berserk=True, won=False),)
    assert line(table, "b").sheet == (SheetEntry(points=3, fire=False, berserk=True, won=True),)


def test_the_status_bonus_adds_one_for_a_mars_and_two_for_a_koks_and_doubles_on_fire() -> None:
    bonus = ArenaRules(status_bonus=True)
    assert [game_points(win("a", "b", points=p), 0, fire=False, rules=bonus) for p in (1, 2, 3)] == [2, 3, 4]
    assert [game_points(win("a", "b", points=p), 0, fire=True, rules=bonus) for p in (1, 2, 3)] == [4, 6, 8]
    # without the option a марс or a кокс is a plain win
    assert [game_points(win("a", "b", points=p), 0, fire=False) for p in (1, 2, 3)] == [2, 2, 2]
    berserk_koks = win("a", "b", points=3, berserk=(True, False), moves=(9, 9))
    assert game_points(berserk_koks, 0, fire=True, rules=bonus) == 9
    assert game_points(berserk_koks, 1, fire=True, rules=bonus) == 0
    table = arena_standings(PLAYERS, [win("a", "b", points=2), win("a", "c"), win("a", "d", points=3)], EQUAL, bonus)
    assert points_of(table, "a") == [3, 2, 8]


def test_a_win_on_time_is_a_win_but_a_berserker_flagged_early_gets_no_berserk_point() -> None:
    games = [
        win("a", "b", on_time=True),
        win("a", "c"),
        win("a", "d", on_time=True, berserk=(True, False), moves=(3, 3)),
        win("a", "e", on_time=True, berserk=(True, False), moves=(12, 11)),
    ]
    table = arena_standings(PLAYERS, games, EQUAL)
    assert points_of(table, "a") == [2, 2, 4, 5]
    assert line(table, "a").fire
    assert points_of(table, "b") == [0]


def test_ties_break_by_performance_then_head_to_head_then_id() -> None:
    ratings = {"a": 1500.0, "b": 1500.0, "c": 1700.0, "d": 1400.0, "e": 1500.0}
    # by performance: x beat c (1700), y beat d (1400): both 2 points, x first
    table = arena_standings(["y", "x", *ratings], [win("y", "d"), win("x", "c")], ratings | {"x": 1.0, "y": 2.0})
    assert [r.player for r in table][:2] == ["x", "y"]
    assert [r.performance for r in table][:2] == [1700.0, 1400.0]

    # b and a: 2 points each against 1500-rated opponents; b beat a, so b is first although "a" < "b"
    table = arena_standings(PLAYERS, [win("b", "a"), win("a", "e")], ratings)
    assert [(r.player, r.score, r.performance) for r in table[:2]] == [("b", 2, 1500.0), ("a", 2, 1500.0)]
    assert [r.rank for r in table] == [1, 2, 3, 4, 5]

    # fully tied (same score, performance and head to head): by id
    table = arena_standings(["b", "a", "c", "d"], [win("b", "c"), win("a", "d")], {"c": 1500.0, "d": 1500.0})
    assert [r.player for r in table] == ["a", "b", "c", "d"]


def test_head_to_head_counts_only_the_games_among_the_tied_players() -> None:
    # a, b, c: 4 points each, all opponents rated 1500; among them a scored 2 (beat b), b 2 (beat c), c 0;
    # c's points came from beating outsiders (d, e), which do not count for head to head
    games = [win("a", "b"), win("b", "c"), win("c", "d"), win("c", "e"), win("a", "d"), win("b", "e")]
    table = arena_standings(PLAYERS, games, EQUAL)
    assert [(r.player, r.score) for r in table] == [("a", 4), ("b", 4), ("c", 4), ("d", 0), ("e", 0)]
    swapped = [win("b", "a"), win("c", "b"), win("a", "d"), win("a", "e"), win("c", "d"), win("b", "e")]
    table = arena_standings(PLAYERS, swapped, EQUAL)
    # now c scored 2 among them (beat b), b 2 (beat a), a 0: a is last of the three although its id is smallest
    assert [r.player for r in table][:3] == ["b", "c", "a"]


def test_a_player_without_games_has_an_empty_line_and_performance_zero() -> None:
    table = arena_standings(["a", "b", "z"], [win("a", "b")], {"a": 1500.0})
    z = line(table, "z")
    assert (z.score, z.games, z.wins, z.fire, z.performance, z.sheet, z.rank) == (0, 0, 0, False, 0.0, (), 3)
    # a rating missing from the mapping counts as the starting rating
    assert line(table, "b").performance == 1500.0


def test_bad_input_raises_value_errors_that_say_what_and_where() -> None:
    with pytest.raises(UnknownPlayerError, match=r"#2 .*'zed'"):
        arena_standings(PLAYERS, [win("a", "b"), win("zed", "a")], EQUAL)
    with pytest.raises(InvalidResultError, match="winner must be 0 or 1"):
        ArenaGame(("a", "b"), 2)
    with pytest.raises(InvalidResultError, match="winner"):
        ArenaGame(("a", "b"), True)
    with pytest.raises(InvalidResultError, match="points must be 1, 2 or 3, not 4"):
        ArenaGame(("a", "b"), 0, points=4)
    with pytest.raises(InvalidResultError, match="points"):
        ArenaGame(("a", "b"), 0, points=0)
    with pytest.raises(InvalidResultError, match="themselves"):
        ArenaGame(("a", "a"), 0)
    with pytest.raises(InvalidResultError, match="moves"):
        ArenaGame(("a", "b"), 0, moves=(3, -1))
    with pytest.raises(InvalidResultError, match="side"):
        game_points(win("a", "b"), 2, fire=False)
    with pytest.raises(InvalidPlayersError, match="twice"):
        arena_standings(["a", "b", "a"], [], EQUAL)
    with pytest.raises(InvalidPlayersError, match="rating of 'b'"):
        arena_standings(["a", "b"], [win("a", "b")], {"b": float("nan")})
    with pytest.raises(InvalidOptionError, match="berserk_min_moves"):
        ArenaRules(berserk_min_moves=-1)
    with pytest.raises(UnknownPlayerError):
        win("a", "b").side("c")
    assert issubclass(UnknownPlayerError, ValueError) and issubclass(InvalidResultError, ValueError)


ids = st.sampled_from(PLAYERS)


@st.composite
def arena_games(draw: st.DrawFn) -> ArenaGame:
    first = draw(ids)
    second = draw(ids.filter(lambda p: p != first))
    return ArenaGame(
        (first, second),
        draw(st.integers(0, 1)),
        draw(st.integers(1, 3)),
        (draw(st.booleans()), draw(st.booleans())),
        (draw(st.integers(0, 12)), draw(st.integers(0, 12))),
        draw(st.booleans()),
    )


rules = st.builds(ArenaRules, status_bonus=st.booleans(), berserk_min_moves=st.integers(0, 10))
ratings = st.fixed_dictionaries({p: st.floats(1000, 2200) for p in PLAYERS})


@given(st.lists(arena_games(), max_size=30), ratings, rules)
def test_every_sheet_is_scored_as_written(games: list[ArenaGame], rating: dict[str, float], rule: ArenaRules) -> None:
    table = arena_standings(PLAYERS, games, rating, rule)
    assert sorted(r.player for r in table) == sorted(PLAYERS)
    assert [r.rank for r in table] == list(range(1, len(PLAYERS) + 1))
    assert [r.score for r in table] == sorted((r.score for r in table), reverse=True)
    assert sum(r.games for r in table) == 2 * len(games)
    assert sum(r.wins for r in table) == len(games)
    for row in table:
        played = [g for g in games if row.player in g.players]
        assert row.score == sum(entry.points for entry in row.sheet)
        assert row.games == len(row.sheet) == len(played)
        assert row.wins == sum(entry.won for entry in row.sheet)
        sheet = row.sheet
        for i, (entry, game) in enumerate(zip(sheet, played, strict=True)):
            side = game.side(row.player)
            assert entry.won == (game.winner == side)
            assert entry.berserk == game.berserk[side]
            # on fire exactly when the two games before were won (the fire lasts until a game is not won)
            assert entry.fire == (i >= 2 and sheet[i - 1].won and sheet[i - 2].won)
            if not entry.won:
                assert entry.points == 0  # a berserk loss too
                continue
            base = 2 + (game.points - 1 if rule.status_bonus else 0)
            bonus = 1 if game.berserk[side] and game.moves[side] >= rule.berserk_min_moves else 0
            assert entry.points == base * (2 if entry.fire else 1) + bonus
        assert row.fire == (len(sheet) >= 2 and sheet[-1].won and sheet[-2].won)
        opponents = [rating[g.players[1 - g.side(row.player)]] for g in played]
        assert row.performance == pytest.approx(sum(opponents) / len(opponents) if opponents else 0.0)


@given(st.lists(arena_games(), max_size=30), ratings, st.permutations(PLAYERS))
def test_the_table_does_not_depend_on_the_order_of_the_players(
    games: list[ArenaGame], rating: dict[str, float], order: list[str]
) -> None:
    assert arena_standings(order, games, rating) == arena_standings(PLAYERS, games, rating)
