"""Ratings end to end: a rated game between two people in a group moves both ratings by the FIBS formula, ``/rating``
shows them and ``/top`` lists the group's players in order; a game against the computer changes nothing."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from aiogram.types import User
from PIL import Image

from bot.model.settings import ChatSettings
from bot.services.ratings import apply_rating_plan
from bot.storage import RedisGameStore, SqliteGameStore, Store, StoredRating
from bot.texts import tr
from bot.variants import OFFERED
from nardy import Match, Phase
from nardy.ai import ComputerPlayer, get_player
from rendering.theme import DARK
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, GAME_OVER, RU, has_entry, shown

MAX_ACTIONS = 3000


def fixed_seed(level: str, variant: str, _seed: int) -> ComputerPlayer:
    """Return the computer player of ``level`` with a fixed seed (reproducible games)."""
    return get_player(level, variant, seed=7)


async def play_out(env: Env, game_id: str, chat_id: int, users: dict[int, User]) -> Match:
    """Press the first button of the board for whoever is awaited until the game is over; return the match."""
    for _ in range(MAX_ACTIONS):
        stored, match = await state(env, game_id)
        if stored.finished:
            return match
        assert match.game.phase is not Phase.OVER
        await press_first(env, awaited_user(stored, match, users), chat_id)
        await env.service.settle()
    raise AssertionError("the game did not end")


@pytest.fixture(params=["sqlite", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """Yield each real store in turn (SQLite on a fresh file, Redis on a flushed database)."""
    if request.param == "sqlite":
        sqlite: Store = SqliteGameStore(request.getfixturevalue("sqlite_path"))
        yield sqlite
        await sqlite.close()
    else:
        redis: Store = RedisGameStore.from_url(request.getfixturevalue("redis_url"))
        yield redis
        await redis.close()


async def test_a_group_game_is_rated_and_shown(store: Store) -> None:
    env = Env(store, seeded("ratings-1"), computer=fixed_seed, computer_delay=0)
    fake, h = env.fake, env.h
    alice, bob = fake.user(41, "Alice", "en"), fake.user(42, "Боб <b>", "ru")
    group = fake.group_chat(-4100)

    await h.send_text(alice, group, "/top")
    assert fake.last_message(group.id).content == shown(EN, "top.empty", variant=tr(EN, "variant.short"))

    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    await env.service.settle()
    (game_id,) = await store.chat_games(group.id)
    match = await play_out(env, game_id, group.id, {alice.id: alice, bob.id: bob})
    assert has_entry(board_message(fake, group.id).content, EN, *GAME_OVER)
    result = match.game.result
    assert result is not None and result.winner is not None and result.reason == "bearoff"
    stored, _ = await state(env, game_id)
    ids = [p["id"] for p in stored.data["players"]]
    winner, loser = ids[result.winner], ids[1 - result.winner]
    assert stored.data["rating_plan"]["winner"]["id"] == winner

    # two new players, a match to 1: D = 0, P = ½, K = 4, boost 5: ±10
    ratings = await store.get_ratings("short", [winner, loser])
    assert (ratings[winner].rating, ratings[winner].experience, ratings[winner].matches) == (1510.0, 1, 1)
    assert (ratings[loser].rating, ratings[loser].experience, ratings[loser].matches) == (1490.0, 1, 1)
    # the finishing effects are retried until done: a second application changes nothing
    await apply_rating_plan(store, game_id, stored.data["rating_plan"])
    assert await store.get_ratings("short", [winner, loser]) == ratings

    users = {alice.id: alice, bob.id: bob}
    langs = {alice.id: EN, bob.id: RU}
    await h.send_text(users[winner], group, "/rating")
    text = fake.last_message(group.id).content
    lang = langs[winner]
    short = tr(lang, "variant.short")
    assert shown(lang, "rating.line", variant=short, rating="1510.00", experience=1, matches=1) in text
    assert shown(lang, "rating.unrated", variant=tr(lang, "variant.long"), rating="1500.00") in text
    await h.send_text(users[loser], group, "/рейтинг")
    text = fake.last_message(group.id).content
    lang = langs[loser]
    short = tr(lang, "variant.short")
    assert shown(lang, "rating.line", variant=short, rating="1490.00", experience=1, matches=1) in text

    await store.set_chat_settings(group.id, ChatSettings(theme="dark").to_dict())  # the admins chose dark boards
    await h.send_text(alice, group, "/top")
    photo = fake.last_message(group.id).photo
    assert photo is not None  # the leaderboard picture, the table as its caption
    with Image.open(io.BytesIO(photo)) as picture:  # drawn in the group's theme: its margin is the dark frame
        corner = picture.convert("RGB").getpixel((2, 2))
    assert isinstance(corner, tuple) and max(abs(a - b) for a, b in zip(corner, DARK.frame, strict=False)) <= 12
    lines = fake.last_message(group.id).content.split("\n")
    assert lines[0] == shown(EN, "top.title", variant=tr(EN, "variant.short"))
    names = {alice.id: "Alice", bob.id: "Боб <b>"}
    assert names[winner] in lines[2] and " 1510.0 " in lines[2]  # one decimal, as on the picture
    assert names[loser] in lines[3] and " 1490.0 " in lines[3]
    assert len(lines) == 4
    await h.send_text(bob, group, "/ТОП long")
    assert fake.last_message(group.id).content == shown(RU, "top.empty", variant=tr(RU, "variant.long"))
    await h.send_text(alice, group, "/top backgammon please")
    games = ", ".join(tr(EN, f"variant.{v}") for v in OFFERED)
    assert fake.last_message(group.id).content == shown(EN, "top.usage", games=games)
    await h.send_text(alice, fake.private_chat(alice), "/top")
    assert fake.last_message(alice.id).content == shown(EN, "top.private")

    # a game against the computer changes nothing
    before = await store.get_ratings("short", [alice.id, bob.id])
    await h.send_text(alice, group, "/new bot short easy")
    await env.service.settle()
    (computer_game,) = await store.chat_games(group.id)
    await play_out(env, computer_game, group.id, {alice.id: alice})
    computer_record, _ = await state(env, computer_game)
    assert computer_record.data.get("rating_plan") is None
    assert await store.get_ratings("short", [alice.id, bob.id]) == before
    assert await store.get_ratings("short", [0]) == {0: StoredRating()}
    assert sorted(await store.chat_rated_players(group.id, "short")) == sorted([alice.id, bob.id])
    await env.close()
