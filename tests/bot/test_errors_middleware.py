"""Any exception in a handler is logged with the update id and answered with a short apology; a storage
outage is reported as "temporarily unavailable", and the bot recovers when the storage returns."""

from __future__ import annotations

import logging

import pytest
from aiogram import F, Router
from aiogram.filters import Command
from aiogram.methods import SendMessage
from aiogram.types import CallbackQuery, Message
from bot_testkit import build_app

from bot.keyboards.callbacks import LangCb
from bot.middlewares.errors import ErrorReportingMiddleware
from bot.sender import SendDropped
from bot.storage import RedisGameStore, SqliteGameStore, Store, StoreUnavailableError


def exploding_router() -> Router:
    router = Router(name="exploding")

    async def boom(message: Message) -> None:
        raise RuntimeError("handler bug")

    async def boom_press(query: CallbackQuery) -> None:
        raise KeyError("press bug")

    async def down(message: Message) -> None:
        raise StoreUnavailableError("redis is down")

    router.message.register(boom, Command("boom"))
    router.message.register(down, Command("down"))
    router.callback_query.register(boom_press, F.data == "boom")
    return router


async def test_exception_in_a_message_handler(sqlite_path: str, caplog: pytest.LogCaptureFixture) -> None:
    store = SqliteGameStore(sqlite_path)
    app = build_app(store, extra_routers=[exploding_router()])
    alice = app.fake.user(101, "Alice", "en")
    boris = app.fake.user(102, "Борис", "ru")
    group = app.fake.group_chat(-1001)
    with caplog.at_level(logging.ERROR, logger="bot.middlewares.errors"):
        update = await app.h.send_text(alice, group, "/boom")
    reply = app.fake.last_message(group.id)
    assert reply.content == "Sorry, something went wrong. The game is unchanged; please try again."
    assert reply.reply_to == update.message.message_id  # type: ignore[union-attr]
    assert f"update {update.update_id}" in caplog.text and "RuntimeError" in caplog.text

    await app.h.send_text(boris, group, "/down")
    assert app.fake.last_message(group.id).content == "Бот временно недоступен. Попробуйте через минуту."

    # The bot goes on working afterwards.
    await app.h.send_text(alice, group, "/help")
    assert "Nardy bot" in app.fake.last_message(group.id).content
    await app.sender.close()
    await store.close()


async def test_exception_in_a_press_handler_gives_a_toast(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    app = build_app(store, extra_routers=[exploding_router()])
    alice = app.fake.user(101, "Alice", "ru")
    await app.h.send_text(alice, app.fake.private_chat(alice), "/start")
    menu = app.fake.last_message(alice.id)
    await app.h.press(alice, alice.id, menu.message_id, "boom")
    assert app.fake.toasts_for(alice.id) == ["Извините, что-то пошло не так. Партия не изменилась; попробуйте ещё раз."]
    assert len(app.fake.messages(alice.id)) == 1
    await app.sender.close()
    await store.close()


async def test_apology_failure_is_swallowed(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    app = build_app(store, extra_routers=[exploding_router()])
    alice = app.fake.user(101, "Alice", "en")
    app.fake.fail_next("sendMessage", error_code=403, description="Forbidden: bot was blocked by the user")
    await app.h.send_text(alice, app.fake.private_chat(alice), "/boom")  # must not raise
    assert app.fake.messages(alice.id) == []
    await app.sender.close()
    await store.close()


async def _unreachable_then_back(store: Store, reopen: Store) -> None:
    """Drive /start and a /lang press while ``store`` is unreachable, then the same on ``reopen``."""
    app = build_app(store)
    alice = app.fake.user(101, "Alice", "en")
    chat = app.fake.private_chat(alice)
    # /start does not need the store: the language falls back to Telegram's.
    await app.h.send_text(alice, chat, "/start")
    assert "Hi, Alice!" in app.fake.last_message(alice.id).content
    await app.h.send_text(alice, chat, "/lang")
    picker = app.fake.last_message(alice.id)
    await app.h.press(alice, alice.id, picker.message_id, LangCb(code="ru").pack())
    assert app.fake.toasts_for(alice.id) == ["The bot is temporarily unavailable. Please try again in a minute."]
    assert picker.edits == 0
    await app.sender.close()

    back = build_app(reopen, fake=app.fake)
    await back.h.press(alice, alice.id, picker.message_id, LangCb(code="ru").pack())
    assert app.fake.toasts_for(alice.id)[-1] == "Язык: Русский"
    assert await reopen.get_user_settings(alice.id) == {"lang": "ru"}
    await back.sender.close()


async def test_redis_outage_and_recovery(redis_url: str) -> None:
    dead = RedisGameStore.from_url("redis://127.0.0.1:1/0", timeout=0.5)
    live = RedisGameStore.from_url(redis_url)
    try:
        await _unreachable_then_back(dead, live)
    finally:
        await dead.close()
        await live.close()


async def test_sqlite_outage_and_recovery(sqlite_path: str) -> None:
    closed = SqliteGameStore(sqlite_path)
    await closed.close()
    live = SqliteGameStore(sqlite_path)
    try:
        await _unreachable_then_back(closed, live)
    finally:
        await live.close()


def dropping_router() -> Router:
    router = Router(name="dropping")

    async def dropped(message: Message) -> None:
        raise SendDropped(SendMessage(chat_id=message.chat.id, text="x"), "the chat's queue of replies is full")

    router.message.register(dropped, Command("dropped"))
    return router


async def test_a_dropped_reply_is_not_a_failure_and_gets_no_apology(sqlite_path: str) -> None:
    """A reply the sender dropped under a flood must not be answered by an apology (more chatter)."""
    store = SqliteGameStore(sqlite_path)
    app = build_app(store, extra_routers=[dropping_router()])
    alice = app.fake.user(101, "Alice", "en")
    await app.h.send_text(alice, app.fake.private_chat(alice), "/dropped")
    await app.sender.drain()
    assert app.fake.messages(alice.id) == []
    errors = next(m for m in app.dp.update.outer_middleware if isinstance(m, ErrorReportingMiddleware))
    assert errors.failures == 0
    await app.sender.close()
    await store.close()
