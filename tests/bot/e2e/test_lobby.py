"""The lobby end to end (docs/rules.md "Lobby"), through the real Dispatcher over the fake Bot API on virtual time:
a pair made across two workers on one store (each user's ``/play`` handled by another worker), the passes every
2 s that widen the rating window, a rematch series with its score on the board, block, the cool-down after an
abandoned game, expiry and cancel, and the refusals of ``/play``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram.types import User

from bot.model.clock import FIRST_MOVE_WINDOW
from bot.model.game import GameRecord
from bot.services.lobby.rules import LOBBY_POOL, LOBBY_TICKER_LEAD
from bot.services.lobby.status import CancelOutcome
from bot.storage import RedisGameStore, SqliteGameStore, Store, StoredRating
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.test_clock import START, Now
from tests.bot.e2e.texts import EN, has_entry, shown
from tests.bot.fake_telegram import FakeTelegram, ShownMessage


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


def worker(store: Store, fake: FakeTelegram, now: Now, *, ticker: bool = False) -> Env:
    """Return a worker (its own Dispatcher and services) on the shared store and fake Telegram, on ``now``; its
    lobby passes every 2 s only when ``ticker`` (else the test runs the passes)."""
    options: dict[str, object] = {"clock": now, "lobby_pass_interval": 2.0 if ticker else 0.0}
    if ticker:
        options["sleep"] = now.sleep
    return Env(store, seeded("lobby"), fake=fake, **options)


def lobby_messages(fake: FakeTelegram, user: User) -> list[ShownMessage]:
    """Return the lobby's text messages in the user's private chat (not the boards), oldest first."""
    return [m for m in fake.messages(user.id) if m.photo is None and m.photo_file_id is None]


def seeking_message(fake: FakeTelegram, user: User) -> ShownMessage:
    """Return the user's latest "seeking…" message (the one the lobby edits)."""
    found = [m for m in lobby_messages(fake, user) if "Looking for an opponent" in m.content or m.edits]
    assert found, [m.content for m in lobby_messages(fake, user)]
    return found[-1]


async def passes_done(now: Now, envs: tuple[Env, ...]) -> None:
    """Wait until every running ticker of ``envs`` has made its pass and sleeps until the next one (2 s on)."""
    for _ in range(5000):
        asleep = sum(1 for at, woken in now._sleepers if at == now.now + 2.0 and not woken.done())
        if asleep >= sum(env.service.lobby.ticker.running for env in envs):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the lobby's passes did not finish")


async def game_of(store: Store, user: User) -> str:
    """Return the id of the user's only running game."""
    games = await store.user_games(user.id)
    assert len(games) == 1, games
    return games[0]


async def record(store: Store, game_id: str) -> GameRecord:
    stored = await store.get_game(game_id)
    assert stored is not None
    return GameRecord.from_stored(stored)


async def finish(env: Env, game_id: str, loser: int) -> None:
    """End the game as lost by ``loser`` and let its final boards be drawn."""
    await env.service.actions.end_match(game_id, loser)
    await env.service.settle()


async def pair(a: Env, b: Env, first: User, second: User) -> str:
    """``/play`` by ``first`` on worker ``a`` and by ``second`` on worker ``b``; return their game's id."""
    await a.h.send_text(first, a.fake.private_chat(first), "/play")
    await b.h.send_text(second, b.fake.private_chat(second), "/play")
    game_id = await game_of(a.store, first)
    assert await a.store.user_games(second.id) == [game_id]
    return game_id


async def test_a_pair_is_made_across_two_workers_and_plays_in_both_private_chats(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(701, "Alice", "en"), fake.user(702, "Bob", "en")

    await one.h.send_text(alice, fake.private_chat(alice), "/play short 12+2")
    seeking = seeking_message(fake, alice)
    assert seeking.content == shown(
        EN, "lobby.seeking", variant=shown(EN, "variant.short"), clock="12+2", rating=1500, minutes=10
    )
    assert seeking.button_texts() == [shown(EN, "btn.lobby_cancel")]
    assert [e.member for e in await store.pool_entries(LOBBY_POOL, now.now)] == [str(alice.id)]
    status = await two.service.lobby.lobby.status(alice.id)
    assert status.to_json() == {
        "state": "seeking",
        "since": START,
        "variant": "short",
        "clock": "12+2",
        "game": None,
        "cooldown_until": None,
    }

    now.now += 5
    await two.h.send_text(bob, fake.private_chat(bob), "/play")  # the other worker pairs them at once
    await one.service.settle()
    game_id = await game_of(store, alice)
    assert await store.user_games(bob.id) == [game_id]
    assert await store.pool_entries(LOBBY_POOL, now.now) == []
    saved = await record(store, game_id)
    assert saved.kind == "private" and saved.lobby is not None and saved.lobby.series == game_id
    assert [p.id for p in saved.players] == [alice.id, bob.id]  # the longer waiter first
    assert [(c.chat_id, c.viewer) for c in saved.chats] == [(alice.id, 0), (bob.id, 1)]
    assert saved.clock is not None and saved.clock.control.label == "12+2" and saved.clock.reserves == (120.0, 120.0)
    for user, other in ((alice, bob), (bob, alice)):
        found = shown(
            EN,
            "lobby.found",
            name=other.first_name,
            rating=1500,
            variant=shown(EN, "variant.short"),
            clock="12+2",
        )
        assert seeking_message(fake, user).content == found
        assert seeking_message(fake, user).buttons() == []
        assert board_message(fake, user.id).photo is not None
    assert (await one.service.lobby.lobby.status(bob.id)).to_json()["state"] == "playing"
    # a pass of either worker (or both at once) makes nothing more
    await asyncio.gather(one.service.lobby.sweep(), two.service.lobby.sweep())
    assert await store.user_games(alice.id) == [game_id]
    for env in (one, two):
        await env.close()


async def test_the_passes_widen_the_rating_window_with_the_wait(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now, ticker=True), worker(store, fake, now, ticker=True)
    carol, dave = fake.user(711, "Carol", "en"), fake.user(712, "Dave", "en")
    await store.apply_ratings("short", "earlier", {carol.id: 0}, {carol.id: StoredRating(1800.0, 50, 1, "Carol")})
    await one.h.send_text(carol, fake.private_chat(carol), "/play")
    await two.h.send_text(dave, fake.private_chat(dave), "/play")
    assert await store.user_games(carol.id) == []  # 300 points apart: wider than the window at first
    assert one.service.lobby.ticker.running and two.service.lobby.ticker.running
    for second in range(2, 62, 2):
        await now.advance(START + second)
        await passes_done(now, (one, two))
        if second == 2:  # one of the two workers leads the passes; a third could not
            assert not await store.try_lead_pool(LOBBY_TICKER_LEAD, "a third worker", 6.0, now.now)
        if await store.user_games(carol.id):
            break
    game_id = await game_of(store, carol)
    assert await store.user_games(dave.id) == [game_id]
    assert now.now - START == 20  # 100 points at once, 10 more a second of the wait: 300 apart after 20 s
    await now.advance(now.now + 2)  # a ticker that did not pair finds nobody and stops
    await passes_done(now, (one, two))
    assert not one.service.lobby.ticker.running and not two.service.lobby.ticker.running
    for env in (one, two):
        await env.service.settle()
        await env.close()


async def test_a_rematch_makes_a_series_whose_score_the_board_shows(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(721, "Alice", "en"), fake.user(722, "Bob", "en")
    first = await pair(one, two, alice, bob)
    await finish(one, first, loser=1)  # Alice wins game 1
    board = board_message(fake, alice.id)
    assert shown(EN, "lobby.series", a=1, b=0) in board.content
    assert board.button_texts() == [
        shown(EN, "btn.lobby_rematch"),
        shown(EN, "btn.lobby_new"),
        shown(EN, "btn.lobby_block"),
        shown(EN, "btn.lobby_report"),
        shown(EN, "btn.record"),
    ]
    # one press is an offer; the opponent is asked, and a second press of the same player changes nothing
    await one.h.press_button(alice, board, shown(EN, "btn.lobby_rematch"))
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "lobby.rematch_waiting")
    await one.h.press_button(alice, board_message(fake, alice.id), shown(EN, "btn.lobby_rematch"))
    assert await store.user_games(alice.id) == []
    offer = lobby_messages(fake, bob)[-1]
    assert has_entry(offer.content, EN, "lobby.rematch_offer", name="Alice"), offer.content
    assert shown(EN, "lobby.series", a=0, b=1) in offer.content  # Bob's own score first
    # the opponent accepts from the offer (on the other worker): the second game of the series
    await two.h.press_button(bob, offer, shown(EN, "btn.lobby_rematch"))
    await two.service.settle()
    second = await game_of(store, alice)
    assert second != first and await store.user_games(bob.id) == [second]
    saved = await record(store, second)
    assert [p.id for p in saved.players] == [bob.id, alice.id]  # colours swapped
    assert saved.lobby is not None and saved.lobby.series == first and saved.lobby.score == (0, 1)
    assert shown(EN, "lobby.series", a=0, b=1) in board_message(fake, bob.id).content
    # a late press of the first board's Rematch makes no third game
    await one.h.press_button(alice, board, shown(EN, "btn.lobby_rematch"))
    assert await store.user_games(alice.id) == [second]
    await finish(two, second, loser=0)  # Alice (player 1 now) wins game 2
    assert shown(EN, "lobby.series", a=0, b=2) in board_message(fake, bob.id).content
    assert shown(EN, "lobby.series", a=0, b=2) in board_message(fake, alice.id).content
    for env in (one, two):
        await env.close()


async def test_a_blocked_player_is_never_paired_again_while_others_are(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob, carol = (fake.user(730 + i, name, "en") for i, name in enumerate(("Alice", "Bob", "Carol"), 1))
    game_id = await pair(one, two, alice, bob)
    await finish(one, game_id, loser=0)
    await two.h.press_button(bob, board_message(fake, bob.id), shown(EN, "btn.lobby_block"))
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "lobby.blocked")
    await two.h.press_button(bob, board_message(fake, bob.id), shown(EN, "btn.lobby_block"))
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "lobby.blocked_already")
    # no rematch with a blocked player either
    await one.h.press_button(alice, board_message(fake, alice.id), shown(EN, "btn.lobby_rematch"))
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "lobby.rematch_refused")

    # Alice seeks, then Bob (on the other worker): a long wait and many passes never pair them
    await one.h.send_text(alice, fake.private_chat(alice), "/play")
    await two.h.send_text(bob, fake.private_chat(bob), "/play")
    for _ in range(5):
        now.now += 100  # beyond any rating window, within the seek's 10 minutes
        await asyncio.gather(one.service.lobby.sweep(), two.service.lobby.sweep())
        now.now -= 99
    assert await store.user_games(alice.id) == [] and await store.user_games(bob.id) == []
    # Carol comes: paired with the longer waiter, Alice; Bob still waits
    await one.h.send_text(carol, fake.private_chat(carol), "/play")
    game_id = await game_of(store, carol)
    assert await store.user_games(alice.id) == [game_id]
    assert await store.user_games(bob.id) == []
    assert [e.member for e in await store.pool_entries(LOBBY_POOL, now.now)] == [str(bob.id)]
    for env in (one, two):
        await env.close()


async def test_reports_are_counted_once_per_game_and_shown_to_the_operator(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    env = worker(store, fake, now)
    alice, bob = fake.user(741, "Alice", "en"), fake.user(742, "Bob", "en")
    game_id = await pair(env, env, alice, bob)
    await finish(env, game_id, loser=0)
    for _ in range(2):
        await env.h.press_button(alice, board_message(fake, alice.id), shown(EN, "btn.lobby_report"))
    assert fake.toasts_for(alice.id)[-2:] == [shown(EN, "lobby.reported"), shown(EN, "lobby.reported_already")]
    await env.h.send_text(alice, fake.private_chat(alice), "/reports")
    assert lobby_messages(fake, alice)[-1].content == shown(EN, "lobby.operator_only")
    env.settings.operator_ids = [999]
    operator = fake.user(999, "Op", "en")
    await env.h.send_text(operator, fake.private_chat(operator), "/reports")
    listing = lobby_messages(fake, operator)[-1].content
    assert listing.splitlines() == [
        shown(EN, "lobby.reports.title"),
        shown(EN, "lobby.reports.line", user=bob.id, count=1),
    ]
    await env.close()


async def test_an_abandoned_game_gives_a_cool_down_shown_when_seeking(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    env = worker(store, fake, now)
    alice, bob = fake.user(751, "Alice", "en"), fake.user(752, "Bob", "en")
    game_id = await pair(env, env, alice, bob)
    saved = await record(store, game_id)
    assert saved.clock is not None and saved.clock.running is not None
    quitter = (alice, bob)[saved.clock.running]  # nobody moves: the first-move window runs out
    now.now += FIRST_MOVE_WINDOW + 1
    await env.service.sweep(now.now)
    await env.service.settle()
    stored = await store.get_game(game_id)
    assert stored is not None and stored.finished
    await env.h.send_text(quitter, fake.private_chat(quitter), "/play")
    refusal = lobby_messages(fake, quitter)[-1].content
    assert has_entry(refusal, EN, "lobby.cooldown"), refusal
    assert "(in 5 min)" in refusal
    assert await store.pool_entries(LOBBY_POOL, now.now) == []
    status = await env.service.lobby.lobby.status(quitter.id)
    assert status.cooldown_until is not None and status.cooldown_until > now.now
    now.now += 301
    await env.h.send_text(quitter, fake.private_chat(quitter), "/play")
    assert [e.member for e in await store.pool_entries(LOBBY_POOL, now.now)] == [str(quitter.id)]
    await env.close()


async def test_a_seek_can_be_cancelled_and_expires_with_a_word(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(761, "Alice", "en"), fake.user(762, "Bob", "en")
    await one.h.send_text(alice, fake.private_chat(alice), "/play long")
    await two.h.press_button(alice, seeking_message(fake, alice), shown(EN, "btn.lobby_cancel"))
    assert seeking_message(fake, alice).content == shown(EN, "lobby.cancelled")
    assert seeking_message(fake, alice).buttons() == []
    assert await store.pool_entries(LOBBY_POOL, now.now) == []
    assert (await one.service.lobby.lobby.status(alice.id)).state == "idle"

    await one.h.send_text(bob, fake.private_chat(bob), "/play long")
    now.now += 599
    await two.service.lobby.sweep()
    assert [e.member for e in await store.pool_entries(LOBBY_POOL, now.now)] == [str(bob.id)]
    now.now += 1
    await asyncio.gather(one.service.lobby.sweep(), two.service.lobby.sweep())
    assert seeking_message(fake, bob).content == shown(EN, "lobby.expired", minutes=10)
    assert len([m for m in lobby_messages(fake, bob) if m.content == shown(EN, "lobby.expired", minutes=10)]) == 1
    assert await store.pool_entries(LOBBY_POOL, now.now) == []
    assert seeking_message(fake, bob).buttons() == []
    for env in (one, two):
        await env.close()


async def test_play_is_refused_clearly(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    env = worker(store, fake, now)
    alice, bob, carol = (fake.user(770 + i, name, "en") for i, name in enumerate(("Alice", "Bob", "Carol"), 1))
    group = fake.group_chat(-7700)
    await env.h.send_text(alice, group, "/play")
    answer = fake.last_message(group.id)
    assert answer.content == shown(EN, "lobby.group")
    url = answer.buttons()[0][0].url
    assert url is not None and url.startswith("https://t.me/") and url.endswith("?start=play")
    assert await store.pool_entries(LOBBY_POOL, now.now) == []

    chat = fake.private_chat(alice)
    await env.h.send_text(alice, chat, "/play tavli")
    assert lobby_messages(fake, alice)[-1].content == shown(EN, "lobby.bad", word="tavli")
    await env.h.send_text(alice, chat, "/play short 99+1")
    assert lobby_messages(fake, alice)[-1].content == shown(EN, "clock.invalid", value="99+1")
    await env.h.send_text(alice, chat, "/play chess")
    assert lobby_messages(fake, alice)[-1].content == shown(EN, "lobby.bad", word="chess")
    await env.h.send_text(alice, chat, "/play")
    await env.h.send_text(alice, chat, "/play long")
    assert lobby_messages(fake, alice)[-1].content == shown(EN, "lobby.already")
    assert [e.member for e in await store.pool_entries(LOBBY_POOL, now.now)] == [str(alice.id)]  # never herself
    assert await env.service.lobby.lobby.cancel(alice.id) is CancelOutcome.CANCELLED

    # a player in a game is refused unless they ask for one more
    game_id = await pair(env, env, bob, carol)
    await env.h.send_text(alice, chat, "/play")
    await env.h.send_text(bob, fake.private_chat(bob), "/play")
    assert lobby_messages(fake, bob)[-1].content == shown(EN, "lobby.playing")
    await env.h.send_text(bob, fake.private_chat(bob), "/play more")
    games = await store.user_games(bob.id)
    assert len(games) == 2 and game_id in games  # paired with Alice, who waited
    assert len(await store.user_games(alice.id)) == 1
    await env.close()


async def test_a_player_found_in_another_game_at_pairing_time_is_taken_out_and_told(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    env = worker(store, fake, now)
    bob, carol = fake.user(781, "Bob", "en"), fake.user(782, "Carol", "en")
    await env.h.send_text(bob, fake.private_chat(bob), "/play")
    await env.h.send_text(bob, fake.private_chat(bob), "/new bot")  # a game against the computer meanwhile
    computer_game = await game_of(store, bob)
    await env.h.send_text(carol, fake.private_chat(carol), "/play")
    assert await store.user_games(bob.id) == [computer_game]  # not put into a second game
    assert await store.user_games(carol.id) == []
    assert seeking_message(fake, bob).content == shown(EN, "lobby.busy")
    assert [e.member for e in await store.pool_entries(LOBBY_POOL, now.now)] == [str(carol.id)]
    await env.close()


async def test_a_worker_dying_mid_pairing_loses_nobody(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    dying, other = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(791, "Alice", "en"), fake.user(792, "Bob", "en")
    await other.h.send_text(alice, fake.private_chat(alice), "/play")
    real_start = dying.service.actions.start_game

    async def killed(*args: object, **kwargs: object) -> str | None:
        raise RuntimeError("the worker died while making the game")

    dying.service.actions.start_game = killed  # type: ignore[method-assign]
    await dying.h.send_text(bob, fake.private_chat(bob), "/play")
    dying.service.actions.start_game = real_start  # type: ignore[method-assign]
    assert await store.user_games(alice.id) == [] and await store.pool_entries(LOBBY_POOL, now.now) == []
    (open_pairing,) = await store.open_pairings(LOBBY_POOL, now.now + 1)
    now.now += 31  # beyond the pairing's lease: the other worker's pass rolls it forward
    await other.service.lobby.sweep()
    await other.service.settle()
    assert await store.user_games(alice.id) == [open_pairing.pairing_id] == await store.user_games(bob.id)
    assert await store.open_pairings(LOBBY_POOL, now.now + 1) == []
    await other.service.lobby.sweep()
    assert await store.user_games(alice.id) == [open_pairing.pairing_id]
    for env in (dying, other):
        await env.close()


async def test_a_lobby_game_played_out_is_rated(store: Store) -> None:
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(741, "Alice", "en"), fake.user(742, "Bob", "en")
    game_id = await pair(one, two, alice, bob)
    users = {alice.id: alice, bob.id: bob}
    for _ in range(3000):  # each action on the worker of its player's /play, until the game is over
        stored, match = await state(one, game_id)
        if stored.finished:
            break
        user = awaited_user(stored, match, users)
        env = one if user.id == alice.id else two
        await press_first(env, user, user.id)
        await env.service.settle()
    else:
        raise AssertionError("the lobby game did not end after 3000 actions")
    result = match.game.result
    assert result is not None and result.winner is not None
    ids = [p["id"] for p in stored.data["players"]]
    winner, loser = ids[result.winner], ids[1 - result.winner]
    assert stored.data["rating_plan"]["winner"]["id"] == winner  # a lobby game is rated as a match to 1
    ratings = await store.get_ratings("short", [winner, loser])
    assert (ratings[winner].rating, ratings[winner].matches) == (1510.0, 1)
    assert (ratings[loser].rating, ratings[loser].matches) == (1490.0, 1)
    for env in (one, two):
        await env.close()
