"""The stored record of a group tournament: its settings, its entrants and what the bot has done for it.

The tournament itself (pairings, results, withdrawals, standings) is the pure value of :mod:`tournaments`, saved in
``core`` with :func:`tournaments.tournament_to_dict` and rebuilt from it; this record adds what a chat needs around
it: who organises, who joined (people and computer players), which game plays which match, which messages show the
tournament, and the outbox of what is still to be announced. Everything the bot does next is derived from this
record alone (:mod:`bot.services.tournaments.service`), so a crash at any point converges on the next wake-up.

The record is a pydantic dataclass read and written by the model's codec (:mod:`bot.model.codec`) in the layout
the stores have always held (:meth:`TournamentRecord.to_dict`); as before, a key this version does not know makes
the record unreadable (a tournament record is written by one release at a time).
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import field, replace
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, ConfigDict, SerializerFunctionWrapHandler, model_serializer, model_validator
from pydantic.dataclasses import dataclass

from bot.model.clock import TimeControl
from bot.model.codec import JsonObject, dump, load
from bot.variants import is_offered
from tournaments import START_RATING, Tournament, tournament_from_dict

SCHEMA: Final = 1
"""The version of the layout written by :meth:`TournamentRecord.to_dict`."""

Status = Literal["registration", "running", "finished", "cancelled"]
Venue = Literal["private", "group"]

FORMAT_CODES: Final[dict[str, str]] = {
    "rr": "round_robin",
    "drr": "double_round_robin",
    "sw": "swiss",
    "se": "single_elimination",
    "de": "double_elimination",
}
"""Short codes of the formats (for buttons) and their :data:`tournaments.FORMATS` names."""
LENGTHS: Final = (1, 3, 5, 7, 9, 11, 13)
"""The match lengths a tournament may use (docs/rules.md §8)."""
DEADLINES: Final[dict[str, float]] = {"1h": 3600.0, "6h": 6 * 3600.0, "24h": 24 * 3600.0, "3d": 3 * 24 * 3600.0}
"""The round deadlines on offer, by code; the default is 24 h (docs/rules.md §8)."""
LIMITS: Final = (4, 8, 16, 32)
"""Player limits on offer."""
SWISS_ROUNDS: Final = (0, 3, 4, 5, 6, 7)
"""Swiss round counts on offer; 0 means the §8 default, ⌈log2 players⌉ + 1."""
MAX_PLAYERS: Final = 32
MIN_PLAYERS: Final = 2
COMPUTER_PREFIX: Final = "c"
PERSON_PREFIX: Final = "u"


class TournamentRecordError(ValueError):
    """A stored tournament record is malformed (the message says what is wrong)."""


_STRICT: Final = ConfigDict(extra="forbid")


@dataclass(frozen=True, slots=True, config=_STRICT)
class TournamentSettings:
    """What the organiser chose on the creation card."""

    variant: str = "short"
    """An offered variant (:data:`bot.variants.OFFERED`)."""
    format: str = "rr"
    length: int = 1
    deadline: str = "24h"
    venue: Venue = "private"
    limit: int = 16
    rounds: int = 0
    clock: TimeControl | None = None
    """The time control of every match game (docs/rules.md §1 "Time control"); None: no clock. Stored only when
    set, so a record without it reads as before."""

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        if data.get("clock", 0) is None:
            del data["clock"]
        return data

    @property
    def format_name(self) -> str:
        """Return the :data:`tournaments.FORMATS` name of the format."""
        return FORMAT_CODES[self.format]

    @property
    def deadline_seconds(self) -> float:
        """Return the round deadline in seconds."""
        return DEADLINES[self.deadline]

    def checked(self) -> TournamentSettings:
        """Return these settings if every value is one on offer. Raises TournamentRecordError otherwise."""
        if (
            not is_offered(self.variant)
            or self.format not in FORMAT_CODES
            or self.length not in LENGTHS
            or self.deadline not in DEADLINES
            or self.venue not in ("private", "group")
            or self.limit not in LIMITS
            or self.rounds not in SWISS_ROUNDS
        ):
            raise TournamentRecordError(f"tournament settings out of range: {self}")
        return self


def _checked(settings: TournamentSettings) -> TournamentSettings:
    return settings.checked()


@dataclass(frozen=True, slots=True, config=_STRICT)
class Entrant:
    """A player of the tournament: a person (``user_id``) or a computer player (``level``)."""

    pid: str
    name: str
    rating: float = START_RATING
    user_id: int | None = None
    level: str | None = None
    lang: str = "ru"

    @property
    def is_computer(self) -> bool:
        """Return whether this entrant is a computer player."""
        return self.level is not None


@dataclass(frozen=True, slots=True, config=_STRICT)
class TournamentRecord:
    """One tournament as the bot stores it (see the module docstring).

    Attributes:
        chat_id: the group the tournament belongs to; ``organiser`` created it; ``lang`` is the language of the
            group's announcements (the organiser's).
        status: registration → running → finished (or cancelled during registration).
        entrants: in joining order; ``core`` the pure tournament's record once started.
        games: match id → game id of every match started with a board; ``started`` match id → when it started
            (its deadline is that plus the round deadline).
        announced: the matches whose pairing was announced; ``reminded`` those whose late players were reminded;
            ``outbox`` the matches whose results are still to be announced; ``ended`` the forfeited matches whose
            games were ended.
        card_message_id: the registration card, showing the text whose hash is ``card_shown``;
            ``standings_message_id`` the live standings picture, showing the state ``standings_shown``.
        ratings_before: each person's rating when the tournament began (to show the changes at the end).
        thread: the forum topic of the group its messages and group games go to (None: the general thread).
    """

    chat_id: int
    organiser: int
    settings: Annotated[TournamentSettings, AfterValidator(_checked)]
    lang: str = "ru"
    status: Status = "registration"
    entrants: tuple[Entrant, ...] = ()
    core: dict[str, Any] | None = None
    games: dict[str, str] = field(default_factory=dict)
    started: dict[str, float] = field(default_factory=dict)
    announced: tuple[str, ...] = ()
    reminded: tuple[str, ...] = ()
    outbox: tuple[str, ...] = ()
    ended: tuple[str, ...] = ()
    card_message_id: int | None = None
    card_shown: str = ""
    standings_message_id: int | None = None
    standings_shown: str = ""
    final_announced: bool = False
    ratings_before: dict[str, float] = field(default_factory=dict)
    created_at: float = 0.0
    finished_at: float | None = None
    thread: int | None = None

    # ---------------------------------------------------------------------------------------------- queries

    def entrant(self, pid: str) -> Entrant | None:
        """Return the entrant with this player id, or None."""
        return next((e for e in self.entrants if e.pid == pid), None)

    def person(self, user_id: int) -> Entrant | None:
        """Return the entrant who is this person, or None."""
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def names(self) -> dict[str, str]:
        """Return player id → display name."""
        return {e.pid: e.name for e in self.entrants}

    def tournament(self) -> Tournament:
        """Return the pure tournament rebuilt from ``core``.

        Raises: TournamentRecordError when the tournament has not started; InvalidRecordError when ``core`` is
        malformed."""
        if self.core is None:
            raise TournamentRecordError("the tournament has not started: it has no pairings yet")
        return tournament_from_dict(self.core)

    def game_id_for(self, tournament_id: str, match_id: str) -> str:
        """Return the game id of a match: made from the two ids, so a retried start creates the same game."""
        digest = hashlib.sha256(f"{tournament_id}:{match_id}".encode()).digest()
        return base64.urlsafe_b64encode(digest).decode()[:10]

    def next_computer_pid(self) -> str:
        """Return an unused player id for a new computer player."""
        used = {e.pid for e in self.entrants}
        number = 1
        while f"{COMPUTER_PREFIX}{number}" in used:
            number += 1
        return f"{COMPUTER_PREFIX}{number}"

    def with_changes(self, **changes: Any) -> TournamentRecord:
        """Return a copy with ``changes`` applied."""
        return replace(self, **changes)

    # ---------------------------------------------------------------------------------------------- (de)serialising

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        """Check the schema of a stored dict and set it aside (the record does not keep it)."""
        if not isinstance(data, dict):
            return data
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown tournament record schema {data.get('schema')!r}")
        return {k: v for k, v in data.items() if k != "schema"}

    @model_serializer(mode="wrap")
    def _write(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        data["schema"] = SCHEMA
        return data

    def to_dict(self) -> JsonObject:
        """Return the JSON-compatible record (schema :data:`SCHEMA`)."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> TournamentRecord:
        """Return the record stored as ``data``. Raises TournamentRecordError when it is malformed."""
        if not isinstance(data, dict):
            raise TournamentRecordError(f"a tournament record must be an object, not {type(data).__name__}")
        return load(cls, data, TournamentRecordError)
