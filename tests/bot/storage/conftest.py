"""Fixtures of the storage tests: a local Redis Cluster (``redis_cluster_url``) besides ``redis_url`` and
``sqlite_path`` from ``tests/bot/conftest.py``.

The cluster is the one of ``TEST_REDIS_CLUSTER_URL`` (``scripts/test.sh`` starts it with
``scripts/redis-cluster.sh``); when that is unset the script is run here (it reuses a running cluster). When no
cluster can be had, the cluster tests FAIL under CI (``CI=true``) and are skipped otherwise.

All test processes on the machine share that one cluster, so every test using it holds an exclusive file lock
for its whole duration and flushes every primary (FLUSHALL) before and after: cluster tests run one at a time,
each on an empty cluster, and the stores use their normal key prefix (exactly the production key layout).
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException, RedisError

from bot.storage import Store
from bot.storage.redis.keys import cluster_startup_url
from tests.bot.storage.backends import KINDS, Backend

CLUSTER_SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "redis-cluster.sh"
LOCK_PATH = Path(tempfile.gettempdir()) / "nardy-redis-cluster-tests.lock"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def _unavailable(reason: str) -> None:
    if _in_ci():
        pytest.fail(f"no Redis Cluster for the cluster tests (CI=true): {reason}")
    pytest.skip(f"no Redis Cluster: {reason}")


def _flush_all(client: RedisCluster) -> None:
    client.flushall(target_nodes=RedisCluster.PRIMARIES)


@pytest.fixture(scope="session")
def redis_cluster_base_url() -> str:
    """Return the ``redis+cluster://`` URL of the test cluster, starting it when needed (fails/skips if none)."""
    url = os.environ.get("TEST_REDIS_CLUSTER_URL", "").strip()
    if not url:
        try:
            done = subprocess.run(
                ["bash", str(CLUSTER_SCRIPT)], capture_output=True, text=True, timeout=120, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            _unavailable(f"{CLUSTER_SCRIPT.name} could not run: {exc}")
        if done.returncode != 0 or not done.stdout.strip():
            _unavailable(f"{CLUSTER_SCRIPT.name} failed: {done.stderr.strip()[-500:]}")
        url = done.stdout.strip().splitlines()[-1]
    startup = cluster_startup_url(url)
    if startup is None:
        _unavailable(f"TEST_REDIS_CLUSTER_URL={url!r} is not a redis+cluster:// URL")
    try:
        client = RedisCluster.from_url(startup, socket_connect_timeout=2)
        client.ping()
        client.close()
    except (RedisError, RedisClusterException, OSError) as exc:
        _unavailable(f"{url} does not answer: {exc}")
    return url


@pytest.fixture
def redis_cluster_url(redis_cluster_base_url: str) -> Iterator[str]:
    """Yield the test cluster's URL, with the cluster to this test alone and empty before and after it."""
    startup = cluster_startup_url(redis_cluster_base_url)
    assert startup is not None
    with open(LOCK_PATH, "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        client = RedisCluster.from_url(startup)
        try:
            _flush_all(client)
            yield redis_cluster_base_url
            _flush_all(client)
        finally:
            client.close()
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(params=KINDS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """Yield a :class:`Backend` of each kind (the contract suites run on all three); its stores are closed after."""
    if request.param == "redis":
        location = request.getfixturevalue("redis_url")
    elif request.param == "cluster":
        location = request.getfixturevalue("redis_cluster_url")
    else:
        location = request.getfixturevalue("sqlite_path")
    b = Backend(kind=request.param, location=location)
    yield b
    for store in b.opened:
        await store.close()


@pytest.fixture
def store(backend: Backend) -> Store:
    """Return a store opened on the backend."""
    return backend.open()
