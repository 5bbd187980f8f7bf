"""Live sockets for the tests of the caps, the shared views and the memory: opening them and reading what they get."""

from __future__ import annotations

import json
from typing import Any

from aiogram.types import User
from aiohttp import WSMsgType

from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import signed_init_data


async def open_socket(
    app: AppEnv, game_id: str, user: User, *, language: str = "en", version: int | None = None
) -> Any:
    """Open the game's live socket signed in as ``user`` (in ``language``), having the state at ``version``.
    Returns: the socket."""
    ws = await app.client.ws_connect(f"/webapp/api/games/{game_id}/live")
    await ws.send_json({"init_data": signed_init_data(user.id, user.first_name, language=language), "version": version})
    return ws


async def first_message(ws: Any) -> dict[str, Any]:
    """Return the first message the socket gets (a state, ``current`` or an error)."""
    message: dict[str, Any] = await ws.receive_json()
    return message


async def refused(ws: Any) -> tuple[dict[str, Any], int | None]:
    """Return the error message a refused socket gets and the code it is then closed with."""
    error = await first_message(ws)
    closing = await ws.receive()
    assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED), closing
    return error, ws.close_code


async def state_text(ws: Any, at_least: int) -> str:
    """Return the text of the first state message of at least version ``at_least`` the socket gets."""
    while True:
        message = await ws.receive()
        assert message.type is WSMsgType.TEXT, message
        body = json.loads(message.data)
        if body["type"] == "state" and body["state"]["version"] >= at_least:
            text: str = message.data
            return text


def counting_loads(app: AppEnv) -> list[str]:
    """Return the list every game read of the live sockets (``GameViews.load``) appends the game's id to (the reads
    are still made)."""
    views = app.env.service.views
    loads: list[str] = []
    load = views.load

    async def counted(game_id: str) -> Any:
        loads.append(game_id)
        return await load(game_id)

    views.load = counted  # type: ignore[method-assign]
    return loads
