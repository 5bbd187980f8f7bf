"""The live socket: ``GET /webapp/api/games/{game_id}/live`` (WebSocket).

The client's first message authenticates it: ``{"init_data": "<Telegram init data>", "version": <the last version
it has, or null>}``. The init data goes in a message, not in the URL's query: a browser cannot set headers on a
WebSocket, and a query string ends up in the access logs of every proxy on the way, where a signed init data would
let anyone act as the user until it is stale. A socket that sends no valid first message within
:data:`HELLO_TIMEOUT` seconds is closed; untrusted init data gets ``{"type": "error", "status": 401, ...}`` and the
socket is closed with code 4401.

Then the server subscribes to the game's versions (:mod:`bot.services.live`) and sends ``{"type": "state", "state":
<view>}`` at once when the client is behind (no version, or an older one: the catch-up after a reconnect), else
``{"type": "current", "version": v}``; after that a state message for every newer version, each built for this
viewer (the legal steps only to the player to move). The client may send ``{"type": "ping"}`` (answered ``pong``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Final

from aiohttp import WSMsgType, web

from bot.texts import tr
from bot.webapp.auth import AuthError, WebAppIdentity
from bot.webapp.parts import PARTS, SOCKETS, WebAppParts, identify

log = logging.getLogger(__name__)

HELLO_TIMEOUT: Final = 10.0
"""Seconds a new socket has to send its first (authenticating) message."""
CLOSE_UNAUTHORIZED: Final = 4401
CLOSE_NOT_FOUND: Final = 4404


async def _hello(ws: web.WebSocketResponse) -> dict[str, Any] | None:
    """Return the client's first message as a dict, or None when it is missing or malformed."""
    try:
        message = await asyncio.wait_for(ws.receive(), timeout=HELLO_TIMEOUT)
    except TimeoutError:
        return None
    if message.type is not WSMsgType.TEXT:
        return None
    try:
        body = json.loads(message.data)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


async def _send_state(ws: web.WebSocketResponse, parts: WebAppParts, game_id: str, who: WebAppIdentity) -> int | None:
    """Send the viewer's current state; return its version (None when the game is gone)."""
    view = await parts.views.view(game_id, who.user_id, who.language)
    if view is None:
        return None
    await ws.send_json({"type": "state", "state": view.to_json()})
    return view.version


async def live_socket(request: web.Request) -> web.StreamResponse:
    """Serve one live connection (see the module docstring)."""
    parts = request.app[PARTS]
    game_id = request.match_info["game_id"]
    ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=16384)
    await ws.prepare(request)
    sockets = request.app[SOCKETS]
    sockets.add(ws)
    try:
        return await _serve(ws, parts, game_id)
    except ConnectionResetError:  # the client went away while it was being written to: nothing is left to do
        return ws
    finally:
        sockets.discard(ws)


async def _serve(ws: web.WebSocketResponse, parts: WebAppParts, game_id: str) -> web.WebSocketResponse:
    """Authenticate the socket, then keep it up to date until it closes; return it."""
    hello = await _hello(ws)
    if ws.closed:  # the client left before it said anything (a page closed at once)
        return ws
    init_data = hello.get("init_data") if hello else None
    try:
        who = identify(parts, init_data if isinstance(init_data, str) else None)
    except AuthError as error:
        reason = str(tr(error.lang, f"webapp.auth.{error.failure.value}"))
        await ws.send_json({"type": "error", "status": 401, "error": error.failure.value, "reason": reason})
        await ws.close(code=CLOSE_UNAUTHORIZED)
        return ws
    known = hello.get("version") if hello else None
    known_version = known if isinstance(known, int) and not isinstance(known, bool) else None
    async with parts.live.subscribe(game_id) as versions:
        current = await parts.views.version(game_id)
        if current is None:
            reason = str(tr(who.language, "webapp.not_found"))
            await ws.send_json({"type": "error", "status": 404, "error": "not_found", "reason": reason})
            await ws.close(code=CLOSE_NOT_FOUND)
            return ws
        sent: int | None
        if known_version is None or known_version < current:
            sent = await _send_state(ws, parts, game_id, who)
        else:
            sent = known_version
            await ws.send_json({"type": "current", "version": current})

        async def push() -> None:
            last = sent or 0
            while True:
                version = await versions.get()
                if version <= last:
                    continue
                shown = await _send_state(ws, parts, game_id, who)
                if shown is not None:
                    last = shown

        pusher = asyncio.create_task(push(), name=f"nardy-live-{game_id}")
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT and '"ping"' in message.data:
                    await ws.send_json({"type": "pong"})
                if pusher.done():
                    break
        finally:
            pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await pusher
    return ws
