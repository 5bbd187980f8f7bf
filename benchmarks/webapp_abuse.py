"""The Mini App under abuse (issue 48): four attacks on a webhook worker on loopback, with figures, never pass/fail.

``python benchmarks/webapp_abuse.py [--quick] [--attacks calm,a,memory,b,c,d] [--redis redis://127.0.0.1:6379]
[--sockets 8000] [--flood 3000] [--slow 600] [--seconds 15] [--setting NAME=VALUE ...]``

One ``python -m bot`` webhook worker (as ``benchmarks/load.py`` runs them: on the fake Bot API over HTTP of
``tests/bot/fake_bot_api_server.py``, on a Redis database reserved the way the tests reserve theirs) serves the Mini
App under ``/webapp/`` on its port, exactly as the tree configures it: the HTTP timeouts, connection caps, rate limits
and socket caps of whatever the tree has when this runs (``--setting`` adds environment settings, e.g.
``--setting WEBAPP_LIVE_PER_USER=100``). An honest table plays all along: two players moving through the API as the
page does (a short think between moves, the first action offered) and a spectator, each with a live socket; for every
move the time from the POST to the new version on the opponent's socket and on the spectator's is measured. The
attackers run in another process (as other machines would), so the CPU figures are the worker's alone. Every attack is
bounded in count and in time:

- ``calm``: no attack, the reference.
- ``a``: one signed user opens ``--sockets`` live sockets on the honest game (any signed user may watch any game),
  ``--open-rate`` handshakes at a time, holds the accepted ones ``--hold`` seconds and closes them; prints how many were
  accepted and refused (the close codes).
- ``memory``: three floods in a row of ``--flood`` sockets of as many signed users spread over the games (the caps per
  user cannot stop it; the per-process cap can), each held ``--hold`` seconds and closed; prints the worker's RSS
  before, at each flood's peak and ``--settle`` seconds after each flood closed.
- ``b``: ``--slow`` raw connections that are slow on purpose, a third of each kind: ``silent`` (connects and sends
  nothing), ``trickle`` (sends a request line and headers one byte a second, never ending them) and ``no-hello``
  (completes the live socket's handshake and never sends its first message); prints how long the worker kept each kind
  open (watched at most ``--observe`` seconds).
- ``c``: a flood of actions from one signed user (``--action-rate`` POSTs a second of a stale action on the honest
  game) for ``--seconds``, then a flood of unsigned requests (``--unsigned-rate`` GETs a second without init data) for
  as long; prints the rates reached and the answers' statuses.
- ``d``: the honest moves themselves are sent with the body in two TCP packets 0.3 s apart (a phone on a bad link);
  prints their statuses and latencies.

Printed during each phase every ``--every`` seconds: the worker's RSS (``VmRSS``) and CPU (its main process, where the
event loop runs; its drawing process apart); after each: the honest move's latency p50/p99 to the opponent and the
spectator. ``--quick`` makes every count and duration small enough to finish in a couple of minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import WSMsgType, web

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.live_watch import MOVE_TIMEOUT, Watcher
from benchmarks.redis_db import reserved_db
from tests.bot.fake_bot_api_server import (
    TOKEN,
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
from tests.bot.webapp.initdata import signed_init_data

WEBAPP_URL = "https://bot.example.org/webapp/"


def signed(user_id: int) -> str:
    """Return init data for ``user_id`` signed with the worker's token, as Telegram signs it."""
    return signed_init_data(user_id, f"U{user_id}", token=TOKEN)


# ---- the worker's process, as /proc shows it -------------------------------------------------------------------
def rss_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` in MB (``VmRSS``; 0 when it is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """Return the CPU seconds (user and system) process ``pid`` has used (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    """Return the ids of the processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


@dataclass
class Sample:
    """One look at the worker: when, its RSS (MB), its main process's and its children's CPU seconds so far."""

    at: float
    rss: float
    cpu: float
    children_cpu: float


class Monitor:
    """Samples the worker every half second; prints a line every ``every`` seconds while a phase runs."""

    def __init__(self, pid: int, every: float) -> None:
        self.pid = pid
        self.every = every
        self.samples: list[Sample] = []
        self.children = children_of(pid)
        self.phase = ""
        self._task = asyncio.create_task(self._run())

    def take(self) -> Sample:
        """Return a sample taken now (and keep it)."""
        sample = Sample(
            time.monotonic(), rss_mb(self.pid), cpu_seconds(self.pid), sum(cpu_seconds(c) for c in self.children)
        )
        self.samples.append(sample)
        return sample

    async def _run(self) -> None:
        last_print = time.monotonic()
        printed = self.take()
        while True:
            await asyncio.sleep(0.5)
            sample = self.take()
            if self.phase and sample.at - last_print >= self.every:
                share = (sample.cpu - printed.cpu) / (sample.at - printed.at)
                print(f"    [{self.phase}] RSS {sample.rss:6.0f} MB  CPU {share:4.0%} of a core", flush=True)
                last_print, printed = sample.at, sample

    def window(self, since: float) -> list[Sample]:
        """Return the samples taken since ``since`` (monotonic)."""
        return [s for s in self.samples if s.at >= since]

    async def stop(self) -> None:
        """Stop sampling."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


# ---- Telegram's side and the honest table -----------------------------------------------------------------------
class Telegram:
    """Sends updates to the worker as Telegram does and waits for what the fake Bot API shows."""

    def __init__(self, api: FakeBotApiServer, worker: Worker, session: aiohttp.ClientSession) -> None:
        self.api = api
        self.worker = worker
        self.session = session

    async def send(self, update: dict[str, Any]) -> None:
        """Deliver ``update`` (again while the worker answers 503)."""
        for _ in range(100):
            status, _ = await deliver(self.session, self.worker.url, update, WORKER_SECRET)
            if status == 200:
                return
            await asyncio.sleep(0.05)

    async def until(self, condition: Callable[[], Any], timeout: float = 60.0) -> Any:
        """Return ``condition()`` once it is true. Raises: TimeoutError."""
        deadline = time.monotonic() + timeout
        while not (value := condition()):
            if time.monotonic() > deadline:
                raise TimeoutError("the worker did not answer")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.api.changed.wait(), timeout=0.05)
        return value

    async def start_game(self, chat: dict[str, Any], first: dict[str, Any], second: dict[str, Any]) -> str:
        """Start a short game in ``chat`` (``/new short`` by ``first``, Join by ``second``); return its id."""
        api = self.api
        before = {m.message_id for m in api.chat(chat["id"])}
        await self.send(api.message_update(first, chat, "/new short"))
        card = await self.until(
            lambda: next(
                (m for m in api.chat(chat["id"]) if m.message_id not in before and m.keyboard and not m.photo), None
            )
        )
        join = next(d for d in card.callbacks() if d.endswith(":join"))
        await self.send(api.press_update(second, card, join))
        board = await self.until(
            lambda: next((m for m in api.chat(chat["id"]) if m.message_id not in before and game_id_of(m)), None)
        )
        return game_id_of(board) or ""


def game_id_of(message: ChatMessage) -> str | None:
    """Return the game id a board's buttons carry (``g:<game id>:<version>:<action>``), or None."""
    for data in message.callbacks():
        if data.startswith("g:"):
            return data.split(":")[1]
    return None


@dataclass
class Move:
    """One honest move: its phase, and the seconds to the opponent's and the spectator's sockets (None: lost)."""

    phase: str
    opponent: float | None
    spectator: float | None
    status: int


async def post_split(base: str, path: str, init_data: str, body: bytes, pause: float) -> int:
    """POST ``body`` to ``path`` over a raw connection, its first half and its second ``pause`` seconds apart (two TCP
    packets); return the answer's status (0 when the connection failed)."""
    parts = urlsplit(base)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: tma {init_data}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode()
        half = len(body) // 2
        writer.write(head + body[:half])
        await writer.drain()
        await asyncio.sleep(pause)
        writer.write(body[half:])
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout=MOVE_TIMEOUT)
        pieces = line.split()
        status = int(pieces[1]) if len(pieces) > 1 and pieces[1].isdigit() else 0
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(reader.read(), timeout=5.0)
        return status
    except (OSError, TimeoutError):
        return 0
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


class Table:
    """The honest table: two players and a spectator in a group, a new game whenever the last one ended."""

    def __init__(self, telegram: Telegram, base: str, session: aiohttp.ClientSession) -> None:
        self.telegram = telegram
        self.base = base
        self.session = session
        self.chat = group(-7_000_001)
        self.players = (user(7_001, "Honest A", "en"), user(7_002, "Honest B", "en"))
        self.spectator = user(7_003, "Spectator", "ru")
        self.game_id = ""
        self.watchers: list[Watcher] = []
        self.moves: list[Move] = []
        self.phase = "calm"
        self.split = False
        self.think = 0.25
        self._task: asyncio.Task[None] | None = None

    async def new_game(self) -> None:
        """Start a game in the group between the two players and open the three sockets."""
        for watcher in self.watchers:
            await watcher.close()
        self.game_id = await self.telegram.start_game(self.chat, *self.players)
        self.watchers = [await self.watch(u["id"]) for u in (*self.players, self.spectator)]

    async def watch(self, user_id: int) -> Watcher:
        """Open a live socket of the game as ``user_id``; return it once its first state arrived."""
        ws = await self.session.ws_connect(f"{self.base}/webapp/api/games/{self.game_id}/live", compress=15)
        await ws.send_json({"init_data": signed(user_id), "version": None})
        watcher = Watcher(ws)
        await watcher.until(1)
        return watcher

    def start(self) -> None:
        self._task = asyncio.create_task(self._play())

    async def stop(self) -> None:
        # cancelled until it is done: Python 3.11's wait_for may swallow a cancellation that meets a result
        while self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.wait([self._task], timeout=1.0)
        for watcher in self.watchers:
            with contextlib.suppress(Exception):
                await watcher.close()

    async def _play(self) -> None:
        while True:
            await asyncio.sleep(self.think)
            try:
                if not await self.move():
                    await self.new_game()
            except (TimeoutError, aiohttp.ClientError, OSError) as error:
                print(f"    honest table: {type(error).__name__}: {error}; a new game", flush=True)
                with contextlib.suppress(TimeoutError, aiohttp.ClientError, OSError):
                    await self.new_game()

    async def move(self) -> bool:
        """Make one move; return False when the game is over."""
        view = max((w.state for w in self.watchers[:2]), key=lambda state: int(state.get("version", 0)))
        if view.get("finished") or view.get("turn") is None:
            return False
        turn = int(view["turn"])
        mover, other, spectator = self.watchers[turn], self.watchers[1 - turn], self.watchers[2]
        await mover.until(int(view["version"]))
        mine = mover.state
        actions = [a["action"] for a in mine["actions"] if not a["action"].startswith("rs")]
        if not actions:
            return False
        phase = self.phase
        body = json.dumps({"version": mine["version"], "action": actions[0]}).encode()
        path = f"/webapp/api/games/{self.game_id}/actions"
        init_data = signed(int(self.players[turn]["id"]))
        started = time.perf_counter()
        version = 0
        if self.split:
            status = await post_split(self.base, path, init_data, body, 0.3)
            if status == 200:
                version = await self._saved_version(int(mine["version"]))
        else:
            async with self.session.post(
                self.base + path, headers={"Authorization": "tma " + init_data}, data=body
            ) as response:
                status = response.status
                if status == 200:
                    version = int((await response.json())["version"])
        if status != 200:
            self.moves.append(Move(phase, None, None, status))
            return True
        times: list[float | None] = []
        for watcher in (other, spectator):
            try:
                times.append(await watcher.until(version) - started)
            except TimeoutError:
                times.append(None)
        self.moves.append(Move(phase, times[0], times[1], status))
        return True

    async def _saved_version(self, after: int) -> int:
        """Return the game's version after ``after`` as the API tells it (a split POST's answer is not parsed)."""
        async with self.session.get(
            f"{self.base}/webapp/api/games/{self.game_id}",
            headers={"Authorization": "tma " + signed(int(self.players[0]["id"]))},
        ) as response:
            view = await response.json()
        return max(after + 1, int(view.get("version", 0)))


# ---- the attackers' process --------------------------------------------------------------------------------------
async def _open_socket(
    session: aiohttp.ClientSession, url: str, user_id: int, outcome: Counter[str]
) -> aiohttp.ClientWebSocketResponse | None:
    """Open one live socket as ``user_id``; count its outcome; return it when the server kept it."""
    try:
        ws = await session.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_close=5.0), compress=15)
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        outcome[f"handshake failed ({type(error).__name__})"] += 1
        return None
    try:
        await ws.send_json({"init_data": signed(user_id), "version": None})
        message = await ws.receive(timeout=30.0)
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        outcome[f"no answer ({type(error).__name__})"] += 1
        await ws.close()
        return None
    if message.type is WSMsgType.TEXT:
        body = json.loads(message.data)
        if body.get("type") in ("state", "current"):
            outcome["accepted"] += 1
            return ws
        with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
            await ws.receive(timeout=5.0)
        outcome[f"refused {body.get('status')} (close code {ws.close_code})"] += 1
        await ws.close()
        return None
    outcome[f"closed ({message.type.name}, code {ws.close_code})"] += 1
    await ws.close()
    return None


async def flood_sockets(base: str, targets: list[tuple[str, int]], at_once: int, hold: float) -> dict[str, Any]:
    """Open one live socket per ``(game id, user id)`` of ``targets``, ``at_once`` handshakes at a time; hold the
    accepted ones ``hold`` seconds, then close them. Returns: the outcomes and the seconds it took to open them."""
    outcome: Counter[str] = Counter()
    kept: list[aiohttp.ClientWebSocketResponse] = []
    gate = asyncio.Semaphore(at_once)
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(game_id: str, user_id: int) -> None:
            async with gate:
                ws = await _open_socket(session, f"{base}/webapp/api/games/{game_id}/live", user_id, outcome)
            if ws is not None:
                kept.append(ws)

        started = time.monotonic()
        await asyncio.gather(*(one(g, u) for g, u in targets))
        opened = time.monotonic() - started
        await asyncio.sleep(hold)
        still = sum(await asyncio.gather(*(_still_open(ws) for ws in kept)))
        await asyncio.gather(*(ws.close() for ws in kept), return_exceptions=True)
    return {"outcome": dict(outcome), "opened_in": opened, "open_at_end": still}


async def _still_open(ws: aiohttp.ClientWebSocketResponse) -> bool:
    """Return whether the server still keeps ``ws`` open (a socket it cut is seen closed only when read)."""
    if ws.closed:
        return False
    try:
        message = await ws.receive(timeout=0.2)
    except TimeoutError:
        return True
    return message.type not in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR)


async def slow_clients(base: str, game_id: str, count: int, observe: float) -> dict[str, Any]:
    """Open ``count`` slow connections, a third of each kind (see the module docstring); return for each kind the
    seconds each stayed open (``observe`` when the worker never closed it)."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    path = f"/webapp/api/games/{game_id}/live"
    handshake = (
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    kinds = ("silent", "trickle", "no-hello")
    open_for: dict[str, list[float]] = {kind: [] for kind in kinds}
    failed: Counter[str] = Counter()

    async def one(kind: str) -> None:
        started = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout=10)
        except (OSError, TimeoutError):
            failed[kind] += 1
            return
        try:
            if kind == "no-hello":
                writer.write(handshake)
                await writer.drain()

            async def closed() -> None:
                while await reader.read(4096):
                    pass

            waiting = asyncio.create_task(closed())
            if kind == "trickle":
                for byte in handshake[:-2]:  # never the blank line that ends the headers
                    if waiting.done() or time.monotonic() - started >= observe:
                        break
                    writer.write(bytes([byte]))
                    with contextlib.suppress(OSError):
                        await writer.drain()
                    await asyncio.wait({waiting}, timeout=1.0)
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(waiting, timeout=max(0.0, started + observe - time.monotonic()))
            open_for[kind].append(min(observe, time.monotonic() - started))
        except OSError:
            open_for[kind].append(min(observe, time.monotonic() - started))
        finally:
            writer.close()

    await asyncio.gather(*(one(kinds[i % 3]) for i in range(count)))
    return {"open_for": open_for, "failed": dict(failed)}


async def request_flood(
    base: str, make: Callable[[aiohttp.ClientSession], Awaitable[int]], rate: float, seconds: float
) -> dict[str, Any]:
    """Send requests made by ``make`` at ``rate`` a second (as many at once as needed, at most 500) for ``seconds``;
    return the statuses and the rate reached."""
    statuses: Counter[int | str] = Counter()
    gate = asyncio.Semaphore(500)
    tasks: set[asyncio.Task[None]] = set()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=500)) as session:

        async def one() -> None:
            try:
                statuses[await make(session)] += 1
            except (aiohttp.ClientError, OSError, TimeoutError) as error:
                statuses[type(error).__name__] += 1
            finally:
                gate.release()

        started = time.monotonic()
        sent = 0
        while (elapsed := time.monotonic() - started) < seconds:
            if sent < elapsed * rate:
                await gate.acquire()
                task = asyncio.create_task(one())
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                sent += 1
            else:
                await asyncio.sleep(0.002)
        await asyncio.gather(*tasks, return_exceptions=True)
        took = time.monotonic() - started
    return {"statuses": {str(k): v for k, v in statuses.items()}, "rate": sent / took, "sent": sent}


async def action_flood(
    base: str, game_id: str, user_id: int, action: str, rate: float, seconds: float
) -> dict[str, Any]:
    """One signed user POSTs ``action`` on the game at its first version (stale) ``rate`` times a second for
    ``seconds``."""
    headers = {"Authorization": "tma " + signed(user_id), "Content-Type": "application/json"}
    body = json.dumps({"version": 1, "action": action})

    async def post(session: aiohttp.ClientSession) -> int:
        async with session.post(f"{base}/webapp/api/games/{game_id}/actions", data=body, headers=headers) as answer:
            await answer.read()
            return answer.status

    return await request_flood(base, post, rate, seconds)


async def unsigned_flood(base: str, game_id: str, rate: float, seconds: float) -> dict[str, Any]:
    """GETs of the game without init data, ``rate`` a second for ``seconds``."""

    async def get(session: aiohttp.ClientSession) -> int:
        async with session.get(f"{base}/webapp/api/games/{game_id}") as answer:
            await answer.read()
            return answer.status

    return await request_flood(base, get, rate, seconds)


ATTACKS: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
    "sockets": flood_sockets,
    "slow": slow_clients,
    "actions": action_flood,
    "unsigned": unsigned_flood,
}


def attacker_process(kind: str, args: tuple[Any, ...], pipe: Connection) -> None:
    """The attackers' process: run one attack and send its result back through ``pipe``."""
    pipe.send(asyncio.run(ATTACKS[kind](*args)))


async def attack(kind: str, *args: Any) -> dict[str, Any]:
    """Run one attack in a process of its own; return its result."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=attacker_process, args=(kind, args, theirs), daemon=True)
    process.start()
    loop = asyncio.get_running_loop()
    result: dict[str, Any] = await loop.run_in_executor(None, ours.recv)
    await loop.run_in_executor(None, process.join, 30)
    return result


# ---- the run --------------------------------------------------------------------------------------------------
@dataclass
class Settings:
    """Every count and duration of the run."""

    sockets: int
    open_rate: int
    hold: float
    flood: int
    settle: float
    slow: int
    observe: float
    action_rate: float
    unsigned_rate: float
    seconds: float
    split_moves: int
    every: float
    extra: dict[str, str] = field(default_factory=dict)


def ms(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 10 else f"{value:.1f} s"


def latency_line(moves: list[Move]) -> str:
    """Return the honest moves' latency figures of one phase."""
    if not moves:
        return "no honest move was made"
    parts = [f"{len(moves)} honest moves"]
    statuses = Counter(m.status for m in moves)
    if set(statuses) != {200}:
        parts.append(f"statuses {dict(statuses)}")
    for name in ("opponent", "spectator"):
        values = sorted(v for m in moves if (v := getattr(m, name)) is not None)
        lost = sum(getattr(m, name) is None and m.status == 200 for m in moves)
        if values:
            p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
            text = f"→ {name} p50 {ms(statistics.median(values))} p99 {ms(p99)}"
        else:
            text = f"→ {name} none arrived"
        parts.append(text + (f" ({lost} never arrived within {MOVE_TIMEOUT:.0f} s)" if lost else ""))
    return ", ".join(parts)


class Run:
    """The worker, the honest table, the monitor, and the phases."""

    def __init__(self, worker: Worker, table: Table, monitor: Monitor, settings: Settings, crowd: list[str]) -> None:
        self.worker = worker
        self.table = table
        self.crowd = crowd
        self.monitor = monitor
        self.settings = settings
        self.base = worker.base

    @contextlib.asynccontextmanager
    async def phase(self, name: str, title: str) -> Any:
        """Run a phase: print its title, then RSS/CPU lines while it runs, then its summary."""
        print(f"\n== {name}: {title}", flush=True)
        self.table.phase = name
        self.monitor.phase = name
        before = self.monitor.take()
        yield
        after = self.monitor.take()
        self.monitor.phase = ""
        window = self.monitor.window(before.at)
        peak = max(s.rss for s in window)
        took = after.at - before.at
        print(
            f"  worker: RSS {before.rss:.0f} → peak {peak:.0f} → {after.rss:.0f} MB; "
            f"CPU {after.cpu - before.cpu:.1f} s in {took:.0f} s ({(after.cpu - before.cpu) / took:.0%} of a core; "
            f"drawing process {(after.children_cpu - before.children_cpu) / took:.0%})"
        )
        print("  " + latency_line([m for m in self.table.moves if m.phase == name]), flush=True)

    async def calm(self) -> None:
        async with self.phase("calm", "no attack (the reference)"):
            await asyncio.sleep(self.settings.seconds)

    async def one_user(self) -> None:
        s = self.settings
        async with self.phase("a", f"one signed user opens {s.sockets} sockets on the honest game"):
            result = await attack(
                "sockets", self.base, [(self.table.game_id, 9_000_001)] * s.sockets, s.open_rate, s.hold
            )
            print(
                f"  opened in {result['opened_in']:.1f} s: {result['outcome']}; still open after {s.hold:.0f} s more: "
                f"{result['open_at_end']} (the server cuts a socket that sends nothing for 70 s, so a long attack "
                "may be accepted again)"
            )

    async def memory(self) -> None:
        s = self.settings
        title = f"three floods of {s.flood} sockets of as many users over {len(self.crowd) + 1} games"
        async with self.phase("memory", title):
            games = [self.table.game_id, *self.crowd]
            baseline = self.monitor.take().rss
            after: list[float] = []
            for flood in range(3):
                since = time.monotonic()
                targets = [(games[i % len(games)], 8_000_000 + flood * 100_000 + i) for i in range(s.flood)]
                result = await attack("sockets", self.base, targets, s.open_rate, s.hold)
                peak = max(x.rss for x in self.monitor.window(since))
                await asyncio.sleep(s.settle)
                after.append(self.monitor.take().rss)
                print(
                    f"  flood {flood + 1}: {result['outcome']}; RSS peak {peak:.0f} MB, {s.settle:.0f} s after "
                    f"closing {after[-1]:.0f} MB",
                    flush=True,
                )
            print(
                f"  RSS before {baseline:.0f} MB; after floods 1, 2, 3: "
                + ", ".join(f"{x:.0f}" for x in after)
                + f" MB (after the third {after[2] / after[0] - 1:+.1%} of after the first)"
            )

    async def slow(self) -> None:
        s = self.settings
        async with self.phase("b", f"{s.slow} slow connections (silent, trickling headers, no first message)"):
            result = await attack("slow", self.base, self.table.game_id, s.slow, s.observe)
            for kind, values in result["open_for"].items():
                if not values:
                    continue
                ordered = sorted(values)
                kept = sum(v >= s.observe for v in values)
                print(
                    f"  {kind:<9} {len(values)}: open p50 {statistics.median(ordered):.1f} s, max "
                    f"{ordered[-1]:.1f} s; {kept} still open when watching stopped at {s.observe:.0f} s"
                )
            if result["failed"]:
                print(f"  connections refused: {result['failed']}")

    async def floods(self) -> None:
        s = self.settings
        async with self.phase(
            "c", f"{s.action_rate:.0f} actions/s of one signed user, then {s.unsigned_rate:.0f} unsigned requests/s"
        ):
            action = next(a["action"] for a in self.table.watchers[0].state["actions"])  # a resignation at least
            game_id = self.table.game_id
            actions = await attack("actions", self.base, game_id, 9_100_001, action, s.action_rate, s.seconds)
            print(
                f"  actions: {actions['sent']} sent at {actions['rate']:.0f}/s; statuses {actions['statuses']}",
                flush=True,
            )
            unsigned = await attack("unsigned", self.base, self.table.game_id, s.unsigned_rate, s.seconds)
            print(f"  unsigned: {unsigned['sent']} sent at {unsigned['rate']:.0f}/s; statuses {unsigned['statuses']}")

    async def split(self) -> None:
        s = self.settings
        async with self.phase("d", "the honest moves' bodies in two TCP packets 0.3 s apart"):
            self.table.split = True
            start = len(self.table.moves)
            deadline = time.monotonic() + max(s.seconds * 4, 30)
            while len(self.table.moves) - start < s.split_moves and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            self.table.split = False


async def run(args: argparse.Namespace, settings: Settings) -> None:
    with tempfile.TemporaryDirectory() as folder, reserved_db(args.redis) as redis_url:
        api = FakeBotApiServer(latency=args.latency)
        runner = web.AppRunner(api.app(), access_log=None)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        worker = start_worker(
            f"http://127.0.0.1:{port}", redis_url, Path(folder), "abuse", WEBAPP_URL=WEBAPP_URL, **settings.extra
        )
        try:
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
                await wait_healthy(session, worker)
                table = Table(Telegram(api, worker, session), worker.base, session)
                await table.new_game()
                telegram = table.telegram
                crowd = [
                    await telegram.start_game(group(-7_100_000 - i), user(7_100 + 2 * i, "C"), user(7_101 + 2 * i, "D"))
                    for i in range(args.games)
                ]
                monitor = Monitor(worker.process.pid, settings.every)
                print(
                    f"worker pid {worker.process.pid}: RSS {rss_mb(worker.process.pid):.0f} MB at start; "
                    f"{os.cpu_count()} CPUs; settings {settings.extra or 'as the tree has them'}",
                    flush=True,
                )
                table.start()
                the_run = Run(worker, table, monitor, settings, crowd)
                phases = {
                    "calm": the_run.calm,
                    "a": the_run.one_user,
                    "memory": the_run.memory,
                    "b": the_run.slow,
                    "c": the_run.floods,
                    "d": the_run.split,
                }
                for name in args.attacks.split(","):
                    await phases[name]()
                await table.stop()
                await monitor.stop()
        finally:
            stop_workers([worker])
            await runner.cleanup()
            lines = worker.log.read_text(errors="replace").splitlines()
            errors = [line for line in lines if " ERROR " in line or "Traceback" in line]
            warnings = [line for line in lines if " WARNING " in line]
            print(f"\nworker log: {len(lines)} lines, {len(errors)} errors, {len(warnings)} warnings")
            for line in (errors + warnings)[:8]:
                print("  " + line[:200])
            if args.keep_log:
                Path(args.keep_log).write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="small counts and durations (a couple of minutes)")
    parser.add_argument("--attacks", default="calm,a,memory,b,c,d")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"))
    parser.add_argument("--latency", type=float, default=0.02, help="seconds the fake Bot API takes per call")
    parser.add_argument("--sockets", type=int, help="sockets one user tries to open (a); default 8000, quick 2000")
    parser.add_argument("--games", type=int, default=9, help="games besides the honest one the floods spread over")
    parser.add_argument("--open-rate", type=int, default=200, help="socket handshakes under way at once")
    parser.add_argument("--hold", type=float, help="seconds the accepted sockets stay open; default 15, quick 5")
    parser.add_argument("--flood", type=int, help="sockets of each memory flood; default 3000, quick 1000")
    parser.add_argument("--settle", type=float, help="seconds after a flood before RSS is read; default 10, quick 5")
    parser.add_argument("--slow", type=int, help="slow connections (b); default 600, quick 150")
    parser.add_argument("--observe", type=float, help="seconds the slow connections are watched; default 90, quick 20")
    parser.add_argument("--action-rate", type=float, default=300.0)
    parser.add_argument("--unsigned-rate", type=float, default=3000.0)
    parser.add_argument("--seconds", type=float, help="seconds of each flood of (c) and of calm; default 15, quick 5")
    parser.add_argument("--split-moves", type=int, help="honest moves sent in two packets (d); default 20, quick 6")
    parser.add_argument("--keep-log", help="a file to copy the worker's log to")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between two RSS/CPU lines")
    parser.add_argument("--setting", action="append", default=[], help="NAME=VALUE for the worker's environment")
    args = parser.parse_args()
    quick = args.quick

    def pick(value: Any, full: Any, small: Any) -> Any:
        return value if value is not None else (small if quick else full)

    settings = Settings(
        sockets=pick(args.sockets, 8000, 2000),
        open_rate=args.open_rate,
        hold=pick(args.hold, 15.0, 5.0),
        flood=pick(args.flood, 3000, 1000),
        settle=pick(args.settle, 10.0, 5.0),
        slow=pick(args.slow, 600, 150),
        observe=pick(args.observe, 90.0, 20.0),
        action_rate=args.action_rate,
        unsigned_rate=args.unsigned_rate,
        seconds=pick(args.seconds, 15.0, 5.0),
        split_moves=pick(args.split_moves, 20, 6),
        every=args.every,
        extra=dict(item.split("=", 1) for item in args.setting),
    )
    asyncio.run(run(args, settings))


if __name__ == "__main__":
    main()
