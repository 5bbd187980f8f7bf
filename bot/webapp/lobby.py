"""The Mini App's lobby routes: the "Play" screen.

- ``GET  /webapp/api/lobby``: where the caller stands (:class:`~bot.webapp.ports.LobbyPort`'s status JSON) with the
  server's time ``now`` (the page counts the wait and a cool-down on its own clock corrected by it), the rating
  window while seeking (``window``, ± points; null: any rating) and the ``choices`` of the screen (the variants the
  lobby offers with their names in the caller's language, and the usual clocks). The page asks every
  :data:`POLL_SECONDS` while it seeks and is shown.
- ``POST /webapp/api/lobby/seek`` with exactly ``{"variant": str, "clock": "D+r"}``: seek an opponent; 200 with the
  status, and the service's refusal as ``toast`` (a cool-down, a running game or a seek already made are told there
  and in the status: ``cooldown_until``, ``state``); 400 when the body is not exactly that (over
  :data:`MAX_SEEK_BODY` bytes, not JSON, a variant the lobby does not offer, a clock that is not a valid ``D+r``).
- ``POST /webapp/api/lobby/cancel``: withdraw the seek; 200 with the status (the body, if any, is not read), and a
  ``toast`` when it is too late (the seek was just paired: the game comes).

Refusals as the other routes (:mod:`bot.webapp.server`): 401 untrusted, 429 over the caller's rate, 404 when the bot
has no lobby; a malformed body is refused before the lobby is asked anything.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any, Final

from aiohttp import web

from bot.model.clock import ClockError, TimeControl
from bot.model.game import PlayerInfo
from bot.services.request_limits import RequestKind
from bot.texts import tr
from bot.variants import KINDS, OFFERED
from bot.webapp.auth import WebAppIdentity
from bot.webapp.parts import PARTS, WebAppParts, read_body, refused, signed_in
from bot.webapp.ports import LobbyPort

LOBBY_VARIANTS: Final = tuple(v for v in OFFERED if v not in KINDS)
"""The games one can seek in the lobby: every variant the bot offers; a lobby game is one game, so the kinds of
match whose games rotate variants (Tavli, the mixed match) are not among them."""
LOBBY_CLOCKS: Final = ("12+2", "8+1", "15+3", "20+5")
"""The clocks the screen offers (the first is the default: the standard backgammon clock of the issue); any valid
``D+r`` is accepted."""
MAX_SEEK_BODY: Final = 256
"""The largest seek body accepted, in bytes (``{"variant": "acey_deucey", "clock": "12+2"}`` is 43)."""
BODY_TIMEOUT: Final = 10.0
"""Seconds a seek's body has to arrive whole once its headers are in."""
POLL_SECONDS: Final = 2.0
"""How often the page asks for the status while it seeks (documented here; the page's own constant)."""


def _lobby_of(request: web.Request, who: WebAppIdentity) -> LobbyPort | web.Response:
    """Return the lobby service, or the 404 refusing the request when the bot has none."""
    lobby = request.app[PARTS].lobby
    if lobby is None:
        return refused(request, who, 404, "not_found", "webapp.play.unavailable")
    return lobby


@functools.lru_cache(maxsize=8)
def choices(lang: str) -> dict[str, Any]:
    """Return the screen's choices in ``lang``: ``{"variants": [{"id", "name"}], "clocks": [...]}`` (made once)."""
    variants = [{"id": v, "name": str(tr(lang, f"variant.{v}"))} for v in LOBBY_VARIANTS]
    return {"variants": variants, "clocks": list(LOBBY_CLOCKS)}


async def _status(parts: WebAppParts, lobby: LobbyPort, who: WebAppIdentity) -> dict[str, Any]:
    """Return the caller's status as the page reads it: the service's JSON, ``now``, ``window`` while seeking
    (when the service does not give it and the parts have a rating window) and the ``choices``.
    Raises: StoreUnavailableError."""
    body = (await lobby.status(who.user_id)).to_json()
    now = parts.clock()
    body["now"] = now
    since = body.get("since")
    if (
        body.get("state") == "seeking"
        and "window" not in body
        and parts.rating_window is not None
        and isinstance(since, (int, float))
    ):
        window = parts.rating_window(max(0.0, now - since))
        body["window"] = None if math.isinf(window) else round(window)
    body["choices"] = choices(who.language)
    return body


async def get_lobby(request: web.Request) -> web.Response:
    """Return where the caller stands in the lobby (200), or 401/404/429."""
    who = await signed_in(request, RequestKind.READ)
    if isinstance(who, web.Response):
        return who
    lobby = _lobby_of(request, who)
    if isinstance(lobby, web.Response):
        return lobby
    return web.json_response(await _status(request.app[PARTS], lobby, who), headers={"Cache-Control": "no-store"})


async def _seek_body(request: web.Request) -> tuple[str, TimeControl] | None:
    """Return ``(variant, clock)`` of a seek's body, or None when it is not exactly ``{"variant", "clock"}``
    with a variant of :data:`LOBBY_VARIANTS` and a valid clock (or too long, cut off, slow, not JSON)."""
    raw = await read_body(request, MAX_SEEK_BODY, BODY_TIMEOUT)
    if raw is None:
        return None
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(body, dict) or set(body) != {"variant", "clock"}:
        return None
    variant, clock = body["variant"], body["clock"]
    if not isinstance(variant, str) or variant not in LOBBY_VARIANTS or not isinstance(clock, str) or len(clock) > 16:
        return None
    try:
        return variant, TimeControl.parse(clock)
    except ClockError:
        return None


async def post_seek(request: web.Request) -> web.Response:
    """Seek an opponent for the caller (200 with the status and the service's ``toast``), or 400/401/404/429."""
    who = await signed_in(request, RequestKind.ACTION)
    if isinstance(who, web.Response):
        return who
    lobby = _lobby_of(request, who)
    if isinstance(lobby, web.Response):
        return lobby
    seek = await _seek_body(request)
    if seek is None:
        return refused(request, who, 400, "bad_request", "webapp.play.bad_seek")
    variant, clock = seek
    outcome = await lobby.seek(PlayerInfo(id=who.user_id, name=who.name, lang=who.language), variant, clock)
    body = await _status(request.app[PARTS], lobby, who)
    if outcome.text:
        body["toast"] = str(outcome.text)
    return web.json_response(body, headers={"Cache-Control": "no-store"})


async def post_cancel(request: web.Request) -> web.Response:
    """Withdraw the caller's seek (200 with the status), or 401/404/429."""
    who = await signed_in(request, RequestKind.ACTION)
    if isinstance(who, web.Response):
        return who
    lobby = _lobby_of(request, who)
    if isinstance(lobby, web.Response):
        return lobby
    cancelled = await lobby.cancel(who.user_id)
    body = await _status(request.app[PARTS], lobby, who)
    if cancelled == "found":  # too late: the pair stands, the board comes
        body["toast"] = str(tr(who.language, "lobby.cancel_too_late"))
    return web.json_response(body, headers={"Cache-Control": "no-store"})


def add_lobby_routes(app: web.Application) -> None:
    """Add the lobby's routes to the Mini App's sub-application. Returns nothing."""
    app.router.add_get("/api/lobby", get_lobby)
    app.router.add_post("/api/lobby/seek", post_seek)
    app.router.add_post("/api/lobby/cancel", post_cancel)
