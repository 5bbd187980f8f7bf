"""The stored record of an arena: a tournament of a fixed length in a group where a player is paired again as soon as
their game ends (docs/rules.md "Arena").

It is kept with the tournaments (the store's ``TournamentRecords`` role: one running tournament or arena per chat)
and told apart from a tournament's record by ``"format": "arena"`` (:func:`is_arena`). It holds the settings, the
players (with their rating when they joined and whether they withdrew or are paused), the finished games that count
(the pure :class:`tournaments.arena.ArenaGame` data and the game's id), the games running now, the games that ended
after the end (not counted), the messages that show the arena in its group, and the outbox of the notices still to
send. Who waits for a game is not here: that is the store's pairing pool ``arena:<id>``, derived from this record
(:mod:`bot.services.arena.pairing`). Everything the bot does next is derived from this record alone
(:mod:`bot.services.arena.reconcile`), so a crash converges on the next wake-up.

The record is a pydantic dataclass read and written by the model's codec (:mod:`bot.model.codec`); a key this
version does not know makes it unreadable (one release writes arena records at a time).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace
from typing import Any, Final, Literal

from pydantic import ConfigDict, SerializerFunctionWrapHandler, model_serializer, model_validator
from pydantic.dataclasses import dataclass

from bot.model.clock import TimeControl
from bot.model.codec import JsonObject, dump, load
from bot.variants import is_offered
from tournaments import START_RATING
from tournaments.arena import ArenaGame, ArenaRules

SCHEMA: Final = 1
"""The version of the layout written by :meth:`ArenaRecord.to_dict`."""
FORMAT: Final = "arena"
"""The ``"format"`` of an arena's record among the tournament records."""
DEFAULT_MINUTES: Final = 60
DEFAULT_CLOCK: Final = TimeControl(12.0, 2.0)
"""The standard backgammon clock: a delay of 12 s, a reserve of 2 minutes per point."""
DURATIONS: Final = (10, 15, 20, 30, 45, 60, 90, 120, 180)
"""The lengths an arena may have, in minutes (the creation card cycles through them)."""
MIN_MINUTES: Final = 5
MAX_MINUTES: Final = 240
ALONE_AFTER: Final = 20.0
"""Seconds after which a player waiting alone takes whoever comes next (even their last opponent)."""
STANDINGS_EVERY: Final = 300.0
"""At most one standings message (a new one or an edit) in the group per this many seconds."""
MAX_PLAYERS: Final = 200

Status = Literal["running", "finished"]


class ArenaRecordError(ValueError):
    """A stored arena record is malformed (the message says what is wrong)."""


_STRICT: Final = ConfigDict(extra="forbid")


def is_arena(data: Mapping[str, Any]) -> bool:
    """Return whether a stored tournament record (its data) is an arena's."""
    return data.get("format") == FORMAT


@dataclass(frozen=True, slots=True, config=_STRICT)
class ArenaSettings:
    """What the organiser chose: the game, the length, the clock, status scoring, and the pairing's patience."""

    variant: str = "short"
    minutes: int = DEFAULT_MINUTES
    clock: TimeControl = DEFAULT_CLOCK
    status_bonus: bool = False
    """Score +1 for a марс/gammon, +2 for a кокс/backgammon (docs/rules.md "Arena")."""
    alone_after: float = ALONE_AFTER
    standings_every: float = STANDINGS_EVERY

    def checked(self) -> ArenaSettings:
        """Return these settings if every value is allowed. Raises ArenaRecordError otherwise."""
        if not is_offered(self.variant) or not MIN_MINUTES <= self.minutes <= MAX_MINUTES:
            raise ArenaRecordError(f"arena settings out of range: {self}")
        if self.alone_after < 0 or self.standings_every < 0:
            raise ArenaRecordError(f"arena settings out of range: {self}")
        return self

    @property
    def rules(self) -> ArenaRules:
        """Return the scoring rules of the pure arena."""
        return ArenaRules(status_bonus=self.status_bonus)


@dataclass(frozen=True, slots=True, config=_STRICT)
class ArenaPlayer:
    """A person in the arena: ``rating`` their rating in the arena's game when they joined; ``withdrawn``: they
    left (their score stays, they are not paired); ``paused``: not paired until they press "back"."""

    user_id: int
    name: str
    lang: str = "ru"
    rating: float = START_RATING
    joined_at: float = 0.0
    withdrawn: bool = False
    paused: bool = False

    @property
    def pid(self) -> str:
        """Return the player's id in the pure arena and the pairing pool (the user id as text)."""
        return str(self.user_id)

    @property
    def active(self) -> bool:
        """Return whether the player is to be paired (in, and not paused)."""
        return not self.withdrawn and not self.paused


@dataclass(frozen=True, slots=True, config=_STRICT)
class CountedGame:
    """A finished game that counts, as the pure arena reads it, with its game id and when it ended."""

    game_id: str
    players: tuple[int, int]
    winner: int
    points: int = 1
    berserk: tuple[bool, bool] = (False, False)
    moves: tuple[int, int] = (0, 0)
    on_time: bool = False
    ended_at: float = 0.0

    def pure(self) -> ArenaGame:
        """Return the game as :mod:`tournaments.arena` scores it."""
        return ArenaGame(
            (str(self.players[0]), str(self.players[1])),
            self.winner,
            self.points,
            self.berserk,
            self.moves,
            self.on_time,
        )


@dataclass(frozen=True, slots=True, config=_STRICT)
class RunningGame:
    """A game of the arena being played: its id (= the pairing's id) and its players (player 0 first)."""

    game_id: str
    players: tuple[int, int]
    started_at: float = 0.0


Notice = Literal["paused"]


@dataclass(frozen=True, slots=True, config=_STRICT)
class Outgoing:
    """A notice still to send to a player in private: ``paused`` (missed their first move; with a Back button)."""

    kind: Notice
    user_id: int
    game_id: str = ""


@dataclass(frozen=True, slots=True, config=_STRICT)
class ArenaRecord:
    """One arena as the bot stores it (see the module docstring).

    Attributes:
        chat_id: the group; ``organiser`` created it; ``lang`` the language of the group's messages; ``thread``
            the forum topic they go to.
        created_at: when it began (play starts at once); ``ends_at`` when it ends; ``finished_at`` when it was
            closed.
        players: in joining order; ``games`` the counted games in the order they ended; ``running`` the games
            being played; ``late`` the games still running at the end (they finish, but do not count).
        last_game_at: player id → when their last game ended (they wait in the pool since then).
        card_message_id / card_shown / card_at: the card, the key of what it shows, when it was last edited;
            ``standings_message_id`` / ``standings_shown`` / ``standings_at``: the standings message, what it shows
            and when it was last sent or edited; ``result_posted``: the final result was posted.
        outbox: notices still to send.
    """

    chat_id: int
    organiser: int
    settings: ArenaSettings
    format: Literal["arena"] = "arena"
    lang: str = "ru"
    thread: int | None = None
    status: Status = "running"
    created_at: float = 0.0
    ends_at: float = 0.0
    finished_at: float | None = None
    players: tuple[ArenaPlayer, ...] = ()
    games: tuple[CountedGame, ...] = ()
    running: tuple[RunningGame, ...] = ()
    late: tuple[RunningGame, ...] = ()
    last_game_at: dict[str, float] = field(default_factory=dict)
    card_message_id: int | None = None
    card_shown: str = ""
    card_at: float = 0.0
    standings_message_id: int | None = None
    standings_shown: str = ""
    standings_at: float = 0.0
    result_posted: bool = False
    outbox: tuple[Outgoing, ...] = ()

    # ---------------------------------------------------------------------------------------------- queries

    def player(self, user_id: int) -> ArenaPlayer | None:
        """Return the player who is this person, or None."""
        return next((p for p in self.players if p.user_id == user_id), None)

    def game_of(self, user_id: int) -> RunningGame | None:
        """Return the running game the person plays, or None."""
        return next((g for g in self.running if user_id in g.players), None)

    def busy(self) -> set[int]:
        """Return the people in a running game."""
        return {user for game in self.running for user in game.players}

    def free(self) -> list[ArenaPlayer]:
        """Return the players to be paired now: active and not in a running game (none once it is over)."""
        if self.status != "running":
            return []
        busy = self.busy()
        return [p for p in self.players if p.active and p.user_id not in busy]

    def knows_game(self, game_id: str) -> bool:
        """Return whether the game is one of this arena's (running, counted or late)."""
        ids = [g.game_id for g in self.games] + [g.game_id for g in (*self.running, *self.late)]
        return game_id in ids

    def last_opponent(self, user_id: int) -> int | None:
        """Return the opponent of the person's last counted game, or None."""
        for game in reversed(self.games):
            if user_id in game.players:
                return game.players[1 - game.players.index(user_id)]
        return None

    def pure_games(self) -> list[ArenaGame]:
        """Return the counted games as the pure arena scores them."""
        return [g.pure() for g in self.games]

    def ratings(self) -> dict[str, float]:
        """Return player id → rating when they joined (what performance is computed from)."""
        return {p.pid: p.rating for p in self.players}

    def with_player(self, user_id: int, **changes: Any) -> ArenaRecord:
        """Return a copy with ``changes`` applied to the person's player entry."""
        players = tuple(replace(p, **changes) if p.user_id == user_id else p for p in self.players)
        return replace(self, players=players)

    def with_changes(self, **changes: Any) -> ArenaRecord:
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
            raise ValueError(f"unknown arena record schema {data.get('schema')!r}")
        return {k: v for k, v in data.items() if k != "schema"}

    @model_serializer(mode="wrap")
    def _write(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        data["schema"] = SCHEMA
        return data

    def to_dict(self) -> JsonObject:
        """Return the JSON-compatible record (schema :data:`SCHEMA`, ``"format": "arena"``)."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> ArenaRecord:
        """Return the record stored as ``data``. Raises ArenaRecordError when it is malformed."""
        if not isinstance(data, dict):
            raise ArenaRecordError(f"an arena record must be an object, not {type(data).__name__}")
        if not is_arena(data):
            raise ArenaRecordError("not an arena record")
        return load(cls, data, ArenaRecordError)
