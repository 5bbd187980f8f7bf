"""Per-user throttling: one notice, then silence until the user's bucket refills; presses are always answered."""

from __future__ import annotations

import asyncio

from bot_testkit import BotApp, build_app
from virtual_time import VirtualClock

from bot.keyboards.callbacks import LangCb
from bot.middlewares.throttle import ThrottleMiddleware, too_fast_text
from bot.storage import SqliteGameStore

TOO_FAST = {"en": "Too fast: please wait a moment.", "ru": "Слишком часто: подождите немного."}


def test_bucket_allows_the_burst_then_the_rate() -> None:
    clock = VirtualClock()
    throttle = ThrottleMiddleware(rate=2.0, burst=3, clock=clock)
    assert [throttle.allow(1) for _ in range(4)] == [True, True, True, False]
    assert throttle.allow(2)  # other users have their own bucket
    clock.now += 0.5  # one token back
    assert [throttle.allow(1) for _ in range(2)] == [True, False]
    clock.now += 10
    assert [throttle.allow(1) for _ in range(4)] == [True, True, True, False]


def test_idle_users_are_forgotten_and_memory_is_bounded() -> None:
    clock = VirtualClock()
    throttle = ThrottleMiddleware(rate=1.0, burst=2, clock=clock, max_users=50)
    for user_id in range(40):
        throttle.allow(user_id)
    assert throttle.tracked_users() == 40
    clock.now += 2.0  # every bucket is full again: the same as a new one
    throttle.allow(1000)
    assert throttle.tracked_users() == 1
    for user_id in range(500):
        throttle.allow(user_id)
    assert throttle.tracked_users() <= 50


def test_notice_texts() -> None:
    assert too_fast_text("ru") == TOO_FAST["ru"] == "Слишком часто: подождите немного."
    assert too_fast_text("en-GB") == TOO_FAST["en"] == "Too fast: please wait a moment."
    assert too_fast_text(None, default="en") == TOO_FAST["en"]
    assert too_fast_text(None) == TOO_FAST["ru"]


async def _app(sqlite_path: str) -> tuple[BotApp, SqliteGameStore]:
    store = SqliteGameStore(sqlite_path)
    return build_app(store), store


async def test_a_flood_of_help_in_a_group_gets_one_notice(sqlite_path: str) -> None:
    """Regression: 200 × /help from one user in a group queued 200 replies in front of every board edit."""
    app, store = await _app(sqlite_path)
    carol = app.fake.user(7, "Carol", "en")
    group = app.fake.group_chat(-700)
    await asyncio.gather(*(app.h.send_text(carol, group, "/help") for _ in range(200)))
    await app.sender.drain()
    replies = [m.content for m in app.fake.messages(group.id)]
    burst = app.settings.throttle_burst
    assert len(replies) == burst + 1
    assert replies.count(TOO_FAST["en"]) == 1
    assert sum("Nardy bot" in r for r in replies) == burst
    await app.sender.close()
    await store.close()


async def test_one_notice_per_throttling_episode(sqlite_path: str) -> None:
    app, store = await _app(sqlite_path)
    boris = app.fake.user(8, "Борис", "ru")
    chat = app.fake.private_chat(boris)
    await asyncio.gather(*(app.h.send_text(boris, chat, "/help") for _ in range(30)))
    notices = [m for m in app.fake.messages(chat.id) if m.content == TOO_FAST["ru"]]
    assert len(notices) == 1
    app.clock.now += 60  # the bucket refills: Boris is served again, and a new flood gets one new notice
    await asyncio.gather(*(app.h.send_text(boris, chat, "/help") for _ in range(30)))
    assert [m.content for m in app.fake.messages(chat.id)].count(TOO_FAST["ru"]) == 2
    await app.sender.close()
    await store.close()


async def test_every_press_is_answered(sqlite_path: str) -> None:
    app, store = await _app(sqlite_path)
    alice = app.fake.user(9, "Alice", "en")
    updates = [app.fake.callback_update(alice, -701, 1, LangCb(code="en").pack()) for _ in range(40)]
    await asyncio.gather(*(app.h.feed(u) for u in updates))
    toasts = app.fake.toasts_for(alice.id)
    assert len(toasts) == 40
    assert toasts.count("Language: English") == app.settings.throttle_burst
    assert toasts.count(TOO_FAST["en"]) == 40 - app.settings.throttle_burst
    await app.sender.close()
    await store.close()


async def test_updates_without_a_user_and_disabled_throttling_pass(sqlite_path: str) -> None:
    app, store = await _app(sqlite_path)
    throttle = next(m for m in app.dp.update.outer_middleware if isinstance(m, ThrottleMiddleware))
    throttle.rate = 0.0  # THROTTLE_RATE=0
    dave = app.fake.user(10, "Dave", "en")
    chat = app.fake.private_chat(dave)
    for _ in range(20):
        await app.h.send_text(dave, chat, "/help")
    assert len(app.fake.messages(chat.id)) == 20 and throttle.dropped == 0
    await app.sender.close()
    await store.close()
