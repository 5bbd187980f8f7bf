"""``bot.app.run`` against a fake Bot API *HTTP server* (the custom TELEGRAM_API_URL): the real aiohttp session
polls getUpdates, registers the commands and answers /start, with the embedded store and only a token set."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from pydantic import SecretStr

from bot.app import run
from bot.config import Settings
from bot.sender import Sender

TOKEN = "123456:TEST"
USER = {"id": 77, "is_bot": False, "first_name": "Alice", "language_code": "en"}


class FakeBotApiServer:
    """Serves /bot<token>/<method> like the Bot API, with one queued /start update."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.updates: list[dict[str, Any]] = [
            {
                "update_id": 1,
                "message": {
                    "message_id": 1,
                    "date": 1_700_000_000,
                    "chat": {"id": 77, "type": "private", "first_name": "Alice"},
                    "from": USER,
                    "text": "/start",
                    "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
                },
            }
        ]
        self.answered = asyncio.Event()

    async def handle(self, request: web.Request) -> web.Response:
        assert request.match_info["token"] == TOKEN
        method = request.match_info["method"]
        form = {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
        self.calls.append((method, form))
        result: Any = True
        if method == "getMe":
            result = {"id": 1, "is_bot": True, "first_name": "Nardy", "username": "nardy_bot"}
        elif method == "getUpdates":
            offset = int(form.get("offset", 0))
            result = [u for u in self.updates if u["update_id"] >= offset]
            if not result:
                await asyncio.sleep(0.05)  # a short "long poll"
        elif method == "sendMessage":
            result = {
                "message_id": 2,
                "date": 1_700_000_001,
                "chat": {"id": int(form["chat_id"]), "type": "private"},
                "text": form["text"],
            }
            self.answered.set()
        return web.json_response({"ok": True, "result": result})


async def test_run_polls_a_custom_api_server_with_the_embedded_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutdowns: list[float] = []
    original_shutdown = Sender.shutdown

    async def recording_shutdown(self: Sender, timeout: float) -> int:
        shutdowns.append(timeout)
        return await original_shutdown(self, timeout)

    monkeypatch.setattr(Sender, "shutdown", recording_shutdown)
    api = FakeBotApiServer()
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", api.handle)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        bot_token=SecretStr(TOKEN),
        redis_url=None,
        embedded_db_path=tmp_path / "data" / "nardy.sqlite3",
        telegram_api_url=str(server.make_url("")),
        polling_timeout=0,
        send_interval_private=0,
        shutdown_drain_timeout=3,
    )
    task = asyncio.create_task(run(settings, handle_signals=False))
    try:
        await asyncio.wait_for(api.answered.wait(), timeout=60)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await server.close()

    methods = [m for m, _ in api.calls]
    assert "getMe" in methods and "getUpdates" in methods
    assert methods.count("setMyCommands") == 6
    sent = [form for m, form in api.calls if m == "sendMessage"]
    assert len(sent) == 1 and sent[0]["chat_id"] == "77" and "Hi, Alice!" in sent[0]["text"]
    assert json.loads(sent[0]["reply_markup"])["inline_keyboard"]
    assert (tmp_path / "data" / "nardy.sqlite3").exists()
    # the sender was drained within SHUTDOWN_DRAIN_TIMEOUT (what the handlers still running left of it), not closed
    assert len(shutdowns) == 1 and 0 < shutdowns[0] <= 3.0
