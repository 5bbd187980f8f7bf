"""Every log record names the update and the game it belongs to, as text or JSON lines."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

from aiogram.types import Update

from bot.log_context import ContextFilter, JsonFormatter, UpdateContextMiddleware, bind_game, configure_logging


async def test_records_carry_the_update_and_the_game() -> None:
    log = logging.getLogger("tests.log_context")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.INFO)

    async def handle(_event: Any, _data: dict[str, Any]) -> None:
        log.info("before the game")
        bind_game("G4me1d0000")
        log.info("about the game")

    try:
        await UpdateContextMiddleware()(handle, Update(update_id=77), {})
        log.info("outside any update")
    finally:
        log.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(x["message"], x["update_id"], x["game_id"]) for x in lines] == [
        ("before the game", 77, None),
        ("about the game", 77, "G4me1d0000"),
        ("outside any update", None, None),
    ]
    assert lines[0]["level"] == "INFO" and lines[0]["ts"].endswith("Z")


def test_text_lines_name_the_context() -> None:
    root = logging.getLogger()
    saved, level = root.handlers[:], root.level
    try:
        handler = configure_logging("INFO", "text")
        stream = io.StringIO()
        assert isinstance(handler, logging.StreamHandler)
        handler.setStream(stream)
        logging.getLogger("tests.text").warning("hello")
        assert stream.getvalue().rstrip().endswith("hello [update=- game=-]")
        assert configure_logging("INFO", "json") in root.handlers and handler not in root.handlers
    finally:
        root.handlers[:] = saved
        root.setLevel(level)
