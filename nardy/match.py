"""Match play to N points with the Crawford rule (and money sessions, N = 0)."""

from __future__ import annotations

from typing import Any

from nardy.dice import DiceSource
from nardy.errors import GameStateError, MatchOverError
from nardy.game import Game, Phase
from nardy.options import Options
from nardy.variants import Variant, get_variant

MATCH_SCHEMA_VERSION = 1


class Match:
    """A sequence of games of one variant; the match ends when a player reaches ``length`` points.

    ``length`` 0 is a money session that never ends by itself.
    """

    def __init__(
        self,
        variant: str | Variant = "short",
        length: int = 0,
        *,
        options: Options | None = None,
        dice: DiceSource | None = None,
    ) -> None:
        """Start a match with its first game.

        Raises:
            UnknownVariantError: no such variant.
            GameStateError: a negative length.
        """
        if length < 0:
            raise GameStateError(f"match length {length} is negative")
        self.variant = get_variant(variant)
        self.length = length
        self.options = options or Options()
        self.dice = dice
        self.score: tuple[float, float] = (0, 0)
        self.finished_games: list[dict[str, Any]] = []
        self.crawford_done = False
        self.game = self._new_game(crawford=False, first_player=None)

    def _new_game(self, *, crawford: bool, first_player: int | None) -> Game:
        return Game(
            self.variant,
            options=self.options,
            dice=self.dice,
            match_length=self.length,
            score=self.score,
            crawford=crawford,
            first_player=first_player,
        )

    @property
    def winner(self) -> int | None:
        """Return the player who has won the match, or None while it goes on (always None for money play).

        The current game counts as soon as it is over, so the deciding game makes the match won at once, before
        (and without) :meth:`next_game`. A player wins by reaching ``length`` with more points than the other.
        A drawn game (option ``last_roll_draw``, half the cube to each) that leaves both players at ``length`` or
        more with equal scores does not end the match: one more game is played, and its winner wins the match
        (again after each further such draw).
        """
        if not self.length:
            return None
        a, b = self.score_after_game() if self.game.result is not None else self.score
        # RULES.md §3 (match play) ends the match "when a player reaches N" and says nothing of both reaching N
        # at once, which only a last_roll_draw draw (§2) can do: then the scores are level and a further game decides.
        if max(a, b) < self.length or a == b:
            return None
        return 0 if a > b else 1

    @property
    def over(self) -> bool:
        """Return whether the match has been won (the current game counted as soon as it is over)."""
        return self.winner is not None

    def score_after_game(self) -> tuple[float, float]:
        """Return the match score counting the current game if it is over.

        Raises:
            GameStateError: the current game is not over.
        """
        result = self.game.result
        if result is None:
            raise GameStateError("the current game is not over")
        a, b = self.score
        if result.winner is None:
            return a + result.points, b + result.points
        return (a + result.points, b) if result.winner == 0 else (a, b + result.points)

    def next_game(self) -> Game:
        """Score the finished game and start the next one; return it.

        The first game after a player reaches ``length - 1`` is the Crawford game (no cube) when the option
        ``crawford`` is on. With ``opening=winner_starts`` the previous winner moves first.

        Raises:
            GameStateError: the current game is not over.
            MatchOverError: the match has been won (:attr:`over`); nothing changes, so calling again is harmless.
        """
        if self.game.phase is not Phase.OVER or self.game.result is None:
            raise GameStateError("the current game is not over")
        if self.over:
            a, b = self.score_after_game()
            raise MatchOverError(f"the match is over: player {self.winner} has won {a:g}-{b:g}")
        before = self.score
        self.score = self.score_after_game()
        self.finished_games.append(self.game.to_dict(compact=True))
        crawford = False
        if self.length and self.options.crawford and not self.crawford_done:
            reached = [s >= self.length - 1 for s in self.score]
            was = [s >= self.length - 1 for s in before]
            if any(reached) and not any(was):
                crawford = True
                self.crawford_done = True
        winner = self.game.result.winner
        first = winner if self.options.opening == "winner_starts" and winner is not None else None
        self.game = self._new_game(crawford=crawford, first_player=first)
        return self.game

    def to_dict(self) -> dict[str, Any]:
        """Return the match as a JSON-compatible dict (finished games, current game, score)."""
        return {
            "schema": MATCH_SCHEMA_VERSION,
            "variant": self.variant.name,
            "length": self.length,
            "options": self.options.to_dict(),
            "score": list(self.score),
            "crawford_done": self.crawford_done,
            "finished_games": list(self.finished_games),
            "game": self.game.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, dice: DiceSource | None = None) -> Match:
        """Return the match saved by :meth:`to_dict`.

        Raises:
            GameStateError: an unknown schema or a game that cannot be replayed.
        """
        if data.get("schema") != MATCH_SCHEMA_VERSION:
            raise GameStateError(f"unknown match schema {data.get('schema')!r}")
        try:
            match = cls(data["variant"], int(data["length"]), options=Options.from_dict(data["options"]), dice=dice)
            match.score = (data["score"][0], data["score"][1])
            match.crawford_done = bool(data["crawford_done"])
            match.finished_games = list(data["finished_games"])
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise GameStateError(f"saved match cannot be read: {error}") from error
        match.game = Game.from_dict(data["game"], dice=dice)
        return match
