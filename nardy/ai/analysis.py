"""Post-game analysis: every checker play of a saved match rated by an evaluator (the hard level's network at
0-ply by default): the equity lost against the best legal play, and per player an error rate and the counts of
inaccuracies and blunders.

A play is rated only when there was a choice (two or more distinct legal turns); forced plays and forfeited rolls
count for nothing. The thresholds are gnubg's: a loss of at least :data:`INACCURACY` (0.04) is an inaccuracy, of
at least :data:`BLUNDER` (0.08) a blunder (gnubg's "bad" and "very bad" together). The error rate is the mean
equity lost per rated play, × 1000 (gnubg's "mEMG" per move, cubeless).

Cube decisions are rated in games with the cube of a variant whose network gives the five gnubg chances (short
nardy, Nackgammon, Hypergammon…): every roll the roller could have doubled before (double or no double; in a match
only while a double could gain, the roller needing more points than the cube holds, as GNU Backgammon counts them)
and every answer to a double (take or pass), valued from the chances of the position before the roll by
Janowski's model: for money by :mod:`nardy.ai.cube`, in a match (up to 25 points) at its score by
:mod:`nardy.ai.match_cube`. The same thresholds apply, in units of the cube. Beavers are not rated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from nardy.ai.cube import CubeEquities, ProperAction
from nardy.ai.cube_decisions import double_can_gain, game_cube_equities, rates_cube
from nardy.ai.features import positions_array
from nardy.game import Game, Phase
from nardy.game_record import replay_records
from nardy.move import Move, Step
from nardy.position import Position

INACCURACY: Final = 0.04
BLUNDER: Final = 0.08

Evaluator = Callable[[Sequence[Move], Game], Sequence[float]]
"""Values each legal turn of ``game`` for the mover (higher is better), in the order given."""

ChanceEvaluator = Callable[[Position], Sequence[float]]
"""The five cubeless chances (win, win gammon, win backgammon, lose gammon, lose backgammon) of a position for its
side ``me``, that side to roll."""


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
class CubeRating:
    """One rated cube decision: where it was, who decided (the roller for a double, the opponent for an answer),
    what was decided, the cubeful equities (the roller's, in units of the cube before the double), the right
    action, and the equity lost by the decider."""

    game: int
    record: int
    player: int
    kind: str
    """``double`` or ``no_double`` (the roller's decision), ``take`` or ``pass`` (the answer)."""
    equities: CubeEquities
    proper: ProperAction
    loss: float
    position: Position
    """The roller's position before the roll (roller's frame)."""


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's figures: rated plays, equity lost in all, error rate (× 1000 per play), inaccuracies, blunders;
    and the same for the rated cube decisions."""

    plays: int
    lost: float
    inaccuracies: int
    blunders: int
    cube_decisions: int = 0
    cube_lost: float = 0.0
    cube_errors: int = 0
    """Cube decisions that lost at least :data:`INACCURACY`."""

    @property
    def error_rate(self) -> float:
        """Return the mean equity lost per rated play, × 1000 (0 when nothing was rated)."""
        return 1000.0 * self.lost / self.plays if self.plays else 0.0

    @property
    def cube_error_rate(self) -> float:
        """Return the mean equity lost per rated cube decision, × 1000 (0 when none was rated)."""
        return 1000.0 * self.cube_lost / self.cube_decisions if self.cube_decisions else 0.0


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every rated play and cube decision of a match and the two players' summaries."""

    plays: tuple[PlayRating, ...]
    cubes: tuple[CubeRating, ...] = ()

    def summary(self, player: int) -> PlayerSummary:
        """Return the figures of ``player`` (0 or 1)."""
        mine = [p for p in self.plays if p.player == player]
        cubes = [c for c in self.cubes if c.player == player]
        return PlayerSummary(
            plays=len(mine),
            lost=sum(p.loss for p in mine),
            inaccuracies=sum(INACCURACY <= p.loss < BLUNDER for p in mine),
            blunders=sum(p.loss >= BLUNDER for p in mine),
            cube_decisions=len(cubes),
            cube_lost=sum(c.loss for c in cubes),
            cube_errors=sum(c.loss >= INACCURACY for c in cubes),
        )

    def cube_errors(self, player: int) -> list[CubeRating]:
        """Return the cube decisions of ``player`` that lost at least :data:`INACCURACY`, the worst first."""
        mine = [c for c in self.cubes if c.player == player and c.loss >= INACCURACY]
        return sorted(mine, key=lambda c: (-c.loss, c.game, c.record))

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


def hard_chances(variant: str) -> ChanceEvaluator:
    """Return the five chances of the hard level's network for ``variant`` (see :data:`ChanceEvaluator`).

    Raises:
        ValueError: the variant has no trained network.
    """
    from nardy.ai.players import HardPlayer

    player = HardPlayer(variant, 0, lookahead=0)

    def chances(position: Position) -> Sequence[float]:
        return [float(c) for c in player.probabilities(positions_array([position]))[0]]

    return chances


def _cube_rating(
    index: int, number: int, record: dict[str, Any], game: Game, chances: ChanceEvaluator
) -> CubeRating | None:
    kind = record["t"]
    if kind == "double" or (kind == "roll" and game.can_double() and double_can_gain(game)):
        doubler = game.roller
    elif kind in ("take", "drop") and game.phase is Phase.DOUBLED:
        doubler = 1 - game.turn
    else:
        return None
    position = game.position_for(doubler)
    equities = game_cube_equities(game, doubler, chances(position))
    if kind in ("double", "roll"):
        doubled = kind == "double"
        decision, player, loss = ("double" if doubled else "no_double"), doubler, equities.double_error(doubled)
    else:
        took = kind == "take"
        decision, player, loss = ("take" if took else "pass"), 1 - doubler, equities.take_error(took)
    return CubeRating(index, number, player, decision, equities, equities.proper, max(0.0, loss), position)


def analyze_match(
    match_data: dict[str, Any], evaluator: Evaluator | None = None, chances: ChanceEvaluator | None = None
) -> Analysis:
    """Return the analysis of a saved match (``Match.to_dict``), every game of it: the checker plays valued by
    ``evaluator`` and, where :func:`rates_cube`, the cube decisions from ``chances`` (both default to the hard
    level's network).

    Raises:
        GameStateError: a game cannot be replayed.
        ValueError: no evaluator was given and a game's variant has no trained network.
    """
    evaluators: dict[str, Evaluator] = {}
    chance_evaluators: dict[str, ChanceEvaluator] = {}
    plays: list[PlayRating] = []
    cubes: list[CubeRating] = []
    games = [*match_data.get("finished_games", []), match_data["game"]]
    for index, data in enumerate(games):
        for number, (record, game) in enumerate(replay_records(data)):
            if record["t"] != "move":
                if rates_cube(game):
                    rate = chances or chance_evaluators.get(game.variant.name)
                    if rate is None:
                        rate = chance_evaluators[game.variant.name] = hard_chances(game.variant.name)
                    rating = _cube_rating(index, number, record, game, rate)
                    if rating is not None:
                        cubes.append(rating)
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
    return Analysis(tuple(plays), tuple(cubes))
