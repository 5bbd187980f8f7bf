"""The events of a game's history as typed immutable values: one class per kind of record a game writes.

A :class:`~nardy.game.Game` is the replay of its events. Each event reads from and writes to the JSON record it has
always been saved as (``{"t": "roll", "dice": [5, 6]}``, ``{"t": "move", "steps": [[13, 8, 5, false]]}``, …),
so saved games load unchanged; :mod:`nardy.records` keeps the compact text form of those records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from nardy.errors import GameStateError
from nardy.move import Step
from nardy.records import read_record


def dice_pair(values: Any) -> tuple[int, int]:
    """Return two dice read from a saved pair such as ``[5, 6]``.

    Raises:
        GameStateError: the values are not two integers in 1..6.
        TypeError, ValueError: ``values`` is not a pair.
    """
    a, b = values
    if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in (a, b)):
        raise GameStateError(f"dice {values!r} are not two values in 1..6")
    return int(a), int(b)


@dataclass(frozen=True, slots=True)
class OpeningRolled:
    """The opening roll: one die for each player (``dice[0]`` player 0's)."""

    dice: tuple[int, int]
    kind: ClassVar[str] = "open"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "open", "dice": [a, b]}``."""
        return {"t": self.kind, "dice": list(self.dice)}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> OpeningRolled:
        """Return the event of a saved record (raises GameStateError, KeyError, TypeError or ValueError when
        malformed)."""
        return cls(dice_pair(record["dice"]))


@dataclass(frozen=True, slots=True)
class Rolled:
    """The roller's roll."""

    dice: tuple[int, int]
    kind: ClassVar[str] = "roll"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "roll", "dice": [a, b]}``."""
        return {"t": self.kind, "dice": list(self.dice)}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Rolled:
        """Return the event of a saved record (raises GameStateError, KeyError, TypeError or ValueError when
        malformed)."""
        return cls(dice_pair(record["dice"]))


@dataclass(frozen=True, slots=True)
class Moved:
    """The roller's move (the steps of the part of the turn it played)."""

    steps: tuple[Step, ...]
    kind: ClassVar[str] = "move"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "move", "steps": [[src, dst, die, hit], ...]}``."""
        return {"t": self.kind, "steps": [[s.src, s.dst, s.die, s.hit] for s in self.steps]}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Moved:
        """Return the event of a saved record (raises KeyError, TypeError or ValueError when malformed)."""
        return cls(tuple(Step(int(s), int(d), int(die), bool(h)) for s, d, die, h in record["steps"]))


@dataclass(frozen=True, slots=True)
class DoubleNamed:
    """The double ``die``-``die`` named after a wholly played Acey-deucey 1-2."""

    die: int
    kind: ClassVar[str] = "choose"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "choose", "die": d}``."""
        return {"t": self.kind, "die": self.die}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> DoubleNamed:
        """Return the event of a saved record (raises KeyError, TypeError or ValueError when malformed)."""
        return cls(int(record["die"]))


@dataclass(frozen=True, slots=True)
class Resigned:
    """``player`` offers to resign at ``level``."""

    player: int
    level: str
    kind: ClassVar[str] = "resign"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "resign", "player": p, "level": level}``."""
        return {"t": self.kind, "player": self.player, "level": self.level}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Resigned:
        """Return the event of a saved record (raises KeyError, TypeError or ValueError when malformed)."""
        return cls(int(record["player"]), str(record["level"]))


@dataclass(frozen=True, slots=True)
class Abandoned:
    """``player`` lost the game by leaving it (or by timeout)."""

    player: int
    kind: ClassVar[str] = "abandon"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "abandon", "player": p}``."""
        return {"t": self.kind, "player": self.player}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Abandoned:
        """Return the event of a saved record (raises KeyError, TypeError or ValueError when malformed)."""
        return cls(int(record["player"]))


@dataclass(frozen=True, slots=True)
class Passed:
    """The roll could not be played: the part of the turn is forfeited."""

    kind: ClassVar[str] = "pass"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "pass"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Passed:
        """Return the event of a saved record."""
        return cls()


@dataclass(frozen=True, slots=True)
class Doubled:
    """The roller offers a double."""

    kind: ClassVar[str] = "double"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "double"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Doubled:
        """Return the event of a saved record."""
        return cls()


@dataclass(frozen=True, slots=True)
class Taken:
    """The double on offer is taken (after a beaver: the beavered cube is accepted)."""

    kind: ClassVar[str] = "take"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "take"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Taken:
        """Return the event of a saved record."""
        return cls()


@dataclass(frozen=True, slots=True)
class Dropped:
    """The double on offer is passed: the doubler wins the game at the cube's value."""

    kind: ClassVar[str] = "drop"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "drop"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Dropped:
        """Return the event of a saved record."""
        return cls()


@dataclass(frozen=True, slots=True)
class Beavered:
    """The double on offer is taken and at once redoubled by the taker, who keeps the cube."""

    kind: ClassVar[str] = "beaver"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "beaver"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Beavered:
        """Return the event of a saved record."""
        return cls()


@dataclass(frozen=True, slots=True)
class Raccooned:
    """The beaver is answered by another redouble of the doubler."""

    kind: ClassVar[str] = "raccoon"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "raccoon"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Raccooned:
        """Return the event of a saved record."""
        return cls()


@dataclass(frozen=True, slots=True)
class ResignationAccepted:
    """The resignation on offer is accepted: the game ends."""

    kind: ClassVar[str] = "accept"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "accept"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> ResignationAccepted:
        """Return the event of a saved record."""
        return cls()


@dataclass(frozen=True, slots=True)
class ResignationDeclined:
    """The resignation on offer is declined: play goes on where it was."""

    kind: ClassVar[str] = "decline"

    def to_dict(self) -> dict[str, Any]:
        """Return the saved record: ``{"t": "decline"}``."""
        return {"t": self.kind}

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> ResignationDeclined:
        """Return the event of a saved record."""
        return cls()


GameEvent = (
    OpeningRolled
    | Rolled
    | Moved
    | DoubleNamed
    | Resigned
    | Abandoned
    | Passed
    | Doubled
    | Taken
    | Dropped
    | Beavered
    | Raccooned
    | ResignationAccepted
    | ResignationDeclined
)
"""Any event of a game's history."""

EVENT_TYPES: tuple[type[GameEvent], ...] = (
    OpeningRolled,
    Rolled,
    Moved,
    DoubleNamed,
    Resigned,
    Abandoned,
    Passed,
    Doubled,
    Taken,
    Dropped,
    Beavered,
    Raccooned,
    ResignationAccepted,
    ResignationDeclined,
)
"""Every event class, one per record kind."""

_BY_KIND: dict[str, type[GameEvent]] = {cls.kind: cls for cls in EVENT_TYPES}

PLAY_EVENTS: tuple[type[GameEvent], ...] = (Rolled, Moved, Passed, DoubleNamed, OpeningRolled)
"""The events after which a roll may be found to have no legal move (and is forfeited at once)."""


def event_from_dict(record: Mapping[str, Any]) -> GameEvent:
    """Return the event of a saved history record (the dict form).

    Raises:
        GameStateError: an unknown record kind, or dice that are not two values in 1..6.
        KeyError, TypeError, ValueError: a field of the record is missing or malformed.
    """
    kind = record.get("t")
    cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise GameStateError(f"unknown history record {record!r}")
    return cls.from_dict(record)


def read_event(value: Any) -> GameEvent:
    """Return the event of a history record saved either as a dict or in its compact form (:mod:`nardy.records`).

    Raises:
        GameStateError: ``value`` is neither, or an unknown record kind, or dice that are not two values in 1..6.
        KeyError, TypeError, ValueError: a field of the record is missing or malformed.
    """
    return event_from_dict(read_record(value))
