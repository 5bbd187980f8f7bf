"""Move-to-socket latency of the Mini App's live updates (figures, never pass/fail).

``python benchmarks/webapp_live.py [--games 100] [--moves 6] [--think 1.0] [--redis redis://127.0.0.1:6379]``

A whole bot on the fake Telegram (seeded dice, boards drawn in threads, the production pacing on virtual time) with
the Mini App's server on a local port, ``--games`` group games between two players, each player with its live
socket open. Then every game at once plays ``--moves`` actions through the API (``POST .../actions``, the first
action offered to the player to act; a player thinks ``--think`` seconds on average before each, 0 to twice that,
``--think 0`` fires them all at once), and for each the time from sending the POST to the arrival of the new
version on the *other* player's socket is measured. The chat boards converge meanwhile (rendered and edited
through the sender), as in production. With ``--redis`` the store and the live updates are on a database of that
Redis server reserved the way the tests reserve theirs (``nardy-tests:db-reserved:<n>`` in database 0, flushed
before and after), else the embedded SQLite store with in-process updates.

Prints the p50/p90/p99/max latency, the moves per second, and the CPU time of the process per move (all threads:
the API, the engine, the saves, the board rendering of the chat boards).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from redis.asyncio import Redis as AsyncRedis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services.live import LocalLive, RedisLive
from bot.storage import RedisGameStore, SqliteGameStore, Store
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv, open_live


class Watcher:
    """A player's live socket: the time each version arrived."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.arrived: dict[int, float] = {}
        self.latest = 0
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            message = await self.ws.receive_json()
            if message.get("type") == "state":
                version = message["state"]["version"]
                self.arrived.setdefault(version, time.perf_counter())
                self.latest = max(self.latest, version)
                self.changed.set()

    async def until(self, version: int) -> float:
        """Return when a version ≥ ``version`` arrived."""
        while self.latest < version:
            self.changed.clear()
            await self.changed.wait()
        return min(t for v, t in self.arrived.items() if v >= version)


async def play(
    app: AppEnv, game_id: str, players: list[Any], watchers: dict[int, Watcher], moves: int, think: float, seed: int
) -> list[float]:
    """Play ``moves`` actions of the game through the API, a player thinking ``think`` seconds on average (0 to
    twice that) before each; return each one's move-to-other-socket latency."""
    latencies: list[float] = []
    jitter = random.Random(seed)
    for _ in range(moves):
        await asyncio.sleep(jitter.uniform(0, 2 * think))
        _, view = await app.get(game_id, players[0])
        if view.get("finished") or view.get("turn") is None:
            break
        actor = players[view["turn"]]
        other = players[1 - view["turn"]]
        _, mine = await app.get(game_id, actor)
        actions = [a["action"] for a in mine["actions"] if not a["action"].startswith("rs")]
        if not actions:
            break
        started = time.perf_counter()
        url = f"/webapp/api/games/{game_id}/actions"
        async with app.client.post(
            url, headers=app.auth(actor), json={"version": mine["version"], "action": actions[0]}
        ) as response:
            body = await response.json()
        if response.status != 200:
            continue
        arrived = await watchers[other.id].until(body["version"])
        latencies.append(arrived - started)
    return latencies


RESERVATION_KEY = "nardy-tests:db-reserved:{db}"


async def reserve_database(base: str) -> tuple[AsyncRedis, str, str]:
    """Reserve a database 1..15 of the Redis at ``base`` as the tests do (never one another run uses) and flush it.
    Returns: the admin client, the reservation key and the database's URL."""
    admin = AsyncRedis.from_url(f"{base}/0")
    token = f"webapp-bench:{time.time()}"
    while True:
        for db in range(1, 16):
            key = RESERVATION_KEY.format(db=db)
            if await admin.set(key, token, nx=True, ex=600):
                url = f"{base}/{db}"
                client = AsyncRedis.from_url(url)
                await client.flushdb()
                await client.aclose()
                return admin, key, url
        await asyncio.sleep(0.2)


async def release_database(admin: AsyncRedis, key: str, url: str) -> None:
    """Flush the reserved database and give it back."""
    client = AsyncRedis.from_url(url)
    await client.flushdb()
    await client.aclose()
    await admin.delete(key)
    await admin.aclose()


async def run(games: int, moves: int, redis: str | None, think: float) -> None:
    store: Store
    reserved: tuple[AsyncRedis, str, str] | None = None
    if redis:
        reserved = await reserve_database(redis.rstrip("/"))
        url = reserved[2]
        store = RedisGameStore.from_url(url)
        live: Any = RedisLive(url)
    else:
        folder = tempfile.mkdtemp()
        store = SqliteGameStore(str(Path(folder) / "bench.sqlite3"))
        live = LocalLive()
    async with AppEnv(store, "bench", live=live) as app:
        fake = app.env.fake
        plan: list[tuple[str, list[Any], dict[int, Watcher]]] = []
        for index in range(games):
            alice, bob = users(fake, "Alice", "Bob", base=10_000 + 2 * index)
            chat = fake.group_chat(-10_000 - index)
            game_id = await app.group_game(chat, alice, bob)
            watchers = {}
            for user in (alice, bob):
                watcher = Watcher(await open_live(app, game_id, user))
                await watcher.until(1)
                watchers[user.id] = watcher
            plan.append((game_id, [alice, bob], watchers))
        await app.env.service.settle()
        cpu, wall = time.process_time(), time.perf_counter()
        results = await asyncio.gather(*(play(app, g, p, w, moves, think, i) for i, (g, p, w) in enumerate(plan)))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        await app.env.service.settle()
        for _, _, watchers in plan:
            for watcher in watchers.values():
                watcher.task.cancel()
                await watcher.ws.close()
    await store.close()
    if reserved is not None:
        await release_database(*reserved)
    latencies = sorted(x * 1000 for result in results for x in result)
    count = len(latencies)
    if not count:
        print("no move was made")
        return

    def pct(p: float) -> float:
        return latencies[min(count - 1, int(p * count))]

    kind = "Redis pub/sub" if redis else "SQLite, in process"
    print(f"{games} games at once, {count} moves through the API ({kind}), think time {think:g} s on average")
    print(
        f"move → other player's socket: p50 {statistics.median(latencies):.1f} ms, p90 {pct(0.9):.1f} ms, "
        f"p99 {pct(0.99):.1f} ms, max {latencies[-1]:.1f} ms"
    )
    print(f"{count / wall:.0f} moves/s; CPU {cpu / count * 1000:.1f} ms per move (all threads, chat boards included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--redis", default=None, help="a Redis server (redis://host:port): a reserved database")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a player thinks on average (0: a burst)")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.moves, args.redis, args.think))


if __name__ == "__main__":
    main()
