"""The stored game record, typed: what the store keeps for a game beside its version.

The store keeps a JSON-compatible ``dict`` (:attr:`bot.storage.games.StoredGame.data`); the services work on a
:class:`GameRecord`, converted at the boundary (:meth:`GameRecord.from_stored` after a read,
:meth:`GameRecord.to_dict` for a write). The layout is versioned by the ``"schema"`` key:

- schema 1 (no ``"schema"`` key): the layout of the first bot releases;
- schema 2 (:data:`SCHEMA`): the same keys plus ``"schema": 2``, an optional ``"tournament"`` link and the optional
  ``"fairness"`` seeds of the game's dice (a schema-2 reader that predates them keeps them as unknown keys).

A schema-1 record loads unchanged (games saved before the upgrade go on) and is written back as schema 2. Keys
this version does not know are kept as they are (:attr:`GameRecord.extra`), so a record written by a newer
release of another part of the bot survives a save by this one. A record that cannot be read raises
:class:`RecordError` (a ValueError), which callers treat like a match that cannot be replayed.

The layout (every key but ``match``, ``players`` and ``chats`` may be missing in a schema-1 record)::

    {"schema": 2, "match": Match.to_dict(), "players": [{"id", "name", "lang", "ai"?}, ...2],
     "chats": [{"chat_id", "message_id", "viewer", "lang"?, "thread"?, "inline"?}],
     "pending_steps": [[src, dst, die, hit], ...],
     "chosen": 0, "turn_base"?: int, "kind": "group" | "private", "confirm": false, "events": [...],
     "reminded": false, "last_action": unix time, "turn_deadline": unix time | null, "op"?: str,
     "stats_plan"?: [{"chat": chat_id, "deltas": {"<user id>": [w, l, d]}}], "rematch"?: game id,
     "tournament"?: {"tournament_id", "match_id"},
     "fairness"?: {"server_seed", "client_seed", "commitment"}}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from bot.services.players import PlayerInfo
from nardy import Step

if TYPE_CHECKING:
    from bot.storage import StoredGame

SCHEMA: Final = 2
"""The schema version :meth:`GameRecord.to_dict` writes."""
KINDS: Final = ("group", "private")

Kind = Literal["group", "private"]
Event = dict[str, Any]
"""One thing that happened in the last action, for the caption: ``{"t": "played" | "auto" | "forfeit" | "over" |
"next" | "took" | "declined" | "opening", ...}``."""

_KNOWN: Final = frozenset(
    {
        "schema",
        "match",
        "players",
        "chats",
        "pending_steps",
        "chosen",
        "turn_base",
        "kind",
        "confirm",
        "events",
        "reminded",
        "last_action",
        "turn_deadline",
        "op",
        "stats_plan",
        "rematch",
        "tournament",
        "fairness",
    }
)


class RecordError(ValueError):
    """A stored game record that cannot be read: a missing or malformed field, or an unknown schema."""


def _fail(where: str, problem: str) -> RecordError:
    return RecordError(f"malformed game record: {where} {problem}")


def _int(value: object, where: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"must be an integer, not {value!r}"[:200])
    return value


def _req_int(value: object, where: str) -> int:
    result = _int(value, where)
    assert result is not None
    return result


def _float(value: object, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _fail(where, f"must be a number, not {value!r}"[:200])
    return float(value)


def _str(value: object, where: str, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _fail(where, f"must be a string, not {value!r}"[:200])
    return value


def _req_str(value: object, where: str) -> str:
    result = _str(value, where)
    assert result is not None
    return result


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {type(value).__name__}")
    return value


def _dict(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise _fail(where, f"must be an object, not {type(value).__name__}")
    return value


@dataclass(frozen=True, slots=True)
class TournamentLink:
    """The tournament match a game plays: stored as ``{"tournament_id": ..., "match_id": ...}``."""

    tournament_id: str
    match_id: str

    def to_dict(self) -> dict[str, str]:
        """Return the link as stored under ``"tournament"``."""
        return {"tournament_id": self.tournament_id, "match_id": self.match_id}

    @classmethod
    def from_dict(cls, data: object) -> TournamentLink:
        """Return the link of a stored ``"tournament"`` value. Raises: RecordError when it is malformed."""
        value = _dict(data, "tournament")
        return cls(
            _req_str(value.get("tournament_id"), "tournament.tournament_id"),
            _req_str(value.get("match_id"), "tournament.match_id"),
        )


def topic_of(message: object) -> int | None:
    """Return the forum topic (``message_thread_id``) of a message sent in a topic of a supergroup, else None (an
    ordinary group, a private chat, a reply thread that is not a topic)."""
    if getattr(message, "is_topic_message", None):
        thread = getattr(message, "message_thread_id", None)
        return thread if isinstance(thread, int) else None
    return None


@dataclass(frozen=True, slots=True)
class FairSeeds:
    """The provably fair dice of a game (:mod:`nardy.fairness`): stored as ``{"server_seed", "client_seed",
    "commitment"}``. The server seed is secret until the game is over: only :mod:`bot.services.fairness` shows it,
    and only then; :meth:`__repr__` never does."""

    server_seed: str
    client_seed: str
    commitment: str

    def __repr__(self) -> str:
        return f"FairSeeds(client_seed={self.client_seed!r}, commitment={self.commitment!r})"

    def to_dict(self) -> dict[str, str]:
        """Return the seeds as stored under ``"fairness"``."""
        return {"server_seed": self.server_seed, "client_seed": self.client_seed, "commitment": self.commitment}

    @classmethod
    def from_dict(cls, data: object) -> FairSeeds:
        """Return the seeds of a stored ``"fairness"`` value. Raises: RecordError when it is malformed."""
        value = _dict(data, "fairness")
        return cls(
            _req_str(value.get("server_seed"), "fairness.server_seed"),
            _req_str(value.get("client_seed"), "fairness.client_seed"),
            _req_str(value.get("commitment"), "fairness.commitment"),
        )


@dataclass(frozen=True, slots=True)
class ChatLink:
    """A chat a game is shown in: ``viewer`` is the player the board is drawn for (None: a group's one board,
    drawn from the side to move); ``message_id`` is the board message the game was created with (the current one
    is the store's :class:`~bot.storage.games.BoardState`); ``lang`` the chat's own language, if any; ``thread`` the
    forum topic of a supergroup the game was started in (every message of the game goes there); ``inline`` the
    ``inline_message_id`` of a game played on an inline message (:mod:`bot.services.inline`: ``chat_id`` is then a
    synthetic id of that message, no chat of Telegram's)."""

    chat_id: int
    viewer: int | None = None
    message_id: int | None = None
    lang: str | None = None
    thread: int | None = None
    inline: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the chat as stored in the record's ``"chats"``."""
        data: dict[str, Any] = {"chat_id": self.chat_id, "message_id": self.message_id, "viewer": self.viewer}
        if self.lang is not None:
            data["lang"] = self.lang
        if self.thread is not None:
            data["thread"] = self.thread
        if self.inline is not None:
            data["inline"] = self.inline
        return data

    @classmethod
    def from_dict(cls, data: object, where: str = "chat") -> ChatLink:
        """Return the chat of a stored ``"chats"`` entry. Raises: RecordError when it is malformed."""
        value = _dict(data, where)
        viewer = _int(value.get("viewer"), f"{where}.viewer", optional=True)
        if viewer not in (None, 0, 1):
            raise _fail(f"{where}.viewer", f"must be 0, 1 or null, not {viewer!r}")
        return cls(
            _req_int(value.get("chat_id"), f"{where}.chat_id"),
            viewer,
            _int(value.get("message_id"), f"{where}.message_id", optional=True),
            _str(value.get("lang"), f"{where}.lang", optional=True) or None,
            _int(value.get("thread"), f"{where}.thread", optional=True),
            _str(value.get("inline"), f"{where}.inline", optional=True) or None,
        )


@dataclass(frozen=True, slots=True)
class StatsEntry:
    """The counters a finished session adds in one chat: ``deltas`` maps a user id to (wins, losses, draws)."""

    chat: int
    deltas: Mapping[int, tuple[int, int, int]]

    def to_dict(self) -> dict[str, Any]:
        """Return the entry as stored in ``"stats_plan"`` (user ids as strings, as JSON keys are)."""
        return {"chat": self.chat, "deltas": {str(user): list(counts) for user, counts in self.deltas.items()}}

    @classmethod
    def from_dict(cls, data: object, where: str = "stats_plan") -> StatsEntry:
        """Return the entry of a stored ``"stats_plan"`` item. Raises: RecordError when it is malformed."""
        value = _dict(data, where)
        deltas: dict[int, tuple[int, int, int]] = {}
        for user, counts in _dict(value.get("deltas"), f"{where}.deltas").items():
            if not user.lstrip("-").isdigit():
                raise _fail(f"{where}.deltas", f"has a key that is no user id: {user!r}"[:200])
            items = _list(counts, f"{where}.deltas[{user}]")
            if len(items) != 3:
                raise _fail(f"{where}.deltas[{user}]", "must be [wins, losses, draws]")
            w, lo, d = (_req_int(n, f"{where}.deltas[{user}]") for n in items)
            deltas[int(user)] = (w, lo, d)
        return cls(_req_int(value.get("chat"), f"{where}.chat"), deltas)


def _step(data: object, where: str) -> Step:
    items = _list(data, where)
    if len(items) != 4 or not isinstance(items[3], bool):
        raise _fail(where, "must be [src, dst, die, hit]")
    src, dst, die = (_req_int(n, where) for n in items[:3])
    return Step(src, dst, die, items[3])


def _player(data: object, where: str) -> PlayerInfo:
    value = _dict(data, where)
    _req_int(value.get("id"), f"{where}.id")
    _req_str(value.get("name"), f"{where}.name")
    _str(value.get("lang"), f"{where}.lang", optional=True)
    _str(value.get("ai"), f"{where}.ai", optional=True)
    return PlayerInfo.from_dict(dict(value))


@dataclass(slots=True)
class GameRecord:
    """A game as the store keeps it (see the module docstring); mutable, as an action changes it before the save.

    ``match`` stays the engine's own dict (:meth:`nardy.Match.to_dict`): the engine validates it when the match is
    rebuilt. ``pending_steps``/``chosen``/``turn_base`` are the turn being built (``chosen``: the steps the player
    chose, for Undo; ``turn_base``: the steps pending before a whole-turn press). ``op``, ``stats_plan`` and the
    deadlines are the crash-safety state of :mod:`bot.services.saving`.
    """

    match: dict[str, Any]
    players: list[PlayerInfo]
    chats: list[ChatLink]
    kind: Kind = "group"
    confirm: bool = False
    pending_steps: list[Step] = field(default_factory=list)
    chosen: int = 0
    turn_base: int | None = None
    events: list[Event] = field(default_factory=list)
    reminded: bool = False
    last_action: float | None = None
    turn_deadline: float | None = None
    op: str | None = None
    stats_plan: list[StatsEntry] | None = None
    rematch: str | None = None
    tournament: TournamentLink | None = None
    fairness: FairSeeds | None = None
    """The seeds of the game's provably fair dice (None: a game from before them, or with injected dice)."""
    schema: int = SCHEMA
    """The schema the record was read in (a new or saved record is written in :data:`SCHEMA`)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys this version does not know, written back unchanged."""

    # ------------------------------------------------------------------ players and chats

    def player_index(self, user_id: int) -> int | None:
        """Return 0 or 1 for a (human) player of the record, else None."""
        for index, player in enumerate(self.players):
            if player.id == user_id and not player.ai:
                return index
        return None

    @property
    def against_computer(self) -> bool:
        """Whether one of the players is the computer."""
        return any(p.ai for p in self.players)

    def chat(self, chat_id: int) -> ChatLink | None:
        """Return the record's chat ``chat_id``, or None when the game is not shown there."""
        return next((c for c in self.chats if c.chat_id == chat_id), None)

    def clear_turn(self) -> None:
        """Forget the turn being built: its pending steps and how many of them the player chose (for Undo)."""
        self.pending_steps = []
        self.chosen = 0
        self.turn_base = None

    # ------------------------------------------------------------------ conversion

    def to_dict(self) -> dict[str, Any]:
        """Return the record as the store keeps it (schema :data:`SCHEMA`; optional keys only when set)."""
        data: dict[str, Any] = dict(self.extra)
        data.update(
            schema=SCHEMA,
            match=self.match,
            players=[p.to_dict() for p in self.players],
            chats=[c.to_dict() for c in self.chats],
            pending_steps=[[s.src, s.dst, s.die, s.hit] for s in self.pending_steps],
            chosen=self.chosen,
            kind=self.kind,
            confirm=self.confirm,
            events=self.events,
            reminded=self.reminded,
            last_action=self.last_action,
            turn_deadline=self.turn_deadline,
        )
        if self.turn_base is not None:
            data["turn_base"] = self.turn_base
        if self.op is not None:
            data["op"] = self.op
        if self.stats_plan is not None:
            data["stats_plan"] = [entry.to_dict() for entry in self.stats_plan]
        if self.rematch is not None:
            data["rematch"] = self.rematch
        if self.tournament is not None:
            data["tournament"] = self.tournament.to_dict()
        if self.fairness is not None:
            data["fairness"] = self.fairness.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Return the record of a stored dict of schema 1 or 2.

        Raises: RecordError when a field is missing or malformed, or the schema is unknown (newer than
        :data:`SCHEMA`).
        """
        value = _dict(data, "record")
        schema = _req_int(value.get("schema", 1), "schema")
        if not 1 <= schema <= SCHEMA:
            raise RecordError(f"game record of schema {schema}: this bot reads schemas 1 to {SCHEMA}")
        if "match" not in value or "players" not in value or "chats" not in value:
            missing = [k for k in ("match", "players", "chats") if k not in value]
            raise _fail("record", f"lacks {', '.join(missing)}")
        match = dict(_dict(value["match"], "match"))
        players = [_player(p, f"players[{i}]") for i, p in enumerate(_list(value["players"], "players"))]
        if len(players) != 2:
            raise _fail("players", f"must hold two players, not {len(players)}")
        chats = [ChatLink.from_dict(c, f"chats[{i}]") for i, c in enumerate(_list(value["chats"], "chats"))]
        if not chats:
            raise _fail("chats", "must name at least one chat")
        kind = value.get("kind", "group")
        if kind not in KINDS:
            raise _fail("kind", f"must be one of {', '.join(KINDS)}, not {kind!r}"[:200])
        steps = [
            _step(s, f"pending_steps[{i}]")
            for i, s in enumerate(_list(value.get("pending_steps", []), "pending_steps"))
        ]
        events = _list(value.get("events", []), "events")
        for i, event in enumerate(events):
            _dict(event, f"events[{i}]")
        pending = len(steps)
        chosen = _req_int(value.get("chosen", pending), "chosen")  # a record without it: every step was chosen
        stats = value.get("stats_plan")
        stats_plan = (
            None
            if stats is None
            else [StatsEntry.from_dict(e, f"stats_plan[{i}]") for i, e in enumerate(_list(stats, "stats_plan"))]
        )
        tournament = value.get("tournament")
        fairness = value.get("fairness")
        return cls(
            match=match,
            players=players,
            chats=chats,
            kind="private" if kind == "private" else "group",
            confirm=bool(value.get("confirm")),
            pending_steps=steps,
            chosen=chosen,
            turn_base=_turn_base(value.get("turn_base")),
            events=[dict(e) for e in events],
            reminded=bool(value.get("reminded")),
            last_action=_float(value.get("last_action"), "last_action"),
            turn_deadline=_float(value.get("turn_deadline"), "turn_deadline"),
            op=_str(value.get("op"), "op", optional=True),
            stats_plan=stats_plan,
            rematch=_str(value.get("rematch"), "rematch", optional=True),
            tournament=None if tournament is None else TournamentLink.from_dict(tournament),
            fairness=None if fairness is None else FairSeeds.from_dict(fairness),
            schema=schema,
            extra={k: v for k, v in value.items() if k not in _KNOWN},
        )

    @classmethod
    def from_stored(cls, stored: StoredGame) -> GameRecord:
        """Return the record of a game read from the store. Raises: RecordError when it cannot be read."""
        return cls.from_dict(stored.data)

    @classmethod
    def new(
        cls,
        match: dict[str, Any],
        players: Sequence[PlayerInfo],
        chats: Sequence[ChatLink],
        *,
        kind: Kind,
        confirm: bool = False,
        tournament: TournamentLink | None = None,
        fairness: FairSeeds | None = None,
    ) -> GameRecord:
        """Return the record of a new game (no board posted yet: the chats' ``message_id`` is None)."""
        return cls(
            match=match,
            players=list(players),
            chats=[ChatLink(c.chat_id, c.viewer, None, c.lang, c.thread, c.inline) for c in chats],
            kind=kind,
            confirm=confirm,
            tournament=tournament,
            fairness=fairness,
        )


def _turn_base(value: object) -> int | None:
    # Undo falls back to taking back one step when the base is not a usable count (as schema 1 did).
    return value if isinstance(value, int) and not isinstance(value, bool) else None
