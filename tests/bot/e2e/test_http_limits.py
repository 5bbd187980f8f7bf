"""Both of the bot's HTTP servers run within the ``HTTP_*`` limits (``bot/http_server.py``): a real webhook worker
(``python -m bot``, the Mini App mounted) and polling mode's Mini App server. Raw TCP clients that send nothing are
cut at the header timeout, the connection beyond the cap is refused, a 64 KB header gets 400, and a flood of unsigned
POSTs leaves no access log line and no traceback — only the summary line of the counts."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from bot.app import start_webapp_server
from bot.config import Settings
from bot.http_server import GuardedAppRunner
from bot.storage import Store
from bot.wiring import service_options, webapp_parts
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.fake_bot_api_server import FakeBotApiServer, Worker, start_worker, stop_workers, wait_healthy

CLOSED_WITHIN = 20.0
"""How long a test waits for a closing the limits under test should bring within a second."""
CAP = 12
FLOOD = 40


async def _closed_silently(port: int) -> bytes:
    """Open a connection to ``port``, send nothing, and return what the server sent before it closed it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), CLOSED_WITHIN):
            received += chunk
    except ConnectionResetError:
        pass
    finally:
        writer.close()
    return received


@pytest.fixture
async def worker(redis_url: str, tmp_path: Path) -> AsyncIterator[Worker]:
    api = FakeBotApiServer()
    server = TestServer(api.app(), host="127.0.0.1")
    await server.start_server()
    started = start_worker(
        str(server.make_url("")),
        redis_url,
        tmp_path,
        "limited",
        WEBAPP_URL="https://bot.example.org/webapp/",
        HTTP_HEADER_TIMEOUT="0.5",
        HTTP_IDLE_TIMEOUT="5",
        HTTP_MAX_CONNECTIONS=str(CAP),
        LOG_LEVEL="INFO",
    )
    try:
        async with aiohttp.ClientSession() as session:
            await wait_healthy(session, started)
        yield started
    finally:
        stop_workers([started])
        await server.close()


async def test_a_webhook_worker_serves_within_the_limits_and_logs_a_summary(worker: Worker) -> None:
    # a client that sends nothing is cut without an answer
    assert await _closed_silently(worker.port) == b""
    # a flood of unsigned POSTs: every one refused with 401, none logged on its own
    async with aiohttp.ClientSession() as session:
        for _ in range(FLOOD):
            async with session.post(worker.url, json={"update_id": 1}) as response:
                assert response.status == 401
    # a 64 KB header
    reader, writer = await asyncio.open_connection("127.0.0.1", worker.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: bot\r\nX-Huge: " + b"a" * 65536 + b"\r\n\r\n")
    assert (await asyncio.wait_for(reader.read(), CLOSED_WITHIN)).startswith(b"HTTP/1.0 400 Bad Request")
    writer.close()
    # silent connections up to the cap and beyond: the ones beyond are answered 503 at once
    held = [await asyncio.open_connection("127.0.0.1", worker.port) for _ in range(CAP + 3)]
    answers = []
    for reader, writer in held:
        with contextlib.suppress(ConnectionResetError):
            answers.append(await asyncio.wait_for(reader.read(), CLOSED_WITHIN))  # refused, or cut at the timeout
        writer.close()
    assert any(a.startswith(b"HTTP/1.1 503 Service Unavailable") for a in answers)
    # the Mini App on the same port still answers
    async with aiohttp.ClientSession() as session, session.get(worker.base + "/webapp/api/games/x") as response:
        assert response.status == 401

    stop_workers([worker])
    log = worker.log.read_text()
    assert "webhook server on 127.0.0.1:" in log and f"at most {CAP} connections" in log
    assert "aiohttp.access" not in log
    assert "Traceback" not in log and "ERROR" not in log
    summaries = [line for line in log.splitlines() if "bot.http_traffic" in line]
    assert summaries, log
    last = summaries[-1]
    assert f"401: {FLOOD + 1}" in last and "400: 1" in last and "1 malformed requests" in last  # + the Mini App's
    assert "connections cut by the header timeout" in last and f"refused at the cap of {CAP}" in last
    assert " WARNING " in last


async def test_polling_mode_serves_the_mini_app_within_the_limits(sqlite_store: Store) -> None:
    configured = Settings(  # type: ignore[call-arg]
        bot_token="42:TEST",
        _env_file=None,
        webapp_url="https://x.example/webapp/",
        webapp_host="127.0.0.1",
        webapp_port=0,
        http_header_timeout=0.5,
        http_idle_timeout=5.0,
        http_max_connections=CAP,
    )
    built = service_options(configured)
    env = Env(sqlite_store, seeded("limits"), live=built["live"], links=built["links"])
    runner = await start_webapp_server(configured, webapp_parts(configured, env.service))
    try:
        assert isinstance(runner, GuardedAppRunner) and runner.guarded is not None
        assert runner.guarded.limits.max_connections == CAP and runner.traffic.name == "Mini App"
        (port,) = {address[1] for address in runner.addresses}
        opened = time.monotonic()
        assert await _closed_silently(port) == b""
        assert time.monotonic() - opened >= 0.4
        assert runner.traffic.header_timeouts == 1
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/webapp/") as response:
            assert response.status in (200, 404)  # the page (404 where the front end is not built)
        assert runner.traffic.responses.total() == 1
    finally:
        assert runner is not None
        await runner.cleanup()
        await env.close()
