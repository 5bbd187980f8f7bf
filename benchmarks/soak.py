"""Soak test of real webhook workers under kills, a Redis restart and a burst: what people see, and what is saved.

``python benchmarks/soak.py [--quick] [--workers 3] [--games 30] [--computer-games 6] [--groups 15] [--long-games 4]
[--minutes 10] [--settle 60] [--latency 0.02] [--jitter 0.04] [--seed 1] [--kill-every 30,60] [--burst 200]``
``python benchmarks/soak.py --budget-check [--workers 1,2,4] [--budget-groups 3] [--budget-games 4]
[--budget-minutes 2.5]``

The run has its own ``redis-server`` (a free port, ``--appendonly yes --appendfsync everysec`` in a temporary
directory, so its data survive the restart), a fake Telegram over HTTP (``tests/bot/fake_bot_api_server.py``:
every call takes effect ``--latency`` seconds plus up to ``--jitter`` seconds at random after it arrives, so calls
of different workers overtake each other as on the way to Telegram) and N webhook workers (``python -m bot``,
``BOT_MODE=webhook``, the code of this tree) with Telegram's production pacing (the sender's intervals and per-minute
budgets and the throttling of users at their defaults in ``bot/config.py``, given explicitly), one render process
each, ``COMPUTER_PROCESSES=0``, ``BOT_MOVE_DELAY=0`` and short recovery timings (``TIMEOUT_SWEEP_INTERVAL=2``,
``BOARD_RETRY_AFTER=2``, ``WEBHOOK_UPDATE_LEASE=3``, ``JOB_RETRY_AFTER=5``) so that recovery shows within minutes.

People play G games at once: the group games (short nardy, ``--long-games`` of them long) in ``--groups`` groups
(``/new`` and Join; a group holds two games when there are more games than groups), and ``--computer-games``
games against the computer (``/new bot short easy`` in private chats). They press what their chat shows, think
0.3–2 s, sometimes type a move, press when it is not their turn or on a keyboard seen earlier, get an update
delivered to two workers at once, play a finished game again with Rematch, and type ``/board`` when their presses
are refused as stale again and again (``benchmarks/soak_traffic.py``). Telegram's side delivers each update to a
worker at random and again after a 503 or a broken connection, as Telegram does.

Faults, each with a fault window from its start to 10 s after its end: a worker killed with SIGKILL (with its render
process) every ``--kill-every`` seconds (a random interval in that range) and started again at once on its port;
one ``SHUTDOWN SAVE`` of Redis in the middle of the run and its restart on the same port and directory (down
~2 s); one burst of ``--burst`` presses within one second, spread over the games (at 70 % of the run). After
``--minutes`` the presses and faults stop and everything settles for ``--settle`` seconds; then it measures:

- lost and double actions: every press the workers accepted (its ``answerCallbackQuery`` carries no text) and
  every typed move they accepted (answered 200 without a reply to it) must be exactly one saved version of its
  game. Every version a game had is read from Redis's append-only file (``benchmarks/soak_journal.py``): each
  accepted press claims the save from the version its button carries (Rematch presses claim the finished game's
  one mark and the creation of the game it names), typed moves and actions whose outcome is unknown (a delivery
  broken by a kill, a store failure: saved once or not at all) are counted per game, and the computer's saves are
  told apart by the record before them (``soak_figures.reconcile``);
- regressions: a board change (photo sent, media or caption edited, in the order they took effect at the fake) that
  shows a chat an older version of a game than it was already shown (the version its buttons carry; for a board
  without buttons the versions whose caption it shows, from the journal), and how many of them a worker made after
  another worker's newer one (each worker life calls the fake under its own name);
- boards behind after the settle (the store's board message of every chat of every game must exist, carry the
  caption of the saved record and buttons of the saved version only), and frozen games (unfinished, and no message
  of the chats of the person to act carries a button of the saved version);
- tracebacks and records at ERROR or above in the workers' logs (a killed worker's last second left out);
- presses without an answer, and the answer's latency (press delivered → ``answerCallbackQuery`` at the fake),
  p50/p99 in calm and in fault windows; presses per second;
- per group, the most sends and edits (sendMessage, sendPhoto, sendMediaGroup items, editMessage*, deleteMessage)
  in any sliding 60 s, and how many groups went over 20 (Telegram's limit is about 20 a minute); also in the 60 s
  windows clear of the Redis outage's window (a budget kept in the store cannot be shared while it is down).

``--budget-check`` runs no faults: ``--budget-groups`` groups of ``--budget-games`` games each, pressed as fast as
the boards change, for ``--budget-minutes`` with each worker count of ``--workers``, and prints the most sends and
edits in any 60 s of any group (whether the per-group budget holds across workers).

Figures, never pass/fail: not part of the test suite. Needs ``redis-server`` on the PATH; uses the CPU of the
machine it runs on (N workers with their render processes, Redis, and this driver with the fake Telegram).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402
from redis.asyncio import Redis  # noqa: E402
from soak_figures import (  # noqa: E402
    Boards,
    CaptionIndex,
    Ledger,
    LogFindings,
    Regressions,
    Verdicts,
    Window,
    boards_after_settle,
    describe_peaks,
    group_peaks,
    judge,
    percentile,
    read_logs,
    reconcile,
    regressions,
)
from soak_journal import JournalError, read_journal  # noqa: E402
from soak_processes import PROCESSES, RedisServer, WorkerPool  # noqa: E402
from soak_traffic import Mix, PlayedGame, Press, Telegram, burst  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.storage import RedisGameStore, StoredGame  # noqa: E402
from tests.bot.fake_bot_api_server import FakeBotApiServer, free_port, group, private, user, wait_healthy  # noqa: E402

PACING = (
    "send_interval_private",
    "send_interval_group",
    "group_messages_per_minute",
    "private_messages_per_minute",
    "bot_calls_per_second",
    "throttle_rate",
    "throttle_burst",
)
"""Settings given to the workers at their production defaults (``start_worker`` turns them off otherwise)."""
RECOVERY = {
    "TIMEOUT_SWEEP_INTERVAL": "2",
    "BOARD_RETRY_AFTER": "2",
    "WEBHOOK_UPDATE_LEASE": "3",
    "JOB_RETRY_AFTER": "5",
}
FAST = Mix(think=(0.1, 0.3), patience=10.0, typed=0.0, wrong=0.0, old=0.0, twice=0.0)
"""People of ``--budget-check``: they press as soon as the board changed, and nothing else."""


def worker_settings() -> dict[str, str]:
    """Return the environment of the workers beyond ``start_worker``'s: production pacing, short recovery."""
    fields = Settings.model_fields
    production = {name.upper(): str(fields[name].default) for name in PACING}
    return {**production, **RECOVERY, "LOG_LEVEL": "WARNING"}


@dataclass
class Stage:
    """The processes and servers of one run."""

    api: FakeBotApiServer
    redis: RedisServer
    pool: WorkerPool
    session: aiohttp.ClientSession
    telegram: Telegram


@contextlib.asynccontextmanager
async def stage(args: argparse.Namespace, workdir: Path, workers: int, seed: int) -> AsyncIterator[Stage]:
    """Start Redis, the fake Telegram and the workers; stop them all on the way out (Redis is killed if still up).
    Yields: the stage."""
    redis = RedisServer(workdir / "redis")
    redis.start()
    api = FakeBotApiServer(latency=args.latency, jitter=args.jitter, seed=seed)
    runner = web.AppRunner(api.app(), access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    pool = WorkerPool(f"http://127.0.0.1:{port}", redis.url, workdir, workers, worker_settings())
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, force_close=True))
    try:
        await redis.wait_ready()
        pool.start()
        await pool.wait_healthy(session)
        yield Stage(api, redis, pool, session, Telegram(api, pool.urls, session, random.Random(seed + 1)))
    finally:
        pool.stop()
        await session.close()
        await runner.cleanup()
        redis.kill()


def layout(args: argparse.Namespace, rng: random.Random, telegram: Telegram) -> list[PlayedGame]:
    """Return the games of a soak run: the group games spread over the groups (in turn), a few long, then the games
    against the computer in private chats."""
    group_games = max(0, args.games - args.computer_games)
    every = max(1, group_games // args.long_games) if args.long_games else 0
    games = []
    for index in range(group_games):
        chat = group(-1_000_000 - index % args.groups)
        people = [user(10_000 + 2 * index, f"A{index:03d}"), user(10_001 + 2 * index, f"B{index:03d}")]
        variant = "long" if every and index % every == every - 1 else "short"
        games.append(
            PlayedGame(telegram, chat, people, variant=variant, computer=False, rng=random.Random(rng.random()))
        )
    for index in range(args.computer_games):
        person = user(20_000 + index, f"C{index:03d}")
        games.append(
            PlayedGame(
                telegram, private(person), [person], variant="short", computer=True, rng=random.Random(rng.random())
            )
        )
    return games


async def start_games(games: list[PlayedGame], parallel: int = 8) -> int:
    """Start the games, ``parallel`` at a time and the games of one chat one after the other. Returns: how many
    started."""
    gate = asyncio.Semaphore(parallel)
    chats: dict[int, list[PlayedGame]] = {}
    for game in games:
        chats.setdefault(int(game.chat["id"]), []).append(game)

    async def start_chat(members: list[PlayedGame]) -> None:
        for game in members:
            async with gate:
                await game.start()

    await asyncio.gather(*(start_chat(m) for m in chats.values()))
    return sum(g.started for g in games)


@dataclass
class Faults:
    """The faults of a soak run and their windows (see the module docstring)."""

    stage: Stage
    games: list[PlayedGame]
    args: argparse.Namespace
    rng: random.Random
    windows: list[Window] = field(default_factory=list)
    kills: int = 0
    redis_down: float | None = None
    burst_pressed: int = 0
    burst_seconds: float = 0.0
    restarted: int = 0

    async def run(self, stop: asyncio.Event, began: float, seconds: float) -> None:
        """Make the faults until ``stop`` is set. Returns nothing."""
        await asyncio.gather(
            self._kills(stop, began, seconds),
            self._redis(stop, began + seconds * 0.5),
            self._burst(stop, began + seconds * 0.7),
            self._watch(stop),
        )

    @staticmethod
    async def _until(stop: asyncio.Event, moment: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=max(0.0, moment - time.monotonic()))
        return not stop.is_set()

    async def _kills(self, stop: asyncio.Event, began: float, seconds: float) -> None:
        low, high = self.args.kill_every
        moment = began + self.rng.uniform(low, high)
        while moment < began + seconds and await self._until(stop, moment):
            start = time.monotonic()
            life = self.stage.pool.kill(self.rng.randrange(self.stage.pool.count))
            self.kills += 1
            with contextlib.suppress(AssertionError):
                await wait_healthy(self.stage.session, life.worker, timeout=120)
            self.windows.append(Window("kill", start, time.monotonic()))
            moment += self.rng.uniform(low, high)

    async def _redis(self, stop: asyncio.Event, moment: float) -> None:
        if self.args.no_redis_restart or not await self._until(stop, moment):
            return
        redis = self.stage.redis
        start = time.monotonic()
        await redis.shutdown_save()
        await asyncio.sleep(max(0.0, start + 2.0 - time.monotonic()))
        redis.start()
        await redis.wait_ready()
        self.redis_down = time.monotonic() - start
        self.windows.append(Window("redis", start, time.monotonic()))

    async def _burst(self, stop: asyncio.Event, moment: float) -> None:
        if not self.args.burst or not await self._until(stop, moment):
            return
        start = time.monotonic()
        self.burst_pressed = await burst(self.stage.telegram, self.games, self.args.burst, 1.0, self.rng)
        self.burst_seconds = time.monotonic() - start
        self.windows.append(Window("burst", start, time.monotonic()))

    async def _watch(self, stop: asyncio.Event) -> None:
        while await self._until(stop, time.monotonic() + 1.0):
            self.restarted += len(self.stage.pool.restart_dead())


async def sample_load(stop: asyncio.Event, samples: list[float]) -> None:
    """Append the 1-minute load average every 5 s until ``stop`` is set. Returns nothing."""
    while not stop.is_set():
        samples.append(os.getloadavg()[0])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=5.0)


async def play(
    games: list[PlayedGame], mix: Mix, seconds: float, faults: Faults | None, loads: list[float]
) -> tuple[float, float]:
    """Let the people play for ``seconds`` (with the faults, if any). Returns: when play began and ended."""
    stop = asyncio.Event()
    began = time.monotonic()
    tasks = [asyncio.ensure_future(g.play(stop, mix)) for g in games if g.started]
    extra = [asyncio.ensure_future(sample_load(stop, loads))]
    if faults is not None:
        extra.append(asyncio.ensure_future(faults.run(stop, began, seconds)))
    await asyncio.sleep(seconds)
    stop.set()
    ended = time.monotonic()
    _, late = await asyncio.wait(tasks, timeout=mix.patience + 40)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    with contextlib.suppress(TimeoutError):  # a fault under way (a restart) finishes first
        await asyncio.wait_for(asyncio.gather(*extra, return_exceptions=True), timeout=180)
    return began, ended


async def saved_games(url: str) -> list[StoredGame]:
    """Return every game saved in the Redis at ``url``."""
    client = Redis.from_url(url)
    store = RedisGameStore.from_url(url)
    try:
        ids = sorted({key.decode().split("{g:")[1].split("}")[0] async for key in client.scan_iter("nardy:{g:*}:game")})
        games = [await store.get_game(game_id) for game_id in ids]
        return [g for g in games if g is not None]
    finally:
        await store.close()
        await client.aclose()


def ms(values: list[float], q: float) -> str:
    """Return the ``q`` quantile of ``values`` (seconds) in milliseconds."""
    value = percentile(values, q)
    return "n/a" if math.isnan(value) else f"{value * 1000:.0f} ms"


def code_tree() -> str:
    """Return which code the workers run: this tree's path, and its git commit when it is a checkout."""
    if not (ROOT / ".git").exists():
        return f"{ROOT} (not a git checkout)"

    def git(*words: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *words], capture_output=True, text=True, check=False).stdout

    commit = git("rev-parse", "--short", "HEAD").strip()
    dirty = git("status", "--porcelain", "--", "bot", "nardy", "rendering").strip()
    return f"{ROOT} at {commit}{' with uncommitted changes under bot/, nardy/ or rendering/' if dirty else ''}"


@dataclass
class Findings:
    """Everything a soak run printed figures of."""

    faults: Faults
    games: list[PlayedGame]
    stored: list[StoredGame]
    presses: list[Press]
    seconds: float
    played: int
    verdicts: Verdicts
    boards: Boards
    peaks: dict[int, tuple[int, int]]
    logs: LogFindings
    ledger: Ledger | None
    regressions: Regressions | None
    journal: str
    loads: list[float]
    driver_cpu: float
    cancelled: int
    unasked: int


async def soak(args: argparse.Namespace) -> None:
    """Run the soak test and print its figures."""
    print(
        f"== soak: {args.workers} webhook workers, {args.games} games ({args.games - args.computer_games} in "
        f"{args.groups} groups, {args.long_games} of them long; {args.computer_games} against the computer), "
        f"{args.minutes:g} min + {args.settle:g} s settle, Bot API latency {args.latency * 1000:.0f}+"
        f"0..{args.jitter * 1000:.0f} ms, seed {args.seed}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f} ==",
        flush=True,
    )
    print(f"   code: {code_tree()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        workdir = Path(args.keep or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        async with stage(args, workdir, args.workers, args.seed) as run:
            findings = await soak_on(run, args)
    print_soak(findings)


async def soak_on(run: Stage, args: argparse.Namespace) -> Findings:
    """Play, make the faults, settle and measure on ``run``. Returns: the findings."""
    wall_offset = time.time() - time.monotonic()
    rng = random.Random(args.seed)
    loads: list[float] = []
    games = layout(args, rng, run.telegram)
    setup = time.monotonic()
    started = await start_games(games)
    print(f"   {started} of {len(games)} games started in {time.monotonic() - setup:.0f} s", flush=True)
    faults = Faults(run, games, args, random.Random(args.seed + 2))
    cpu = time.process_time()
    began, ended = await play(games, Mix(patience=args.patience), args.minutes * 60, faults, loads)
    cpu = time.process_time() - cpu
    run.pool.restart_dead()
    if run.redis.process is None or run.redis.process.poll() is not None:
        run.redis.start()
    await run.redis.wait_ready()
    await run.pool.wait_healthy(run.session)
    print(f"   played {ended - began:.0f} s; settling {args.settle:g} s", flush=True)
    await asyncio.sleep(args.settle)
    cancelled = await run.telegram.drain(timeout=5.0)
    stored = await saved_games(run.redis.url)
    verdicts = judge(run.api, run.telegram.presses, run.telegram.typed, faults.windows)
    boards = boards_after_settle(run.api, stored)
    outage = [w for w in faults.windows if w.kind == "redis"]  # where a store-kept budget cannot be shared
    peaks = group_peaks(run.api.calls, {int(g.chat["id"]) for g in games if g.group}, outage)
    run.pool.stop()
    logs = read_logs(run.pool.lives, faults.windows, wall_offset)
    await run.redis.shutdown_save()
    ledger: Ledger | None = None
    regress: Regressions | None = None
    try:
        journal = read_journal(run.redis.journal_files())
        ledger = reconcile(journal, verdicts)
        regress = regressions(run.api.changes, journal, CaptionIndex(journal))
        mismatched = sum(1 for g in stored if max(journal.game(g.game_id).saves, default=0) != g.version)
        note = f"{journal.commands} commands read, {mismatched} games whose last journal version is not the saved one"
    except JournalError as error:
        note = f"unreadable: {error}"
    presses = [p for p in run.telegram.presses if p.game is not None]
    return Findings(
        faults=faults,
        games=games,
        stored=stored,
        presses=presses,
        seconds=ended - began,
        played=sum(1 for p in presses if began <= p.sent <= ended),
        verdicts=verdicts,
        boards=boards,
        peaks=peaks,
        logs=logs,
        ledger=ledger,
        regressions=regress,
        journal=note,
        loads=loads,
        driver_cpu=cpu,
        cancelled=cancelled,
        unasked=sum(1 for life in run.pool.lives if life.died_unasked),
    )


def print_soak(f: Findings) -> None:
    """Print the figures of a soak run."""
    faults, verdicts, boards, logs = f.faults, f.verdicts, f.boards, f.logs
    load = f"{statistics.fmean(f.loads):.2f} (max {max(f.loads):.2f})" if f.loads else "n/a"
    down = f"down {faults.redis_down:.1f} s" if faults.redis_down is not None else "not done"
    print(
        f"-- faults: {faults.kills} workers SIGKILLed and restarted, {f.unasked} restarted after dying on their own; "
        f"Redis SHUTDOWN SAVE + restart: {down}; burst: {faults.burst_pressed} presses in "
        f"{faults.burst_seconds:.2f} s; load average during play {load}; this driver (people, Telegram's side, the "
        f"fake Bot API) used {f.driver_cpu / f.seconds * 100:.0f} % of a CPU"
    )
    typed = len(verdicts.typed_accepted) + verdicts.typed_refused + len(verdicts.typed_uncertain)
    print(
        f"-- traffic: {len(f.presses)} game presses ({f.played / f.seconds:.1f} presses/s over {f.seconds:.0f} s of "
        f"play), {typed} typed moves; accepted {len(verdicts.accepted)} presses + {len(verdicts.typed_accepted)} "
        f"typed moves; refused {sum(verdicts.refused.values())} presses + {verdicts.typed_refused} typed; outcome "
        f"unknown {len(verdicts.uncertain)} presses + {len(verdicts.typed_uncertain)} typed (a delivery broken by a "
        f"kill, a store failure); deliveries still under way after the settle: {f.cancelled}"
    )
    refusals = ", ".join(f"{text!r} {count}" for text, count in verdicts.refused.most_common(6))
    print(f"   refusals: {refusals}")
    finished = sum(1 for g in f.stored if g.finished)
    print(
        f"   games saved: {len(f.stored)} ({finished} finished, {len(f.stored) - finished} running); /board typed by "
        f"people whose presses kept being refused as stale: {sum(g.board_commands for g in f.games)}"
    )
    ledger = f.ledger
    if ledger is None:
        print(f"LOST actions: n/a   DOUBLE actions: n/a   (journal {f.journal})")
    else:
        print(
            f"LOST actions: {ledger.lost}   DOUBLE actions: {ledger.double}   (saves: {ledger.person_saves} by "
            f"people, {ledger.computer_saves} by the computer; journal: {f.journal}; gaps {ledger.gaps}, records "
            f"that do not load {ledger.unreadable})"
        )
        for example in ledger.examples[:5]:
            print(f"   {example}")
    regress = f.regressions
    if regress is None:
        print("REGRESSIONS seen by chats: n/a (no journal)")
    else:
        print(
            f"REGRESSIONS seen by chats: {regress.count} board changes showed an older version than already shown "
            f"({regress.by_keyboard} by the buttons' version, {regress.by_caption} by the caption; "
            f"{regress.across_workers} made by another worker than the newer one) in {len(regress.chats)} chats, "
            f"{len(regress.games)} games; {regress.unattributed} changes without buttons could not be placed"
        )
        for example in regress.examples[:3]:
            print(f"   {example}")
    reasons = ", ".join(f"{k} {v}" for k, v in boards.reasons.most_common())
    print(
        f"BOARDS BEHIND after the settle: {boards.behind} of {boards.chats} chats{f' ({reasons})' if reasons else ''}; "
        f"chats with two boards carrying buttons: {boards.second_boards}"
    )
    for example in boards.examples[:3]:
        print(f"   {example}")
    print(
        f"FROZEN games: {boards.frozen} of {boards.unfinished} unfinished (the person to act has no button of the "
        f"saved version); awaiting the computer after the settle: {boards.awaiting_computer}"
    )
    print(
        f"TRACEBACKS in the workers' logs: {logs.tracebacks}; records at ERROR+: {logs.errors} ({logs.in_faults} of "
        f"these records in fault windows; {logs.excluded} of killed workers' last second left out; the logs hold "
        f"{logs.lines} lines at LOG_LEVEL=WARNING)"
    )
    for kind, count in logs.kinds.most_common(5):
        print(f"   {count} x {kind}")
    print(
        f"ANSWERS: {len(verdicts.unanswered)} presses never answered; answer latency calm p50 "
        f"{ms(verdicts.latency_calm, 0.5)} p99 {ms(verdicts.latency_calm, 0.99)} ({len(verdicts.latency_calm)} "
        f"presses), in fault windows p50 {ms(verdicts.latency_fault, 0.5)} p99 {ms(verdicts.latency_fault, 0.99)} "
        f"({len(verdicts.latency_fault)} presses)"
    )
    print(f"GROUP BUDGET: {describe_peaks(f.peaks, 'the Redis outage window')}")
    worst = sorted(f.peaks.items(), key=lambda item: -item[1][0])[:5]
    print(f"   highest groups: {', '.join(f'{chat}: {peak}' for chat, (peak, _) in worst)}")


async def budget_check(args: argparse.Namespace) -> None:
    """Run the per-group budget check for each worker count and print its figures."""
    counts = [int(w) for w in str(args.workers).split(",")]
    print(
        f"== group budget: {args.budget_groups} groups x {args.budget_games} short games pressed as fast as the "
        f"boards change, {args.budget_minutes:g} min per worker count, production pacing, no faults, Bot API latency "
        f"{args.latency * 1000:.0f}+0..{args.jitter * 1000:.0f} ms, {os.cpu_count()} CPUs, load "
        f"{os.getloadavg()[0]:.2f} ==",
        flush=True,
    )
    print(f"   code: {code_tree()}", flush=True)
    for count in counts:
        loads: list[float] = []
        with tempfile.TemporaryDirectory(prefix="soak-budget-") as tmp:
            async with stage(args, Path(tmp), count, args.seed) as run:
                rng = random.Random(args.seed)
                games = []
                for index in range(args.budget_groups * args.budget_games):
                    chat = group(-2_000_000 - index % args.budget_groups)
                    people = [user(30_000 + 2 * index, f"A{index:03d}"), user(30_001 + 2 * index, f"B{index:03d}")]
                    games.append(
                        PlayedGame(
                            run.telegram, chat, people, variant="short", computer=False, rng=random.Random(rng.random())
                        )
                    )
                started = await start_games(games)
                began, ended = await play(games, FAST, args.budget_minutes * 60, None, loads)
                await run.telegram.drain(timeout=10.0)
                peaks = group_peaks(run.api.calls, {int(g.chat["id"]) for g in games})
                presses = [p for p in run.telegram.presses if p.game is not None and began <= p.sent <= ended]
                answered = [run.api.answers[p.query_id].at - p.sent for p in presses if p.query_id in run.api.answers]
        load = f"{statistics.fmean(loads):.2f}" if loads else "n/a"
        each = sorted((peak for peak, _ in peaks.values()), reverse=True)
        print(
            f"{count} worker(s): {describe_peaks(peaks)} (per group {each}); "
            f"{started} games, {len(presses) / (ended - began):.1f} presses/s, answer p50 {ms(answered, 0.5)} p99 "
            f"{ms(answered, 0.99)}; load {load}",
            flush=True,
        )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Return the command line's options (``--quick`` shortens the run to a 2-3 minute smoke test)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a 2-3 minute smoke run (2 min of play, 30 s settle)")
    parser.add_argument("--workers", default=None, help="worker count (default 3; --budget-check: a list, 1,2,4)")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--computer-games", type=int, default=6)
    parser.add_argument("--groups", type=int, default=15)
    parser.add_argument("--long-games", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=None, help="minutes of play (default 10; --quick 2)")
    parser.add_argument("--settle", type=float, default=None, help="seconds without presses (default 60; --quick 30)")
    parser.add_argument("--latency", type=float, default=0.02, help="seconds every Bot API call takes at least")
    parser.add_argument("--jitter", type=float, default=0.04, help="up to this many seconds more, at random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--kill-every", default="30,60", help="seconds between two SIGKILLs: a random value in LOW,HIGH"
    )
    parser.add_argument("--burst", type=int, default=200, help="presses of the burst (0: none)")
    parser.add_argument("--no-redis-restart", action="store_true")
    parser.add_argument("--patience", type=float, default=20.0, help="seconds people wait for a board to change")
    parser.add_argument("--keep", default=None, help="keep the logs and Redis files in this directory")
    parser.add_argument("--budget-check", action="store_true", help="the per-group budget check (no faults)")
    parser.add_argument("--budget-groups", type=int, default=3)
    parser.add_argument("--budget-games", type=int, default=4)
    parser.add_argument("--budget-minutes", type=float, default=2.5)
    args = parser.parse_args(argv)
    args.workers = args.workers or ("1,2,4" if args.budget_check else "3")
    if not args.budget_check:
        args.workers = int(args.workers)
    args.minutes = args.minutes if args.minutes is not None else (2.0 if args.quick else 10.0)
    args.settle = args.settle if args.settle is not None else (30.0 if args.quick else 60.0)
    low, high = (float(x) for x in args.kill_every.split(","))
    args.kill_every = (low, high)
    return args


def main() -> None:
    """Run the soak test or the budget check; every process it started is killed at exit, even on Ctrl-C or
    SIGTERM."""
    args = parse_args()
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        asyncio.run(budget_check(args) if args.budget_check else soak(args))
    except KeyboardInterrupt:
        print("interrupted: every process of the run is stopped", file=sys.stderr)
    finally:
        PROCESSES.kill_all()


if __name__ == "__main__":
    main()
