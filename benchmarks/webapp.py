"""The Mini App's figures (never pass/fail): live latency under load, CPU per move, page weight, first board.

``python benchmarks/webapp.py [--sections live,page,first-board] [--games 100] [--moves 6] [--think 1.0]
[--redis redis://127.0.0.1:6379] [--render-processes 1] [--loads 10]``

- ``live``: a whole bot on the fake Telegram (seeded dice, the chat boards drawn in ``--render-processes`` processes as
  in production, default 1, the production pacing on virtual time) with the Mini App's server on a local port,
  ``--games`` group games between two players, each player with its live socket open in a separate process (the players'
  side, as other machines would be: the CPU measured is the bot's alone). Then every game at once plays ``--moves``
  actions through the API (``POST .../actions``, the first action offered to the player to act, on the state its socket
  last sent, as the page does; a player thinks ``--think`` seconds on average before each, 0 to twice that, ``--think
  0`` fires them all at once), and for each the time from sending the POST to the arrival of the new version on the
  *other* player's socket is measured. The chat boards converge meanwhile (rendered and edited through the sender), as
  in production. With ``--redis`` the store and the live updates are on a database of that Redis server reserved the way
  the tests reserve theirs (``nardy-tests:db-reserved:<n>`` in database 0, flushed before and after), else the embedded
  SQLite store with in-process updates. Prints the p50/p90/p99/max latency, the moves per second, and the bot's CPU time
  per move: its process's (every thread: the API, the engine, the saves, the sockets, the chat boards edited) and its
  drawing processes'.
- ``page``: the weight of the page as the bot serves it (``bot/webapp/static``, gzipped by the server when the
  client accepts it): each file raw and gzipped, and the total. Telegram's own ``telegram-web-app.js``, which the
  page loads from telegram.org (cached by the Telegram app), is not the bot's to serve and is not counted.
- ``first-board``: the time from navigation to the first board drawn and painted (``performance.now()`` in the
  page's next animation frame after the first state is shown), in Debian's headless Chromium with Playwright's
  Pixel 5 profile (390-ish CSS pixels wide, touch, mobile user agent), ``--loads`` fresh loads (new context, empty
  cache) each: without throttling (the reference), with a 4× CPU slowdown (Lighthouse's mobile setting), and with
  that plus Lighthouse's "slow 4G" network (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up). The server is on
  this machine, so the network figure is the emulated link alone.
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
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp
from redis.asyncio import Redis as AsyncRedis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.live_watch import Watcher
from bot.services.live import LocalLive, RedisLive
from bot.storage import RedisGameStore, SqliteGameStore, Store
from bot.webapp.assets import load_assets
from bot.webapp.parts import DIST_DIR
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import signed_init_data
from tests.webapp.browserkit import page_url
from tests.webapp.conftest import CHROMIUM


@dataclass(frozen=True)
class Seat:
    """A player of a benchmark game as the load generator knows it: the user's id and the signed init data."""

    user_id: int
    init_data: str


async def play(
    session: aiohttp.ClientSession,
    base: str,
    game_id: str,
    seats: list[Seat],
    watchers: list[Watcher],
    moves: int,
    think: float,
    seed: int,
) -> list[float]:
    """Play ``moves`` actions of the game through the API as the Mini App does (acting on the state its socket
    last sent), a player thinking ``think`` seconds on average (0 to twice that) before each; return each one's
    move-to-other-socket latency."""
    latencies: list[float] = []
    jitter = random.Random(seed)
    for _ in range(moves):
        await asyncio.sleep(jitter.uniform(0, 2 * think))
        view = max((w.state for w in watchers), key=lambda state: int(state.get("version", 0)))
        if view.get("finished") or view.get("turn") is None:
            break
        turn = int(view["turn"])
        await watchers[turn].until(int(view["version"]))
        mine = watchers[turn].state
        actions = [a["action"] for a in mine["actions"] if not a["action"].startswith("rs")]
        if not actions:
            break
        started = time.perf_counter()
        async with session.post(
            f"{base}/webapp/api/games/{game_id}/actions",
            headers={"Authorization": "tma " + seats[turn].init_data},
            json={"version": mine["version"], "action": actions[0]},
        ) as response:
            body = await response.json()
        if response.status != 200:
            continue
        arrived = await watchers[1 - turn].until(body["version"])
        latencies.append(arrived - started)
    return latencies


async def generate_load(
    base: str, games: list[tuple[str, list[Seat]]], moves: int, think: float, pipe: Connection
) -> list[float]:
    """Open both players' sockets of every game, tell ``pipe`` "ready", wait for its "go", play every game at once
    and return the latencies."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        plan: list[tuple[str, list[Seat], list[Watcher]]] = []
        for game_id, seats in games:
            watchers = []
            for seat in seats:
                ws = await session.ws_connect(f"{base}/webapp/api/games/{game_id}/live")
                await ws.send_json({"init_data": seat.init_data, "version": None})
                watcher = Watcher(ws)
                await watcher.until(1)
                watchers.append(watcher)
            plan.append((game_id, seats, watchers))
        pipe.send("ready")
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        results = await asyncio.gather(
            *(play(session, base, g, s, w, moves, think, i) for i, (g, s, w) in enumerate(plan))
        )
        for _, _, watchers in plan:
            for watcher in watchers:
                await watcher.close()
    return [x for result in results for x in result]


def load_process(base: str, games: list[tuple[str, list[Seat]]], moves: int, think: float, pipe: Connection) -> None:
    """The load generator's process: run :func:`generate_load` and send its latencies back through ``pipe``."""
    pipe.send(asyncio.run(generate_load(base, games, moves, think, pipe)))


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


async def live_section(games: int, moves: int, redis: str | None, think: float, render_processes: int) -> None:
    """Measure and print the ``live`` section (see the module docstring)."""
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
    async with AppEnv(store, "bench", live=live, render_processes=render_processes) as app:
        fake = app.env.fake
        plan: list[tuple[str, list[Seat]]] = []
        for index in range(games):
            alice, bob = users(fake, "Alice", "Bob", base=10_000 + 2 * index)
            game_id = await app.group_game(fake.group_chat(-10_000 - index), alice, bob)
            plan.append((game_id, [Seat(u.id, signed_init_data(u.id, u.first_name)) for u in (alice, bob)]))
        await app.env.service.settle()
        # the players' pages are another process, as they are other machines: the CPU measured is the bot's alone
        base = str(app.client.make_url("")).rstrip("/")
        ours, theirs = multiprocessing.get_context("spawn").Pipe()
        process = multiprocessing.get_context("spawn").Process(
            target=load_process, args=(base, plan, moves, think, theirs), daemon=True
        )
        process.start()
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(None, ours.recv) == "ready"
        drawing = [child.pid for child in multiprocessing.active_children() if child.pid != process.pid]
        cpu, wall, drawn = time.process_time(), time.perf_counter(), processes_cpu(drawing)
        ours.send("go")
        results: list[float] = await loop.run_in_executor(None, ours.recv)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        drawn = processes_cpu(drawing) - drawn
        process.join(timeout=60)
        await app.env.service.settle()
    await store.close()
    if reserved is not None:
        await release_database(*reserved)
    latencies = sorted(x * 1000 for x in results)
    count = len(latencies)
    if not count:
        print("live: no move was made")
        return
    kind = "Redis pub/sub" if redis else "SQLite, in process"
    print(f"live: {games} games at once, {count} moves through the API ({kind}), think time {think:g} s on average")
    print(
        f"  move → other player's socket: p50 {statistics.median(latencies):.1f} ms, "
        f"p90 {percentile(latencies, 0.9):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms"
    )
    print(
        f"  {count / wall:.0f} moves/s; the bot's CPU {(cpu + drawn) / count * 1000:.1f} ms per move: "
        f"{cpu / count * 1000:.1f} ms in its process (the API, the sockets, the saves, the chat boards edited), "
        f"{drawn / count * 1000:.1f} ms in its {len(drawing)} drawing process(es); the players' side is another process"
    )


def processes_cpu(pids: list[int]) -> float:
    """Return the CPU seconds (user and system) the processes ``pids`` have used so far (Linux's /proc; 0 for a
    process that is gone)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def percentile(ordered: list[float], p: float) -> float:
    """Return the ``p`` quantile (0..1) of the sorted ``ordered`` (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def page_section() -> None:
    """Print the ``page`` section: each file of the build raw and gzipped as the server sends it, and the total."""
    assets = load_assets(DIST_DIR)
    if "index.html" not in assets:
        print("page: the front end is not built (bot/webapp/static)")
        return
    print("page: the files the bot serves (gzip level 9, as sent to a client that accepts gzip)")
    for name, asset in assets.items():
        print(f"  {name:<12} {len(asset.body) / 1024:7.1f} KiB raw  {len(asset.gzipped) / 1024:6.1f} KiB gzipped")
    raw = sum(len(a.body) for a in assets.values())
    zipped = sum(min(len(a.body), len(a.gzipped)) for a in assets.values())
    print(f"  total        {raw / 1024:7.1f} KiB raw  {zipped / 1024:6.1f} KiB gzipped ({zipped / raw:.0%})")


FIRST_BOARD_PROBE = """
new MutationObserver((_, observer) => {
  if (document.body && document.body.dataset.ready) {
    observer.disconnect();
    const shown = performance.now();
    requestAnimationFrame(() => setTimeout(() => {
      window.__firstBoard = { shown, painted: performance.now(), ready: document.body.dataset.ready };
    }, 0));
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"], childList: true });
"""
"""Records when the page marks its first state shown and when the next frame after it is painted."""

SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
"""Lighthouse's mobile network: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up (bytes per second here)."""

CONDITIONS: list[tuple[str, float, dict[str, Any] | None]] = [
    ("no throttling (reference)", 1.0, None),
    ("4× CPU slowdown", 4.0, None),
    ("4× CPU + slow 4G", 4.0, SLOW_4G),
]


async def first_board_section(loads: int) -> None:
    """Measure and print the ``first-board`` section (see the module docstring)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        print("first-board: the playwright package is not installed (pip install -e '.[test]')")
        return
    if not Path(CHROMIUM).exists():
        print(f"first-board: no Chromium at {CHROMIUM} (scripts/ensure-chromium.sh installs Debian's package)")
        return
    folder = tempfile.mkdtemp()
    store = SqliteGameStore(str(Path(folder) / "first-board.sqlite3"))
    figures: dict[str, list[float]] = {}
    async with AppEnv(store, "first-board", static_dir=DIST_DIR) as app, async_playwright() as pw:
        fake = app.env.fake
        alice, bob = users(fake, "Alice", "Bob", base=50_000)
        game_id = await app.group_game(fake.group_chat(-50_000), alice, bob)
        await app.env.service.settle()
        url = page_url(app, game_id, signed_init_data(alice.id, alice.first_name, language="en"))
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        profile = {k: v for k, v in pw.devices["Pixel 5"].items() if k != "default_browser_type"}
        try:
            for _ in range(loads):  # the conditions interleaved, so that a slow spell of the machine hits all alike
                for name, rate, network in CONDITIONS:
                    figures.setdefault(name, []).append(await load_once(browser, profile, url, rate, network))
        finally:
            await browser.close()
    await store.close()
    print(f"first-board: navigation → first board painted, Chromium {CHROMIUM}, Pixel 5 profile, {loads} cold loads")
    reference = statistics.median(figures[CONDITIONS[0][0]])
    for name, _, _ in CONDITIONS:
        times = sorted(figures[name])
        median = statistics.median(times)
        print(
            f"  {name:<26} median {median:6.0f} ms  p90 {percentile(times, 0.9):6.0f} ms  "
            f"max {times[-1]:6.0f} ms  ({median / reference:.1f}× the reference)"
        )


async def load_once(
    browser: Any, profile: dict[str, Any], url: str, rate: float, network: dict[str, Any] | None
) -> float:
    """Open ``url`` in a fresh context of ``profile`` with the CPU slowed ``rate`` times and the ``network``
    conditions (None: none); return the milliseconds from navigation to the first board painted."""
    context = await browser.new_context(**profile)
    try:
        # telegram-web-app.js is not reachable here (and is Telegram's, cached by its app): the page works without it
        await context.route("https://telegram.org/**", lambda route: route.abort())
        page = await context.new_page()
        await page.add_init_script(FIRST_BOARD_PROBE)
        cdp = await context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        if network is not None:
            await cdp.send("Network.enable")
            await cdp.send("Network.emulateNetworkConditions", network)
        await page.goto(url)
        await page.wait_for_function("window.__firstBoard !== undefined", timeout=120_000)
        probe = await page.evaluate("window.__firstBoard")
        if probe["ready"] != "yes" or not await page.locator("#board *").count():
            raise RuntimeError(f"the page showed no board: {probe}")
        return float(probe["painted"])
    finally:
        await context.close()


async def run(args: argparse.Namespace) -> None:
    sections = set(args.sections.split(","))
    unknown = sections - {"live", "page", "first-board"}
    if unknown:
        raise SystemExit(f"unknown sections: {', '.join(sorted(unknown))}")
    if "page" in sections:
        page_section()
    if "first-board" in sections:
        await first_board_section(args.loads)
    if "live" in sections:
        await live_section(args.games, args.moves, args.redis, args.think, args.render_processes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sections", default="live,page,first-board")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--redis", default=None, help="a Redis server (redis://host:port): a reserved database")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a player thinks on average (0: a burst)")
    parser.add_argument(
        "--render-processes",
        type=int,
        default=1,
        help="processes drawing the chat boards (RENDER_PROCESSES; 0: a thread)",
    )
    parser.add_argument("--loads", type=int, default=10, help="cold page loads per condition (first-board)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
