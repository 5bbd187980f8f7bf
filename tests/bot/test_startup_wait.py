"""Start-up waits for the network (bot.startup): a Bot API, a setWebhook or a Redis that does not answer yet is tried
again with a capped exponential backoff, one log line per attempt and never a traceback, and the bot serves as soon
as it answers; a refused token stops it at once with one clear line; a stop signal while waiting stops it cleanly.

The servers here are real (the fake Bot API over HTTP, a redis-server started by the test); the backoff is a few
milliseconds so that the tests run fast. The bounds on the waits below only guard against a hang."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter
from aiogram.methods import GetMe
from aiohttp import web
from aiohttp.test_utils import TestServer
from pydantic import SecretStr
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.app import run, run_webhook
from bot.config import Settings
from bot.startup import (
    Backoff,
    FatalStartupError,
    StartupStopped,
    Transient,
    retry_until_ready,
    store_failure,
    telegram_failure,
)
from bot.storage import StoreUnavailableError
from tests.bot import fake_bot_api_server as webhook_fake
from tests.bot.fake_bot_api_server import free_port
from tests.bot.test_run_polling import TOKEN, FakeBotApiServer

ROOT = Path(__file__).resolve().parents[2]
FAST: dict[str, Any] = {"startup_retry_first": 0.005, "startup_retry_cap": 0.02}
ATTEMPT = re.compile(r"^(?P<what>.+?) \((?P<reason>.+)\); retrying in [0-9.]+ s \(attempt (?P<n>\d+)\)$")


async def until(condition: Callable[[], bool], what: str) -> None:
    """Return once ``condition()`` holds (checked every 10 ms); raise AssertionError after 60 s (a hang guard)."""
    for _ in range(6000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def attempts(caplog: pytest.LogCaptureFixture, what: str) -> list[logging.LogRecord]:
    """Return the log records of failed start-up attempts at ``what`` ("Bot API not reachable", ...)."""
    return [
        r
        for r in caplog.records
        if (m := ATTEMPT.match(r.getMessage())) is not None and m["what"] == what and r.name == "bot.startup"
    ]


def assert_one_line_per_attempt(records: list[logging.LogRecord], reason_start: str) -> None:
    """Assert the attempts are numbered 1, 2, ... one WARNING line each, with the failure named and no traceback."""
    assert records, "no attempt was logged"
    numbers = [int(ATTEMPT.match(r.getMessage())["n"]) for r in records]  # type: ignore[index]
    assert numbers == list(range(1, len(records) + 1))
    for record in records:
        assert record.levelno == logging.WARNING
        assert "\n" not in record.getMessage()
        assert ATTEMPT.match(record.getMessage())["reason"].startswith(reason_start)  # type: ignore[index]


def assert_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """Assert that no log record carries a traceback."""
    with_traceback = [r.getMessage() for r in caplog.records if r.exc_info or r.exc_text or r.stack_info]
    assert with_traceback == []


def polling_settings(tmp_path: Path, api_url: str, **overrides: Any) -> Settings:
    """Return the settings of a polling bot on the API at ``api_url`` with the embedded store and a fast backoff."""
    values: dict[str, Any] = {
        "redis_url": None,
        "embedded_db_path": tmp_path / "data" / "nardy.sqlite3",
        "telegram_api_url": api_url,
        "polling_timeout": 0,
        "send_interval_private": 0,
        "shutdown_drain_timeout": 3,
        "computer_processes": 0,
        "render_processes": 0,
        **FAST,
        **overrides,
    }
    return Settings(_env_file=None, bot_token=SecretStr(TOKEN), **values)  # type: ignore[call-arg]


async def stop_task(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait for it to finish."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def polling_api_app(api: FakeBotApiServer) -> web.Application:
    """Return the aiohttp application of the fake polling Bot API."""
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", api.handle)
    return app


# ---- the backoff and the retry loop on their own -------------------------------------------------------------------
def test_backoff_doubles_up_to_the_cap_within_the_jitter() -> None:
    backoff = Backoff(first=1.0, cap=30.0, jitter=0.2)
    assert [backoff.delay(n, lambda: 0.5) for n in range(1, 8)] == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert backoff.delay(3, lambda: 0.0) == pytest.approx(3.2)
    assert backoff.delay(3, lambda: 0.999999) == pytest.approx(4.8, rel=1e-5)
    assert backoff.delay(10_000, lambda: 0.999999) == 30.0  # never above the cap, even with the jitter


async def test_retry_waits_the_backoff_then_returns_the_result(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    slept: list[float] = []
    calls = 0

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def get_me() -> str:
        nonlocal calls
        calls += 1
        if calls <= 4:
            raise TelegramNetworkError(GetMe(), "ClientConnectorError: Cannot connect to host api.telegram.org:443")
        return "me"

    result = await retry_until_ready(
        "Bot API", "not reachable", get_me, telegram_failure, backoff=Backoff(1, 4), sleep=sleep, draw=lambda: 0.5
    )
    assert result == "me" and calls == 5 and slept == [1.0, 2.0, 4.0, 4.0]
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.startup"]
    assert lines == [
        "Bot API not reachable (ClientConnectorError: Cannot connect to host api.telegram.org:443); "
        "retrying in 1 s (attempt 1)",
        "Bot API not reachable (ClientConnectorError: Cannot connect to host api.telegram.org:443); "
        "retrying in 2 s (attempt 2)",
        "Bot API not reachable (ClientConnectorError: Cannot connect to host api.telegram.org:443); "
        "retrying in 4 s (attempt 3)",
        "Bot API not reachable (ClientConnectorError: Cannot connect to host api.telegram.org:443); "
        "retrying in 4 s (attempt 4)",
        "Bot API answered after 5 attempts",
    ]
    assert_no_traceback(caplog)


async def test_retry_after_waits_at_least_what_telegram_asks() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    failures = [TelegramRetryAfter(GetMe(), "Too Many Requests: retry after 7", retry_after=7)]

    async def get_me() -> str:
        if failures:
            raise failures.pop()
        return "me"

    await retry_until_ready("Bot API", "not reachable", get_me, telegram_failure, backoff=Backoff(1, 30), sleep=sleep)
    assert slept == [7.0]


async def test_a_stop_ends_the_wait_and_cancels_the_attempt_under_way() -> None:
    stop = asyncio.Event()
    started = asyncio.Event()
    cancelled = False

    async def hangs() -> None:
        nonlocal cancelled
        started.set()
        try:
            await asyncio.Event().wait()  # a connect that never answers
        except asyncio.CancelledError:
            cancelled = True
            raise

    waiting = asyncio.create_task(
        retry_until_ready("Bot API", "not reachable", hangs, telegram_failure, backoff=Backoff(), stop=stop)
    )
    await started.wait()
    stop.set()
    with pytest.raises(StartupStopped):
        await waiting
    assert cancelled


def test_failures_are_sorted_into_transient_fatal_and_unknown() -> None:
    unavailable = StoreUnavailableError("storage unavailable: ConnectionError: refused")
    unavailable.__cause__ = RedisConnectionError("Error 111 connecting to redis:6379. Connection refused.")
    assert store_failure(unavailable) == Transient(
        "ConnectionError: Error 111 connecting to redis:6379. Connection refused."
    )
    assert store_failure(ValueError("a bug")) is None
    assert telegram_failure(ValueError("a bug")) is None


# ---- (a) polling: the Bot API comes up after a few failed attempts ------------------------------------------------
async def test_polling_waits_for_the_bot_api_then_serves(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    port = free_port()
    api = FakeBotApiServer()
    task = asyncio.create_task(run(polling_settings(tmp_path, f"http://127.0.0.1:{port}"), handle_signals=False))
    server = TestServer(polling_api_app(api), host="127.0.0.1", port=port)
    try:
        await until(lambda: len(attempts(caplog, "Bot API not reachable")) >= 3 or task.done(), "three attempts")
        assert not task.done(), "the bot gave up instead of waiting for the Bot API"
        assert api.calls == []
        await server.start_server()  # the network is up
        await until(lambda: api.answered.is_set() or task.done(), "the bot answered /start")
        assert api.answered.is_set()
    finally:
        await stop_task(task)
        await server.close()
    assert_one_line_per_attempt(attempts(caplog, "Bot API not reachable"), "ClientConnectorError: Cannot connect")
    assert "Bot API answered after" in caplog.text
    assert_no_traceback(caplog)
    sent = [form for method, form in api.calls if method == "sendMessage"]
    assert len(sent) == 1 and "Hi, Alice!" in sent[0]["text"]


# ---- (b) webhook: getMe and setWebhook are retried, the worker listens once registered ----------------------------
class FlakyWebhookApi(webhook_fake.FakeBotApiServer):
    """The fake Bot API whose setWebhook first fails with a proxy's HTML 502, then with Telegram's JSON 502."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = [
            web.Response(status=502, text="<html><body>502 Bad Gateway</body></html>", content_type="text/html"),
            web.json_response({"ok": False, "error_code": 502, "description": "Bad Gateway"}, status=502),
        ]
        self.set_webhook_calls = 0

    async def handle(self, request: web.Request) -> web.Response:
        """Answer one Bot API call, failing the first setWebhook calls."""
        if request.match_info["method"] == "setWebhook":
            self.set_webhook_calls += 1
            if self.failures:
                return self.failures.pop(0)
        return await super().handle(request)


async def test_webhook_waits_for_the_bot_api_and_retries_set_webhook(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    api_port, worker_port = free_port(), free_port()
    api = FlakyWebhookApi()
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        bot_token=SecretStr(webhook_fake.TOKEN),
        bot_mode="webhook",
        webhook_url="https://bot.example.org",
        webhook_secret=SecretStr(webhook_fake.WORKER_SECRET),
        webhook_host="127.0.0.1",
        webhook_port=worker_port,
        redis_url=None,
        embedded_db_path=tmp_path / "nardy.sqlite3",
        telegram_api_url=f"http://127.0.0.1:{api_port}",
        send_interval_private=0,
        computer_processes=0,
        render_processes=0,
        **FAST,
    )
    stop = asyncio.Event()
    task = asyncio.create_task(run_webhook(settings, handle_signals=False, stop=stop))
    server = TestServer(api.app(), host="127.0.0.1", port=api_port)
    alice = webhook_fake.user(501, "Alice")
    try:
        await until(lambda: len(attempts(caplog, "Bot API not reachable")) >= 3 or task.done(), "three attempts")
        assert not task.done()
        await server.start_server()
        await until(lambda: bool(api.webhook) or task.done(), "setWebhook succeeded")
        assert api.set_webhook_calls == 3
        async with aiohttp.ClientSession() as session:
            await until(lambda: "webhook worker listening" in caplog.text or task.done(), "the worker listens")
            update = api.message_update(alice, webhook_fake.private(alice), "/start")
            status, _ = await webhook_fake.deliver(
                session, f"http://127.0.0.1:{worker_port}/telegram", update, webhook_fake.WORKER_SECRET
            )
            assert status == 200
            await until(lambda: bool(api.chat(alice["id"])) or task.done(), "the worker answered /start")
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=60)
        await server.close()
    assert "Hi, Alice!" in (api.chat(alice["id"])[0].text or "")
    assert api.webhook["url"] == "https://bot.example.org/telegram"
    assert_one_line_per_attempt(attempts(caplog, "Bot API not reachable"), "ClientConnectorError: Cannot connect")
    webhook_attempts = attempts(caplog, "setWebhook failed")
    assert_one_line_per_attempt(webhook_attempts, "")
    assert [ATTEMPT.match(r.getMessage())["reason"] for r in webhook_attempts] == [  # type: ignore[index]
        "not a Bot API answer: '<html><body>502 Bad Gateway</body></html>'",
        "TelegramServerError: Bad Gateway",
    ]
    assert_no_traceback(caplog)


# ---- (c) Redis starts after the bot (compose start order) ----------------------------------------------------------
@pytest.fixture
def later_redis(tmp_path: Path) -> Iterator[tuple[int, Callable[[], None]]]:
    """Yield a free port and a function that starts a private redis-server on it (stopped after the test)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (scripts/ensure-redis.sh installs it)")
    port = free_port()
    processes: list[subprocess.Popen[bytes]] = []

    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path)]
    command += ["--save", "", "--appendonly", "no"]

    def start() -> None:
        processes.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    yield port, start
    for process in processes:
        process.terminate()
        process.wait(timeout=30)


async def test_the_bot_waits_for_redis_then_works(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, later_redis: tuple[int, Callable[[], None]]
) -> None:
    caplog.set_level(logging.INFO)
    redis_port, start_redis = later_redis
    api = FakeBotApiServer()
    server = TestServer(polling_api_app(api), host="127.0.0.1")
    await server.start_server()
    settings = polling_settings(tmp_path, str(server.make_url("")), redis_url=f"redis://127.0.0.1:{redis_port}/0")
    task = asyncio.create_task(run(settings, handle_signals=False))
    try:
        await until(lambda: len(attempts(caplog, "Redis not reachable")) >= 3 or task.done(), "three attempts")
        assert not task.done(), "the bot gave up instead of waiting for Redis"
        assert api.calls == []  # nothing is served before the store answers
        start_redis()
        await until(lambda: api.answered.is_set() or task.done(), "the bot answered /start")
        assert api.answered.is_set()
    finally:
        await stop_task(task)
        await server.close()
    assert_one_line_per_attempt(attempts(caplog, "Redis not reachable"), "ConnectionError: Error 111")
    assert "storage: Redis" in caplog.text and "Redis answered after" in caplog.text
    assert "temporarily unavailable" not in str(api.calls)
    assert_no_traceback(caplog)
    client = Redis(port=redis_port)
    try:
        assert client.dbsize() > 0  # Alice's profile was saved in the Redis that came up late
    finally:
        client.close()


# ---- (d) a refused token is fatal at once ---------------------------------------------------------------------------
def unauthorized_api() -> tuple[web.Application, list[str]]:
    """Return a Bot API that refuses every token with 401, and the list of methods it was called with."""
    calls: list[str] = []

    async def handle(request: web.Request) -> web.Response:
        calls.append(request.match_info["method"])
        return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", handle)
    return app, calls


async def test_a_refused_token_stops_at_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app, calls = unauthorized_api()
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        with pytest.raises(FatalStartupError, match=r"refused BOT_TOKEN \(TelegramUnauthorizedError: Unauthorized\)"):
            await run(polling_settings(tmp_path, str(server.make_url(""))), handle_signals=False)
    finally:
        await server.close()
    assert calls == ["getMe"]
    assert attempts(caplog, "Bot API not reachable") == []


async def test_a_malformed_token_stops_before_waiting_for_anything(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    closed_port = free_port()  # were it tried, the Bot API would be waited for
    settings = polling_settings(tmp_path, f"http://127.0.0.1:{closed_port}").model_copy(
        update={"bot_token": SecretStr("not-a-token")}
    )
    with pytest.raises(FatalStartupError, match="BOT_TOKEN is not a token from @BotFather") as info:
        await run(settings, handle_signals=False)
    assert "not-a-token" not in str(info.value)
    assert attempts(caplog, "Bot API not reachable") == []


# ---- python -m bot as a process ---------------------------------------------------------------------------------
def bot_env(tmp_path: Path, api_url: str) -> dict[str, str]:
    """Return the environment of a ``python -m bot`` process on ``api_url`` with the embedded store."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "WEBHOOK_", "REDIS_", "TELEGRAM_"))}
    return {
        **keep,
        "PYTHONPATH": str(ROOT),
        "BOT_TOKEN": "123456:PROCESS-test",
        "TELEGRAM_API_URL": api_url,
        "EMBEDDED_DB_PATH": str(tmp_path / "nardy.sqlite3"),
        "STARTUP_RETRY_FIRST": "0.01",
        "STARTUP_RETRY_CAP": "0.05",
        "COMPUTER_PROCESSES": "0",
        "RENDER_PROCESSES": "0",
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }


async def wait_for_output(log: Path, process: subprocess.Popen[bytes], ready: Callable[[str], bool]) -> str:
    """Return the process's output once ``ready(output)`` holds or it has exited."""
    await until(lambda: ready(log.read_text(errors="replace")) or process.poll() is not None, "the process output")
    return log.read_text(errors="replace")


def attempt_lines(output: str) -> list[str]:
    """Return the output lines of failed attempts at reaching the Bot API."""
    return [line for line in output.splitlines() if "Bot API not reachable (" in line]


async def test_python_m_bot_waits_for_the_api_and_stops_on_sigterm(tmp_path: Path) -> None:
    closed_port = free_port()  # nothing listens there
    log = tmp_path / "bot.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=tmp_path,
            env=bot_env(tmp_path, f"http://127.0.0.1:{closed_port}"),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        output = await wait_for_output(log, process, lambda text: len(attempt_lines(text)) >= 3)
        assert process.poll() is None, output
        process.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(process.wait, 60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    output = log.read_text(errors="replace")
    assert code == 0, output
    assert "Traceback" not in output
    lines = attempt_lines(output)
    assert len(lines) >= 3
    for number, line in enumerate(lines, start=1):
        assert "ClientConnectorError: Cannot connect to host 127.0.0.1" in line and f"(attempt {number})" in line
    assert "stopped while waiting at start-up" in output
    assert "123456:PROCESS-test" not in output


async def test_python_m_bot_with_a_refused_token_exits_with_one_line(tmp_path: Path) -> None:
    app, calls = unauthorized_api()
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        result = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env={**bot_env(tmp_path, str(server.make_url(""))), "LOG_LEVEL": "WARNING"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        stdout, _ = await asyncio.wait_for(result.communicate(), timeout=120)
    finally:
        await server.close()
    output = stdout.decode(errors="replace")
    assert result.returncode == 1, output
    assert calls == ["getMe"]
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert "CRITICAL" in lines[0] and "the Bot API refused BOT_TOKEN" in lines[0] and "Traceback" not in output
