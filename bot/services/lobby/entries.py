"""A seek as the lobby's pool keeps it: a :class:`~bot.storage.pools.PoolEntry` whose member is the user id, whose
score is the user's rating in the variant, and whose data is :class:`Seek` (``{"name", "lang", "variant", "clock",
"key", "blocked", "until", "message"?, "more"?}``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

from bot.model.clock import ClockError, TimeControl
from bot.model.game import PlayerInfo
from bot.services.lobby.rules import seek_key
from bot.storage.pools import PoolEntry
from tournaments.matching import Seeker

log = logging.getLogger(__name__)

EXPIRY_GRACE: Final = 3600.0
"""Seconds the store keeps a seek beyond its end (``until``): a pass in that time tells the player it expired; a
seek no worker looked at for that long is dropped by the store's purge without a word."""


@dataclass(frozen=True, slots=True)
class Seek:
    """One user's seek: who (``user_id``, ``name``, ``lang``), what (``variant``, the ``clock`` label), whom never
    (``blocked``), until when (``until``), the "seeking…" message in their private chat (``message``), whether
    beside a running game (``more``), and the pool's rating and start (``rating``, ``since``)."""

    user_id: int
    name: str
    lang: str
    variant: str
    clock: str
    blocked: tuple[int, ...]
    until: float
    rating: float
    since: float
    message: int | None = None
    more: bool = False

    @property
    def key(self) -> str:
        """The seek's key: only seeks of equal keys are paired (:func:`~bot.services.lobby.rules.seek_key`)."""
        return seek_key(self.variant, self.control)

    @property
    def control(self) -> TimeControl:
        """The seek's time control. Raises: ClockError for a label that is none (a malformed entry)."""
        return TimeControl.parse(self.clock)

    @property
    def player(self) -> PlayerInfo:
        """The seeker as a game's player."""
        return PlayerInfo(self.user_id, self.name, self.lang)

    def expired(self, now: float) -> bool:
        """Return whether the seek has ended by ``now``."""
        return now >= self.until

    def seeker(self) -> Seeker:
        """Return the seek as the pairing rules see it (:func:`tournaments.matching.lobby_pairs`)."""
        return Seeker(
            id=str(self.user_id),
            rating=self.rating,
            since=self.since,
            blocked=frozenset(str(b) for b in self.blocked),
            key=self.key,
        )

    def entry(self) -> PoolEntry:
        """Return the pool entry of the seek (kept by the store :data:`EXPIRY_GRACE` beyond its end)."""
        data: dict[str, Any] = {
            "name": self.name,
            "lang": self.lang,
            "variant": self.variant,
            "clock": self.clock,
            "key": self.key,
            "blocked": list(self.blocked),
            "until": self.until,
        }
        if self.message is not None:
            data["message"] = self.message
        if self.more:
            data["more"] = True
        return PoolEntry(str(self.user_id), self.rating, self.since, data, expires=self.until + EXPIRY_GRACE)

    @classmethod
    def of(cls, entry: PoolEntry) -> Seek | None:
        """Return the seek of a pool entry, or None (logged) when it is malformed."""
        data = entry.data
        try:
            seek = cls(
                user_id=int(entry.member),
                name=str(data["name"]),
                lang=str(data.get("lang") or "ru"),
                variant=str(data["variant"]),
                clock=str(data["clock"]),
                blocked=tuple(int(b) for b in data.get("blocked") or ()),
                until=float(data["until"]),
                rating=float(entry.score),
                since=float(entry.since),
                message=int(data["message"]) if data.get("message") is not None else None,
                more=bool(data.get("more")),
            )
            seek.control  # noqa: B018 - checks the label
        except (KeyError, TypeError, ValueError, ClockError):
            log.warning("a malformed lobby seek of member %s is ignored", entry.member)
            return None
        return seek


def new_seek(
    player: PlayerInfo,
    variant: str,
    clock: TimeControl,
    *,
    rating: float,
    now: float,
    ttl: float,
    blocked: tuple[int, ...] = (),
    more: bool = False,
) -> Seek:
    """Return the seek of ``player`` for ``variant`` on ``clock`` made at ``now`` and lasting ``ttl`` seconds."""
    return Seek(player.id, player.name, player.lang, variant, clock.label, blocked, now + ttl, rating, now, more=more)
