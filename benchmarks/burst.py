"""Burst benchmark: 1,000 simultaneous button presses over 100 games, through the bot's real update path.

``python benchmarks/burst.py [--games 100] [--presses 1000] [--latency 0.05] [--stores sqlite,redis]
[--max-in-flight N] [--unbounded]``

The real Dispatcher (``bot.wiring.build_dispatcher`` with the game routers and every middleware: error reporting,
throttling, the bound on updates in flight, the store) and the real paced :class:`~bot.sender.Sender` (on the wall
clock, production limits) run against the fake Bot API of the tests (``tests/bot/fake_telegram.py``), which
answers each call after ``--latency`` seconds. Set-up: ``--games`` group games, each between the two users of one
of ``--games``/2 pairs (every pair plays in two groups), started by ``/new short`` and "Join". Then all
``--presses`` presses of each game's first board button arrive at once, spread evenly over the games and over both
players (so no user exceeds ``THROTTLE_BURST``), and are fed concurrently through ``Dispatcher.feed_update``, as
polling does. In every game the awaited player's first press applies (the board is edited), the others are
refused with a toast ("not your turn", "the game has changed").

Printed per store: presses served (answered with anything but "temporarily unavailable"), refused ("temporarily
unavailable"), throttled, unanswered; p50/p99/max seconds from the burst to each press's ``answerCallbackQuery``
and to each game's board edit; the peak of updates in flight. ``--unbounded`` shows the behaviour without the
bound (``MAX_UPDATES_IN_FLIGHT`` = the number of presses). Redis runs when ``REDIS_URL`` is set; THE REDIS
DATABASE IT NAMES IS FLUSHED before and after the run. Figures, never pass/fail: not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bot"))

from aiogram import Bot
from aiogram.methods import TelegramMethod
from pydantic import SecretStr
from redis.asyncio import Redis

from bot.app import sender_limits
from bot.config import Settings
from bot.middlewares.errors import UNAVAILABLE
from bot.middlewares.in_flight import InFlightLimitMiddleware
from bot.middlewares.throttle import too_fast_text
from bot.sender import Sender
from bot.storage import RedisGameStore, SqliteGameStore, Store
from bot.wiring import build_dispatcher
from tests.bot.e2e.helpers import board_message, seeded
from tests.bot.fake_telegram import BOT_TOKEN, FakeTelegram

BOARD_CALLS = ("editMessageMedia", "editMessageCaption", "editMessageReplyMarkup", "sendPhoto")


class TimedFakeTelegram(FakeTelegram):
    """The fake Bot API, answering after ``latency`` seconds and recording when each call arrived."""

    def __init__(self, latency: float) -> None:
        super().__init__()
        self.latency = latency
        self.arrivals: list[tuple[float, str, dict[str, Any]]] = []

    async def make_request(self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None) -> Any:
        await asyncio.sleep(self.latency)
        self.arrivals.append((time.monotonic(), method.__api_method__, method.model_dump(warnings=False)))
        return await super().make_request(bot, method, timeout)


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0..1) of ``values`` (nearest rank), or NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def summary(values: list[float]) -> str:
    """Return "p50 … p99 … max …" in seconds."""
    if not values:
        return "n/a"
    return f"p50 {statistics.median(values):.3f} s, p99 {percentile(values, 0.99):.3f} s, max {max(values):.3f} s"


async def run_burst(store: Store, args: argparse.Namespace) -> None:
    """Set up the games on ``store``, fire the burst and print the figures."""
    env: dict[str, Any] = {
        "bot_token": SecretStr(BOT_TOKEN),
        "_env_file": None,
    }
    if args.unbounded:
        env["max_updates_in_flight"] = args.presses
    elif args.max_in_flight:
        env["max_updates_in_flight"] = args.max_in_flight
    settings = Settings(**env)
    fake = TimedFakeTelegram(args.latency)
    bot = fake.make_bot()
    sender = Sender(bot, sender_limits(settings))
    dp, _games = build_dispatcher(settings, store, sender, dice=seeded("burst"), computer_delay=0, render_processes=0)

    pairs = max(1, args.games // 2)
    users = [(fake.user(2 * p + 1, f"A{p}", "en"), fake.user(2 * p + 2, f"B{p}", "en")) for p in range(pairs)]
    groups = [fake.group_chat(-(10_000 + g)) for g in range(args.games)]

    async def start(g: int) -> None:
        alice, bob = users[g % pairs]
        await dp.feed_update(bot, fake.message_update(alice, groups[g], "/new short"))
        card = fake.last_message(groups[g].id)
        button = card.button("Join")
        await dp.feed_update(bot, fake.callback_update(bob, groups[g].id, card.message_id, button.callback_data or ""))

    setup_started = time.monotonic()
    for first in range(0, args.games, 10):
        await asyncio.gather(*(start(g) for g in range(first, min(args.games, first + 10))))
    await sender.drain()
    await asyncio.sleep(1.5)  # every chat's one-second interval has passed: the burst starts on idle chats
    setup_seconds = time.monotonic() - setup_started

    updates = []
    for i in range(args.presses):
        g = i % args.games
        user = users[g % pairs][(i // args.games) % 2]
        board = board_message(fake, groups[g].id)
        data = board.buttons()[0][0].callback_data or ""
        updates.append((g, fake.callback_update(user, groups[g].id, board.message_id, data)))
    query_game = {u.callback_query.id: g for g, u in updates if u.callback_query is not None}
    fake.arrivals.clear()
    fake.toasts.clear()

    burst_started = time.monotonic()
    await asyncio.gather(*(dp.feed_update(bot, u) for _, u in updates))
    handled = time.monotonic()
    await sender.drain()
    drained = time.monotonic()

    answers: list[float] = []
    board_edit: dict[int, float] = {}
    chat_game = {group.id: g for g, group in enumerate(groups)}
    for at, name, payload in fake.arrivals:
        if name == "answerCallbackQuery" and payload["callback_query_id"] in query_game:
            answers.append(at - burst_started)
        elif name in BOARD_CALLS and payload.get("chat_id") in chat_game:
            board_edit.setdefault(chat_game[payload["chat_id"]], at - burst_started)
    texts = [t.text for t in fake.toasts]
    refused = sum(1 for t in texts if t == UNAVAILABLE)
    throttled = sum(1 for t in texts if t in {too_fast_text("ru"), too_fast_text("en")})
    limit = next(m for m in dp.update.outer_middleware if isinstance(m, InFlightLimitMiddleware))

    print(f"  set-up of {args.games} games: {setup_seconds:.1f} s")
    print(
        f"  presses: {args.presses}; served {len(texts) - refused}, refused ('temporarily unavailable') {refused},"
        f" throttled {throttled}, unanswered {args.presses - len(texts)}"
    )
    print(f"  update -> answerCallbackQuery: {summary(answers)}")
    print(f"  update -> board edit ({len(board_edit)} of {args.games} games): {summary(list(board_edit.values()))}")
    print(
        f"  all handlers done after {handled - burst_started:.2f} s, sender drained after {drained - burst_started:.2f}"
        f" s; peak updates in flight {limit.slots.peak} (limit {limit.slots.limit})"
    )
    await sender.close()


async def main() -> None:
    """Parse the arguments and run the burst on each store."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--presses", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the fake Bot API takes per call")
    parser.add_argument("--stores", default="sqlite,redis")
    parser.add_argument("--max-in-flight", type=int, default=0, help="MAX_UPDATES_IN_FLIGHT (default: setting)")
    parser.add_argument("--unbounded", action="store_true", help="no bound on updates in flight (the old code)")
    args = parser.parse_args()
    defaults = Settings(bot_token=SecretStr(BOT_TOKEN), _env_file=None)  # type: ignore[call-arg]
    in_flight = args.presses if args.unbounded else (args.max_in_flight or defaults.max_updates_in_flight)
    print(
        f"Burst: {args.presses} simultaneous presses over {args.games} group games ({max(1, args.games // 2)} pairs"
        f" of users), fake Bot API latency {args.latency * 1000:.0f} ms per call, MAX_UPDATES_IN_FLIGHT {in_flight},"
        f" THROTTLE {defaults.throttle_rate}/s burst {defaults.throttle_burst}, group budget"
        f" {defaults.group_messages_per_minute}/min, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    if "sqlite" in stores:
        with tempfile.TemporaryDirectory() as directory:
            store = SqliteGameStore(os.path.join(directory, "burst.sqlite3"))
            print("SQLite (embedded store):")
            await run_burst(store, args)
            await store.close()
    if "redis" in stores:
        url = os.environ.get("REDIS_URL")
        if not url:
            print("Redis: skipped (REDIS_URL is not set)")
            return
        admin = Redis.from_url(url)
        await admin.flushdb()
        redis_store = RedisGameStore.from_url(url)
        print(f"Redis ({url}, redis-py default pool):")
        try:
            await run_burst(redis_store, args)
        finally:
            await redis_store.close()
            await admin.flushdb()
            await admin.aclose()


if __name__ == "__main__":
    asyncio.run(main())
