"""What the Mini App's arena and lobby routes need of their services, as small protocols.

The arena service (:mod:`bot.services.arena`) and the lobby service (:mod:`bot.services.lobby`) are built elsewhere;
the routes (:mod:`bot.webapp.arenas`, :mod:`bot.webapp.lobby`) depend only on these shapes, so the server is typed
and tested on its own, with fakes, and the composition root (:func:`bot.wiring.webapp_parts`) hands it the real
services (or thin adapters over them). The JSON each view gives is the contract with the page (docs of issue 47;
``webapp/src/arena.ts`` and ``webapp/src/play.ts`` read it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.model.clock import TimeControl
from bot.model.game import PlayerInfo


class JsonView(Protocol):
    """A view the page reads as JSON."""

    def to_json(self) -> dict[str, Any]:
        """Return the view as a JSON object."""
        ...


class ArenaPort(Protocol):
    """The arena service as the Mini App uses it.

    :class:`bot.services.arena.service.Arenas` is one. ``view(...).to_json()`` is ``{"id", "title", "variant",
    "clock", "ends_at", "now", "finished", "players": [{"id", "name", "rank", "score", "fire", "sheet": [{"points",
    "fire", "berserk", "won"}], "games", "paused", "withdrawn", "playing"}], "me": {"joined", "paused", "game"}}``
    (times in Unix seconds; a player's ``id`` their Telegram user id, ``playing`` whether they play a game now,
    ``me.game`` the id of the viewer's game or null)."""

    async def version(self, arena_id: str) -> int | None:
        """Return the stored version of the arena's record (it grows with every change that the view shows), or
        None when there is no such arena. Raises: StoreUnavailableError."""
        ...

    async def view(self, arena_id: str, viewer_id: int, lang: str | None = None) -> JsonView | None:
        """Return the arena as ``viewer_id`` sees it, its words in ``lang`` (None: the arena's), or None when there
        is no such arena. Raises: StoreUnavailableError."""
        ...

    async def join(
        self, arena_id: str, user: PlayerInfo, *, is_member: Callable[[int, int], Awaitable[bool | None]] | None = None
    ) -> str:
        """Enter ``user`` into the arena (or back after leaving); ``is_member(chat_id, user_id)``: when given, a user
        who is not a member of the arena's group (False) is refused, and so is one Telegram cannot tell about (None).
        Returns: the toast saying what happened."""
        ...

    async def leave(self, arena_id: str, user: PlayerInfo) -> str:
        """Withdraw ``user`` from the arena (their score stays). Returns: the toast saying what happened."""
        ...

    async def pause(self, arena_id: str, user: PlayerInfo) -> str:
        """Stop pairing ``user`` until they come back. Returns: the toast saying what happened."""
        ...

    async def resume(self, arena_id: str, user: PlayerInfo) -> str:
        """Pair ``user`` again ("back"). Returns: the toast saying what happened."""
        ...


class SeekAnswer(Protocol):
    """What became of a seek, as the page is told: ``text``, the refusal to show ("" when the seek was taken)."""

    @property
    def text(self) -> str:
        """The refusal to show, or ""."""
        ...


class LobbyPort(Protocol):
    """The lobby service as the Mini App uses it; :class:`bot.services.lobby.seeking.Lobby` is one.

    ``status(...).to_json()`` is ``{"state": "idle" | "seeking" | "playing", "since", "variant", "clock", "game",
    "cooldown_until"}`` (times in Unix seconds or null); it may add ``"window"`` (the rating window now, ± points;
    null when any rating is taken), which the page shows when it is there."""

    async def seek(
        self, player: PlayerInfo, variant: str | None = None, clock: TimeControl | None = None
    ) -> SeekAnswer:
        """Seek an opponent for ``player`` in ``variant`` on ``clock`` (None: the lobby's defaults). Returns: what
        became of it (its ``text`` says why not: a cool-down, a running game, already seeking). Raises:
        StoreUnavailableError."""
        ...

    async def cancel(self, user_id: int) -> object:
        """Withdraw the seek of ``user_id`` (nothing when there is none). Returns: what became of it, equal to
        ``"found"`` when it was too late (the seek was just paired: the game comes; told as a toast); anything else
        is not shown. Raises: StoreUnavailableError."""
        ...

    async def status(self, user_id: int) -> JsonView:
        """Return where ``user_id`` stands in the lobby. Raises: StoreUnavailableError."""
        ...
