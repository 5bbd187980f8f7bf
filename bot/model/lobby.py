"""The lobby's records, typed (docs/rules.md "Lobby"): what a lobby game keeps in its record, and what a user's
settings keep of the lobby.

- :class:`LobbyLink`, stored in a game record under ``"lobby"``: ``{"series": id, "score": [a, b], "clock": "12+2",
  "votes"?: [player, ...]}`` — the series the game belongs to (the id of its first game), the games each player
  (in the record's order) had won in the series before this game, the clock label it was sought on, and the
  players who pressed Rematch after it;
- :class:`Abandons`, stored in a user's settings under ``"lobby_abandons"``: ``{"count": n, "last": unix time,
  "games": [game ids]}`` — the abandonments in a row (none 7 days apart), the latest one's time and the latest
  games counted (so a game is counted once however often its end is handled).
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field, SerializerFunctionWrapHandler, StrictInt, StrictStr, model_serializer
from pydantic.dataclasses import dataclass

from bot.model.codec import JsonObject, dump, load

Side = Annotated[StrictInt, Field(ge=0, le=1)]
KEPT_GAMES: Final = 8
"""How many abandoned games' ids :class:`Abandons` keeps (a game's end is handled at most a few times)."""


class LobbyError(ValueError):
    """A lobby value that cannot be read."""


@dataclass(frozen=True, slots=True)
class LobbyLink:
    """A lobby game's place in its series (see the module docstring)."""

    series: StrictStr
    score: tuple[Annotated[StrictInt, Field(ge=0)], Annotated[StrictInt, Field(ge=0)]] = (0, 0)
    clock: StrictStr = ""
    votes: tuple[Side, ...] = ()

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        if not self.votes:
            del data["votes"]
        return data

    def to_dict(self) -> JsonObject:
        """Return the link as stored under ``"lobby"``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> LobbyLink:
        """Return the link of a stored ``"lobby"`` value. Raises: LobbyError when it is malformed."""
        return load(cls, data, LobbyError)


@dataclass(frozen=True, slots=True)
class Abandons:
    """A user's abandonments of lobby games (see the module docstring)."""

    count: Annotated[StrictInt, Field(ge=0)] = 0
    last: float = 0.0
    games: tuple[StrictStr, ...] = ()

    def to_dict(self) -> JsonObject:
        """Return the abandonments as stored under ``"lobby_abandons"``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> Abandons:
        """Return the abandonments of a stored value. Raises: LobbyError when it is malformed."""
        return load(cls, data, LobbyError)
