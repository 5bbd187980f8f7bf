"""The services the handlers read and write through instead of the store (``bot.wiring`` puts them into the
Dispatcher's data): settings as ``ChatSettings`` / ``UserSettings``, challenges as typed ``Challenge`` values claimed
once, a chat's games, the /stats scores and the ratings of /rating and /top, on a real (SQLite) store."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.model.challenge import ChallengeError, ComputerOffer, GroupChallenge, PrivateChallenge
from bot.model.game import PlayerInfo
from bot.services.challenges import Challenges
from bot.services.chat_games import ChatGames
from bot.services.player_stats import PlayerStats
from bot.services.players import COMPUTER_STATS_CHAT
from bot.services.preferences import Preferences
from bot.services.ratings import Leaderboards, PlayerRating, apply_rating_plan
from bot.storage import SqliteGameStore, Stats, Store

GROUP = -100123
ALICE, BOB = 11, 22


@pytest.fixture
async def store(sqlite_path: str) -> AsyncIterator[Store]:
    sqlite: Store = SqliteGameStore(sqlite_path)
    yield sqlite
    await sqlite.close()


async def test_preferences_read_typed_and_write_back(store: Store) -> None:
    preferences = Preferences(store)
    chat = await preferences.chat(GROUP)
    assert chat.variant is None and not chat.anyone_creates_tournaments
    chat.variant = "long"
    chat.tournaments = "anyone"
    await preferences.save_chat(GROUP, chat)
    again = await preferences.chat(GROUP)
    assert again.variant == "long" and again.anyone_creates_tournaments
    assert await store.get_chat_settings(GROUP) == chat.to_dict()

    await store.set_user_settings(ALICE, {"lang": 5, "theme": "dark"})  # a language of another type is replaced
    await preferences.set_language(ALICE, "ru")
    assert await store.get_user_settings(ALICE) == {"lang": "ru", "theme": "dark"}
    assert (await preferences.user(ALICE)).lang == "ru"

    assert not (await preferences.user(BOB)).dm
    await preferences.allow_messages(BOB)
    await preferences.allow_messages(BOB)
    assert (await preferences.user(BOB)).dm
    assert await store.get_user_settings(BOB) == {"dm": True}


async def test_challenges_are_typed_and_claimed_once(store: Store) -> None:
    challenges = Challenges(store)
    alice = PlayerInfo(ALICE, "Alice", "en")
    card = GroupChallenge(alice, "long", GROUP, 3, PlayerInfo(BOB, "Bob", "ru"))
    card_id = await challenges.create(card, ttl=60.0, chat_id=GROUP)
    link_id = await challenges.create(PrivateChallenge(alice, "short"), ttl=60.0)
    offer_id = await challenges.create(ComputerOffer(GROUP), ttl=60.0)
    stored = await store.get_challenge(card_id)
    assert stored is not None and stored.data == card.to_dict()  # the document the store always kept
    assert await challenges.get(card_id) == card
    assert await challenges.get(link_id) == PrivateChallenge(alice, "short")
    assert await challenges.get(offer_id) == ComputerOffer(GROUP)
    assert await challenges.open_in(GROUP) == [(card_id, card)]

    assert await challenges.claim(card_id)
    assert not await challenges.claim(card_id)
    assert await challenges.get(card_id) is None
    assert await challenges.open_in(GROUP) == []

    forged = await store.create_challenge({"kind": "group", "variant": "long"}, ttl=60.0)
    with pytest.raises(ChallengeError):
        await challenges.get(forged)
    assert await challenges.get("AAAAAAAAAA") is None


async def test_chat_games_skip_what_cannot_be_watched(store: Store) -> None:
    games = ChatGames(store)
    assert not await games.any_in(GROUP)
    assert await games.running(GROUP) == []
    await store.create_game({"garbled": True}, chat_ids=[GROUP], user_ids=[ALICE])
    assert await games.any_in(GROUP)
    assert await games.running(GROUP) == []  # an unreadable record is not offered


async def test_player_stats_count_the_three_kinds_apart(store: Store) -> None:
    await store.add_stats(GROUP, ALICE, wins=2, losses=1)
    await store.add_stats(COMPUTER_STATS_CHAT, ALICE, draws=1)
    summary = await PlayerStats(store).summary(GROUP, ALICE)
    assert summary.chat == Stats(2, 1, 0) and summary.chat.played == 3
    assert summary.computer == Stats(0, 0, 1)
    assert summary.inline == Stats() and not summary.inline.played


async def test_leaderboards_show_the_chat_and_the_user(store: Store) -> None:
    leaderboards = Leaderboards(store)
    assert await leaderboards.chat_ratings(GROUP, "short") == {}
    never = await leaderboards.of_user(ALICE)
    assert never["short"] == PlayerRating() and never["long"] == PlayerRating()
    plan = {
        "variant": "short",
        "length": 1,
        "winner": {"id": ALICE, "name": "Alice"},
        "loser": {"id": BOB, "name": "Bob"},
        "chats": [GROUP],
    }
    await apply_rating_plan(store, "game000001", plan)
    board = await leaderboards.chat_ratings(GROUP, "short")
    assert board == {ALICE: PlayerRating(1510.0, 1, 1, "Alice"), BOB: PlayerRating(1490.0, 1, 1, "Bob")}
    assert (await leaderboards.of_user(BOB))["short"] == PlayerRating(1490.0, 1, 1, "Bob")
    assert await leaderboards.chat_ratings(GROUP, "long") == {}
