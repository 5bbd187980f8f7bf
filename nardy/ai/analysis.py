"""Post-game analysis: every checker play of a saved match rated by an evaluator (the hard level's network at
0-ply by default): the equity lost against the best legal play, and per player an error rate and the counts of
inaccuracies and blunders.

A play is rated only when there was a choice (two or more distinct legal turns); forced plays and forfeited rolls
count for nothing. The thresholds are gnubg's: a loss of at least :data:`INACCURACY` (0.04) is an inaccuracy, of
at least :data:`BLUNDER` (0.08) a blunder (gnubg's "bad" and "very bad" together). The error rate is the mean
equity lost per rated play, × 1000 (gnubg's "mEMG" per move, cubeless). Cube decisions are not rated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from nardy.game import Game, replay_records
from nardy.move import Move, Step
from nardy.position import Position

INACCURACY: Final = 0.04
BLUNDER: Final = 0.08

Evaluator = Callable[[Sequence[Move], Game], Sequence[float]]
"""Values each legal turn of ``game`` for the mover (higher is better), in the order given."""


@dataclass(frozen=True, slots=True)
class PlayRating:
    """One rated checker play: where it was (game index, index of its record in that game's history), who played
    it with which dice, what was played and what was best, and the equity lost."""

    game: int
    record: int
    player: int
    dice: tuple[int, int]
    played: str
    best: str
    loss: float
    position: Position
    """The mover's position before the play (mover's frame)."""


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's figures: rated plays, equity lost in all, error rate (× 1000 per play), inaccuracies, blunders."""

    plays: int
    lost: float
    inaccuracies: int
    blunders: int

    @property
    def error_rate(self) -> float:
        """Return the mean equity lost per rated play, × 1000 (0 when nothing was rated)."""
        return 1000.0 * self.lost / self.plays if self.plays else 0.0


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every rated play of a match and the two players' summaries."""

    plays: tuple[PlayRating, ...]

    def summary(self, player: int) -> PlayerSummary:
        """Return the figures of ``player`` (0 or 1)."""
        mine = [p for p in self.plays if p.player == player]
        return PlayerSummary(
            plays=len(mine),
            lost=sum(p.loss for p in mine),
            inaccuracies=sum(INACCURACY <= p.loss < BLUNDER for p in mine),
            blunders=sum(p.loss >= BLUNDER for p in mine),
        )

    def worst(self, player: int, count: int = 3) -> list[PlayRating]:
        """Return the ``count`` plays of ``player`` that lost the most (only plays that lost something)."""
        mine = [p for p in self.plays if p.player == player and p.loss > 1e-9]
        return sorted(mine, key=lambda p: (-p.loss, p.game, p.record))[:count]


def hard_evaluator(variant: str) -> Evaluator:
    """Return the evaluator of the hard level's network for ``variant`` at 0-ply (one network call per play).

    Raises:
        ValueError: the variant has no trained network.
    """
    from nardy.ai.players import HardPlayer

    player = HardPlayer(variant, 0, lookahead=0)

    def evaluate(moves: Sequence[Move], game: Game) -> Sequence[float]:
        return [float(v) for v in player.move_equities(moves, game)]

    return evaluate


def analyze_match(match_data: dict[str, Any], evaluator: Evaluator | None = None) -> Analysis:
    """Return the analysis of a saved match (``Match.to_dict``), every game of it.

    Raises:
        GameStateError: a game cannot be replayed.
        ValueError: no evaluator was given and a game's variant has no trained network.
    """
    evaluators: dict[str, Evaluator] = {}
    plays: list[PlayRating] = []
    games = [*match_data.get("finished_games", []), match_data["game"]]
    for index, data in enumerate(games):
        for number, (record, game) in enumerate(replay_records(data)):
            if record["t"] != "move":
                continue
            plan = game.plan()
            moves = plan.moves()
            if len(moves) < 2 or game.dice is None:
                continue
            steps = [Step(int(s), int(d), int(die), bool(hit)) for s, d, die, hit in record["steps"]]
            after = plan.position_after(steps)
            played = next((i for i, m in enumerate(moves) if m.position == after), None)
            if played is None:
                continue
            evaluate = evaluator or evaluators.get(game.variant.name)
            if evaluate is None:
                evaluate = evaluators[game.variant.name] = hard_evaluator(game.variant.name)
            values = list(evaluate(moves, game))
            best = max(range(len(moves)), key=values.__getitem__)
            plays.append(
                PlayRating(
                    game=index,
                    record=number,
                    player=game.roller,
                    dice=game.dice,
                    played=moves[played].notation,
                    best=moves[best].notation,
                    loss=max(0.0, values[best] - values[played]),
                    position=game.position_for(game.roller),
                )
            )
    return Analysis(tuple(plays))
