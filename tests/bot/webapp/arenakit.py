"""Fakes of the arena and lobby services as the Mini App sees them (:mod:`bot.webapp.ports`), and a Mini App server
on them beside a whole bot (:class:`ArenaAppEnv`), for the API tests and the browser tests of the arena view and the
"Play" screen."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram.types import User
from aiohttp.test_utils import TestClient, TestServer
from multidict import CIMultiDictProxy

from bot.model.clock import TimeControl
from bot.model.game import PlayerInfo
from bot.storage import Store
from bot.webapp.parts import WebAppParts
from bot.webapp.ports import ArenaPort, LobbyPort
from tests.bot.webapp.appkit import AppEnv, create_webapp_mounted
from tests.bot.webapp.initdata import TOKEN, signed_init_data

ARENA_ID = "arena00001"


@dataclass
class Row:
    """One player of a fake arena: what the leaderboard shows of them."""

    id: str
    name: str
    score: int = 0
    fire: bool = False
    sheet: list[dict[str, Any]] = field(default_factory=list)
    paused: bool = False
    withdrawn: bool = False
    playing: str | None = None


@dataclass
class FakeArena:
    """An arena's state as the fake keeps it."""

    title: str
    ends_at: float
    rows: list[Row] = field(default_factory=list)
    version: int = 1
    finished: bool = False
    variant: str = "short"
    clock: str = "12+2"


@dataclass(frozen=True)
class JsonOf:
    """A view that is its JSON."""

    body: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """Return the JSON."""
        return self.body


def sheet(*games: tuple[int, bool, bool]) -> list[dict[str, Any]]:
    """Return a score sheet of ``(points, fire, berserk)`` games (a win when points > 0)."""
    return [{"points": p, "fire": f, "berserk": b, "won": p > 0} for p, f, b in games]


class FakeArenas:
    """The arena service (:class:`~bot.webapp.ports.ArenaPort`) on a dict, counting what it is asked."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.arenas: dict[str, FakeArena] = {}
        self.clock = clock
        self.calls: list[tuple[str, str, Any]] = []

    def add(self, arena_id: str, arena: FakeArena) -> FakeArena:
        """Hold ``arena`` under ``arena_id``. Returns: it."""
        self.arenas[arena_id] = arena
        return arena

    def change(self, arena_id: str, edit: Callable[[FakeArena], None]) -> None:
        """Apply ``edit`` to the arena and bump its version (as a stored change does)."""
        arena = self.arenas[arena_id]
        edit(arena)
        arena.version += 1

    async def version(self, arena_id: str) -> int | None:
        self.calls.append(("version", arena_id, None))
        arena = self.arenas.get(arena_id)
        return None if arena is None else arena.version

    async def view(self, arena_id: str, viewer_id: int, lang: str | None = None) -> JsonOf | None:
        self.calls.append(("view", arena_id, (viewer_id, lang)))
        arena = self.arenas.get(arena_id)
        if arena is None:
            return None
        ranked = sorted(arena.rows, key=lambda r: (-r.score, r.id))
        players = [
            {
                "id": int(r.id),
                "name": r.name,
                "rank": rank,
                "score": r.score,
                "fire": r.fire,
                "sheet": r.sheet,
                "games": len(r.sheet),
                "paused": r.paused,
                "withdrawn": r.withdrawn,
                "playing": r.playing is not None,
            }
            for rank, r in enumerate(ranked, 1)
        ]
        mine = next((r for r in arena.rows if r.id == str(viewer_id)), None)
        me = {
            "joined": mine is not None and not mine.withdrawn,
            "paused": mine is not None and mine.paused,
            "game": None if mine is None else mine.playing,
        }
        return JsonOf(
            {
                "id": arena_id,
                "title": arena.title,
                "variant": arena.variant,
                "clock": arena.clock,
                "ends_at": arena.ends_at,
                "now": self.clock(),
                "finished": arena.finished,
                "players": players,
                "me": me,
            }
        )

    def _row(self, arena_id: str, user: PlayerInfo) -> Row | None:
        return next((r for r in self.arenas[arena_id].rows if r.id == str(user.id)), None)

    async def join(self, arena_id: str, user: PlayerInfo, *, is_member: Any = None) -> str:
        self.calls.append(("join", arena_id, user))
        row = self._row(arena_id, user)

        def edit(arena: FakeArena) -> None:
            if row is None:
                arena.rows.append(Row(str(user.id), user.name))
            else:
                row.withdrawn = False

        self.change(arena_id, edit)
        return f"{user.name} joined"

    async def leave(self, arena_id: str, user: PlayerInfo) -> str:
        self.calls.append(("leave", arena_id, user))
        row = self._row(arena_id, user)
        if row is not None:
            self.change(arena_id, lambda _: setattr(row, "withdrawn", True))
        return "left"

    async def pause(self, arena_id: str, user: PlayerInfo) -> str:
        self.calls.append(("pause", arena_id, user))
        row = self._row(arena_id, user)
        if row is not None:
            self.change(arena_id, lambda _: setattr(row, "paused", True))
        return "paused"

    async def resume(self, arena_id: str, user: PlayerInfo) -> str:
        self.calls.append(("resume", arena_id, user))
        row = self._row(arena_id, user)
        if row is not None:
            self.change(arena_id, lambda _: setattr(row, "paused", False))
        return "back"

    def asked(self, kind: str) -> int:
        """Return how many times the fake was asked ``kind`` (``version``, ``view``, ``join`` ...)."""
        return sum(1 for call in self.calls if call[0] == kind)


@dataclass(frozen=True)
class Said:
    """What became of a fake seek: the refusal's text ("" when taken)."""

    text: str


@dataclass
class Seat:
    """A user's place in the fake lobby."""

    state: str = "idle"
    since: float | None = None
    variant: str | None = None
    clock: str | None = None
    game: str | None = None
    cooldown_until: float | None = None


class FakeLobby:
    """The lobby service (:class:`~bot.webapp.ports.LobbyPort`) on a dict, counting what it is asked."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.seats: dict[int, Seat] = {}
        self.clock = clock
        self.calls: list[tuple[str, Any]] = []

    def seat(self, user_id: int) -> Seat:
        """Return the user's seat (made idle when new)."""
        return self.seats.setdefault(user_id, Seat())

    def pair(self, user_id: int, game_id: str) -> None:
        """Pair the user: their game ``game_id`` is on."""
        seat = self.seat(user_id)
        seat.state, seat.game, seat.since = "playing", game_id, None

    async def seek(self, player: PlayerInfo, variant: str | None = None, clock: TimeControl | None = None) -> Said:
        label = None if clock is None else clock.label
        self.calls.append(("seek", (player, variant, label)))
        seat = self.seat(player.id)
        if seat.cooldown_until is not None and seat.cooldown_until > self.clock():
            return Said("cooling down")
        if seat.state != "idle":
            return Said("already")
        seat.state, seat.since, seat.variant, seat.clock = "seeking", self.clock(), variant, label
        return Said("")

    async def cancel(self, user_id: int) -> str:
        self.calls.append(("cancel", user_id))
        seat = self.seat(user_id)
        if seat.state == "claimed":  # paired, the game being made: too late
            return "found"
        if seat.state != "seeking":
            return "none"
        seat.state, seat.since = "idle", None
        return "cancelled"

    async def status(self, user_id: int) -> JsonOf:
        self.calls.append(("status", user_id))
        seat = self.seat(user_id)
        return JsonOf(
            {
                "state": seat.state,
                "since": seat.since,
                "variant": seat.variant,
                "clock": seat.clock,
                "game": seat.game,
                "cooldown_until": seat.cooldown_until,
            }
        )


def window_at(waited: float) -> float:
    """The spec's rating window: 100 points, 10 more a second, any rating from 60 s on."""
    return float("inf") if waited >= 60 else 100 + 10 * waited


class ArenaAppEnv(AppEnv):
    """:class:`AppEnv` whose Mini App server has the fake arena and lobby services (and ``extra`` parts)."""

    def __init__(
        self, store: Store, seed: str = "webapp-arena", *, clock: Callable[[], float] = time.time, **kwargs: Any
    ) -> None:
        static_dir = kwargs.pop("static_dir", None)
        extra = kwargs.pop("extra", {})
        super().__init__(store, seed, **({"static_dir": static_dir} if static_dir is not None else {}), **kwargs)
        self.arenas = FakeArenas(clock)
        self.lobby = FakeLobby(clock)
        arenas: ArenaPort = self.arenas
        lobby: LobbyPort = self.lobby
        services: dict[str, Any] = {"arenas": arenas, "lobby": lobby, "rating_window": window_at, "clock": clock}
        if static_dir is not None:
            services["static_dir"] = static_dir
        parts = WebAppParts(
            token=TOKEN,
            max_age=86400.0,
            views=self.env.service.views,
            actions=self.env.service.actions,
            live=self.live,
            **{**services, **extra},
        )
        self.unused = self.client
        self.client = TestClient(TestServer(create_webapp_mounted(parts)))

    async def __aenter__(self) -> ArenaAppEnv:
        await super().__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.unused.close()
        await super().__aexit__(*exc)

    async def call(
        self, method: str, path: str, user: User | None, *, headers: dict[str, str] | None = None, **kwargs: Any
    ) -> tuple[int, CIMultiDictProxy[str], Any]:
        """Send ``method`` to ``/webapp/api/<path>`` signed in as ``user`` (None: no init data). Returns: the status,
        the headers and the JSON (None when there is no body)."""
        sent = dict(headers or {})
        if user is not None:
            init_data = signed_init_data(user.id, user.first_name, language=user.language_code or "en")
            sent["Authorization"] = "tma " + init_data
        async with self.client.request(method, f"/webapp/api/{path}", headers=sent, **kwargs) as response:
            text = await response.text()
            return response.status, response.headers, json.loads(text) if text else None
