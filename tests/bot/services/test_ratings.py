"""Ratings of finished sessions (docs/rules.md §8): which sessions are rated, and applying a plan exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.handlers.ratings import clean_name, fit, leaderboard_rows, leaderboard_table, parse_variant
from bot.model.game import GameRecord
from bot.services.ratings import (
    RatingConflictError,
    apply_rating_plan,
    new_ratings,
    rating_plan,
    ratings_of,
    session_moves,
)
from bot.storage import RedisGameStore, SqliteGameStore, Store, StoredRating
from nardy import Match, Phase, SeededDice
from nardy.game import GameResult
from tests.bot.fake_telegram import telegram_html_error, telegram_visible_text

ALICE, BOB, CAROL = 11, 22, 33


# ---- building records ------------------------------------------------------------------------------------------


def _moves(match: Match, count: int) -> None:
    """Roll and play the first legal move until ``count`` moves were played (or the game is over)."""
    game = match.game
    played = 0
    while played < count and game.phase is not Phase.OVER:
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        elif game.phase is Phase.MOVE:
            game.play(game.legal_moves()[0])
            played += 1
        else:
            raise AssertionError(game.phase)


def _play_out(match: Match) -> None:
    _moves(match, 10_000)
    assert match.game.phase is Phase.OVER


def _resign(match: Match, player: int) -> None:
    game = match.game
    if game.phase is Phase.OPENING:
        game.roll()
    game.resign(player, game.variant.resign_levels[0])
    game.accept_resignation()


def _record(match: Match, *, chats: tuple[int, ...] = (-100,), ai: bool = False, **extra: Any) -> dict[str, Any]:
    players: list[dict[str, Any]] = [{"id": ALICE, "name": "Alice", "lang": "en"}]
    players.append({"id": 0, "name": "Computer", "lang": "en", "ai": "easy"} if ai else {"id": BOB, "name": "Bob"})
    return {
        "match": match.to_dict(),
        "players": players,
        "chats": [{"chat_id": chat, "message_id": 5, "viewer": None} for chat in chats],
        "kind": "group",
        **extra,
    }


def _finished_single(seed: str = "r1", variant: str = "short") -> Match:
    match = Match(variant, 0, dice=SeededDice(seed))
    _play_out(match)
    return match


# ---- rating_plan -----------------------------------------------------------------------------------------------


def test_a_finished_game_between_people_is_rated_as_a_match_to_one() -> None:
    match = _finished_single()
    plan = rating_plan(_record(match))
    assert plan is not None
    winner = match.game.result.winner if match.game.result else None
    ids = [ALICE, BOB]
    assert winner is not None
    assert plan == {
        "variant": "short",
        "length": 1,
        "winner": {"id": ids[winner], "name": ["Alice", "Bob"][winner]},
        "loser": {"id": ids[1 - winner], "name": ["Alice", "Bob"][1 - winner]},
        "chats": [-100],
    }


def test_long_nardy_is_rated_in_its_own_variant() -> None:
    plan = rating_plan(_record(_finished_single("r2", "long")))
    assert plan is not None and plan["variant"] == "long" and plan["length"] == 1


def test_a_match_to_n_is_rated_with_its_length_and_its_winner() -> None:
    match = Match("short", 3, dice=SeededDice("m3"))
    _moves(match, 8)
    _resign(match, 1)  # Alice wins 1
    match.next_game()
    _moves(match, 2)
    _resign(match, 0)  # Bob wins 1
    match.next_game()
    _moves(match, 2)
    _resign(match, 1)  # Alice 2 - 1
    assert rating_plan(_record(match)) is None  # not over yet: 2 of 3
    match.next_game()
    _moves(match, 2)
    _resign(match, 1)  # Alice 3 - 1
    assert match.over and match.winner == 0
    plan = rating_plan(_record(match))
    assert plan is not None
    assert (plan["length"], plan["winner"]["id"], plan["loser"]["id"]) == (3, ALICE, BOB)


def test_a_session_against_the_computer_is_not_rated() -> None:
    assert rating_plan(_record(_finished_single(), ai=True)) is None


def test_a_deciding_game_lost_by_time_is_a_forfeit_and_not_rated() -> None:
    match = Match("short", 0, dice=SeededDice("ab"))
    _moves(match, 20)
    match.game.abandon(match.game.turn)
    assert match.game.history[-1]["t"] == "abandon"
    assert rating_plan(_record(match)) is None


def test_a_match_whose_last_game_is_lost_by_time_is_not_rated() -> None:
    match = Match("short", 2, dice=SeededDice("ab2"))
    _moves(match, 10)
    _resign(match, 1)
    match.next_game()
    _moves(match, 10)
    match.game.abandon(1)
    assert match.over
    assert rating_plan(_record(match)) is None


def test_a_record_marked_forfeit_is_not_rated() -> None:
    assert rating_plan(_record(_finished_single(), forfeit=1)) is None  # the player who lost by forfeit
    link = {"tournament_id": "t", "match_id": "m"}
    assert rating_plan(_record(_finished_single(), forfeit=1, tournament=link)) is None


def test_the_plan_of_a_record_is_the_plan_of_its_stored_dict() -> None:
    data = _record(_finished_single(), chats=(-5, ALICE))
    plan = rating_plan(GameRecord.from_dict(data))
    assert plan is not None and plan == rating_plan(data) and plan["chats"] == [-5]


@pytest.mark.parametrize("moves", [0, 1, 4, 5])
def test_a_resignation_before_three_moves_each_is_not_rated(moves: int) -> None:
    """``moves`` moves in all alternate between the players: fewer than 6 leaves one player under 3."""
    match = Match("short", 0, dice=SeededDice("res"))
    _moves(match, moves)
    _resign(match, 0)
    assert min(session_moves(match.to_dict())) < 3
    assert rating_plan(_record(match)) is None


def test_a_resignation_after_three_moves_each_is_rated() -> None:
    match = Match("short", 0, dice=SeededDice("res"))
    _moves(match, 6)
    assert session_moves(match.to_dict()) == (3, 3)
    _resign(match, 0)
    plan = rating_plan(_record(match))
    assert plan is not None and plan["winner"]["id"] == BOB


def test_a_dropped_double_counts_like_a_resignation() -> None:
    match = Match("short", 0, dice=SeededDice("drop"))
    _moves(match, 2)
    game = match.game
    if game.phase is Phase.OPENING:
        game.roll()
    assert game.can_double()
    game.double()
    game.drop()
    assert game.result is not None and game.result.reason == "drop"
    assert rating_plan(_record(match)) is None


def test_moves_count_over_the_whole_match() -> None:
    """Two short resigned games that make three moves each together: the match is rated."""
    match = Match("short", 2, dice=SeededDice("sum"))
    _moves(match, 4)
    _resign(match, 1)
    match.next_game()
    _moves(match, 2)
    _resign(match, 1)
    assert match.over and session_moves(match.to_dict()) == (3, 3)
    assert rating_plan(_record(match)) is not None


def test_a_draw_is_not_rated() -> None:
    match = Match("long", 0, dice=SeededDice("draw"))
    _moves(match, 10)
    match.game._end(GameResult(None, "draw", 1, 1, 0.5, "draw"))
    assert rating_plan(_record(match)) is None


def test_an_unfinished_game_or_another_variant_is_not_rated() -> None:
    match = Match("short", 0, dice=SeededDice("x"))
    _moves(match, 8)
    assert rating_plan(_record(match)) is None
    other = _record(_finished_single())
    other["match"]["variant"] = "chess"  # a variant the bot does not offer (no rating)
    assert rating_plan(other) is None


def test_a_broken_record_is_not_rated() -> None:
    assert rating_plan({"players": [{"id": 1}, {"id": 2}], "match": {"schema": 99}}) is None
    assert rating_plan({}) is None
    record = _record(_finished_single())
    record["players"][1]["id"] = ALICE  # the same person twice
    assert rating_plan(record) is None


def test_only_group_chats_get_a_leaderboard() -> None:
    match = _finished_single()
    assert rating_plan(_record(match, chats=(ALICE, BOB)))["chats"] == []  # type: ignore[index]
    assert rating_plan(_record(match, chats=(-5, ALICE, -7, -5)))["chats"] == [-5, -7]  # type: ignore[index]


# ---- the FIBS change -------------------------------------------------------------------------------------------


def test_two_new_players_in_a_match_to_one_move_by_ten() -> None:
    """D = 0 so P = 0.5, K = 4·√1 = 4, the boost of a new player is 5: 4 × 0.5 × 5 = 10 each way."""
    expected, new = new_ratings({}, (ALICE, "Alice"), (BOB, "Bob"), 1)
    assert expected == {ALICE: 0, BOB: 0}
    assert new[ALICE] == StoredRating(1510.0, 1, 1, "Alice")
    assert new[BOB] == StoredRating(1490.0, 1, 1, "Bob")


def test_a_match_to_nine_between_unequal_players() -> None:
    """Ra 1600 (experience 500: no boost), Rb 1500 (experience 100: boost 4), N = 9: P(favourite) =
    1 − 1/(10^(100·3/2000) + 1) = 0.58544, K = 12; the underdog wins 12 × 0.58544 × 4 = 28.101, the favourite
    loses 12 × 0.58544 = 7.025."""
    current = {ALICE: StoredRating(1600.0, 500, 40, "A"), BOB: StoredRating(1500.0, 100, 12, "B")}
    expected, new = new_ratings(current, (BOB, "Bob"), (ALICE, "Alice"), 9)
    assert expected == {ALICE: 40, BOB: 12}
    p_fav = 1 - 1 / (10 ** (100 * 3 / 2000) + 1)
    assert new[BOB].rating == pytest.approx(1500 + 12 * p_fav * 4)
    assert new[ALICE].rating == pytest.approx(1600 - 12 * p_fav)
    assert (new[BOB].experience, new[ALICE].experience, new[BOB].matches, new[ALICE].matches) == (109, 509, 13, 41)


# ---- apply_rating_plan on the real stores ---------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        sqlite: Store = SqliteGameStore(request.getfixturevalue("sqlite_path"))
        yield sqlite
        await sqlite.close()
    else:
        redis: Store = RedisGameStore.from_url(request.getfixturevalue("redis_url"))
        yield redis
        await redis.close()


def _plan(winner: int, loser: int, *, chats: list[int], length: int = 1, variant: str = "short") -> dict[str, Any]:
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    return {
        "variant": variant,
        "length": length,
        "winner": {"id": winner, "name": names[winner]},
        "loser": {"id": loser, "name": names[loser]},
        "chats": chats,
    }


async def test_a_plan_is_applied_once_however_often_it_is_retried(store: Store) -> None:
    plan = _plan(ALICE, BOB, chats=[-100, -200])
    for _ in range(3):
        await apply_rating_plan(store, "game000001", plan)
    ratings = await store.get_ratings("short", [ALICE, BOB])
    assert ratings[ALICE] == StoredRating(1510.0, 1, 1, "Alice")
    assert ratings[BOB] == StoredRating(1490.0, 1, 1, "Bob")
    for chat in (-100, -200):
        assert sorted(await store.chat_rated_players(chat, "short")) == [ALICE, BOB]
    assert await store.chat_rated_players(-100, "long") == []
    long_alice = (await ratings_of(store, ALICE))["long"]
    assert long_alice == StoredRating()


async def test_concurrent_plans_of_the_same_players_all_count(store: Store) -> None:
    """Several games finishing at once (some retried concurrently): each changes the ratings exactly once."""
    plans = [
        ("g-alice-1", _plan(ALICE, BOB, chats=[-100])),
        ("g-bob-1", _plan(BOB, ALICE, chats=[-100])),
        ("g-carol-1", _plan(CAROL, ALICE, chats=[-300])),
        ("g-alice-2", _plan(ALICE, CAROL, chats=[], length=3)),
        ("g-bob-2", _plan(BOB, CAROL, chats=[-100, -300])),
    ]
    await asyncio.gather(*(apply_rating_plan(store, key, plan) for key, plan in plans * 2))
    ratings = await store.get_ratings("short", [ALICE, BOB, CAROL])
    assert {user: r.matches for user, r in ratings.items()} == {ALICE: 4, BOB: 3, CAROL: 3}
    assert {user: r.experience for user, r in ratings.items()} == {ALICE: 6, BOB: 3, CAROL: 5}
    # the zero-sum part is exact while every player still has the same boost (all are new: boost 5 − e/100)
    assert sum(r.rating for r in ratings.values()) == pytest.approx(4500, abs=2.0)
    assert sorted(await store.chat_rated_players(-100, "short")) == [ALICE, BOB, CAROL]
    assert sorted(await store.chat_rated_players(-300, "short")) == [ALICE, BOB, CAROL]


async def test_the_result_does_not_depend_on_the_order_of_retries(store: Store) -> None:
    """A sequential application gives the same final ratings as the concurrent one of the same plans in the
    order they were written."""
    await apply_rating_plan(store, "k1", _plan(ALICE, BOB, chats=[]))
    await apply_rating_plan(store, "k2", _plan(ALICE, BOB, chats=[]))
    expected_1, new_1 = new_ratings({}, (ALICE, "Alice"), (BOB, "Bob"), 1)
    _, new_2 = new_ratings(new_1, (ALICE, "Alice"), (BOB, "Bob"), 1)
    ratings = await store.get_ratings("short", [ALICE, BOB])
    assert ratings[ALICE] == new_2[ALICE] and ratings[BOB] == new_2[BOB]
    assert expected_1 == {ALICE: 0, BOB: 0}


async def test_a_malformed_plan_is_skipped(store: Store) -> None:
    await apply_rating_plan(store, "bad", {"variant": "short"})
    await apply_rating_plan(store, "bad2", _plan(ALICE, ALICE, chats=[]))
    await apply_rating_plan(store, "bad3", {**_plan(ALICE, BOB, chats=[]), "variant": "hypergammon"})
    assert (await store.get_ratings("short", [ALICE]))[ALICE] == StoredRating()


class _AlwaysConflicting:
    """A store whose ratings change under every write."""

    def __init__(self) -> None:
        self.calls = 0

    async def get_ratings(self, variant: str, user_ids: Any) -> dict[int, StoredRating]:
        return {user: StoredRating() for user in user_ids}

    async def apply_ratings(self, *args: Any, **kwargs: Any) -> bool | None:
        self.calls += 1
        return None


async def test_endless_conflicts_leave_the_plan_for_a_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.ratings.RETRY_PAUSE", 0.0)
    fake = _AlwaysConflicting()
    with pytest.raises(RatingConflictError):
        await apply_rating_plan(fake, "g", _plan(ALICE, BOB, chats=[-1]))  # type: ignore[arg-type]
    assert fake.calls >= 3


# ---- the leaderboard table -------------------------------------------------------------------------------------


def test_the_table_escapes_cuts_and_aligns_names() -> None:
    ratings = {
        1: StoredRating(1510.0, 1, 1, "Eve <script>&</script> with a very long name"),
        2: StoredRating(1622.5, 9, 3, "Пётр\u202e\nИванов"),
        3: StoredRating(1490.0, 1, 1, "李小龍李小龍李小龍李小龍"),
        4: StoredRating(1700.0, 0, 0, "never rated"),
    }
    rows = leaderboard_rows(ratings)
    assert [user for user, _ in rows] == [2, 1, 3]
    table = leaderboard_table("en", rows)
    assert telegram_html_error(table) is None
    visible = telegram_visible_text(table)
    lines = visible.split("\n")
    assert "Пётр Иванов" in lines[1] and " 1622.5 " in lines[1] and " 1510.0 " in lines[2]  # one decimal
    assert "Eve <script>&</…" in lines[2]
    widths = {len(line.rstrip()) for line in lines[1:3]}
    assert len(widths) == 1  # the same width for the Cyrillic and the Latin row
    assert "…" in lines[3]


def test_fit_and_clean_name() -> None:
    assert fit("abc", 5) == "abc  "
    assert fit("abcdef", 5) == "abcd…"
    assert fit("李李李", 5) == "李李…"
    assert clean_name(" a\tb\u200b\x00 c ") == "a b c"


def test_parse_variant() -> None:
    assert parse_variant(None) == "" and parse_variant("  ") == ""
    assert parse_variant("long") == "long" and parse_variant("SHORT") == "short"
    assert parse_variant("длинные") == "long"
    assert parse_variant("hypergammon") == "hypergammon" and parse_variant("портес") == "portes"
    assert parse_variant("gulbara") == "gulbara" and parse_variant("blah") is None
    assert parse_variant("long short") is None


def test_the_top_of_many_is_twenty() -> None:
    ratings = {user: StoredRating(1500.0 + user, 1, 1, f"p{user}") for user in range(1, 31)}
    rows = leaderboard_rows(ratings)
    assert len(rows) == 20 and rows[0][0] == 30 and rows[-1][0] == 11
