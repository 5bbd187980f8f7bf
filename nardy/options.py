"""Rule options of docs/rules.md with their defaults. Values are immutable; unknown names or values are refused."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from nardy.errors import NardyError

Opening = Literal["standard", "reroll", "winner_starts"]
HeadException = Literal["blocked", "classic", "none"]
BlockCheck = Literal["per_move", "end_of_turn"]
LongScoring = Literal["federation", "extended"]
CubeProgression = Literal["geometric", "arithmetic"]
FevgaPrime = Literal["long_rule", "free"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "opening": ("standard", "reroll", "winner_starts"),
    "head_exception": ("blocked", "classic", "none"),
    "block_check": ("per_move", "end_of_turn"),
    "long_scoring": ("federation", "extended"),
    "cube_progression": ("geometric", "arithmetic"),
    "fevga_prime": ("long_rule", "free"),
}


class InvalidOptionError(NardyError):
    """An option name or value that docs/rules.md does not define."""


@dataclass(frozen=True, slots=True)
class Options:
    """Every rule option of docs/rules.md. ``None`` means the variant's default: ``cube`` (on for short nardy,
    Hypergammon, Nackgammon and Misère; off for long nardy and Portes) and ``last_roll_draw`` (on for Misère, off
    elsewhere). ``hyper_gammons`` counts gammons and backgammons in Hypergammon (docs/rules.md §6.1; no other variant
    reads it). ``fevga_prime`` (docs/rules.md §6.2, Fevga only): ``long_rule`` (default: a six-point prime outside the
    start quarter follows long nardy's block rule) | ``free`` (only the start-quarter ban). ``gulbara_plain_turns``
    (0..10, default 3) and ``gulbara_pass_unplayed`` (default on), docs/rules.md §6.4, Gul bara only: how many of each
    player's first turns play doubles normally, and whether the unplayed moves of an escalation pass to the opponent
    (off: they are lost). ``misere`` (docs/rules.md §6.3, long nardy only; default off): the first side to bear off
    all its checkers loses, 1 point, no марс."""

    opening: Opening = "standard"
    head_exception: HeadException = "blocked"
    block_check: BlockCheck = "per_move"
    long_scoring: LongScoring = "federation"
    last_roll_draw: bool | None = None
    cube: bool | None = None
    jacoby: bool = False
    beaver: bool = False
    raccoon: bool = False
    auto_doubles: int = 0
    cube_progression: CubeProgression = "geometric"
    max_cube: int = 64
    crawford: bool = True
    hyper_gammons: bool = False
    fevga_prime: FevgaPrime = "long_rule"
    gulbara_plain_turns: int = 3
    gulbara_pass_unplayed: bool = True
    misere: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the options as a JSON-compatible dict."""
        return asdict(self)

    def updated(self, **changes: Any) -> Options:
        """Return a copy with ``changes`` applied and checked.

        Raises:
            InvalidOptionError: an unknown option name or a value it does not accept.
        """
        return Options.from_dict({**self.to_dict(), **changes})

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """Return options read from a dict (missing names take their defaults).

        Raises:
            InvalidOptionError: an unknown option name or a value it does not accept.
        """
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        for name, choices in _CHOICES.items():
            if name in data and data[name] not in choices:
                raise InvalidOptionError(f"option {name}={data[name]!r} must be one of {', '.join(choices)}")
        for name in ("jacoby", "beaver", "raccoon", "crawford", "hyper_gammons", "gulbara_pass_unplayed", "misere"):
            if name in data and not isinstance(data[name], bool):
                raise InvalidOptionError(f"option {name}={data[name]!r} must be true or false")
        for name in ("cube", "last_roll_draw"):
            if name in data and data[name] is not None and not isinstance(data[name], bool):
                raise InvalidOptionError(f"option {name}={data[name]!r} must be true, false or null")
        for name, low, high in (("auto_doubles", 0, 6), ("max_cube", 1, 4096), ("gulbara_plain_turns", 0, 10)):
            value = data.get(name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high
            ):
                raise InvalidOptionError(f"option {name}={value!r} must be an integer in {low}..{high}")
        return replace(cls(), **data)
