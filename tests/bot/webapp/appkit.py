"""A whole bot on the fake Telegram with the Mini App's server beside it, for the Mini App's tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiogram.types import Chat, User
from aiohttp import TCPConnector
from aiohttp.test_utils import TestClient, TestServer

from bot.keyboards.webapp import WebAppLinks
from bot.services.live import LiveUpdates, LocalLive
from bot.storage import Store
from bot.webapp.parts import WebAppParts
from bot.webapp.server import create_webapp
from tests.bot.e2e.group_play import start_game
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.webapp.initdata import TOKEN, signed_init_data

APP_URL = "https://nardy.example.org/webapp/"


class AppEnv:
    """:class:`~tests.bot.e2e.helpers.Env` with live updates and the Mini App's links, and a test client of the
    Mini App's server on the same services."""

    def __init__(
        self,
        store: Store,
        seed: str = "webapp",
        *,
        live: LiveUpdates | None = None,
        static_dir: Path | None = None,
        clock: Callable[[], float] | None = None,
        socket_refusal_delay: float = 0.0,
        **service: Any,
    ) -> None:
        self.live = live or LocalLive()
        self.links = WebAppLinks(APP_URL, "play", bot_username="nardy_test_bot")
        extra: dict[str, Any] = {"clock": clock, **service} if clock is not None else service
        self.env = Env(store, seeded(seed), live=self.live, links=self.links, **extra)
        parts = WebAppParts(
            token=TOKEN,
            max_age=86400.0,
            views=self.env.service.views,
            actions=self.env.service.actions,
            live=self.live,
            socket_refusal_delay=socket_refusal_delay,  # at once unless a test checks the delay
            clock_starts=self.env.service.boards.clock_starts,
            **({"static_dir": static_dir} if static_dir is not None else {}),
        )
        # no cap on connections: a benchmark keeps hundreds of sockets open
        self.client = TestClient(TestServer(create_webapp_mounted(parts)), connector=TCPConnector(limit=0))

    async def __aenter__(self) -> AppEnv:
        await self.client.start_server()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.client.close()
        await self.env.close()
        await self.live.close()

    async def group_game(self, chat: Chat, alice: User, bob: User, args: str = "short") -> str:
        """Start a game in the group between Alice and Bob; return its id."""
        game_id = await start_game(self.env, chat, alice, bob, args)
        assert game_id is not None
        return game_id

    @staticmethod
    def auth(user: User) -> dict[str, str]:
        """Return the headers of a request signed in as ``user``."""
        return {"Authorization": "tma " + signed_init_data(user.id, user.first_name, language="en")}

    async def get(self, game_id: str, user: User | None, **headers: str) -> tuple[int, dict[str, Any]]:
        """GET the game as ``user`` (None: no init data). Returns: the status and the JSON."""
        sent = self.auth(user) if user is not None else {}
        async with self.client.get(f"/webapp/api/games/{game_id}", headers={**sent, **headers}) as response:
            return response.status, await response.json()

    async def act(self, game_id: str, user: User, body: Any, *, raw: str | None = None) -> tuple[int, dict[str, Any]]:
        """POST an action as ``user`` (``raw``: the body as it is). Returns: the status and the JSON."""
        url = f"/webapp/api/games/{game_id}/actions"
        kwargs: dict[str, Any] = {"data": raw} if raw is not None else {"json": body}
        async with self.client.post(url, headers=self.auth(user), **kwargs) as response:
            data = await response.json()
        await self.env.service.settle()
        return response.status, data


def create_webapp_mounted(parts: WebAppParts) -> Any:
    """Return an application with the Mini App mounted under ``/webapp/`` (as the webhook worker mounts it)."""
    from aiohttp import web

    app = web.Application()
    app.add_subapp("/webapp/", create_webapp(parts))
    return app


async def open_live(app: AppEnv, game_id: str, user: User | None, version: int | None = None, **hello: Any) -> Any:
    """Open the game's live socket signed in as ``user`` (None: no init data), having the state at ``version``.
    Returns: the socket."""
    ws = await app.client.ws_connect(f"/webapp/api/games/{game_id}/live")
    init_data = signed_init_data(user.id, user.first_name) if user is not None else None
    await ws.send_json({"init_data": init_data, "version": version, **hello})
    return ws
