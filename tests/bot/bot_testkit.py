"""Helpers shared by the bot tests (a uniquely named module: ``from bot_testkit import ...``; fixtures stay in
``conftest.py``): a whole bot wired on the fake Telegram and virtual time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aiogram import Bot, Dispatcher, Router
from fake_telegram import BOT_TOKEN, FakeTelegram, TelegramHarness
from pydantic import SecretStr
from virtual_time import VirtualClock

from bot.config import Settings
from bot.sender import Sender
from bot.storage import Store
from bot.wiring import create_dispatcher


@dataclass
class BotApp:
    """A whole bot wired for tests: fake Telegram, real Bot and Dispatcher, a store and a virtual-time sender."""

    fake: FakeTelegram
    bot: Bot
    dp: Dispatcher
    store: Store
    sender: Sender
    settings: Settings
    clock: VirtualClock
    h: TelegramHarness


def build_app(store: Store, *, fake: FakeTelegram | None = None, extra_routers: Sequence[Router] = ()) -> BotApp:
    """Return a :class:`BotApp` on ``store`` (a new fake Telegram unless one is given): the infra of the bot as the
    composition root builds it (:func:`bot.wiring.create_dispatcher`), without the game flows."""
    fake = fake or FakeTelegram()
    bot = fake.make_bot()
    clock = VirtualClock()
    sender = Sender(bot, clock=clock, sleep=clock.sleep)
    settings = Settings(bot_token=SecretStr(BOT_TOKEN), _env_file=None)  # type: ignore[call-arg]
    dp = create_dispatcher(store, settings, sender=sender, extra_routers=extra_routers)
    return BotApp(fake, bot, dp, store, sender, settings, clock, TelegramHarness(fake, bot, dp))
