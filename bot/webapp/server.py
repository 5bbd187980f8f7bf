"""The Mini App's aiohttp sub-application, mounted under ``/webapp/``: the JSON API, the live socket, the files.

- ``GET  /webapp/api/games/{game_id}``: the game as the caller sees it (:mod:`bot.services.game_view`).
- ``POST /webapp/api/games/{game_id}/actions`` with ``{"version": int, "action": str}``: ``action`` is exactly a
  board button's action string (:func:`bot.model.actions.parse_action`), applied by the same service call as a
  button press (:meth:`bot.services.actions.GameActions.press_outcome`: the same engine checks, the same
  compare-and-set). 200 with the new state; 400 malformed (not exactly that JSON, over :data:`MAX_BODY` bytes, or
  not whole within :data:`BODY_TIMEOUT` seconds: the body is read to its end whatever the packets it comes in); 401
  untrusted; 403 a stranger, a spectator or not your turn; 404 no such game; 409 a stale version (with the current
  state); 422 an action the game refuses now (with the engine's reason); 429 over the caller's rate. A refusal
  changes nothing.
- ``GET  /webapp/api/games/{game_id}/live``: a WebSocket (see :mod:`bot.webapp.live`).
- ``GET  /webapp/api/tournaments/{tournament_id}``: the tournament as any signed-in user sees it
  (:mod:`bot.services.tournaments.view_model`; the chat's card shows the same); 404 no such tournament. With
  ``?version=N`` and the tournament still at version N, ``{"current": true}`` instead: the page polls this every
  few seconds (a tournament changes when a match starts or ends, in whichever worker; a poll needs no publishing
  in the tournament services and costs one read of the record).
- ``GET  /webapp/api/arenas/{arena_id}`` and ``POST .../{join|leave|pause|back}``: an arena's live view and its
  buttons (:mod:`bot.webapp.arenas`).
- ``GET  /webapp/api/lobby``, ``POST /webapp/api/lobby/seek``, ``POST /webapp/api/lobby/cancel``: the "Play"
  screen (:mod:`bot.webapp.lobby`).
- ``GET  /webapp/api/texts?lang=<code>``: the texts the page shows before it has read a game, and the arena's and
  the lobby's (no sign-in).
- ``GET  /webapp/``: ``index.html`` of the front end's build (``bot/webapp/static``, written by ``webapp/``'s
  build), and its other files (from memory, gzipped when accepted, revalidated by ETag:
  :mod:`bot.webapp.assets`); without a build, 404 with a clear message.

Every API request is authenticated by Telegram's signed init data in the ``Authorization: tma <init data>``
header (Telegram's documented convention; :mod:`bot.webapp.auth`). Every answer that is not 200 is JSON
``{"error": code, "reason": text}``, the text from the catalogue in the user's language (English when the init
data could not be read).

Every route does its work cheapest first, so that a flood of bad requests costs little: no (or a malformed)
``Authorization`` is answered 401 at once (no signature computed, no store asked); init data whose signature does
not verify, 401 after the HMAC alone; a signed caller over their rate (:mod:`bot.services.request_limits`: one
bucket per user for actions, one for reads, shared by all workers through the store) 429 with ``Retry-After``
(``{"error": "rate_limited", ...}``) — all before a game is loaded or a view built. Then an action's body is read
and checked, and only then is the game touched; a refused action builds no view unless its answer carries one (the
current state of a 409). Refusals (401, 429, 400) are not logged one by one: they are counted and summed up in one
line a minute (:mod:`bot.webapp.refusals`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator
from typing import Any, Final

from aiohttp import WSCloseCode, web

from bot.model.actions import GameAction, parse_action
from bot.services.actions import PressStatus
from bot.services.game_view import GameView
from bot.services.request_limits import RequestKind
from bot.texts import norm_lang, tr
from bot.webapp.arenas import add_arena_routes
from bot.webapp.assets import Asset, asset_response, load_assets
from bot.webapp.auth import WebAppIdentity
from bot.webapp.live import live_socket
from bot.webapp.lobby import add_lobby_routes
from bot.webapp.parts import (
    PARTS,
    REFUSALS,
    SOCKETS,
    WebAppParts,
    error_response,
    read_body,
    shown_to,
    signed_in,
)
from bot.webapp.refusals import RefusalSummary
from bot.webapp_texts import WEBAPP_TEXTS

log = logging.getLogger(__name__)

ASSETS: Final[web.AppKey[dict[str, Asset]]] = web.AppKey("assets")
"""The front end's files by name (:mod:`bot.webapp.assets`), read when the server is made."""

MAX_BODY: Final = 4096
"""The largest action request accepted, in bytes."""
BODY_TIMEOUT: Final = 10.0
"""Seconds an action's body has to arrive whole once its headers are in."""


async def get_game(request: web.Request) -> web.Response:
    """Return the game as the caller sees it (200), or 401/404/429."""
    who = await signed_in(request, RequestKind.READ)
    if isinstance(who, web.Response):
        return who
    parts = request.app[PARTS]
    game_id = request.match_info["game_id"]
    view = await _shown_view(parts, who, game_id)
    if view is None:
        return error_response(404, "not_found", str(tr(who.language, "webapp.not_found")))
    return web.json_response(view.to_json())


async def _shown_view(parts: WebAppParts, who: WebAppIdentity, game_id: str) -> GameView | None:
    """Return the game as ``who`` sees it (None: no such game, or it cannot be shown), as the app is about to show it
    to them: their clock starts when it waited for them to see their action (:func:`shown_to`). Raises:
    StoreUnavailableError."""
    loaded = await parts.views.read(game_id)
    if loaded is not None and await shown_to(parts, who, loaded):
        loaded = await parts.views.read(game_id)  # their clock started just now: the view shows it running
    return None if loaded is None else loaded.view(loaded.key(who.user_id, who.language))


async def _read_body(request: web.Request) -> bytes | None:
    """Return the whole body of an action's request (:func:`~bot.webapp.parts.read_body` within :data:`MAX_BODY`
    bytes and :data:`BODY_TIMEOUT` seconds), or None."""
    return await read_body(request, MAX_BODY, BODY_TIMEOUT)


def _read_action(body: Any) -> tuple[int, str] | None:
    """Return ``(version, action)`` of a request body, or None when it is not exactly that."""
    if not isinstance(body, dict) or set(body) != {"version", "action"}:
        return None
    version, action = body["version"], body["action"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 0 or not isinstance(action, str):
        return None
    return version, action


_STATUS: Final = {
    PressStatus.GONE: 404,
    PressStatus.NOT_PLAYER: 403,
    PressStatus.NOT_TURN: 403,
    PressStatus.STALE: 409,
    PressStatus.ILLEGAL: 422,
}


async def _action_of(request: web.Request) -> tuple[int, GameAction] | None:
    """Return the version and the action of the request's body, or None when the body is not exactly that (too
    long, cut off, not JSON, not UTF-8, nested beyond reason, other fields or types, an action string that is no
    button's)."""
    raw = await _read_body(request)
    if raw is None:
        return None
    try:
        fields = _read_action(json.loads(raw))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if fields is None:
        return None
    version, text = fields
    action = parse_action(text)
    return None if action is None else (version, action)


async def post_action(request: web.Request) -> web.Response:
    """Apply one action of the caller (see the module docstring) and return the answer."""
    who = await signed_in(request, RequestKind.ACTION)
    if isinstance(who, web.Response):
        return who
    parts = request.app[PARTS]
    lang = who.language
    game_id = request.match_info["game_id"]
    fields = await _action_of(request)
    if fields is None:
        request.app[REFUSALS].count("bad_request", who.user_id)
        return error_response(400, "bad_request", str(tr(lang, "webapp.bad_request")))
    version, action = fields
    outcome = await parts.actions.press_outcome(game_id, version, action, who.user_id, lang)
    if outcome.status is PressStatus.DONE:
        view = await _shown_view(parts, who, game_id)
        if view is None:
            return error_response(404, "not_found", str(tr(lang, "webapp.not_found")))
        return web.json_response(view.to_json())
    status = _STATUS.get(outcome.status, 422)
    payload: dict[str, Any] = {"error": outcome.status.value, "reason": outcome.reason or outcome.text}
    if outcome.status is PressStatus.GONE and await parts.views.version(game_id) is not None:
        status = 422  # a finished game: it is there, the action is not
    elif status == 409 and (view := await _shown_view(parts, who, game_id)) is not None:
        payload["state"] = view.to_json()  # how the app catches up
    return web.json_response(payload, status=status)


async def get_tournament(request: web.Request) -> web.Response:
    """Return the tournament as the caller sees it (200), ``{"current": true}`` when the caller's ``?version=``
    is still the stored one, or 401/404/429."""
    who = await signed_in(request, RequestKind.READ)
    if isinstance(who, web.Response):
        return who
    parts = request.app[PARTS]
    tournament_id = request.match_info["tournament_id"]
    missing = error_response(404, "not_found", str(tr(who.language, "webapp.tour.not_found")))
    if parts.tournaments is None:
        return missing
    known = request.query.get("version", "")
    if (
        known.isascii()
        and known.isdigit()
        and len(known) <= 18
        and await parts.tournaments.version(tournament_id) == int(known)
    ):
        return web.json_response({"current": True})
    view = await parts.tournaments.view(tournament_id, who.user_id, who.language)
    if view is None:
        return missing
    return web.json_response(view.to_json())


async def index(request: web.Request) -> web.Response:
    """Return the front end's ``index.html``, or 404 with a clear message when it is not built."""
    page = request.app[ASSETS].get("index.html")
    if page is None:
        return web.Response(
            status=404, text="The Mini App's front end is not built: bot/webapp/static/index.html is missing.\n"
        )
    return asset_response(request, page)


async def static_file(request: web.Request) -> web.Response:
    """Return one file of the front end's build (gzipped when accepted), or 404."""
    asset = request.app[ASSETS].get(request.match_info["name"])
    if asset is None:
        raise web.HTTPNotFound()
    return asset_response(request, asset)


PAGE_TEXT_KEYS: Final = ("webapp.no_game", *WEBAPP_TEXTS)
"""The catalogue's texts the page shows before it has read a game, and those of the arena view and the "Play"
screen (:mod:`bot.webapp_texts`; a game's and a tournament's other texts come with their views)."""


@functools.lru_cache(maxsize=16)
def _page_texts(lang: str) -> str:
    """Return the JSON of the page's texts in ``lang``, made once per language."""
    return json.dumps({key: str(tr(lang, key)) for key in PAGE_TEXT_KEYS}, ensure_ascii=False)


async def page_texts(request: web.Request) -> web.Response:
    """Return the page's texts (:data:`PAGE_TEXT_KEYS`) in the language of ``?lang=`` (the bot's default for an
    unknown one), as JSON; no sign-in is needed (they are the catalogue's, cached by the client for an hour)."""
    body = _page_texts(norm_lang(request.query.get("lang")))
    return web.Response(text=body, content_type="application/json", headers={"Cache-Control": "public, max-age=3600"})


def create_webapp(parts: WebAppParts) -> web.Application:
    """Return the Mini App's sub-application (mount it with ``app.add_subapp("/webapp/", ...)``)."""
    app = web.Application(client_max_size=MAX_BODY)
    app[PARTS] = parts
    sockets: set[web.WebSocketResponse] = set()
    app[SOCKETS] = sockets

    async def close_sockets(_app: web.Application) -> None:
        for ws in list(sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    app.on_shutdown.append(close_sockets)
    refusals = RefusalSummary(interval=parts.refusal_log_interval)
    app[REFUSALS] = refusals

    async def summarise_refusals(_app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(refusals.run(), name="nardy-webapp-refusals")
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        refusals.flush()

    app.cleanup_ctx.append(summarise_refusals)
    app.router.add_get("/api/games/{game_id}", get_game)
    app.router.add_post("/api/games/{game_id}/actions", post_action)
    app.router.add_get("/api/games/{game_id}/live", live_socket)
    app.router.add_get("/api/tournaments/{tournament_id}", get_tournament)
    add_arena_routes(app)
    add_lobby_routes(app)
    app.router.add_get("/api/texts", page_texts)
    app[ASSETS] = load_assets(parts.static_dir)
    app.router.add_get("/", index)
    app.router.add_get("/{name}", static_file)
    return app
