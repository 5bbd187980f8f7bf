"""Benchmark of the game stores (figures, never pass/fail): ``python benchmarks/store.py [options]``.

1. Listing a crowded chat: creates ``--games`` (10,000) active games in one chat, three of them with user 5,
   on each store (SQLite in a temporary file; Redis when ``--redis-url`` answers; a Redis Cluster when
   ``--cluster-url`` is given), then times ``user_chat_games(chat, 5)``, ``chat_games(chat)`` and
   ``count_chat_games(chat)`` (best and median of ``--repeat`` calls).
2. Purging SQLite: a file with ``--purge-games`` (100,000) games, each in one chat with two players, of which
   ``--expired`` (1,000) are finished and expired; times ``purge_expired()``. With ``--compare-old`` it also times
   the former purge on the former schema (one ``DELETE`` of all expired games inside a write, without the
   ``game_id`` indexes of ``game_chats``/``game_users``) on an identical file.

The Redis database used is reserved like the tests do (``nardy-tests:db-reserved:<db>`` in database 0) and
flushed; the cluster is locked like the cluster tests do and flushed with FLUSHALL — do not point these options
at data you want to keep.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from redis.cluster import RedisCluster
from redis.exceptions import RedisError

from benchmarks.redis_db import reserved_db
from bot.storage import RedisGameStore, SqliteGameStore, Store
from bot.storage.redis.keys import cluster_startup_url
from bot.storage.sqlite.schema import INDEXES

CHAT = -1001
USER = 5
GAME = {"variant": "long", "board": list(range(24)), "players": {"white": 1, "black": 2}}


async def _timed(call: Callable[[], Awaitable[Any]], repeat: int) -> tuple[float, float, Any]:
    """Return (best, median) seconds of ``repeat`` awaited calls, and the last result."""
    times = []
    result: Any = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = await call()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


async def fill_chat(store: Store, games: int) -> None:
    """Create ``games`` active games in :data:`CHAT`; user :data:`USER` plays three of them."""
    mine = {0, games // 2, games - 1}
    batch = 200
    for start in range(0, games, batch):
        await asyncio.gather(
            *(
                store.create_game(
                    GAME,
                    chat_ids=[CHAT],
                    user_ids=[USER if i in mine else 1000 + 2 * i, 1001 + 2 * i],
                    deadline=1e12 + i,
                )
                for i in range(start, min(start + batch, games))
            )
        )


async def bench_listing(name: str, store: Store, games: int, repeat: int) -> None:
    start = time.perf_counter()
    await fill_chat(store, games)
    print(f"{name}: created {games} games in one chat in {time.perf_counter() - start:.1f} s")
    for label, call in (
        (f"user_chat_games(chat, user) [user has 3 of {games}]", lambda: store.user_chat_games(CHAT, USER)),
        (f"chat_games(chat) [{games} games]", lambda: store.chat_games(CHAT)),
        (f"count_chat_games(chat) [{games} games]", lambda: store.count_chat_games(CHAT)),
    ):
        best, median, result = await _timed(call, repeat)
        size = result if isinstance(result, int) else len(result)
        print(f"  {label:<48} best {best * 1000:8.2f} ms   median {median * 1000:8.2f} ms   -> {size}")


async def run_listing(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteGameStore(os.path.join(tmp, "bench.sqlite3"))
        await bench_listing("SQLite", store, args.games, args.repeat)
        await store.close()

    if args.redis_url:
        try:
            with reserved_db(args.redis_url) as url:
                store = RedisGameStore.from_url(url)
                await bench_listing(f"Redis ({url})", store, args.games, args.repeat)
                await store.close()
        except RedisError as exc:
            print(f"Redis: skipped ({exc})")

    if args.cluster_url:
        startup = cluster_startup_url(args.cluster_url)
        if startup is None:
            raise SystemExit("--cluster-url must be redis+cluster://host:port")
        with open(Path(tempfile.gettempdir()) / "nardy-redis-cluster-tests.lock", "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            admin_cluster = RedisCluster.from_url(startup)
            try:
                admin_cluster.flushall(target_nodes=RedisCluster.PRIMARIES)
                store = RedisGameStore.from_url(args.cluster_url)
                await bench_listing(f"Redis Cluster ({args.cluster_url})", store, args.games, args.repeat)
                await store.close()
            finally:
                admin_cluster.flushall(target_nodes=RedisCluster.PRIMARIES)
                admin_cluster.close()
                fcntl.flock(lock, fcntl.LOCK_UN)


def build_purge_file(path: str, games: int, expired: int, now: float) -> None:
    """Write a store file with ``games`` games (``expired`` of them finished and expired) straight through SQL."""
    store = SqliteGameStore(path)
    asyncio.run(store.ping())  # creates the current schema
    asyncio.run(store.close())
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    step = max(1, games // expired) if expired else games + 1
    rows, chats, users = [], [], []
    for i in range(games):
        game_id = f"g{i:09d}"
        is_expired = expired and i % step == 0 and i // step < expired
        rows.append(
            (
                game_id,
                "{}",
                1 if is_expired else 0,
                f"[{-(i % 500) - 1}]",
                f"[{2 * i},{2 * i + 1}]",
                now - 10 if is_expired else None,
                now - 3600 if is_expired else None,
                now - 1 if is_expired else None,
            )
        )
        chats.append((game_id, -(i % 500) - 1))
        users += [(game_id, 2 * i), (game_id, 2 * i + 1)]
    conn.executemany(
        "INSERT INTO games (id, version, data, finished, chat_ids, user_ids, created_at, finished_at, expires_at)"
        " VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?)",
        [(r[0], r[1], r[2], r[3], r[4], now - 7200, r[6], r[7]) for r in rows],
    )
    conn.executemany("INSERT INTO game_chats (game_id, chat_id) VALUES (?, ?)", chats)
    conn.executemany("INSERT INTO game_users (game_id, user_id) VALUES (?, ?)", users)
    conn.execute("COMMIT")
    conn.close()


def old_purge(path: str, now: float) -> float:
    """Time the former purge on the former schema: no game_id indexes, one DELETE inside a write transaction."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("DROP INDEX IF EXISTS game_chats_game")
    conn.execute("DROP INDEX IF EXISTS game_users_game")
    start = time.perf_counter()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("DELETE FROM games WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,))
    conn.execute("DELETE FROM challenges WHERE expires_at <= ?", (now,))
    conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return elapsed


def run_purge(args: argparse.Namespace) -> None:
    now = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "purge.sqlite3")
        build_purge_file(path, args.purge_games, args.expired, now)
        if args.compare_old:
            old_path = os.path.join(tmp, "purge-old.sqlite3")
            build_purge_file(old_path, args.purge_games, args.expired, now)

        async def purge() -> tuple[float, int]:
            store = SqliteGameStore(path)
            await store.ping()
            start = time.perf_counter()
            removed = await store.purge_expired(batch=args.batch)
            elapsed = time.perf_counter() - start
            await store.close()
            return elapsed, removed

        elapsed, removed = asyncio.run(purge())
        print(
            f"SQLite purge_expired(batch={args.batch}): {args.purge_games} games, {args.expired} expired:"
            f" {elapsed * 1000:.1f} ms in total, {removed} rows removed"
            f" (longest single transaction <= one batch of {args.batch})"
        )
        if args.compare_old:
            print(f"Former purge (no game_id indexes, one DELETE in a write): {old_purge(old_path, now) * 1000:.1f} ms")
        conn = sqlite3.connect(path)
        left = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        conn.close()
        print(f"  games left: {left} (expected {args.purge_games - args.expired}); index DDL used:")
        print("  " + " ".join(line for line in INDEXES.split("\n") if "game_id" in line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"))
    parser.add_argument("--cluster-url", default=os.environ.get("TEST_REDIS_CLUSTER_URL"))
    parser.add_argument("--purge-games", type=int, default=100_000)
    parser.add_argument("--expired", type=int, default=1_000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--compare-old", action="store_true", help="also time the former purge (slow: tens of s)")
    parser.add_argument("--skip-listing", action="store_true")
    parser.add_argument("--skip-purge", action="store_true")
    args = parser.parse_args()
    if not args.skip_listing:
        asyncio.run(run_listing(args))
    if not args.skip_purge:
        run_purge(args)


if __name__ == "__main__":
    main()
