"""Load of webhook workers: a fake Telegram drives G concurrent group games through 1, 2 and 4 workers.

``python benchmarks/load.py [--workers 1,2,4] [--games 24] [--presses 20] [--rate 0] [--latency 0.03]``

The fake Telegram (``tests/bot/fake_bot_api_server.py``: an HTTP server on 127.0.0.1 answering every Bot API call
after ``--latency`` seconds) plays Telegram's side: it POSTs each update to a worker (round robin, as a load
balancer would) with the secret. Each of the G games is short nardy in a group of its own between two people,
started by ``/new`` and a Join press; then each game presses the first button of its board as the player whose turn
it is, P times, a press only after the previous one was answered and its board edited (as a person would). With
``--rate R`` the presses of all games are paced to R per second in total (0: as fast as the workers go).

Printed per worker count: presses/s, press latency p50/p99 to the answered callback (``answerCallbackQuery``
received by the fake) and to the edited board, worker CPU seconds per press (``/proc``), 429s (the fake never
sends one: the workers' own pacing is what keeps a real bot under Telegram's limits, and it is off here since every
game has its own group), errors (non-200 webhook answers and error lines in the workers' logs), and the speed-up
over one worker. Workers run with ``COMPUTER_PROCESSES=0`` and the sender's pacing off. Needs a Redis server
(``REDIS_URL``, default ``redis://127.0.0.1:6379/15``: that database is flushed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from redis import Redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bot.fake_bot_api_server import (
    WORKER_SECRET,
    ChatMessage,
    FakeBotApiServer,
    Worker,
    deliver,
    free_port,
    group,
    start_worker,
    stop_workers,
    user,
    wait_healthy,
)


@dataclass
class Figures:
    """What one run measured."""

    workers: int
    presses: int = 0
    seconds: float = 0.0
    to_answer: list[float] = field(default_factory=list)
    to_board: list[float] = field(default_factory=list)
    cpu: float = 0.0
    errors: int = 0
    refused: int = 0
    statuses: dict[int, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.presses / self.seconds if self.seconds else 0.0


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float], q: float) -> str:
    return f"{_percentile(values, q) * 1000:.0f} ms"


class Driver:
    """Telegram's side of one run: sends updates to the workers and waits for their answers."""

    def __init__(self, api: FakeBotApiServer, workers: list[Worker], session: aiohttp.ClientSession) -> None:
        self.api = api
        self.urls = itertools.cycle([w.url for w in workers])
        self.session = session
        self.figures = Figures(len(workers))

    async def send(self, update: dict[str, Any]) -> None:
        for _ in range(100):
            status, _ = await deliver(self.session, next(self.urls), update, WORKER_SECRET)
            self.figures.statuses[status] = self.figures.statuses.get(status, 0) + 1
            if status == 200:
                return
            self.figures.errors += status != 503
            await asyncio.sleep(0.05)

    async def wait_for(self, condition: Any, timeout: float = 30.0) -> float:
        """Wait until ``condition()`` is true; return the monotonic time it was seen (or raise TimeoutError)."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from the workers")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.api.changed.wait(), timeout=0.05)
        return time.monotonic()


class Game:
    """One group game of the run."""

    def __init__(self, driver: Driver, index: int) -> None:
        self.driver = driver
        self.chat = group(-1_000_000 - index)
        self.players = (user(10_000 + 2 * index, f"A{index}"), user(10_001 + 2 * index, f"B{index}"))
        self.next = 0  # the player pressed next

    def board(self) -> ChatMessage | None:
        boards = [m for m in self.driver.api.chat(self.chat["id"]) if m.photo and m.keyboard]
        return boards[-1] if boards else None

    async def start(self) -> None:
        api = self.driver.api
        await self.driver.send(api.message_update(self.players[0], self.chat, "/new short"))
        await self.driver.wait_for(lambda: any(m.keyboard for m in api.chat(self.chat["id"])))
        card = next(m for m in api.chat(self.chat["id"]) if m.keyboard)
        join = next(d for d in card.callbacks() if d.endswith(":join"))
        await self.driver.send(api.press_update(self.players[1], card, join))
        await self.driver.wait_for(lambda: self.board() is not None)

    async def press(self) -> None:
        api, figures = self.driver.api, self.driver.figures
        board = self.board()
        assert board is not None
        edits = board.edits
        update = api.press_update(self.players[self.next], board, board.callbacks()[0])
        query = update["callback_query"]["id"]
        started = time.monotonic()
        await self.driver.send(update)
        await self.driver.wait_for(lambda: query in api.answers)
        answer = api.answers[query]
        figures.to_answer.append(answer.at - started)
        figures.presses += 1
        if answer.fields.get("text"):  # a refusal toast ("not your turn"): the other player presses next
            figures.refused += 1
            self.next = 1 - self.next
            return
        try:
            seen = await self.driver.wait_for(lambda: board.edits > edits or self.board() is not board, timeout=5)
            figures.to_board.append(seen - started)
        except TimeoutError:
            pass


async def run(workers: int, args: argparse.Namespace, workdir: Path) -> Figures:
    """Return the figures of one run with ``workers`` workers."""
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    Redis.from_url(redis_url).flushdb()
    api = FakeBotApiServer(latency=args.latency)
    runner = web.AppRunner(api.app(), access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    started = [start_worker(f"http://127.0.0.1:{port}", redis_url, workdir, f"w{workers}-{i}") for i in range(workers)]
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            for worker in started:
                await wait_healthy(session, worker)
            driver = Driver(api, started, session)
            games = [Game(driver, i) for i in range(args.games)]
            await asyncio.gather(*(g.start() for g in games))
            figures = driver.figures
            figures.to_answer.clear()
            figures.to_board.clear()
            figures.presses = 0
            cpu_before = sum(w.cpu_seconds() for w in started)
            interval = 1.0 / args.rate if args.rate else 0.0
            tick = itertools.count()
            began = time.monotonic()

            async def play(game: Game) -> None:
                for _ in range(args.presses):
                    if interval:
                        slot = began + next(tick) * interval
                        await asyncio.sleep(max(0.0, slot - time.monotonic()))
                    await game.press()

            await asyncio.gather(*(play(g) for g in games))
            figures.seconds = time.monotonic() - began
            figures.cpu = sum(w.cpu_seconds() for w in started) - cpu_before
    finally:
        stop_workers(started)
        await runner.cleanup()
    for worker in started:
        figures.errors += sum(" ERROR " in line or "Traceback" in line for line in worker.log.read_text().splitlines())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--presses", type=int, default=20, help="presses per game")
    parser.add_argument("--rate", type=float, default=0.0, help="presses per second in total (0 = unpaced)")
    parser.add_argument("--latency", type=float, default=0.03, help="seconds the fake Bot API takes per call")
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    print(
        f"== webhook load: {args.games} group games x {args.presses} presses, rate "
        f"{args.rate or 'unpaced'}, Bot API latency {args.latency * 1000:.0f} ms, {os.cpu_count()} CPUs =="
    )
    base: float | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for count in counts:
            f = asyncio.run(run(count, args, Path(tmp)))
            base = base or f.rate
            print(
                f"{count} worker(s): {f.rate:6.1f} presses/s ({f.presses} in {f.seconds:.1f} s, {f.refused} refused)  "
                f"answer p50 {_ms(f.to_answer, 0.5)} p99 {_ms(f.to_answer, 0.99)}  "
                f"board p50 {_ms(f.to_board, 0.5)} p99 {_ms(f.to_board, 0.99)}  "
                f"CPU {f.cpu / max(1, f.presses) * 1000:.1f} ms/press  429s 0  errors {f.errors}  "
                f"speed-up {f.rate / base:.2f}x  (webhook answers {dict(sorted(f.statuses.items()))}; "
                f"mean answer {statistics.fmean(f.to_answer) * 1000 if f.to_answer else float('nan'):.0f} ms)",
                flush=True,
            )


if __name__ == "__main__":
    main()
