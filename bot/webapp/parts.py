"""What the Mini App's routes share: their parts, the caller's identity, and the JSON refusals."""

from __future__ import annotations

import asyncio
import functools
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.services.actions import GameActions
from bot.services.arena.membership import MemberCheck
from bot.services.clock_start import ClockStarts
from bot.services.game_view import GameViews, VersionViews
from bot.services.live import LiveUpdates
from bot.services.request_limits import RequestKind, RequestLimiter
from bot.services.tournaments.view_model import TournamentViews
from bot.texts import tr
from bot.webapp.auth import AuthError, WebAppIdentity, verify_init_data
from bot.webapp.ports import ArenaPort, LobbyPort
from bot.webapp.refusals import RefusalSummary

DIST_DIR: Final = Path(__file__).resolve().parent / "static"
"""The front end's build (written by ``webapp/``'s build script, shipped as the package's data); served as it is."""


@dataclass(frozen=True, slots=True)
class WebAppParts:
    """What the Mini App's server uses: the bot ``token`` (to check init data), ``max_age`` (``WEBAPP_AUTH_MAX_AGE``),
    the services (``views``, ``actions``, ``live``, ``tournaments``, ``limiter``, ``clock_starts``), the
    ``default_language``, the ``static_dir``, ``refusal_log_interval`` and ``socket_refusal_delay``."""

    token: str
    max_age: float
    views: GameViews
    actions: GameActions
    live: LiveUpdates
    default_language: str = "en"
    tournaments: TournamentViews | None = None
    """The views of tournaments (:mod:`bot.services.tournaments.view_model`); None: the tournament routes answer 404."""
    static_dir: Path = DIST_DIR
    limiter: RequestLimiter | None = None
    """The per-user limits of the API's requests (:mod:`bot.services.request_limits`); None: no limits (tests)."""
    refusal_log_interval: float = 60.0
    """Seconds between two summary lines of the refused requests, at the most (:mod:`bot.webapp.refusals`)."""
    clock_starts: ClockStarts | None = None
    """Starts a player's clock when the app shows them the board of their action (:mod:`bot.services.clock_start`);
    None: only the chat's boards start clocks."""
    socket_refusal_delay: float = 2.0
    """Seconds a live socket refused for its init data (401) or over a cap or a rate (429) waits for its answer
    (:mod:`bot.webapp.live`): a script opening sockets in a loop gets at most one refusal per connection every 2 s."""
    arenas: ArenaPort | None = None
    """The arena service (:class:`~bot.webapp.ports.ArenaPort`); None: the arena routes answer 404."""
    arena_members: MemberCheck | None = None
    """Whether a user is a member of an arena's group (the Bot API's ``getChatMember``,
    :func:`bot.services.arena.membership.chat_member_check`): a join through the app is refused to anyone else.
    None: not checked (tests with fakes)."""
    lobby: LobbyPort | None = None
    """The lobby service (:class:`~bot.webapp.ports.LobbyPort`); None: the lobby routes answer 404."""
    rating_window: Callable[[float], float] | None = None
    """The lobby's rating window after waiting so many seconds (± rating points; ``math.inf``: any rating), shown
    while a player seeks when the lobby's status does not say it itself; None: not shown."""
    clock: Callable[[], float] = time.time
    """The wall clock whose time the arena and lobby answers carry (``now``), so the page corrects its own."""


PARTS: Final = web.AppKey("parts", WebAppParts)
SOCKETS: Final[web.AppKey[set[web.WebSocketResponse]]] = web.AppKey("sockets")
"""The open live sockets, closed when the server stops (so a shutdown does not wait for the clients)."""
REFUSALS: Final[web.AppKey[RefusalSummary]] = web.AppKey("refusals")
"""The counts of the refused requests, logged as a summary line (:mod:`bot.webapp.refusals`)."""


def error_response(status: int, error: str, reason: str) -> web.Response:
    """Return the JSON refusal ``{"error": error, "reason": reason}`` with ``status``."""
    return web.json_response({"error": error, "reason": reason}, status=status)


@functools.lru_cache(maxsize=64)
def _refusal_body(error: str, key: str, lang: str) -> str:
    """Return the JSON of a refusal whose reason is the catalogue's text ``key`` in ``lang``, made once: a flood of
    refusals costs no translation and no encoding."""
    return json.dumps({"error": error, "reason": str(tr(lang, key))})


def rate_refusal(lang: str, wait: float) -> web.Response:
    """Return the 429 answer for a caller over their rate, who may try again in ``wait`` seconds (``Retry-After``,
    in whole seconds, at least one)."""
    return web.Response(
        text=_refusal_body("rate_limited", "webapp.rate_limited", lang),
        status=429,
        content_type="application/json",
        headers={"Retry-After": str(max(1, math.ceil(wait)))},
    )


def auth_refusal(error: AuthError) -> web.Response:
    """Return the 401 answer for untrusted init data."""
    failure = error.failure.value
    return web.Response(
        text=_refusal_body(failure, f"webapp.auth.{failure}", error.lang), status=401, content_type="application/json"
    )


def init_data_of(request: web.Request) -> str | None:
    """Return the init data of an API request (``Authorization: tma <init data>``), or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "tma" and value.strip() else None


def identify(parts: WebAppParts, init_data: str | None) -> WebAppIdentity:
    """Return the caller's identity. Raises: AuthError."""
    return verify_init_data(init_data, parts.token, max_age=parts.max_age, default_language=parts.default_language)


async def shown_to(parts: WebAppParts, who: WebAppIdentity, loaded: VersionViews) -> bool:
    """The app shows ``who`` the version ``loaded``: when they play the game and their clock waits for them to see
    the board of their action, it starts now (:mod:`bot.services.clock_start`). Never raises (a store that cannot
    be reached is logged; the next sight records it). Returns: whether their clock counts now."""
    starts = parts.clock_starts
    side = loaded.record.player_index(who.user_id)
    if starts is None or side is None:
        return False
    return await starts.shown_in_app(loaded.stored.game_id, loaded.version, loaded.record, side)


async def signed_in(request: web.Request, kind: RequestKind) -> WebAppIdentity | web.Response:
    """Return the caller's identity, or the answer refusing them: 401 for init data that is missing or untrusted
    (missing: at once; else after the signature's HMAC), 429 for a caller over their rate of ``kind`` requests.
    Each refusal is counted for the summary line, not logged."""
    parts = request.app[PARTS]
    try:
        who = identify(parts, init_data_of(request))
    except AuthError as error:
        request.app[REFUSALS].count(error.failure.value)
        return auth_refusal(error)
    if parts.limiter is not None:
        wait = await parts.limiter.wait(who.user_id, kind)
        if wait > 0:
            request.app[REFUSALS].count(f"rate_limited_{kind.value}", who.user_id)
            return rate_refusal(who.language, wait)
    return who


def refused(request: web.Request, who: WebAppIdentity, status: int, error: str, key: str) -> web.Response:
    """Return the JSON refusal ``error`` with ``status``, its reason the catalogue's text ``key`` in the caller's
    language (made once per language), counted for the summary line (not logged)."""
    request.app[REFUSALS].count(error, who.user_id)
    return web.Response(text=_refusal_body(error, key, who.language), status=status, content_type="application/json")


async def read_body(request: web.Request, limit: int, timeout: float) -> bytes | None:
    """Return the whole body of ``request``, however many packets it comes in; None when it is longer than ``limit``
    bytes (refused by its ``Content-Length`` unread, else read no further than a byte beyond), does not come whole
    within ``timeout`` seconds, or breaks off."""
    if request.content_length is not None and request.content_length > limit:
        return None
    body = bytearray()
    try:
        async with asyncio.timeout(timeout):
            while len(body) <= limit:
                chunk = await request.content.read(limit + 1 - len(body))
                if not chunk:
                    return bytes(body)
                body += chunk
    except (TimeoutError, HttpProcessingError, ConnectionError):
        return None
    return None
