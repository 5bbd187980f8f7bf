"""Benchmark of the pairing pools and the matchmaker (figures, never pass/fail): ``python benchmarks/pairing.py``.

1. The lobby under load: ``--players`` (10,000) players seek at once in the pool ``lobby`` (ratings uniform in
   1000–2000, one variant and clock); one or two workers — separate processes, each with its own store connection
   and running :meth:`bot.services.matchmaking.matchmaker.Matchmaker.pair` passes back to back (a pause of 10 ms
   after a pass that made nothing) with ``tournaments.matching.lobby_pairs`` as the chooser over the whole pool —
   pair them for ``--seconds`` (30). A pair's "game" lasts a random time, uniform in ``--game-min``..``--game-max``
   seconds (1–5); then both players seek again (put back by the worker that paired them, at most
   :data:`RETURNS_AT_ONCE` games at once). Printed per store (Redis when ``--redis-url`` answers; SQLite, two
   processes on one file) and worker count: pairings made per second,
   the median and the 99th percentile of the time-to-pair (from a seek, or from the start of the run for the first
   wave, to the claim), the passes (how many chose pairs — the others found the pool's pass lease held by the other
   worker, or fewer than two waiting — and of those: the median and longest pass, the median pairs a pass; and the
   first pass, over everyone seeking at once: its pairs, its time and so the matchmaker's own pairs a second), claims
   lost to the other worker, the players still waiting at the end, and the pairs a second as a ratio to the same
   run's first configuration (Redis with one worker when Redis answers). References
   measured in the same run: one ``lobby_pairs`` call over all players (the chooser's share of a pass) and each
   store's round trip (``ping``), which says how loaded the machine is.
2. A 200-player arena of 30 minutes on virtual time (``tournaments.arena_sim.simulate_arena``,
   :func:`arena_figures`): counted games per player (min, median, max), how many waits ended in a pairing and the
   share of them longer than 30 s, and the longest.

``--quick`` runs a small version of both (seconds); the tests run it. The Redis database used is reserved like the
tests do (``nardy-tests:db-reserved:<db>`` in database 0) and flushed — do not point ``--redis-url`` at data you
want to keep.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from redis.exceptions import RedisError

from benchmarks.redis_db import reserved_db
from bot.services.matchmaking import Matchmaker
from bot.storage import PoolEntry, RedisGameStore, SqliteGameStore, Store, StoredPairing, StoreUnavailableError
from bot.storage.pools import read_pool
from tournaments.arena_sim import LONG_WAIT, ArenaSimulation, simulate_arena
from tournaments.matching import Seeker, lobby_pairs

POOL = "lobby"
KEY = "short/12+2"
RETURNS_AT_ONCE = 16
"""The most games whose players a worker puts back into the pool at once: thousands of games ending together would
otherwise take every connection of the store (waiting longer than its timeout) from the matchmaker too."""


def lobby_chooser(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
    """The lobby's chooser over pool entries: ``lobby_pairs`` with each entry's score as its rating."""
    seekers = [
        Seeker(
            id=entry.member,
            rating=entry.score,
            since=entry.since,
            key=str(entry.data.get("key", "")),
            blocked=frozenset(entry.data.get("blocked", ())),
        )
        for entry in entries
    ]
    return lobby_pairs(seekers, now)


def open_store(kind: str, location: str) -> Store:
    """Return a store of ``kind`` ("redis" or "sqlite") on ``location`` (a URL or a file)."""
    if kind == "redis":
        return RedisGameStore.from_url(location)
    return SqliteGameStore(location)


@dataclass
class WorkerResult:
    """What one worker process measured."""

    pairs: int = 0
    passes: int = 0
    chosen: int = 0
    seconds: float = 0.0
    waits: list[float] = field(default_factory=list)
    choose_seconds: float = 0.0
    led: list[tuple[float, int]] = field(default_factory=list)  # (seconds, pairs made) of each pass that chose


@dataclass(frozen=True, slots=True)
class Load:
    """The conditions of one run."""

    players: int
    seconds: float
    game_min: float
    game_max: float


async def _work(kind: str, location: str, load: Load, ready: Any, seed: int) -> WorkerResult:
    """Connect, wait at the ``ready`` barrier for the other workers, then run Matchmaker passes on the pool for
    ``load.seconds``, putting players back after their game."""
    store = open_store(kind, location)
    await store.ping()
    await asyncio.to_thread(ready.wait)
    run_start = time.time()
    result = WorkerResult()
    rng = random.Random(seed)
    stop_at = run_start + load.seconds
    games: set[asyncio.Task[None]] = set()

    chose = False

    def choose(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
        nonlocal chose
        chose = True
        began = time.perf_counter()
        pairs = lobby_chooser(entries, now)
        result.choose_seconds += time.perf_counter() - began
        result.chosen += len(pairs)
        return pairs

    returns = asyncio.Semaphore(RETURNS_AT_ONCE)

    async def play(pairing: StoredPairing, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with returns:
            for entry in pairing.entries:
                if time.time() < stop_at:
                    await store.pool_put(POOL, PoolEntry(entry.member, entry.score, time.time(), entry.data))

    async def start(pairing: StoredPairing) -> bool:
        claimed = time.time()
        result.waits.extend(claimed - max(entry.since, run_start) for entry in pairing.entries)
        game = asyncio.create_task(play(pairing, rng.uniform(load.game_min, load.game_max)))
        games.add(game)
        game.add_done_callback(games.discard)
        return True

    matchmaker = Matchmaker(store, time.time)
    try:
        while time.time() < stop_at:
            chosen_before = len(result.waits)
            chose = False
            began = time.perf_counter()
            made = await matchmaker.pair(POOL, choose, start)
            result.passes += 1
            result.pairs += len(made)
            if chose:
                result.led.append((time.perf_counter() - began, len(made)))
            if len(result.waits) == chosen_before:
                await asyncio.sleep(0.01)
        result.seconds = time.time() - run_start
        for game in games:
            game.cancel()
        await asyncio.gather(*games, return_exceptions=True)
    finally:
        await store.close()
    return result


def worker_main(kind: str, location: str, load: Load, ready: Any, results: Any, seed: int) -> None:
    """Entry point of a worker process: run :func:`_work` and put what it measured on the ``results`` queue."""
    results.put(asyncio.run(_work(kind, location, load, ready, seed)))


async def seed_pool(store: Store, players: int, since: float) -> None:
    """Put ``players`` seekers into the pool, ratings uniform in 1000–2000 (seeded)."""
    rng = random.Random(47)
    batch = 200
    for first in range(0, players, batch):
        await asyncio.gather(
            *(
                store.pool_put(POOL, PoolEntry(str(n), round(rng.uniform(1000, 2000), 1), since, {"key": KEY}))
                for n in range(first, min(players, first + batch))
            )
        )


async def _waiting(kind: str, location: str, players: int) -> tuple[int, int]:
    """Return (players waiting in the pool, open pairings) at the end of a run."""
    store = open_store(kind, location)
    try:
        now = time.time()
        return len(await read_pool(store, POOL, now)), len(await store.open_pairings(POOL, now + 1))
    finally:
        await store.close()


def run_pool(kind: str, location: str, workers: int, load: Load) -> dict[str, Any]:
    """Seed the pool, run ``workers`` worker processes on it, and return the figures of the run."""
    store = open_store(kind, location)
    asyncio.run(_seed_and_close(store, load.players))
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(workers)
    queue = context.Queue()
    processes = [
        context.Process(target=worker_main, args=(kind, location, load, ready, queue, n)) for n in range(workers)
    ]
    for process in processes:
        process.start()
    try:
        results: list[WorkerResult] = [queue.get(timeout=load.seconds + 300) for _ in processes]
    except Empty:
        for process in processes:
            process.kill()
        raise RuntimeError(f"a {kind} worker died or hung (its traceback is above)") from None
    for process in processes:
        process.join()
    waiting, still_open = asyncio.run(_waiting(kind, location, load.players))
    waits = sorted(w for r in results for w in r.waits)
    pairs = sum(r.pairs for r in results)
    lost = sum(r.chosen - len(r.waits) // 2 for r in results)
    led = [pass_ for r in results for pass_ in r.led]
    led_seconds = sorted(seconds for seconds, _ in led)
    return {
        "lost": lost,
        "pairs": pairs,
        "per_second": pairs / max(r.seconds for r in results),
        "p50": statistics.median(waits) if waits else float("nan"),
        "p99": waits[min(len(waits) - 1, int(0.99 * len(waits)))] if waits else float("nan"),
        "passes": sum(r.passes for r in results),
        "choose_ms": 1000 * sum(r.choose_seconds for r in results) / max(1, len(led)),
        "led": len(led),
        "pass_ms": 1000 * statistics.median(led_seconds) if led else float("nan"),
        "pass_max_ms": 1000 * led_seconds[-1] if led else float("nan"),
        "pass_pairs": statistics.median(pairs for _, pairs in led) if led else 0,
        "first": max((r.led[0] for r in results if r.led), key=lambda p: p[1], default=(float("nan"), 0)),
        "waiting": waiting,
        "open": still_open,
    }


async def _seed_and_close(store: Store, players: int) -> None:
    try:
        await seed_pool(store, players, time.time())
    finally:
        await store.close()


async def _round_trip(kind: str, location: str, repeat: int = 200) -> float:
    """Return the median seconds of one ``ping`` of a store (a Redis PING; an SQLite ``SELECT 1`` transaction)."""
    store = open_store(kind, location)
    try:
        await store.ping()
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            await store.ping()
            times.append(time.perf_counter() - began)
        return statistics.median(times)
    finally:
        await store.close()


def chooser_reference(players: int) -> float:
    """Return the seconds of one ``lobby_chooser`` call over ``players`` seekers waiting since the same moment."""
    rng = random.Random(47)
    now = time.time()
    entries = [PoolEntry(str(n), round(rng.uniform(1000, 2000), 1), now, {"key": KEY}) for n in range(players)]
    entries.sort(key=lambda e: (e.score, e.member))
    began = time.perf_counter()
    lobby_chooser(entries, now)
    return time.perf_counter() - began


def arena_figures(players: int = 200, minutes: float = 30.0, seed: int = 47) -> ArenaSimulation:
    """Return the simulated arena of ``players`` (ratings normal around 1500, sd 200, seeded) over ``minutes`` of
    virtual time (``tournaments.arena_sim.simulate_arena`` with its default games of 3–9 minutes)."""
    rng = random.Random(seed)
    ratings = {f"p{n:03d}": round(rng.gauss(1500.0, 200.0), 1) for n in range(players)}
    return simulate_arena(ratings, minutes * 60.0, seed=seed)


def print_arena(players: int, minutes: float) -> None:
    """Print the figures of :func:`arena_figures`."""
    began = time.perf_counter()
    sim = arena_figures(players, minutes)
    elapsed = time.perf_counter() - began
    print(
        f"arena of {sim.players} players, {minutes:g} virtual minutes (simulated in {elapsed:.2f} s):"
        f" {sim.total_games} counted games; games per player min {sim.games_min} / median {sim.games_median:g} /"
        f" max {sim.games_max}; {sim.waits} waits ended in a pairing, {100 * sim.long_wait_share:.1f} % of them"
        f" longer than {LONG_WAIT:g} s, the longest {sim.longest_wait:.0f} s"
    )


def print_run(label: str, figures: dict[str, Any], reference: float | None) -> float:
    """Print one configuration's figures; return its pairs a second."""
    ratio = f" (x{figures['per_second'] / reference:.2f} of the first line)" if reference else ""
    print(
        f"{label}: {figures['pairs']} pairings, {figures['per_second']:.0f}/s{ratio};"
        f" time-to-pair median {1000 * figures['p50']:.0f} ms, p99 {1000 * figures['p99']:.0f} ms;"
        f" {figures['passes']} passes, {figures['led']} of them chose (the others: another worker held the pool's"
        f" lease, or fewer than 2 waited); a pass that chose: median {figures['pass_ms']:.0f} ms, longest"
        f" {figures['pass_max_ms']:.0f} ms, median {figures['pass_pairs']:g} pairs, chooser {figures['choose_ms']:.1f}"
        f" ms; the first pass (everyone waiting at once) made {figures['first'][1]} pairs in"
        f" {1000 * figures['first'][0]:.0f} ms ({figures['first'][1] / figures['first'][0]:.0f}/s);"
        f" {figures['lost']} chosen pairs not claimed (taken by the other worker, or gone);"
        f" {figures['waiting']} waiting and {figures['open']} pairings open at the end"
    )
    return float(figures["per_second"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each run")
    parser.add_argument("--game-min", type=float, default=1.0)
    parser.add_argument("--game-max", type=float, default=5.0)
    parser.add_argument("--workers", default="1,2", help="worker counts to run, e.g. 1,2")
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"))
    parser.add_argument("--skip-redis", action="store_true")
    parser.add_argument("--skip-sqlite", action="store_true")
    parser.add_argument("--arena-players", type=int, default=200)
    parser.add_argument("--arena-minutes", type=float, default=30.0)
    parser.add_argument("--quick", action="store_true", help="a small run of everything (a few seconds)")
    args = parser.parse_args()
    if args.quick:
        args.players, args.seconds, args.game_min, args.game_max = 200, 1.0, 0.1, 0.5
        args.arena_players, args.arena_minutes = 20, 15.0
    load = Load(args.players, args.seconds, args.game_min, args.game_max)
    counts = [int(n) for n in args.workers.split(",")]
    print(
        f"lobby: {load.players} players seeking at once, games of {load.game_min:g}-{load.game_max:g} s,"
        f" runs of {load.seconds:g} s; python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    print(f"one lobby_pairs call over {load.players} seekers: {1000 * chooser_reference(load.players):.1f} ms")
    reference: float | None = None
    if not args.skip_redis:
        try:
            with reserved_db(args.redis_url) as url:
                trip = asyncio.run(_round_trip("redis", url))
                print(f"Redis round trip (PING, median): {1e6 * trip:.0f} us")
                for workers in counts:
                    figures = run_pool("redis", url, workers, load)
                    rate = print_run(f"Redis, {workers} worker(s)", figures, reference)
                    reference = reference or rate
                    asyncio.run(_flush(url))
        except (RedisError, StoreUnavailableError, OSError) as exc:
            print(f"Redis: skipped ({exc})")
    if not args.skip_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            trip = asyncio.run(_round_trip("sqlite", os.path.join(tmp, "ping.sqlite3")))
        print(f"SQLite round trip (one SELECT 1 transaction, median): {1e6 * trip:.0f} us")
        for workers in counts:
            with tempfile.TemporaryDirectory() as tmp:
                figures = run_pool("sqlite", os.path.join(tmp, "pairing.sqlite3"), workers, load)
            rate = print_run(f"SQLite, {workers} worker process(es) on one file", figures, reference)
            reference = reference or rate
    print_arena(args.arena_players, args.arena_minutes)


async def _flush(url: str) -> None:
    store = RedisGameStore.from_url(url)
    try:
        await store.redis.flushdb()
    finally:
        await store.close()


if __name__ == "__main__":
    main()
