"""The reverse proxy of the webhook deployment: Caddy run with ``deploy/Caddyfile`` in front of a real webhook
worker (``python -m bot``), Telegram's POSTs sent through it. Where Caddy is not installed (scripts/test.sh
installs Debian's) the test fails under CI=true and is skipped elsewhere."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from tests.bot.fake_bot_api_server import (
    WORKER_SECRET,
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

CADDYFILE = Path(__file__).resolve().parents[3] / "deploy" / "Caddyfile"
ALICE = user(701, "Alice")
BOB = user(702, "Bob")
GROUP = group(-100_888)


def _under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


@pytest.fixture(autouse=True)
def _needs_caddy() -> None:
    if shutil.which("caddy") is None:
        if _under_ci():
            pytest.fail("Caddy is not installed (scripts/ensure-caddy.sh installs it): CI=true")
        pytest.skip("Caddy is not installed")


def _caddy_config(tmp_path: Path, port: int, worker: Worker) -> Path:
    """The Caddyfile adapted to JSON with the deployment's variables, its admin endpoint moved to a free port."""
    env = {
        **os.environ,
        "BOT_DOMAIN": f"http://127.0.0.1:{port}",
        "WEBHOOK_PATH": "/telegram",
        "WORKER_HOST": "127.0.0.1",
        "WORKER_PORT": str(worker.port),
    }
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    config: dict[str, Any] = json.loads(adapted.stdout)
    config["admin"] = {"listen": f"127.0.0.1:{free_port()}"}
    path = tmp_path / "caddy.json"
    path.write_text(json.dumps(config))
    return path


@pytest.fixture
async def proxied(
    redis_url: str, tmp_path: Path
) -> AsyncIterator[tuple[FakeBotApiServer, Worker, str, aiohttp.ClientSession]]:
    api = FakeBotApiServer()
    server = TestServer(api.app(), host="127.0.0.1")
    await server.start_server()
    worker = start_worker(str(server.make_url("")), redis_url, tmp_path, "behind-caddy")
    port = free_port()
    config = _caddy_config(tmp_path, port, worker)
    home = tmp_path / "caddy-home"
    home.mkdir()
    log = (tmp_path / "caddy.log").open("wb")
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(config)],
        env={**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            await wait_healthy(session, worker)
            deadline = time.monotonic() + 30
            while True:
                assert caddy.poll() is None, (tmp_path / "caddy.log").read_text()
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(base + "/") as response:
                        if response.status == 404:
                            break
                assert time.monotonic() < deadline, (tmp_path / "caddy.log").read_text()
                await asyncio.sleep(0.1)
            yield api, worker, base, session
    finally:
        caddy.terminate()
        caddy.wait(timeout=10)
        log.close()
        stop_workers([worker])
        await server.close()


async def _settle(api: FakeBotApiServer, predicate: Any, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, [m.text or m.caption for m in api.chat(GROUP["id"])]
        await asyncio.sleep(0.1)


async def test_caddy_forwards_telegrams_posts_and_nothing_else(
    proxied: tuple[FakeBotApiServer, Worker, str, aiohttp.ClientSession],
) -> None:
    api, _, base, session = proxied
    url = base + "/telegram"
    challenge = api.message_update(ALICE, GROUP, "/new short")
    # the secret travels through the proxy: without it the worker refuses, and nothing is sent
    assert (await deliver(session, url, challenge, None))[0] == 401
    assert (await deliver(session, url, challenge, "wrong"))[0] == 401
    # the worker's own endpoints are not routed from outside
    for path in ("/healthz", "/metrics", "/telegram/extra", "/"):
        async with session.get(base + path) as response:
            assert response.status == 404, path
    assert api.methods("sendMessage", "sendPhoto") == []
    # with the secret: the challenge card, and a Join press through the proxy starts the game
    assert (await deliver(session, url, challenge, WORKER_SECRET))[0] == 200
    await _settle(api, lambda: any(m.keyboard for m in api.chat(GROUP["id"])))
    card = next(m for m in api.chat(GROUP["id"]) if m.keyboard)
    join = next(data for data in card.callbacks() if data.startswith("c:") and data.endswith(":join"))
    press = api.press_update(BOB, card, join)
    assert (await deliver(session, url, press, WORKER_SECRET))[0] == 200
    assert (await deliver(session, url, press, WORKER_SECRET))[0] == 200  # a redelivery: dropped by the worker
    await _settle(api, lambda: any(m.photo and m.keyboard for m in api.chat(GROUP["id"])))
    answers = [
        c
        for c in api.methods("answerCallbackQuery")
        if c.fields.get("callback_query_id") == press["callback_query"]["id"]
    ]
    assert len(answers) == 1
