"""The Mini App's aiohttp sub-application, mounted under ``/webapp/``: the JSON API, the live socket, the files.

- ``GET  /webapp/api/games/{game_id}``: the game as the caller sees it (:mod:`bot.services.game_view`).
- ``POST /webapp/api/games/{game_id}/actions`` with ``{"version": int, "action": str}``: ``action`` is exactly a
  board button's action string (:func:`bot.model.actions.parse_action`), applied by the same service call as a
  button press (:meth:`bot.services.actions.GameActions.press_outcome`: the same engine checks, the same
  compare-and-set). 200 with the new state; 400 malformed; 401 untrusted; 403 a stranger, a spectator or not your
  turn; 404 no such game; 409 a stale version (with the current state); 422 an action the game refuses now (with
  the engine's reason). A refusal changes nothing.
- ``GET  /webapp/api/games/{game_id}/live``: a WebSocket (see :mod:`bot.webapp.live`).
- ``GET  /webapp/api/tournaments/{tournament_id}``: the tournament as any signed-in user sees it
  (:mod:`bot.services.tournament_view`; the chat's card shows the same); 404 no such tournament. With
  ``?version=N`` and the tournament still at version N, ``{"current": true}`` instead: the page polls this every
  few seconds (a tournament changes when a match starts or ends, in whichever worker; a poll needs no publishing
  in the tournament services and costs one read of the record).
- ``GET  /webapp/``: ``index.html`` of the front end's build (``bot/webapp/static``, written by ``webapp/``'s
  build), and its other files (from memory, gzipped when accepted, revalidated by ETag:
  :mod:`bot.webapp.assets`); without a build, 404 with a clear message.

Every API request is authenticated by Telegram's signed init data in the ``Authorization: tma <init data>``
header (Telegram's documented convention; :mod:`bot.webapp.auth`). Every answer that is not 200 is JSON
``{"error": code, "reason": text}``, the text from the catalogue in the user's language (English when the init
data could not be read).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

from aiohttp import WSCloseCode, web

from bot.model.actions import parse_action
from bot.services.actions import PressStatus
from bot.texts import tr
from bot.webapp.assets import Asset, asset_response, load_assets
from bot.webapp.auth import AuthError
from bot.webapp.live import live_socket
from bot.webapp.parts import PARTS, SOCKETS, WebAppParts, auth_refusal, error_response, identify, init_data_of

log = logging.getLogger(__name__)

ASSETS: Final[web.AppKey[dict[str, Asset]]] = web.AppKey("assets")
"""The front end's files by name (:mod:`bot.webapp.assets`), read when the server is made."""

MAX_BODY: Final = 4096
"""The largest action request accepted, in bytes."""


async def get_game(request: web.Request) -> web.Response:
    """Return the game as the caller sees it (200), or 401/404."""
    parts = request.app[PARTS]
    try:
        who = identify(parts, init_data_of(request))
    except AuthError as error:
        return auth_refusal(error)
    game_id = request.match_info["game_id"]
    view = await parts.views.view(game_id, who.user_id, who.language)
    if view is None:
        return error_response(404, "not_found", str(tr(who.language, "webapp.not_found")))
    return web.json_response(view.to_json())


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


async def post_action(request: web.Request) -> web.Response:
    """Apply one action of the caller (see the module docstring) and return the answer."""
    parts = request.app[PARTS]
    try:
        who = identify(parts, init_data_of(request))
    except AuthError as error:
        return auth_refusal(error)
    lang = who.language
    game_id = request.match_info["game_id"]
    bad = error_response(400, "bad_request", str(tr(lang, "webapp.bad_request")))
    if request.content_length is not None and request.content_length > MAX_BODY:
        return bad
    try:
        raw = await request.content.read(MAX_BODY + 1)
        if len(raw) > MAX_BODY:
            return bad
        fields = _read_action(json.loads(raw))
    except (ValueError, UnicodeDecodeError):
        return bad
    if fields is None:
        return bad
    version, text = fields
    action = parse_action(text)
    if action is None:
        return bad
    outcome = await parts.actions.press_outcome(game_id, version, action, who.user_id, lang)
    view = await parts.views.view(game_id, who.user_id, lang)
    if outcome.status is PressStatus.DONE:
        if view is None:
            return error_response(404, "not_found", str(tr(lang, "webapp.not_found")))
        return web.json_response(view.to_json())
    status = _STATUS.get(outcome.status, 422)
    if outcome.status is PressStatus.GONE and view is not None:
        status = 422  # a finished game: it is there, the action is not
    reason = outcome.reason or outcome.text
    payload: dict[str, Any] = {"error": outcome.status.value, "reason": reason}
    if status == 409 and view is not None:
        payload["state"] = view.to_json()
    return web.json_response(payload, status=status)


async def get_tournament(request: web.Request) -> web.Response:
    """Return the tournament as the caller sees it (200), ``{"current": true}`` when the caller's ``?version=``
    is still the stored one, or 401/404."""
    parts = request.app[PARTS]
    try:
        who = identify(parts, init_data_of(request))
    except AuthError as error:
        return auth_refusal(error)
    tournament_id = request.match_info["tournament_id"]
    missing = error_response(404, "not_found", str(tr(who.language, "webapp.tour.not_found")))
    if parts.tournaments is None:
        return missing
    known = request.query.get("version", "")
    if known.isdigit() and await parts.tournaments.version(tournament_id) == int(known):
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
    app.router.add_get("/api/games/{game_id}", get_game)
    app.router.add_post("/api/games/{game_id}/actions", post_action)
    app.router.add_get("/api/games/{game_id}/live", live_socket)
    app.router.add_get("/api/tournaments/{tournament_id}", get_tournament)
    app[ASSETS] = load_assets(parts.static_dir)
    app.router.add_get("/", index)
    app.router.add_get("/{name}", static_file)
    return app
