"""Wiring: the Bot API server choice, the command menu, and state surviving a new Dispatcher."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from aiogram import Router
from aiogram.client.telegram import PRODUCTION
from aiogram.filters import Command
from aiogram.methods import SendMessage
from aiogram.types import Message
from bot_testkit import build_app
from fake_telegram import BOT_TOKEN, FakeTelegram
from pydantic import SecretStr

from bot.app import api_server, create_bot, drain, main, sender_limits
from bot.commands import COMMANDS, set_bot_commands
from bot.config import Settings
from bot.i18n import create_i18n
from bot.middlewares import ErrorReportingMiddleware
from bot.middlewares.in_flight import InFlightLimitMiddleware
from bot.middlewares.throttle import ThrottleMiddleware
from bot.sender import Sender, SenderClosedError
from bot.storage import SqliteGameStore
from bot.wiring import create_dispatcher


def settings(**values: object) -> Settings:
    return Settings(bot_token=SecretStr(BOT_TOKEN), _env_file=None, **values)  # type: ignore[arg-type]


async def test_api_server_default_and_custom() -> None:
    assert api_server(settings()) is PRODUCTION
    custom = api_server(settings(telegram_api_url="http://localhost:8081/", telegram_api_local=True))
    assert custom.api_url("T", "getMe") == "http://localhost:8081/botT/getMe"
    assert custom.is_local
    bot = create_bot(settings(telegram_api_url="http://tg.local:8081"))
    try:
        assert bot.session.api.base == "http://tg.local:8081/bot{token}/{method}"
        assert bot.default.parse_mode == "HTML"
    finally:
        await bot.session.close()


def test_sender_limits_from_settings() -> None:
    limits = sender_limits(settings(send_interval_private=0.5, group_messages_per_minute=10))
    assert limits.private_interval == 0.5 and limits.group_per_minute == 10
    limits = sender_limits(settings(private_messages_per_minute=40, chat_queue_limit=5))
    assert limits.private_per_minute == 40 and limits.chat_queue_limit == 5
    defaults = sender_limits(settings())
    assert defaults.group_per_minute == 19 and defaults.private_per_minute == 30 and defaults.chat_queue_limit == 20


async def test_dispatcher_middlewares_in_order(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    app = build_app(store)
    kinds = [type(m) for m in app.dp.update.outer_middleware]
    assert kinds[-3:] == [ErrorReportingMiddleware, ThrottleMiddleware, InFlightLimitMiddleware]
    assert app.dp["store"] is store  # Dispatcher data, handed to every handler
    throttle = next(m for m in app.dp.update.outer_middleware if isinstance(m, ThrottleMiddleware))
    limit = next(m for m in app.dp.update.outer_middleware if isinstance(m, InFlightLimitMiddleware))
    assert (throttle.rate, throttle.burst, throttle.clock) == (2.0, 10, app.sender.clock)
    assert limit.slots.limit == 64
    unthrottled = create_dispatcher(
        store, settings(throttle_rate=0, max_updates_in_flight=8), sender=app.sender, throttle_clock=app.clock
    )
    kinds = [type(m) for m in unthrottled.update.outer_middleware]
    assert ThrottleMiddleware not in kinds
    limits = [m for m in unthrottled.update.outer_middleware if isinstance(m, InFlightLimitMiddleware)]
    assert [m.slots.limit for m in limits] == [8]
    await app.sender.close()
    await store.close()


async def test_set_my_commands_in_both_languages() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    await set_bot_commands(bot, create_i18n("ru"))
    calls = fake.calls_named("setMyCommands")
    assert len(calls) == 6  # (default, ru, en) x (private, groups)
    by_key = {(c.json("scope")["type"], c.payload.get("language_code")): c.json("commands") for c in calls}
    private_ru = {c["command"]: c["description"] for c in by_key[("all_private_chats", "ru")]}
    private_en = {c["command"]: c["description"] for c in by_key[("all_private_chats", "en")]}
    assert private_ru["lang"] == "Сменить язык" and private_en["lang"] == "Change the language"
    assert set(private_ru) == {c.name for c in COMMANDS if c.private}
    groups_en = [c["command"] for c in by_key[("all_group_chats", "en")]]
    assert "start" not in groups_en and "help" in groups_en
    assert "top" in groups_en and "top" not in private_ru  # a group's leaderboard
    assert "tournament" in groups_en and "rating" in private_ru
    assert by_key[("all_private_chats", None)] == by_key[("all_private_chats", "ru")]  # default language
    json.dumps([c.payload for c in calls])  # payloads are plain wire data


async def test_startup_registers_commands(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    app = build_app(store)
    await app.dp.emit_startup(bot=app.bot, **app.dp.workflow_data)
    assert len(app.fake.calls_named("setMyCommands")) == 6
    await app.sender.close()
    await store.close()


async def test_language_survives_a_new_dispatcher_on_the_same_store(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    first = build_app(store)
    alice = first.fake.user(101, "Alice", "ru")
    await first.h.send_text(alice, first.fake.private_chat(alice), "/lang")
    await first.h.press_button(alice, first.fake.last_message(alice.id), "English")
    await first.sender.close()
    await store.close()

    reopened = SqliteGameStore(sqlite_path)
    second = build_app(reopened, fake=first.fake)
    await second.h.send_text(alice, first.fake.private_chat(alice), "/start")
    assert "Hi, Alice!" in first.fake.last_message(alice.id).content
    await second.sender.close()
    await reopened.close()


def test_main_never_shows_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a malformed TELEGRAM_API_URL put the token (in the request URL) into the log and the traceback."""
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    token = "123456789:AAF-very-secret-token"
    monkeypatch.setenv("BOT_TOKEN", token)
    monkeypatch.setenv("TELEGRAM_API_URL", "htp//bad host")
    monkeypatch.setenv("REQUEST_TIMEOUT", "5")
    with caplog.at_level(logging.DEBUG), pytest.raises(SystemExit) as info:
        main()
    message = str(info.value)
    assert message.startswith("The bot stopped: TelegramNetworkError") and "bot<redacted>/getMe" in message
    assert token not in message and "very-secret" not in message
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "bot<redacted>" in logged and "Traceback" in logged
    assert "very-secret" not in logged


def test_main_without_a_token_exits_with_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    with pytest.raises(SystemExit) as info:
        main()
    assert "BOT_TOKEN" in str(info.value) and ".env.example" in str(info.value)


async def test_drain_lets_running_handlers_finish_before_the_sender_stops(sqlite_path: str) -> None:
    release = asyncio.Event()
    router = Router(name="slow")

    async def slow(message: Message, sender: Sender) -> None:
        await release.wait()
        await sender.send(SendMessage(chat_id=message.chat.id, text="late but sent"))

    router.message.register(slow, Command("slow"))
    store = SqliteGameStore(sqlite_path)
    app = build_app(store, extra_routers=[router])
    alice = app.fake.user(101, "Alice", "en")
    handling = asyncio.create_task(app.h.send_text(alice, app.fake.private_chat(alice), "/slow"))
    while not any(m.slots.active for m in app.dp.update.outer_middleware if isinstance(m, InFlightLimitMiddleware)):
        await asyncio.sleep(0)
    stopping = asyncio.create_task(drain(app.dp, app.sender, 30.0))
    await asyncio.sleep(0)
    assert not stopping.done()  # waiting for the handler
    release.set()
    assert await stopping == 0
    await handling
    assert app.fake.last_message(alice.id).content == "late but sent"
    with pytest.raises(SenderClosedError):
        app.sender.submit(SendMessage(chat_id=alice.id, text="after the stop"))
    await store.close()
