"""A fake Telegram over HTTP, for webhook workers running as real processes (and for ``benchmarks/load.py``).

``FakeBotApiServer`` answers ``POST /bot<token>/<method>`` like the Bot API (JSON or multipart forms, as aiogram's
aiohttp session sends them), with an optional latency per call: it keeps every chat's messages (text or photo,
caption, inline keyboard; edited in place), answers ``sendMessage`` / ``sendPhoto`` with new message ids, refuses
edits of messages it never sent, and records every call. It also plays Telegram's side of the webhook: it builds
updates (messages, button presses) and POSTs them to a worker with the secret header, like Telegram does.

For soak runs (``benchmarks/soak.py``) the latency can have a random ``jitter`` on top (calls of different workers
then overtake each other, as they do on the way to Telegram: a call takes effect only after its latency), every
send, edit and deletion of a message is kept in the order it took effect (:attr:`FakeBotApiServer.changes`),
albums (``sendMediaGroup``) are answered with one message per item, and a caller that puts its name in front of the
path (``/<name>/bot<token>/<method>``) has its calls marked with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import BodyPartReader, web

BOT_ID = 4243
TOKEN = f"{BOT_ID}:TEST-token-for-the-webhook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
_SENDS = {"sendMessage", "sendPhoto", "sendDocument"}
_EDITS = {"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}
_ALBUM = "sendMediaGroup"


@dataclass
class ChatMessage:
    """One message as a chat shows it."""

    chat_id: int
    message_id: int
    text: str | None = None
    caption: str | None = None
    photo: bool = False
    keyboard: list[list[dict[str, Any]]] = field(default_factory=list)
    edits: int = 0

    def callbacks(self) -> list[str]:
        """Return the callback data of every button, row by row."""
        return [str(b["callback_data"]) for row in self.keyboard for b in row if "callback_data" in b]


@dataclass(frozen=True)
class MessageChange:
    """One send, edit or deletion of a message as it took effect (after the call's latency), with what the message
    showed right after it (nothing for a deletion)."""

    at: float
    method: str
    chat_id: int
    message_id: int
    caption: str | None
    text: str | None
    photo: bool
    callbacks: tuple[str, ...]
    """The callback data of every button the message carries after the change, row by row."""
    reply_to: int | None = None
    """For a sent message: the message it replies to (``reply_parameters``), if any."""
    source: str | None = None
    """Who made the call (see :attr:`Call.source`)."""


@dataclass
class Call:
    """A Bot API call as the server received it."""

    method: str
    fields: dict[str, Any]
    at: float
    source: str | None = None
    """The caller's name when it called under ``/<name>/bot<token>/<method>`` (a worker given the Bot API URL
    ``http://host:port/<name>``), else None."""


class FakeBotApiServer:
    """The Bot API side (see the module docstring). ``latency`` seconds (plus a uniformly random share of
    ``jitter`` seconds, drawn from a generator seeded with ``seed``) are waited before a call takes effect and is
    answered."""

    def __init__(self, latency: float = 0.0, *, jitter: float = 0.0, seed: int = 0) -> None:
        self.latency = latency
        self.jitter = jitter
        self._rng = random.Random(seed)
        self.calls: list[Call] = []
        self.changes: list[MessageChange] = []  # every send, edit and deletion of a message, in the order of effect
        self.answers: dict[str, Call] = {}  # answerCallbackQuery calls by callback_query_id
        self.messages: dict[tuple[int, int], ChatMessage] = {}
        self._chats: dict[int, dict[int, ChatMessage]] = {}
        self.webhook: dict[str, Any] = {}
        self._ids = itertools.count(1)
        self._update_ids = itertools.count(1)
        self.changed = asyncio.Event()

    def app(self) -> web.Application:
        """Return the aiohttp application serving the Bot API."""
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_post("/bot{token}/{method}", self.handle)
        app.router.add_post("/{source}/bot{token}/{method}", self.handle)
        return app

    # ---- the Bot API ---------------------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.Response:
        """Answer one Bot API call."""
        if request.match_info["token"] != TOKEN:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        method = request.match_info["method"]
        fields = await _fields(request)
        call = Call(method, fields, time.monotonic(), request.match_info.get("source"))
        self.calls.append(call)
        if method == "answerCallbackQuery":
            self.answers.setdefault(str(fields.get("callback_query_id")), call)
        delay = self.latency + (self._rng.uniform(0.0, self.jitter) if self.jitter > 0 else 0.0)
        if delay:
            await asyncio.sleep(delay)
        try:
            result = self._result(method, fields, call.source)
        except LookupError as error:
            return web.json_response({"ok": False, "error_code": 400, "description": f"Bad Request: {error}"})
        self.changed.set()  # wakes every waiter; each takes the fresh event for its next wait
        self.changed = asyncio.Event()
        return web.json_response({"ok": True, "result": result})

    def _result(self, method: str, fields: dict[str, Any], source: str | None = None) -> Any:
        if method == "getMe":
            return {"id": BOT_ID, "is_bot": True, "first_name": "Nardy", "username": "nardy_webhook_bot"}
        if method == "setWebhook":
            self.webhook = fields
            return True
        if method in _SENDS:
            chat_id = int(fields["chat_id"])
            message = ChatMessage(chat_id, next(self._ids))
            self._fill(message, method, fields)
            self._keep(message)
            self._record(method, message, source, reply_to=_reply_to(fields))
            return self._message_json(message)
        if method == _ALBUM:
            chat_id = int(fields["chat_id"])
            items = fields.get("media")
            sent = []
            for item in items if isinstance(items, list) else []:
                message = ChatMessage(chat_id, next(self._ids), photo=item.get("type") == "photo")
                if "caption" in item:
                    message.caption = str(item["caption"])
                self._keep(message)
                self._record(method, message, source, reply_to=_reply_to(fields))
                sent.append(self._message_json(message))
            return sent
        if method in _EDITS:
            key = (int(fields["chat_id"]), int(fields["message_id"]))
            if key not in self.messages:
                raise LookupError("message to edit not found")
            message = self.messages[key]
            message.edits += 1
            self._fill(message, method, fields)
            self._record(method, message, source)
            return self._message_json(message)
        if method == "deleteMessage":
            chat_id, message_id = int(fields["chat_id"]), int(fields["message_id"])
            if self.messages.pop((chat_id, message_id), None) is not None:
                gone = MessageChange(
                    time.monotonic(), method, chat_id, message_id, None, None, False, (), source=source
                )
                self.changes.append(gone)
            self._chats.get(chat_id, {}).pop(message_id, None)
        return True

    def _keep(self, message: ChatMessage) -> None:
        self.messages[message.chat_id, message.message_id] = message
        self._chats.setdefault(message.chat_id, {})[message.message_id] = message

    def _record(self, method: str, message: ChatMessage, source: str | None, *, reply_to: int | None = None) -> None:
        self.changes.append(
            MessageChange(
                time.monotonic(),
                method,
                message.chat_id,
                message.message_id,
                message.caption,
                message.text,
                message.photo,
                tuple(message.callbacks()),
                reply_to,
                source,
            )
        )

    @staticmethod
    def _fill(message: ChatMessage, method: str, fields: dict[str, Any]) -> None:
        if "text" in fields:
            message.text = str(fields["text"])
        if "caption" in fields:
            message.caption = str(fields["caption"])
        if method == "sendPhoto" or method == "editMessageMedia":
            message.photo = True
            media = fields.get("media")
            if isinstance(media, dict) and "caption" in media:
                message.caption = str(media["caption"])
        if "reply_markup" in fields:
            markup = fields["reply_markup"]
            message.keyboard = list(markup.get("inline_keyboard", [])) if isinstance(markup, dict) else []
        elif method in _EDITS:  # an edit without a keyboard takes it away (editMessageReplyMarkup too, as Telegram)
            message.keyboard = []

    @staticmethod
    def _message_json(message: ChatMessage) -> dict[str, Any]:
        chat_type = "private" if message.chat_id > 0 else "supergroup"
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "date": int(time.time()),
            "chat": {"id": message.chat_id, "type": chat_type, **({"title": "Group"} if message.chat_id < 0 else {})},
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Nardy"},
        }
        if message.photo:
            data["photo"] = [{"file_id": f"photo-{message.message_id}", "file_unique_id": "u", "width": 1, "height": 1}]
            if message.caption is not None:
                data["caption"] = message.caption
        else:
            data["text"] = message.text or ""
        if message.keyboard:
            data["reply_markup"] = {"inline_keyboard": message.keyboard}
        return data

    # ---- what the chats show -------------------------------------------------------------------------------
    def chat(self, chat_id: int) -> list[ChatMessage]:
        """Return the chat's messages, oldest first."""
        messages = self._chats.get(chat_id, {})
        return [messages[i] for i in sorted(messages)]

    def methods(self, *names: str) -> list[Call]:
        """Return the calls of the given methods, in order."""
        return [c for c in self.calls if c.method in names]

    # ---- Telegram's side of the webhook ----------------------------------------------------------------------
    def message_update(self, user: dict[str, Any], chat: dict[str, Any], text: str) -> dict[str, Any]:
        """Return a new update of ``user`` sending ``text`` in ``chat`` (commands get their entity)."""
        update_id = next(self._update_ids)
        message: dict[str, Any] = {
            "message_id": 100_000 + update_id,
            "date": int(time.time()),
            "chat": chat,
            "from": user,
            "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        return {"update_id": update_id, "message": message}

    def press_update(self, user: dict[str, Any], message: ChatMessage, data: str) -> dict[str, Any]:
        """Return a new update of ``user`` pressing the button with callback ``data`` on ``message``."""
        update_id = next(self._update_ids)
        return {
            "update_id": update_id,
            "callback_query": {
                "id": f"cb-{update_id}",
                "from": user,
                "chat_instance": "ci",
                "data": data,
                "message": self._message_json(message),
            },
        }


def _reply_to(fields: dict[str, Any]) -> int | None:
    """Return the message a sent message replies to (``reply_parameters`` or the older ``reply_to_message_id``)."""
    parameters = fields.get("reply_parameters")
    if isinstance(parameters, dict) and "message_id" in parameters:
        return int(parameters["message_id"])
    if "reply_to_message_id" in fields:
        return int(fields["reply_to_message_id"])
    return None


async def _fields(request: web.Request) -> dict[str, Any]:
    """Return a call's fields, JSON values decoded (files as their size)."""
    if request.content_type == "application/json":
        raw: dict[str, Any] = await request.json()
        return raw
    fields: dict[str, Any] = {}
    if request.content_type != "multipart/form-data":
        form = await request.post()
        values = [(key, value) for key, value in form.items() if isinstance(value, str)]
    else:  # read the text parts, skip the files' bytes (a board is ~150 KB: parsing it costs the driver's CPU)
        values = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader) or not part.name:
                continue
            if part.filename is not None:
                await part.release()
                fields[part.name] = f"<file {part.name}>"
            else:
                values.append((part.name, await part.text()))
    for key, value in values:
        try:
            fields[key] = json.loads(value) if value[:1] in "[{" else value
        except json.JSONDecodeError:
            fields[key] = value
    return fields


def user(user_id: int, name: str, lang: str = "en") -> dict[str, Any]:
    """Return a Telegram user."""
    return {"id": user_id, "is_bot": False, "first_name": name, "language_code": lang}


def group(chat_id: int = -100_500) -> dict[str, Any]:
    """Return a supergroup chat."""
    return {"id": chat_id, "type": "supergroup", "title": "Nardy club"}


def private(of: dict[str, Any]) -> dict[str, Any]:
    """Return the private chat of a user."""
    return {"id": of["id"], "type": "private", "first_name": of["first_name"]}


async def deliver(
    session: aiohttp.ClientSession, url: str, update: dict[str, Any], secret: str | None
) -> tuple[int, str]:
    """POST ``update`` to a worker's webhook ``url`` as Telegram does (with the secret header when given);
    return the status and body."""
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    async with session.post(url, json=update, headers=headers) as response:
        return response.status, await response.text()


# ---- webhook workers as processes ------------------------------------------------------------------------------
WORKER_SECRET = "webhook-secret_42"


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port on ``host`` that is free now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@dataclass
class Worker:
    """One ``python -m bot`` webhook worker process."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path
    host: str = "127.0.0.1"

    @property
    def url(self) -> str:
        """The worker's webhook URL."""
        return f"http://{self.host}:{self.port}/telegram"

    @property
    def base(self) -> str:
        """The worker's base URL (``/healthz``, ``/metrics``)."""
        return f"http://{self.host}:{self.port}"

    def cpu_seconds(self) -> float:
        """Return the CPU time (user + system) the process and its live child processes (the render and computer
        pools) have used so far (Linux ``/proc``; 0.0 elsewhere)."""
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat.parent.name) == self.process.pid or int(fields[1]) == self.process.pid:
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")


def start_worker(
    api_url: str,
    redis_url: str,
    workdir: Path,
    name: str,
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    **settings: str,
) -> Worker:
    """Start a webhook worker on ``host``:``port`` (a free port of ``host`` by default), on the fake Bot API at
    ``api_url`` and Redis at ``redis_url``, with the pacing of the sender off (the fake has no limits) and
    ``settings`` (environment names) on top; return it. Its output goes to ``workdir/<name>.log``."""
    port = free_port(host) if port is None else port
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "WEBHOOK_", "REDIS_"))},
        "BOT_TOKEN": TOKEN,
        "BOT_MODE": "webhook",
        "WEBHOOK_URL": "https://bot.example.org",
        "WEBHOOK_SECRET": WORKER_SECRET,
        "WEBHOOK_HOST": host,
        "WEBHOOK_PORT": str(port),
        "REDIS_URL": redis_url,
        "TELEGRAM_API_URL": api_url,
        "SEND_INTERVAL_PRIVATE": "0",
        "SEND_INTERVAL_GROUP": "0",
        "GROUP_MESSAGES_PER_MINUTE": "100000",
        "PRIVATE_MESSAGES_PER_MINUTE": "100000",
        "BOT_CALLS_PER_SECOND": "100000",
        "BOT_MOVE_DELAY": "0",
        "THROTTLE_RATE": "0",
        "COMPUTER_PROCESSES": "0",
        "LOG_LEVEL": "WARNING",
        **settings,
    }
    log = workdir / f"{name}.log"
    with log.open("wb") as output:  # the worker writes to its own copy of the file
        process = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=workdir, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    return Worker(port, process, log, host)


async def wait_healthy(session: aiohttp.ClientSession, worker: Worker, timeout: float = 90.0) -> None:
    """Wait until the worker answers ``GET /healthz`` with 200.

    Raises: AssertionError with the worker's log when it exits or does not answer within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert worker.process.poll() is None, worker.log.read_text()
        with contextlib.suppress(aiohttp.ClientError):
            async with session.get(worker.base + "/healthz") as response:
                if response.status == 200 and await response.text() == "ok":
                    return
        await asyncio.sleep(0.1)
    raise AssertionError(f"worker on {worker.port} never became healthy: {worker.log.read_text()}")


def stop_workers(workers: list[Worker], timeout: float = 30.0) -> None:
    """Stop the workers with SIGTERM (SIGKILL after ``timeout`` seconds)."""
    for worker in workers:
        if worker.process.poll() is None:
            worker.process.terminate()
    for worker in workers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(timeout=timeout)
        if worker.process.poll() is None:
            worker.process.kill()
            worker.process.wait()
