"""A private redis-server process that a test starts, stops and starts again on the same port (and, with
persistence, the same data directory), for outages of a real server."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError


def free_port() -> int:
    """Return a TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require_redis_server() -> None:
    """Skip the test when no ``redis-server`` executable is installed."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")


class RedisProcess:
    """A private redis-server process this test starts and stops. Without ``persistent`` it keeps nothing (a start
    after a stop is an empty server); with it, an append-only file in ``directory`` (fsynced every second), so the
    data survives :meth:`shutdown` and a :meth:`start` on the same directory."""

    def __init__(self, directory: Path, *, persistent: bool = False) -> None:
        """Use ``directory`` as the server's working (and data) directory, on a free port."""
        self.port = free_port()
        self.directory = directory
        self.persistent = persistent
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's ``redis://`` URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server and wait until it answers (bounded; not a timing assertion)."""
        storage = (
            ["--appendonly", "yes", "--appendfsync", "everysec", "--dir", str(self.directory)]
            if self.persistent
            else ["--save", "", "--appendonly", "no"]
        )
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", *storage],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = Redis.from_url(self.url, socket_connect_timeout=0.2)
        for _ in range(200):
            try:
                client.ping()
                break
            except RedisConnectionError:  # BusyLoadingError too: still reading its data
                time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")
        client.close()

    def shutdown(self) -> None:
        """Stop the server as ``redis-cli SHUTDOWN SAVE`` does (its data saved first) and wait until it has exited."""
        client = Redis.from_url(self.url)
        client.shutdown(save=True)
        client.close()
        if self.process is not None:
            self.process.wait(timeout=30)
            self.process = None

    def stop(self) -> None:
        """Stop the server (SIGTERM) and wait until it has exited; nothing when it is not running."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None
