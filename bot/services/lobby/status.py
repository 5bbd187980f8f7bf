"""The lobby's answers as typed values: what a seek became (:class:`SeekOutcome`) and where a user stands
(:class:`LobbyStatus`, the Mini App's ``GET /api/lobby``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal


class SeekStatus(StrEnum):
    """What became of a seek (:meth:`bot.services.lobby.seeking.Lobby.seek`)."""

    SEEKING = "seeking"
    """In the pool: the "seeking…" message was sent, a partner is looked for."""
    PAIRED = "paired"
    """Paired at once: the game was started."""
    ALREADY = "already"
    """Refused: the user seeks already."""
    FOUND = "found"
    """Refused: the user's seek was just paired; its game is being made."""
    PLAYING = "playing"
    """Refused: the user plays a game (a lobby game beside it is asked with ``more``)."""
    COOLDOWN = "cooldown"
    """Refused: the user abandoned lobby games lately and waits out the cool-down (``until``)."""
    BAD = "bad"
    """Refused: the variant or the clock cannot be played in the lobby."""


class CancelOutcome(StrEnum):
    """What became of a cancel (:meth:`bot.services.lobby.seeking.Lobby.cancel`)."""

    CANCELLED = "cancelled"
    """The seek was taken out of the pool."""
    FOUND = "found"
    """Too late: the seek was just paired and its game is being made (the pair stands)."""
    NONE = "none"
    """The user was not seeking."""


@dataclass(frozen=True, slots=True)
class SeekOutcome:
    """The outcome of a seek: ``status``, ``text`` (the refusal to show, "" when seeking or paired), ``until`` (the
    end of a cool-down) and ``game`` (the game started when paired at once)."""

    status: SeekStatus
    text: str = ""
    until: float | None = None
    game: str | None = None

    @property
    def accepted(self) -> bool:
        """Whether the seek was taken (seeking or paired)."""
        return self.status in (SeekStatus.SEEKING, SeekStatus.PAIRED)


LobbyState = Literal["idle", "seeking", "playing"]


@dataclass(frozen=True, slots=True)
class LobbyStatus:
    """Where a user stands in the lobby: ``state`` (``idle``, ``seeking`` or ``playing`` a lobby game), since when
    they seek, the variant and clock of the seek (or of the game), the game played, and the end of a cool-down."""

    state: LobbyState = "idle"
    since: float | None = None
    variant: str | None = None
    clock: str | None = None
    game: str | None = None
    cooldown_until: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the status as the Mini App reads it: ``{"state", "since", "variant", "clock", "game",
        "cooldown_until"}`` (absent values as null)."""
        return {
            "state": self.state,
            "since": self.since,
            "variant": self.variant,
            "clock": self.clock,
            "game": self.game,
            "cooldown_until": self.cooldown_until,
        }
