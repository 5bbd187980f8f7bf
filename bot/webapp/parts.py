"""What the Mini App's routes share: their parts, the caller's identity, and the JSON refusals."""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from aiohttp import web

from bot.services.actions import GameActions
from bot.services.clock_start import ClockStarts
from bot.services.game_view import GameViews, VersionViews
from bot.services.live import LiveUpdates
from bot.services.request_limits import RequestLimiter
from bot.services.tournaments.view_model import TournamentViews
from bot.texts import tr
from bot.webapp.auth import AuthError, WebAppIdentity, verify_init_data

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


PARTS: Final = web.AppKey("parts", WebAppParts)
SOCKETS: Final[web.AppKey[set[web.WebSocketResponse]]] = web.AppKey("sockets")
"""The open live sockets, closed when the server stops (so a shutdown does not wait for the clients)."""


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
