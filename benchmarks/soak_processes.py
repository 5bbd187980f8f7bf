"""The processes of a soak run (``benchmarks/soak.py``): a Redis server of its own and the webhook workers.

:class:`RedisServer` runs ``redis-server`` on a free port of 127.0.0.1 with the append-only file on (``appendfsync
everysec``) in a directory of the run, so its data survive a ``SHUTDOWN SAVE`` and a restart on the same port and
directory; the automatic rewrite of the append-only file is off, so the file keeps every write of the run (the
journal :mod:`soak_journal` reads). :class:`WorkerPool` runs N ``python -m bot`` webhook workers
(:func:`tests.bot.fake_bot_api_server.start_worker`), kills one with SIGKILL (with its render process, as the
kernel's OOM killer or a lost container would) and starts it again on the same port, as a supervisor would.
Every process started here is registered in :data:`PROCESSES` and killed at exit, even on Ctrl-C.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from redis.asyncio import Redis
from redis.exceptions import RedisError

from tests.bot.fake_bot_api_server import Worker, free_port, start_worker, stop_workers, wait_healthy


class ProcessRegistry:
    """Every child process of the run, so that none outlives it (see :meth:`kill_all`)."""

    def __init__(self) -> None:
        self._processes: list[subprocess.Popen[bytes]] = []

    def add(self, process: subprocess.Popen[bytes]) -> None:
        """Remember ``process``. Returns nothing."""
        self._processes.append(process)

    def kill_all(self) -> None:
        """Kill every remembered process still running, with its descendants (SIGKILL). Returns nothing."""
        for process in self._processes:
            if process.poll() is None:
                kill_tree(process.pid)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=5)
        self._processes.clear()


PROCESSES = ProcessRegistry()
atexit.register(PROCESSES.kill_all)


def descendants(pid: int) -> list[int]:
    """Return the ids of the live descendants of process ``pid`` (Linux ``/proc``; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_tree(pid: int) -> None:
    """Send SIGKILL to process ``pid`` and to its descendants (found first, so none is re-parented away).
    Returns nothing; processes already gone are skipped."""
    for each in [pid, *descendants(pid)]:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(each, signal.SIGKILL)


class RedisServer:
    """A ``redis-server`` of the run (see the module docstring)."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        """Keep the data in ``directory`` (created) and listen on ``port`` (a free one by default).

        Raises: FileNotFoundError when no ``redis-server`` is on the PATH."""
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server is not on the PATH")
        self.binary = binary
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        """The server's URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server on its port and directory (the append-only file is loaded if there is one). Returns
        nothing."""
        self.starts += 1
        with (self.directory / f"redis-{self.starts}.log").open("wb") as log:  # the server keeps its own copy
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--dir",
                    str(self.directory),
                    "--appendonly",
                    "yes",
                    "--appendfsync",
                    "everysec",
                    "--auto-aof-rewrite-percentage",
                    "0",
                    "--save",
                    "",
                    "--daemonize",
                    "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        PROCESSES.add(self.process)

    async def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait until the server answers PING (its data loaded).

        Raises: TimeoutError when it does not within ``timeout`` seconds; RuntimeError when it exited."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited: see {self.directory}")
            client = Redis.from_url(self.url, socket_timeout=1.0)
            try:
                if await client.ping():
                    return
            except RedisError:
                pass
            finally:
                await client.aclose()
            await asyncio.sleep(0.1)
        raise TimeoutError(f"redis-server on port {self.port} is not ready after {timeout:.0f} s")

    async def shutdown_save(self, timeout: float = 30.0) -> None:
        """Stop the server with ``SHUTDOWN SAVE`` (everything written is on disk) and wait until it has exited
        (killed after ``timeout`` seconds). Returns nothing."""
        client = Redis.from_url(self.url, socket_timeout=timeout)
        with contextlib.suppress(RedisError):  # the connection closes under the command
            await client.shutdown(save=True)
        with contextlib.suppress(RedisError):
            await client.aclose()
        await self.wait_exit(timeout)

    async def wait_exit(self, timeout: float) -> None:
        """Wait until the server process has exited (killed after ``timeout`` seconds). Returns nothing."""
        process = self.process
        deadline = time.monotonic() + timeout
        while process is not None and process.poll() is None:
            if time.monotonic() > deadline:
                kill_tree(process.pid)
                process.wait()
                return
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL). Returns nothing."""
        if self.process is not None and self.process.poll() is None:
            kill_tree(self.process.pid)
            self.process.wait()

    def journal_files(self) -> list[Path]:
        """Return the append-only files of the server, oldest first: the base file, then the incremental ones (in
        the order of the manifest of Redis 7's ``appendonlydir``, or the single ``appendonly.aof`` of Redis 6)."""
        folder = self.directory / "appendonlydir"
        manifests = sorted(folder.glob("*.manifest")) if folder.is_dir() else []
        if not manifests:
            single = self.directory / "appendonly.aof"
            return [single] if single.exists() else []
        entries: list[tuple[int, int, Path]] = []
        for line in manifests[0].read_text().splitlines():
            words = line.split()
            values = dict(zip(words[0::2], words[1::2], strict=False))
            if "file" in values:
                kind = 0 if values.get("type") == "b" else 1
                entries.append((kind, int(values.get("seq", "0")), folder / values["file"]))
        return [path for _, _, path in sorted(entries)]


@dataclass
class Life:
    """One incarnation of a worker: its process and log, when it started, and when it was killed (None: it was
    not). Its name (``w<slot>.<life>``) marks its Bot API calls at the fake."""

    name: str
    slot: int
    worker: Worker
    started: float
    killed: float | None = None
    died_unasked: bool = False


@dataclass
class WorkerPool:
    """N webhook workers on fixed ports, restartable (see the module docstring)."""

    api_url: str
    redis_url: str
    workdir: Path
    count: int
    settings: dict[str, str]
    lives: list[Life] = field(default_factory=list)
    current: list[Life] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    unasked_exits: int = 0

    def start(self) -> None:
        """Start the N workers, each on a free port it keeps for all its lives. Returns nothing."""
        self.ports = [free_port() for _ in range(self.count)]
        self.current = [self._launch(slot) for slot in range(self.count)]

    def _launch(self, slot: int) -> Life:
        name = f"w{slot}.{sum(1 for life in self.lives if life.slot == slot) + 1}"
        api_url = f"{self.api_url}/{name}"  # the fake Bot API marks each call with the life that made it
        worker = start_worker(api_url, self.redis_url, self.workdir, name, port=self.ports[slot], **self.settings)
        PROCESSES.add(worker.process)
        life = Life(name, slot, worker, time.monotonic())
        self.lives.append(life)
        return life

    @property
    def urls(self) -> list[str]:
        """The webhook URLs of the N slots (a slot's URL stays the same across its lives)."""
        return [f"http://127.0.0.1:{port}/telegram" for port in self.ports]

    async def wait_healthy(self, session: aiohttp.ClientSession, timeout: float = 120.0) -> None:
        """Wait until every current worker answers ``/healthz``.

        Raises: AssertionError (with the worker's log) when one exits or stays unhealthy for ``timeout`` seconds."""
        await asyncio.gather(*(wait_healthy(session, life.worker, timeout) for life in self.current))

    def kill(self, slot: int) -> Life:
        """SIGKILL the worker of ``slot`` and its descendants (the render process), then start it again on the
        same port at once. Returns: the new life."""
        life = self.current[slot]
        life.killed = time.monotonic()
        kill_tree(life.worker.process.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            life.worker.process.wait(timeout=10)
        self.current[slot] = self._launch(slot)
        return self.current[slot]

    def restart_dead(self) -> list[int]:
        """Start again every worker that exited although nobody killed it (a crash). Returns: their slots."""
        restarted = []
        for slot, life in enumerate(self.current):
            if life.worker.process.poll() is not None:
                life.died_unasked = True
                self.unasked_exits += 1
                kill_tree(life.worker.process.pid)  # its render process, if it is left
                self.current[slot] = self._launch(slot)
                restarted.append(slot)
        return restarted

    def stop(self) -> None:
        """Stop the current workers with SIGTERM (SIGKILL after 30 s) and kill anything left of any life.
        Returns nothing."""
        children = [pid for life in self.current for pid in descendants(life.worker.process.pid)]
        stop_workers([life.worker for life in self.current])
        for pid in children:  # a render process its worker left behind
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for life in self.lives:
            if life.worker.process.poll() is None:
                kill_tree(life.worker.process.pid)
