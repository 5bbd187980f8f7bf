"""What a send costs with the budgets shared by every worker, and without: ``python benchmarks/send_budget.py``.

Figures, never pass/fail. Two measurements, each run ``--rounds`` times alternately (the median and the range are
printed):

1. **The store call alone** — ``take_send`` on each store (Redis at ``--redis-url``: one Lua script; SQLite in a
   temporary file: one transaction), ``--calls`` calls spread over ``--chats`` chats, one after another: microseconds
   per call (the latency a paced call adds before it is made).
2. **A sender's calls end to end** — a :class:`bot.sender.Sender` making ``--calls`` ``sendMessage`` calls spread over
   ``--chats`` chats to a Bot API that answers at once, with the production limits lifted (no interval, no minute or
   second budget: pacing waits would hide the cost) — without shared budgets (before) and with each store's
   (after): microseconds of wall time and of this process's CPU per call, and the ratio to the "before" run of the
   same round.

Redis (``--redis-url``, default ``redis://127.0.0.1:6379``): a database of it is reserved as the tests reserve theirs
and flushed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiogram.methods import SendMessage, TelegramMethod

from benchmarks.redis_db import reserved_db
from bot.sender import BUDGET_WINDOW, Priority, Sender, SenderLimits
from bot.storage import RedisGameStore, SendLimits, SqliteGameStore, Store

UNLIMITED = SenderLimits(
    private_interval=0.0,
    group_interval=0.0,
    group_per_minute=10**9,
    private_per_minute=10**9,
    global_per_second=10**9,
    chat_queue_limit=10**9,
)
SHARED = SendLimits(interval=0.0, per_window=10**9, window=BUDGET_WINDOW, per_second=10**9)


async def _answer(method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
    return True


async def store_calls(store: Store, calls: int, chats: int) -> float:
    """Return the microseconds per ``take_send`` of ``calls`` calls over ``chats`` chats, one after another."""
    started = time.perf_counter()
    for n in range(calls):
        await store.take_send(str(-1000 - n % chats), time.time(), 1, SHARED, f"t{n}")
    return (time.perf_counter() - started) / calls * 1e6


async def sender_calls(store: Store | None, calls: int, chats: int) -> tuple[float, float]:
    """Return (wall, CPU) microseconds per call of a sender making ``calls`` calls over ``chats`` chats."""
    sender = Sender(_answer, UNLIMITED, budgets=store)
    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(
        *(sender.send(SendMessage(chat_id=-1000 - n % chats, text="x"), priority=Priority.BOARD) for n in range(calls))
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    await sender.close()
    return wall / calls * 1e6, cpu / calls * 1e6


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):7.1f} [{min(values):.1f}–{max(values):.1f}]"


async def main_async(args: argparse.Namespace) -> None:
    with reserved_db(args.redis_url) as url, tempfile.TemporaryDirectory() as tmp:
        stores: dict[str, Store] = {
            "redis": RedisGameStore.from_url(url),
            "sqlite": SqliteGameStore(Path(tmp) / "budget.sqlite3"),
        }
        alone: dict[str, list[float]] = {name: [] for name in stores}
        wall: dict[str, list[float]] = {name: [] for name in ("none", *stores)}
        cpu: dict[str, list[float]] = {name: [] for name in ("none", *stores)}
        ratios: dict[str, list[float]] = {name: [] for name in stores}
        for _ in range(args.rounds):
            for name, store in stores.items():
                alone[name].append(await store_calls(store, args.calls, args.chats))
            base_wall, base_cpu = await sender_calls(None, args.calls, args.chats)
            wall["none"].append(base_wall)
            cpu["none"].append(base_cpu)
            for name, store in stores.items():
                w, c = await sender_calls(store, args.calls, args.chats)
                wall[name].append(w)
                cpu[name].append(c)
                ratios[name].append(w / base_wall)
        for store in stores.values():
            await store.close()
    print(f"== send budgets: {args.calls} calls over {args.chats} chats, {args.rounds} rounds (median [min–max]) ==")
    for name in stores:
        print(f"take_send alone, {name:6}: {_spread(alone[name])} µs per call")
    print(f"sender, no shared budget:  {_spread(wall['none'])} µs wall, {_spread(cpu['none'])} µs CPU per call")
    for name in stores:
        print(
            f"sender, {name:6} budgets:   {_spread(wall[name])} µs wall, {_spread(cpu[name])} µs CPU per call; "
            f"wall / before: {_spread(ratios[name])}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
