"""A game's status values: the :class:`Phase` it is in (what it waits for) and, once it is over, its
:class:`GameResult`. Both :mod:`nardy.game` and its saved record (:mod:`nardy.game_codec`) use them; ``nardy.game``
re-exports them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """What the game waits for."""

    OPENING = "opening"  # the opening roll
    ROLL = "roll"  # the roller to roll (or double)
    MOVE = "move"  # the roller to play the dice
    CHOOSE = "choose"  # the roller to name the double it plays after an Acey-deucey 1-2
    DOUBLED = "doubled"  # the other player to answer a double (or, after a beaver, the doubler to answer it)
    RESIGN = "resign"  # the other player to answer a resignation offer
    OVER = "over"


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended. ``winner`` is None for a draw; ``points`` is what the winner scores (a draw: each gets
    ``points``). ``kind`` is single/gammon/backgammon, oin/mars/home_mars/koks, or draw; ``reason`` is
    bearoff, drop, resign, abandon or draw."""

    winner: int | None
    kind: str
    value: int
    cube: int
    points: float
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """Return the result as a JSON-compatible dict."""
        return {
            "winner": self.winner,
            "kind": self.kind,
            "value": self.value,
            "cube": self.cube,
            "points": self.points,
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        """Return a result read from :meth:`to_dict` output.

        Raises:
            KeyError: a field is missing.
        """
        return cls(data["winner"], data["kind"], data["value"], data["cube"], data["points"], data["reason"])
