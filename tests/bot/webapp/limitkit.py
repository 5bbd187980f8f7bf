"""Mini App servers with per-user limits, for the tests of the API under abuse: a server (a "worker") on the services
of an :class:`~tests.bot.webapp.appkit.AppEnv` with a limiter on a store of the test's choosing and a clock moved by
hand, requests that return their headers too, a store that fails the test when it is asked anything, and a spy on
a service's coroutine."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram.types import User
from aiohttp import ClientSession, ClientWebSocketResponse, web
from multidict import CIMultiDictProxy

from bot.services.request_limits import RequestKind, RequestLimiter
from bot.services.tournaments.view_model import TournamentViews
from bot.storage import RateBuckets, RateLimit
from bot.webapp.parts import WebAppParts
from bot.webapp.server import create_webapp
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import TOKEN, signed_init_data

ACTIONS = RateLimit(rate=0.5, burst=3)
"""Three actions at once, then one every two seconds."""
READS = RateLimit(rate=0.5, burst=4)
"""Four reads at once, then one every two seconds."""


class Clock:
    """A wall clock moved by hand (starting at the real time, so Redis keeps the buckets' keys as it would)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def limiter(
    store: RateBuckets, clock: Clock, *, actions: RateLimit = ACTIONS, reads: RateLimit = READS
) -> RequestLimiter:
    """Return the limits of a worker on ``store`` (each worker has its own limiter, as each process has)."""
    return RequestLimiter(store, {RequestKind.ACTION: actions, RequestKind.READ: reads}, clock=clock)


def parts_of(app: AppEnv, **extra: Any) -> WebAppParts:
    """Return the Mini App's parts on the services of ``app`` (as :func:`bot.wiring.webapp_parts` builds them), with
    ``extra`` fields (``limiter``, ``refusal_log_interval``)."""
    services = app.env.service
    return WebAppParts(
        token=TOKEN,
        max_age=86400.0,
        views=services.views,
        actions=services.actions,
        live=app.live,
        tournaments=TournamentViews(services.tournaments.records),
        **{"socket_refusal_delay": 0.0, **extra},
    )


Answer = tuple[int, CIMultiDictProxy[str], dict[str, Any]]
"""A response's status, headers and JSON."""


class Worker:
    """One Mini App server on ``parts``, mounted under ``/webapp/`` as a worker mounts it and served as a worker
    serves it (an ``AppRunner``: a handler is not cancelled when its client goes away, unlike aiohttp's test
    server's), on a port of 127.0.0.1, with a client session."""

    def __init__(self, parts: WebAppParts) -> None:
        self.webapp = create_webapp(parts)
        root = web.Application()
        root.add_subapp("/webapp/", self.webapp)
        self.runner = web.AppRunner(root, handle_signals=False, shutdown_timeout=1.0)
        self.host = "127.0.0.1"
        self.port = 0
        self.session: ClientSession | None = None

    async def __aenter__(self) -> Worker:
        await self.runner.setup()
        await web.TCPSite(self.runner, self.host, 0).start()
        self.port = int(self.runner.addresses[0][1])
        self.session = ClientSession(f"http://{self.host}:{self.port}")
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self.session is not None:
            await self.session.close()
        await self.runner.cleanup()

    async def call(self, method: str, path: str, *, headers: dict[str, str] | None = None, **kwargs: Any) -> Answer:
        """Send a request to ``/webapp/<path>``. Returns: the status, the headers and the JSON of the answer."""
        assert self.session is not None, "use the worker in an async with block"
        async with self.session.request(method, f"/webapp/{path}", headers=headers or {}, **kwargs) as response:
            return response.status, response.headers, await response.json()

    async def get(self, game_id: str, user: User) -> Answer:
        """GET the game signed in as ``user``."""
        return await self.call("GET", f"api/games/{game_id}", headers=auth(user))

    async def act(self, game_id: str, user: User, version: int, action: str) -> Answer:
        """POST an action signed in as ``user``."""
        body = {"version": version, "action": action}
        return await self.call("POST", f"api/games/{game_id}/actions", headers=auth(user), json=body)

    def live(self, game_id: str, user: User) -> Any:
        """Return a context opening the game's live socket signed in as ``user``, its first message sent."""
        assert self.session is not None, "use the worker in an async with block"
        session = self.session

        @contextlib.asynccontextmanager
        async def opened() -> AsyncIterator[ClientWebSocketResponse]:
            async with session.ws_connect(f"/webapp/api/games/{game_id}/live") as ws:
                init_data = signed_init_data(user.id, user.first_name, language=user.language_code or "en")
                await ws.send_json({"init_data": init_data, "version": None})
                yield ws

        return opened()

    async def tournament(self, tournament_id: str, user: User) -> Answer:
        """GET the tournament signed in as ``user``."""
        return await self.call("GET", f"api/tournaments/{tournament_id}", headers=auth(user))


def auth(user: User) -> dict[str, str]:
    """Return the headers of a request signed in as ``user`` (in the user's language)."""
    init_data = signed_init_data(user.id, user.first_name, language=user.language_code or "en")
    return {"Authorization": "tma " + init_data}


class UntouchableStore:
    """A store double: every operation it is asked for is recorded in :attr:`calls` and fails."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)

        async def touched(*_args: Any, **_kwargs: Any) -> Any:
            self.calls.append(name)
            raise AssertionError(f"the store was asked for {name}")

        return touched


def spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[tuple[Any, ...]]:
    """Record every call of ``owner.name`` (still made). Returns: the list the calls' arguments go to."""
    calls: list[tuple[Any, ...]] = []
    real = getattr(owner, name)

    async def recorded(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return await real(*args, **kwargs)

    monkeypatch.setattr(owner, name, recorded)
    return calls
