"""The stored game record, typed: what the store keeps for a game beside its version.

The store keeps a JSON-compatible ``dict`` (:attr:`bot.storage.games.StoredGame.data`); the services work on a
:class:`GameRecord`, converted at the boundary by the model's codec (:meth:`GameRecord.from_stored` after a read,
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
     "tournament"?: {"tournament_id", "match_id", "arena"?: true},
     "fairness"?: {"server_seed", "client_seed", "commitment"},
     "rating_plan"?: {"variant", "length", "winner": {"id", "name"}, "loser": {"id", "name"}, "chats"} | null,
     "forfeit"?: the player (0 or 1) who lost the session by a tournament forfeit,
     "clock"?: the game's time control and its state (:class:`bot.model.clock.GameClock`),
     "lobby"?: a lobby game's series (:class:`bot.model.lobby.LobbyLink`)}

A record without ``"clock"`` (every record written before time control) is a game without one.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import (
    BeforeValidator,
    Field,
    PlainSerializer,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    StrictStr,
    model_serializer,
    model_validator,
)
from pydantic.dataclasses import dataclass
from pydantic_core import to_json

from bot.model.clock import GameClock
from bot.model.codec import JsonObject, dump, load, load_json
from bot.model.lobby import LobbyLink
from nardy import Options, Step

if TYPE_CHECKING:
    from bot.storage import StoredGame

SCHEMA: Final = 2
"""The schema version :meth:`GameRecord.to_dict` writes."""
KINDS: Final = ("group", "private")

Kind = Literal["group", "private"]
Event = dict[str, Any]
"""One thing that happened in the last action, for the caption: ``{"t": "played" | "auto" | "forfeit" | "over" |
"next" | "took" | "declined" | "opening", ...}``."""


class RecordError(ValueError):
    """A stored game record that cannot be read: a missing or malformed field, or an unknown schema."""


def _none_if_empty(value: object) -> object:
    return None if value == "" else value


def _time(value: object) -> object:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError("must be a finite number (unix time)")
    return float(value)


def _step(value: object) -> object:
    if isinstance(value, Step):
        return value
    if not isinstance(value, list) or len(value) != 4 or not isinstance(value[3], bool):
        raise ValueError("must be [src, dst, die, hit]")
    src, dst, die, hit = value
    if any(isinstance(n, bool) or not isinstance(n, int) for n in (src, dst, die)):
        raise ValueError("must be [src, dst, die, hit] of integers")
    return Step(src, dst, die, hit)


StoredStep = Annotated[
    Step,
    BeforeValidator(_step),
    PlainSerializer(lambda s: [s.src, s.dst, s.die, s.hit], return_type=list[Any]),
]
"""A step of the turn being built, stored as ``[src, dst, die, hit]``."""
Time = Annotated[float, BeforeValidator(_time)]
"""A unix time: an integer or a finite float, read as a float."""
OptionalText = Annotated[StrictStr | None, BeforeValidator(_none_if_empty)]


_AsIs = Annotated[dict[str, Any], Field(exclude=True)]
"""A JSON object kept as it is: checked to be an object with string keys on reading, written back untouched."""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player: Telegram user id, display name and language (``ru``/``en``); ``ai`` is the level of a computer
    player (its id is :data:`bot.services.players.COMPUTER_ID`), None for a person."""

    id: StrictInt
    name: StrictStr
    lang: StrictStr = "ru"
    ai: OptionalText = None

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        if not self.ai:
            del data["ai"]
        return data

    def to_dict(self) -> JsonObject:
        """Return the player as stored in the record: ``{"id", "name", "lang", "ai"?}``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> PlayerInfo:
        """Return the player of a record's ``players`` entry. Raises: RecordError when it is malformed."""
        return load(cls, data, RecordError)


@dataclass(frozen=True, slots=True)
class TournamentLink:
    """The tournament match a game plays: stored as ``{"tournament_id": ..., "match_id": ..., "arena"?: true}``;
    ``arena``: the "tournament" is an arena (:mod:`bot.services.arena`) and ``match_id`` its pairing (a link without
    it is a tournament's)."""

    tournament_id: StrictStr
    match_id: StrictStr
    arena: StrictBool = False

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        if not data.get("arena"):
            data.pop("arena", None)
        return data

    def to_dict(self) -> JsonObject:
        """Return the link as stored under ``"tournament"``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> TournamentLink:
        """Return the link of a stored ``"tournament"`` value. Raises: RecordError when it is malformed."""
        return load(cls, data, RecordError)


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

    server_seed: StrictStr
    client_seed: StrictStr
    commitment: StrictStr

    def __repr__(self) -> str:
        return f"FairSeeds(client_seed={self.client_seed!r}, commitment={self.commitment!r})"

    def to_dict(self) -> dict[str, str]:
        """Return the seeds as stored under ``"fairness"``."""
        return {"server_seed": self.server_seed, "client_seed": self.client_seed, "commitment": self.commitment}

    @classmethod
    def from_dict(cls, data: object) -> FairSeeds:
        """Return the seeds of a stored ``"fairness"`` value. Raises: RecordError when it is malformed."""
        return load(cls, data, RecordError)


def is_private_chat(chat_id: int) -> bool:
    """Return whether ``chat_id`` is a private chat's: Telegram gives it the user's id (positive), a group a negative
    id, and the synthetic ids of inline messages (:class:`ChatLink`'s ``inline``) are negative too."""
    return chat_id > 0


@dataclass(frozen=True, slots=True)
class ChatLink:
    """A chat a game is shown in: ``viewer`` is the player the board is drawn for (None: a group's one board,
    drawn from the side to move); ``message_id`` is the board message the game was created with (the current one
    is the store's :class:`~bot.storage.games.BoardState`); ``lang`` the chat's own language, if any; ``thread`` the
    forum topic of a supergroup the game was started in (every message of the game goes there); ``inline`` the
    ``inline_message_id`` of a game played on an inline message (:mod:`bot.services.inline`: ``chat_id`` is then a
    synthetic id of that message, no chat of Telegram's)."""

    chat_id: StrictInt
    viewer: Annotated[StrictInt, Field(ge=0, le=1)] | None = None
    message_id: StrictInt | None = None
    lang: OptionalText = None
    thread: StrictInt | None = None
    inline: OptionalText = None

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        for key in ("lang", "thread", "inline"):
            if data[key] is None:
                del data[key]
        return data

    @property
    def is_inline(self) -> bool:
        """Whether the game is played on an inline message (then ``chat_id`` is synthetic, no chat of Telegram's)."""
        return self.inline is not None

    @property
    def is_private(self) -> bool:
        """Whether the chat is a player's private chat with the bot (whose id is the user's)."""
        return not self.is_inline and is_private_chat(self.chat_id)

    @property
    def is_group(self) -> bool:
        """Whether the chat is a group or supergroup of Telegram's (an inline message is not one)."""
        return not self.is_inline and not is_private_chat(self.chat_id)

    @property
    def is_shared(self) -> bool:
        """Whether everybody sees the same board there: a group's or an inline message's one board (whole-turn
        buttons, games counted against the chat's limit), as opposed to a private chat's."""
        return not self.is_private

    def to_dict(self) -> JsonObject:
        """Return the chat as stored in the record's ``"chats"``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object, where: str = "chat") -> ChatLink:
        """Return the chat of a stored ``"chats"`` entry. Raises: RecordError when it is malformed."""
        return load(cls, data, RecordError)


Counts = tuple[StrictInt, StrictInt, StrictInt]


@dataclass(frozen=True, slots=True)
class StatsEntry:
    """The counters a finished session adds in one chat: ``deltas`` maps a user id to (wins, losses, draws)
    (stored with the user ids as strings, as JSON keys are)."""

    chat: StrictInt
    deltas: Mapping[int, Counts]

    def to_dict(self) -> JsonObject:
        """Return the entry as stored in ``"stats_plan"``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object, where: str = "stats_plan") -> StatsEntry:
        """Return the entry of a stored ``"stats_plan"`` item. Raises: RecordError when it is malformed."""
        return load(cls, data, RecordError)


_OMITTED_WHEN_NONE: Final = (
    "turn_base",
    "op",
    "stats_plan",
    "rematch",
    "tournament",
    "fairness",
    "forfeit",
    "clock",
    "lobby",
)


def _turn_base(value: object) -> int | None:
    # Undo falls back to taking back one step when the base is not a usable count (as schema 1 did).
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(slots=True)
class GameRecord:
    """A game as the store keeps it (see the module docstring); mutable, as an action changes it before the save.

    ``match`` stays the engine's own dict (:meth:`nardy.Match.to_dict`): the engine validates it when the match is
    rebuilt. ``pending_steps``/``chosen``/``turn_base`` are the turn being built (``chosen``: the steps the player
    chose, for Undo; ``turn_base``: the steps pending before a whole-turn press). ``op``, ``stats_plan`` and the
    deadlines are the crash-safety state of :mod:`bot.services.saving`; ``rating_plan`` the rating change the
    finishing save planned (:func:`bot.services.ratings.rating_plan`; ``rating_planned``: whether it was planned
    at all, a None plan being "not rated"); ``forfeit`` the player who lost by a tournament forfeit; ``clock``
    the time control (:class:`~bot.model.clock.GameClock`; its ``flag``: the player who lost the match on time).
    """

    match: _AsIs
    players: list[PlayerInfo]
    chats: list[ChatLink]
    kind: Kind = "group"
    confirm: bool = False
    pending_steps: list[StoredStep] = dataclasses.field(default_factory=list)
    chosen: StrictInt = 0
    turn_base: Annotated[int | None, BeforeValidator(_turn_base)] = None
    events: Annotated[list[dict[str, Any]], Field(exclude=True)] = dataclasses.field(default_factory=list)
    reminded: bool = False
    last_action: Time | None = None
    turn_deadline: Time | None = None
    op: StrictStr | None = None
    stats_plan: list[StatsEntry] | None = None
    rematch: StrictStr | None = None
    tournament: TournamentLink | None = None
    fairness: FairSeeds | None = None
    """The seeds of the game's provably fair dice (None: a game from before them, or with injected dice)."""
    rating_plan: Annotated[dict[str, Any] | None, Field(exclude=True)] = None
    rating_planned: StrictBool = False
    forfeit: StrictInt | None = None
    clock: GameClock | None = None
    """The game's clock (docs/rules.md §1 "Time control"): the reserves, the delay and the running action; None: a
    game without time control."""
    lobby: LobbyLink | None = None
    """A lobby game's series (docs/rules.md "Lobby"); None: not a lobby game."""
    schema: StrictInt = SCHEMA
    """The schema the record was read in (a new or saved record is written in :data:`SCHEMA`)."""
    extra: _AsIs = dataclasses.field(default_factory=dict)
    """Keys this version does not know, written back unchanged."""

    # ------------------------------------------------------------------ the codec's two hooks

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        """Fill in what a schema-1 record leaves out and set the unknown keys aside (on a stored dict only)."""
        if not isinstance(data, dict):
            return data
        if not all(isinstance(k, str) for k in data):
            raise ValueError("the record must be an object with string keys")
        schema = data.get("schema", 1)
        if isinstance(schema, bool) or not isinstance(schema, int) or not 1 <= schema <= SCHEMA:
            raise ValueError(f"game record of schema {schema!r}: this bot reads schemas 1 to {SCHEMA}")
        missing = [k for k in ("match", "players", "chats") if k not in data]
        if missing:
            raise ValueError(f"the record lacks {', '.join(missing)}")
        players, chats = data["players"], data["chats"]
        if isinstance(players, list) and len(players) != 2:
            raise ValueError(f"players must hold two players, not {len(players)}")
        if isinstance(chats, list) and not chats:
            raise ValueError("chats must name at least one chat")
        values = {k: v for k, v in data.items() if k in _FIELDS}
        values["schema"] = schema
        values["extra"] = {k: v for k, v in data.items() if k not in _FIELDS and k != "schema"}
        steps = data.get("pending_steps", [])
        values.setdefault("chosen", len(steps) if isinstance(steps, list) else 0)  # without it: every step chosen
        values["confirm"] = bool(data.get("confirm"))
        values["reminded"] = bool(data.get("reminded"))
        values.setdefault("kind", "group")
        values["rating_planned"] = "rating_plan" in data
        return values

    @model_serializer(mode="wrap")
    def _write(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        """Write the declared fields the codec checks (the JSON parts kept as they are are added by
        :meth:`to_dict`: handing them to pydantic would walk the whole match on every save)."""
        fields: JsonObject = handler(self)
        del fields["rating_planned"]
        fields["schema"] = SCHEMA
        for key in _OMITTED_WHEN_NONE:
            if fields[key] is None:
                del fields[key]
        return fields

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

    def plan_rating(self, plan: Mapping[str, Any] | None) -> None:
        """Keep the rating change the finishing save planned (None: the session is not rated)."""
        self.rating_plan = None if plan is None else dict(plan)
        self.rating_planned = True

    # ------------------------------------------------------------------ the engine's match, read

    @property
    def variant(self) -> str | None:
        """The variant of the match's current game (``"short"``, ``"long"``, ...), None when the match names none."""
        value = self.match.get("variant")
        return value if isinstance(value, str) else None

    @property
    def kind_name(self) -> str | None:
        """The name of a rotating match's kind (e.g. ``"tavli"``), None for a match of one variant (or a rotation
        the engine saved without a name)."""
        value = self.match.get("kind")
        return str(value) if value else None

    @property
    def match_kind(self) -> str:
        """The kind of match to start again (a rematch): a rotating match's kind name, else its variant.

        Raises: KeyError when the match names neither."""
        return self.kind_name or str(self.match["variant"])

    @property
    def rotating(self) -> bool:
        """Whether the match rotates its variant from game to game (the engine saved a ``rotation``)."""
        return bool(self.match.get("rotation"))

    @property
    def match_length(self) -> int:
        """The match's length in points (0: a single game). Raises: KeyError, ValueError or TypeError when the match
        has no usable length."""
        return int(self.match["length"])

    @property
    def match_options(self) -> Options:
        """The match's rule options (the defaults for those it does not name).

        Raises: nardy's InvalidOptionError (a ValueError) when the match names an unknown option or value."""
        return Options.from_dict(self.match.get("options"))

    @property
    def match_games(self) -> list[dict[str, Any]]:
        """The match's games as the engine saved them (:meth:`nardy.Game.to_dict`): the finished ones, then the
        current one (an empty dict when the match has none)."""
        return [*self.match.get("finished_games", []), self.match.get("game", {})]

    @property
    def final_score(self) -> list[Any]:
        """The match's score ``[player 0, player 1]`` with the last game's result counted (the points as saved;
        a game still played adds nothing).

        Raises: KeyError, TypeError or IndexError when the saved games are malformed."""
        last = self.match_games[-1]
        result = (last.get("state") or {}).get("result") or {}
        score = list(last.get("score", [0, 0]))
        if result.get("winner") is not None:
            score[result["winner"]] += result.get("points", 0)
        return score

    @property
    def moves_played(self) -> bool:
        """Whether any move has been played in the match: a finished game has a history, or the current game has
        a move in its history."""
        return any(g.get("history") for g in self.match.get("finished_games", [])) or any(
            r.get("t") == "move" for r in self.match.get("game", {}).get("history", [])
        )

    # ------------------------------------------------------------------ conversion

    def to_dict(self) -> JsonObject:
        """Return the record as the store keeps it (schema :data:`SCHEMA`; optional keys only when set). The
        engine's match, the events, the rating plan and the unknown keys are the record's own objects (JSON
        already), as the store serialises the document at once."""
        data: JsonObject = dict(self.extra)
        data.update(dump(self), match=self.match, events=self.events)
        if self.rating_planned or self.rating_plan is not None:
            data["rating_plan"] = self.rating_plan
        return data

    def to_json(self) -> str:
        """Return the record as JSON text (the same document as :meth:`to_dict`)."""
        return to_json(self.to_dict()).decode()

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Return the record of a stored dict of schema 1 or 2.

        Raises: RecordError when a field is missing or malformed, or the schema is unknown (newer than
        :data:`SCHEMA`).
        """
        return load(cls, data, RecordError)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Return the record of a stored JSON document. Raises: RecordError as :meth:`from_dict`."""
        return load_json(cls, text, RecordError)

    @classmethod
    def from_stored(cls, stored: StoredGame) -> GameRecord:
        """Return the record of a game read from the store, its clock counting from when the board of the awaited
        action reached its player when the store has that mark (``stored.seen``). Raises: RecordError when it
        cannot be read."""
        record = cls.from_dict(stored.data)
        if record.clock is not None and stored.seen is not None:
            record.clock = record.clock.seen(*stored.seen)
        return record

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
        clock: GameClock | None = None,
        lobby: LobbyLink | None = None,
    ) -> GameRecord:
        """Return the record of a new game (no board posted yet: the chats' ``message_id`` is None; ``clock``: its
        time control, None for none; ``lobby``: a lobby game's series, None for a game of another kind)."""
        return cls(
            match=match,
            players=list(players),
            chats=[ChatLink(c.chat_id, c.viewer, None, c.lang, c.thread, c.inline) for c in chats],
            kind=kind,
            confirm=confirm,
            tournament=tournament,
            fairness=fairness,
            clock=clock,
            lobby=lobby,
        )


_FIELDS: Final = frozenset(f.name for f in dataclasses.fields(GameRecord)) - {"extra", "rating_planned", "schema"}
"""The stored keys the record declares (``schema`` is read on its own; anything else is kept in ``extra``)."""
