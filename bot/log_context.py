"""Structured logs: every record carries the update and the game it belongs to.

The update id is bound by :class:`UpdateContextMiddleware` (outermost) for everything handling that update,
including the tasks it starts (they copy the context); the game id by :func:`bind_game` wherever a game is saved,
its boards synced or its computer reply played. ``LOG_FORMAT=json`` writes one JSON object per line (``ts``,
``level``, ``logger``, ``message``, ``update_id``, ``game_id``, ``exc``); ``text`` (the default) appends
``[update=… game=…]`` to the usual line.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Literal

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

update_id_var: ContextVar[int | None] = ContextVar("nardy_update_id", default=None)
game_id_var: ContextVar[str | None] = ContextVar("nardy_game_id", default=None)

LogFormat = Literal["text", "json"]
_HANDLER_NAME = "nardy"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s [update=%(update_id)s game=%(game_id)s]"


def bind_game(game_id: str) -> None:
    """Make the log records of the current task (and the tasks it starts) name ``game_id``. Returns nothing."""
    game_id_var.set(game_id)


class ContextFilter(logging.Filter):
    """Adds ``update_id`` and ``game_id`` (``-`` when unbound) to every record it sees."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Return True (the record is kept) after adding the context."""
        update_id = update_id_var.get()
        game_id = game_id_var.get()
        record.update_id = "-" if update_id is None else update_id
        record.game_id = game_id or "-"
        return True


def _bound(value: object) -> object:
    return None if value == "-" else value


class JsonFormatter(logging.Formatter):
    """One JSON object per record."""

    def format(self, record: logging.LogRecord) -> str:
        """Return the record as a JSON line."""
        data: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "update_id": _bound(getattr(record, "update_id", "-")),
            "game_id": _bound(getattr(record, "game_id", "-")),
        }
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def configure_logging(level: str, fmt: LogFormat = "text") -> logging.Handler:
    """Send every log record to standard error in ``fmt``, with its update and game (other handlers, e.g. a test's,
    are kept). Returns: the handler."""
    handler = logging.StreamHandler()
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.set_name(_HANDLER_NAME)
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:  # ours from an earlier call
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler


class UpdateContextMiddleware(BaseMiddleware):
    """Outer ``update`` middleware: binds the update id (and clears any game id) while the update is handled."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        """Return the handler's result."""
        update_token = update_id_var.set(event.update_id if isinstance(event, Update) else None)
        game_token = game_id_var.set(None)
        try:
            return await handler(event, data)
        finally:
            game_id_var.reset(game_token)
            update_id_var.reset(update_token)
