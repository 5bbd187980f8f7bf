"""The Mini App's arena routes: the arena's live view and its buttons.

- ``GET  /webapp/api/arenas/{arena_id}``: the arena as the caller sees it (:class:`~bot.webapp.ports.ArenaPort`'s
  view JSON), with an ``ETag`` of the arena record's version. With ``If-None-Match`` naming that version, 304 and no
  body: the page polls this every few seconds while it is shown, and an unchanged arena costs one read of its
  version (no view is built, nothing is sent). 404 no such arena.
- ``POST /webapp/api/arenas/{arena_id}/{join|leave|pause|back}``: the caller joins, leaves, pauses or comes back
  (``back`` is the service's ``resume``); 200 with the arena's view and the service's ``toast``. The body, if any,
  is not read. A join is refused (in the toast) to a caller who is not a member of the arena's group: the app's
  link ``startapp=arena_<id>`` may be forwarded anywhere (``getChatMember``, :attr:`WebAppParts.arena_members`).

Refusals as the other routes (:mod:`bot.webapp.server`): 401 untrusted, 429 over the caller's rate (reads for the
view, actions for the buttons), then an id that is not an arena id's shape is 404 at once (no store asked). The
live socket of a game does not fit an arena: an arena changes in whichever worker a game of it ends, and a
conditional poll needs no publishing by the arena service.
"""

from __future__ import annotations

import re
from typing import Any, Final

from aiohttp import web

from bot.model.game import PlayerInfo
from bot.services.request_limits import RequestKind
from bot.webapp.auth import WebAppIdentity
from bot.webapp.parts import PARTS, refused, signed_in
from bot.webapp.ports import ArenaPort

ARENA_ID: Final = re.compile(r"[A-Za-z0-9_-]{10}")
"""The shape of an arena's id (a tournament record's id: :func:`bot.storage.ids.new_id`)."""
ACTIONS: Final = ("join", "leave", "pause", "back")
"""The arena's buttons, as the last part of their route."""


def etag(version: int) -> str:
    """Return the ``ETag`` of the arena's view at ``version`` of its record."""
    return f'"a{version}"'


def _matches(request: web.Request, tag: str) -> bool:
    """Return whether the request's ``If-None-Match`` names ``tag`` (or ``*``)."""
    header = request.headers.get("If-None-Match", "")
    return any(part.strip() in (tag, f"W/{tag}", "*") for part in header.split(",")) if header else False


async def _arena_of(request: web.Request, who: WebAppIdentity) -> tuple[ArenaPort, str, int] | web.Response:
    """Return the arena service, the arena's id and its version, or the 404 refusing the request (an id of the
    wrong shape: without asking the store; no arena service; no such arena). Raises: StoreUnavailableError."""
    arena_id = request.match_info["arena_id"]
    arenas = request.app[PARTS].arenas
    if ARENA_ID.fullmatch(arena_id) is None:
        return refused(request, who, 404, "bad_id", "webapp.arena.not_found")
    version = None if arenas is None else await arenas.version(arena_id)
    if arenas is None or version is None:
        return refused(request, who, 404, "not_found", "webapp.arena.not_found")
    return arenas, arena_id, version


def _answer(body: dict[str, Any], version: int) -> web.Response:
    """Return the view's JSON, tagged with its version (revalidated on every poll, kept by no shared cache)."""
    return web.json_response(body, headers={"ETag": etag(version), "Cache-Control": "private, no-cache"})


async def get_arena(request: web.Request) -> web.StreamResponse:
    """Return the arena as the caller sees it (200), 304 when the caller's ``If-None-Match`` is its version, or
    401/404/429."""
    who = await signed_in(request, RequestKind.READ)
    if isinstance(who, web.Response):
        return who
    found = await _arena_of(request, who)
    if isinstance(found, web.Response):
        return found
    arenas, arena_id, version = found
    if _matches(request, etag(version)):
        return web.Response(status=304, headers={"ETag": etag(version), "Cache-Control": "private, no-cache"})
    view = await arenas.view(arena_id, who.user_id, who.language)
    if view is None:
        return refused(request, who, 404, "not_found", "webapp.arena.not_found")
    return _answer(view.to_json(), version)


async def post_arena_action(request: web.Request) -> web.Response:
    """Apply one of the arena's buttons for the caller and return the arena's view with the service's ``toast``
    (200), or 401/404/429."""
    who = await signed_in(request, RequestKind.ACTION)
    if isinstance(who, web.Response):
        return who
    action = request.match_info["action"]
    if action not in ACTIONS:
        return refused(request, who, 404, "bad_action", "webapp.arena.not_found")
    found = await _arena_of(request, who)
    if isinstance(found, web.Response):
        return found
    arenas, arena_id, _ = found
    user = PlayerInfo(id=who.user_id, name=who.name, lang=who.language)
    if action == "join":
        toast = await arenas.join(arena_id, user, is_member=request.app[PARTS].arena_members)
    else:
        press = {"leave": arenas.leave, "pause": arenas.pause, "back": arenas.resume}[action]
        toast = await press(arena_id, user)
    version = await arenas.version(arena_id)
    view = await arenas.view(arena_id, who.user_id, who.language)
    if view is None or version is None:
        return refused(request, who, 404, "not_found", "webapp.arena.not_found")
    return _answer({**view.to_json(), "toast": toast}, version)


def add_arena_routes(app: web.Application) -> None:
    """Add the arena's routes to the Mini App's sub-application. Returns nothing."""
    app.router.add_get("/api/arenas/{arena_id}", get_arena)
    app.router.add_post("/api/arenas/{arena_id}/{action}", post_arena_action)
