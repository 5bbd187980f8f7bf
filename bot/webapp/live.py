"""The live socket: ``GET /webapp/api/games/{game_id}/live`` (WebSocket).

The client's first message authenticates it: ``{"init_data": "<Telegram init data>", "version": <the last version
it has, or null>}``. The init data goes in a message, not in the URL's query: a browser cannot set headers on a
WebSocket, and a query string ends up in the access logs of every proxy on the way, where a signed init data would
let anyone act as the user until it is stale. A socket that sends no valid first message within
:data:`HELLO_TIMEOUT` seconds is cut (its connection aborted, no closing handshake).

Then the socket follows the game's versions (:meth:`bot.services.live.LiveUpdates.follow`), within the caps of
:class:`bot.services.live.FollowLimits` (a user's sockets, a game's, this process's), checked before anything is
subscribed, read or built. It is sent ``{"type": "state", "state": <view>}`` at once when the client is behind (no
version, or an older one: the catch-up after a reconnect), else ``{"type": "current", "version": v}``; after that a
state message for every newer version, the view of its viewer (the legal steps only to the player to move). Every
socket that sees the same view of a version (the spectators of a language; a player's sockets in a language) is sent
the same text, built and serialized once in this process (:class:`bot.services.live.Edition`). The client may send
``{"type": "ping"}`` (answered ``pong``); the page does every 25 s, and a socket that sends nothing for
:data:`SILENCE_TIMEOUT` seconds is cut.

A socket is refused with an error message ``{"type": "error", "status": s, "error": code, "reason": text}`` (the text
in the user's language) and then closed with a code the page acts on:

- **4401** (``status`` 401): untrusted init data; the page shows the reason and stops.
- **4404** (``status`` 404, ``not_found``): no such game; the page shows the reason and stops.
- **4429** (``status`` 429): ``too_many_sockets``, with ``scope`` (``user``, ``game`` or ``process``) and ``limit``:
  over a cap; or ``rate_limited``, with ``retry_after`` (seconds): the user's read budget
  (:class:`bot.services.request_limits.RequestLimiter`, ``WEBAPP_READ_RATE``) is spent, as a socket's first message
  counts as a read. The page shows the reason and tries again only after a long wait (never in a tight loop).
- **1011** (``status`` 503, ``unavailable``): the store or Redis cannot be reached now; the page reconnects with its
  growing delay and catches up.

A socket refused with 401 or 429 gets its error only :attr:`~bot.webapp.parts.WebAppParts.socket_refusal_delay`
seconds (2) after its first message: whatever the verdict costs, a script that opens sockets in a loop is held to one
refusal per connection every 2 s, so that a storm of them (2,000 a second from one client on this machine, a whole
core) cannot take the event loop from the games; a page refused at a cap waits far longer before it tries again.

A socket that does not read what it is sent is dropped (its connection aborted): when more than
:data:`SEND_BUFFER_LIMIT` bytes wait for it, or when a message cannot be handed to it within :data:`SEND_TIMEOUT`
seconds. Each socket is written by its own task, so a slow one never holds the others up. Messages are not compressed
(``permessage-deflate`` is declined): a state is a few KB, and a compressor per socket would cost every socket up to
256 KB and a compression per message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web

from bot.i18n import gettext_noop
from bot.services.game_view import GameView, VersionViews, ViewsUnavailableError
from bot.services.live import Edition, Follower, LiveUnavailableError, TooManyFollowersError
from bot.services.request_limits import RequestKind
from bot.texts import tr, translate
from bot.webapp.auth import AuthError, WebAppIdentity
from bot.webapp.parts import PARTS, SOCKETS, WebAppParts, identify, shown_to

log = logging.getLogger(__name__)

HELLO_TIMEOUT: Final = 10.0
"""Seconds a new socket has to send its first (authenticating) message."""
SILENCE_TIMEOUT: Final = 70.0
"""Seconds a following socket may send nothing before it is cut (the page sends ``ping`` every 25 s, so a phone whose
network is gone is let go within 70 s)."""
_ENDED: Final = frozenset({WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR})
SEND_TIMEOUT: Final = 10.0
"""Seconds a message may take to be handed to one socket before the socket is dropped."""
SEND_BUFFER_LIMIT: Final = 256 * 1024
"""Bytes that may wait unsent for one socket; a socket with more is dropped (it does not read)."""
CLOSE_TIMEOUT: Final = 3.0
"""Seconds a closing socket (a refused one too) waits for the client's side of the closing handshake."""
CLOSE_UNAUTHORIZED: Final = 4401
CLOSE_NOT_FOUND: Final = 4404
CLOSE_TOO_MANY: Final = 4429
CLOSE_UNAVAILABLE: Final = int(WSCloseCode.INTERNAL_ERROR)
PONG: Final = '{"type": "pong"}'
UNAVAILABLE: Final = gettext_noop("The bot is temporarily unavailable. Please try again in a minute.")


class _Socket:
    """One live socket, written through :meth:`send`: a bounded send that drops a socket which does not read."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request

    def cut(self) -> None:
        """Abort the socket's connection at once (no closing handshake)."""
        transport = self.request.transport
        if transport is not None:
            transport.abort()

    def _drop(self, why: str) -> None:
        log.info("live socket dropped: %s", why)
        self.cut()

    async def send(self, text: str) -> bool:
        """Send ``text``; return False when the socket is gone or was dropped (see the module docstring)."""
        transport = self.request.transport
        if self.ws.closed or transport is None or transport.is_closing():
            return False
        waiting = transport.get_write_buffer_size()
        if waiting > SEND_BUFFER_LIMIT:
            self._drop(f"{waiting} bytes wait unread")
            return False
        try:
            async with asyncio.timeout(SEND_TIMEOUT):
                await self.ws.send_str(text)
        except TimeoutError:
            self._drop(f"a message waited {SEND_TIMEOUT:g} s to be sent")
            return False
        except ConnectionError:  # the client went away meanwhile
            return False
        return True

    async def refuse(
        self, status: int, error: str, reason: str, code: int, *, delay: float = 0.0, **extra: Any
    ) -> None:
        """Send the error message ``delay`` seconds from now, then close the socket with ``code``."""
        if delay > 0:
            await asyncio.sleep(delay)
        message = {"type": "error", "status": status, "error": error, "reason": reason, **extra}
        if await self.send(json.dumps(message)):
            await self.ws.close(code=code)


def state_message(view: GameView) -> str:
    """Return the state message of ``view`` as the socket sends it."""
    return json.dumps({"type": "state", "state": view.to_json()})


async def _hello(ws: web.WebSocketResponse) -> dict[str, Any] | None:
    """Return the client's first message as a dict, or None when it is malformed (or not text). Raises:
    TimeoutError when none came within :data:`HELLO_TIMEOUT` seconds."""
    message = await asyncio.wait_for(ws.receive(), timeout=HELLO_TIMEOUT)
    if message.type is not WSMsgType.TEXT:
        return None
    try:
        body = json.loads(message.data)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


async def live_socket(request: web.Request) -> web.StreamResponse:
    """Serve one live connection (see the module docstring)."""
    parts = request.app[PARTS]
    game_id = request.match_info["game_id"]
    # no aiohttp heartbeat: the page pings (SILENCE_TIMEOUT), and aiohttp 3.14 re-arms a closed socket's heartbeat
    # when the client's closing frame arrives, keeping every socket the server closed alive for 30 s more
    ws = web.WebSocketResponse(max_msg_size=16384, compress=False, timeout=CLOSE_TIMEOUT)
    await ws.prepare(request)
    sockets = request.app[SOCKETS]
    sockets.add(ws)
    try:
        await _serve(_Socket(ws, request), parts, game_id)
    except ConnectionResetError:  # the client went away while it was being written to: nothing is left to do
        pass
    finally:
        sockets.discard(ws)
    return ws


async def _serve(socket: _Socket, parts: WebAppParts, game_id: str) -> None:
    """Authenticate the socket, then keep it up to date within the caps until it closes."""
    ws = socket.ws
    try:
        hello = await _hello(ws)
    except TimeoutError:  # a client that says nothing is not owed a closing handshake: its connection is cut
        socket.cut()
        return
    if ws.closed:  # the client left before it said anything (a page closed at once)
        return
    init_data = hello.get("init_data") if hello else None
    try:
        who = identify(parts, init_data if isinstance(init_data, str) else None)
    except AuthError as error:
        reason = str(tr(error.lang, f"webapp.auth.{error.failure.value}"))
        await socket.refuse(401, error.failure.value, reason, CLOSE_UNAUTHORIZED, delay=parts.socket_refusal_delay)
        return
    if parts.limiter is not None and (wait := await parts.limiter.wait(who.user_id, RequestKind.READ)) > 0:
        reason = str(tr(who.language, "webapp.rate_limited"))
        retry_after = math.ceil(wait)
        await socket.refuse(
            429, "rate_limited", reason, CLOSE_TOO_MANY, delay=parts.socket_refusal_delay, retry_after=retry_after
        )
        return
    known = hello.get("version") if hello else None
    known_version = known if isinstance(known, int) and not isinstance(known, bool) else None
    try:
        async with parts.live.follow(game_id, who.user_id) as follower:
            await _follow(socket, parts, who, follower, known_version)
    except TooManyFollowersError as refusal:
        reason = str(tr(who.language, "webapp.too_many_sockets"))
        scope = refusal.scope
        delay = parts.socket_refusal_delay
        await socket.refuse(
            429, "too_many_sockets", reason, CLOSE_TOO_MANY, delay=delay, scope=scope, limit=refusal.limit
        )
    except (LiveUnavailableError, ViewsUnavailableError):  # logged once per outage by the service
        await socket.refuse(503, "unavailable", translate(who.language, UNAVAILABLE), CLOSE_UNAVAILABLE)


async def _follow(
    socket: _Socket, parts: WebAppParts, who: WebAppIdentity, follower: Follower, known_version: int | None
) -> None:
    """Send the catch-up, then every newer version's state, until the socket closes. Raises: ViewsUnavailableError
    when the game cannot be read at first."""
    ws = socket.ws
    loaded = await parts.views.load_fresh(follower.game_id)
    if loaded is None:
        reason = str(tr(who.language, "webapp.not_found"))
        await socket.refuse(404, "not_found", reason, CLOSE_NOT_FOUND)
        return
    sent = (loaded.version, _clock_started(loaded))
    if known_version is None or known_version < loaded.version or sent[1] is not None:
        # (a running clock is sent too: the page may hold the view of when it still waited for its board)
        view = loaded.view(loaded.key(who.user_id, who.language))
        if view is None or not await socket.send(state_message(view)):
            return
        await shown_to(parts, who, loaded)
    else:
        sent = (known_version, None)
        if not await socket.send(json.dumps({"type": "current", "version": loaded.version})):
            return
    pusher = asyncio.create_task(_push(socket, parts, who, follower, sent), name=f"nardy-live-{follower.game_id}")
    try:
        while not pusher.done():
            try:
                message = await ws.receive(timeout=SILENCE_TIMEOUT)
            except TimeoutError:  # the page pings every 25 s: a socket this silent has no page behind it
                socket.cut()
                break
            if message.type in _ENDED:
                break
            if message.type is WSMsgType.TEXT and '"ping"' in message.data:
                await socket.send(PONG)
    finally:
        pusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pusher


async def _push(
    socket: _Socket, parts: WebAppParts, who: WebAppIdentity, follower: Follower, sent: tuple[int, float | None]
) -> None:
    """Send the state of every edition the follower hears that is newer than ``sent`` (the version last sent and
    when its running clock started), until the socket is gone: a newer version, or the same one announced again
    because its clock started (:mod:`bot.services.clock_start`)."""
    while True:
        edition = await follower.next()
        if edition.version < sent[0]:
            continue
        try:
            shown = await _shared_state(edition, parts, who)
            loaded = await _edition_game(edition, parts)  # the edition's one read, made above
        except ViewsUnavailableError:  # logged once per outage; the next version (or a reconnect) catches up
            continue
        if shown is None or loaded is None:
            continue
        version, text = shown
        now = (version, _clock_started(loaded))
        if version < sent[0] or now == sent:
            continue
        if not await socket.send(text):
            return
        sent = now
        await shown_to(parts, who, loaded)


def _clock_started(loaded: VersionViews) -> float | None:
    """Return when the running clock of the version read started counting (None: no clock runs, or it waits)."""
    clock = loaded.record.clock
    return None if clock is None or clock.running is None else clock.started


async def _edition_game(edition: Edition, parts: WebAppParts) -> VersionViews | None:
    """Return the game as read for ``edition`` (once per edition in this process). Raises: ViewsUnavailableError."""
    loaded: VersionViews | None = await edition.shared("game", lambda: parts.views.load(edition.game_id))
    return loaded


async def _shared_state(edition: Edition, parts: WebAppParts, who: WebAppIdentity) -> tuple[int, str] | None:
    """Return the version shown and the state message ``who`` gets for ``edition`` (the game read, and each distinct
    view built and serialized, once per edition in this process), or None when the game cannot be shown. Raises:
    ViewsUnavailableError."""
    loaded = await _edition_game(edition, parts)
    if loaded is None:
        return None
    key = loaded.key(who.user_id, who.language)

    def message() -> tuple[int, str] | None:
        view = loaded.view(key)
        return None if view is None else (loaded.version, state_message(view))

    return edition.remember(key, message)
