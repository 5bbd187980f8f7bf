"""Computer players: random, easy, medium (hand-written evaluation) and hard (self-play trained network), for long
and short nardy and the variants of docs/rules.md §6: on the short-nardy board Hypergammon, Nackgammon, Portes, Misère,
Plakoto (pinned checkers), Acey-deucey and Dutch backgammon (a reserve); on the long-nardy board Fevga and Gul bara.

Every player answers the :class:`~nardy.ai.ComputerPlayer` protocol on a :class:`~nardy.game.Game`. Players are cheap
to build and hold only a random generator; the hard player's network is loaded once per process and shared
read-only, so players may be used from worker threads (one player object per thread or per game).

The hard player's search is :mod:`nardy.ai.search`; the levels by name are :mod:`nardy.ai.levels`, games between
computer players :mod:`nardy.ai.selfplay`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from nardy.ai import search
from nardy.ai.cube import CubeEquities
from nardy.ai.cube_decisions import double_can_gain, game_cube_equities, rates_cube
from nardy.ai.features import F64, U8, family, positions_array, swap
from nardy.ai.heuristic import HEAD_COST, heuristic_equity, heuristic_score
from nardy.ai.network import Network, equity, output_names, shipped_network
from nardy.ai.protocol import CubeAction, TakeDecision
from nardy.ai.race import RaceTable, race_table
from nardy.ai.search import search_settings, won_values
from nardy.errors import GameStateError
from nardy.game import RESIGN_VALUES, Game, Phase
from nardy.move import Move
from nardy.options import Options
from nardy.position import Position
from nardy.variants import Variant, get_variant


def _moves_of(game: Game) -> list[Move]:
    if game.phase is not Phase.MOVE:
        raise GameStateError(f"no move to choose: the game is in phase {game.phase.value}")
    moves = game.legal_moves()
    if not moves:  # pragma: no cover - the game forfeits such rolls itself
        raise GameStateError("the roll has no legal move")
    return moves


class _BasePlayer:
    """Shared cube and resignation logic over an equity estimate of the position before a roll."""

    level = "base"
    double_threshold = 0.45
    redouble_threshold = 0.55
    too_good = 1.0
    take_threshold = -0.5

    def __init__(self, variant: str | Variant, seed: int | None = None) -> None:
        self.variant = get_variant(variant)
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.variant.name!r})"

    # -- evaluation hooks
    def move_equities(self, moves: Sequence[Move], game: Game) -> F64:
        """Return the equity of each move for the mover (higher is better)."""
        raise NotImplementedError

    def position_equity(self, position: Position) -> float:
        """Return the cubeless equity of ``position`` for its side ``me``, that side to roll."""
        raise NotImplementedError

    # -- protocol
    def choose_move(self, game: Game) -> Move:
        """Return the player's choice among the legal moves of the current roll.

        Raises:
            GameStateError: the game is not waiting for a move.
        """
        moves = _moves_of(game)
        if len(moves) == 1:
            return moves[0]
        return moves[int(np.argmax(self.move_equities(moves, game)))]

    def cube_action(self, game: Game) -> CubeAction:
        """Return ``double`` when the roller should offer a double now, else ``no_double`` (also when not allowed)."""
        if not game.can_double():
            return "no_double"
        value = self.position_equity(game.position)
        threshold = self.redouble_threshold if game.cube_owner is not None else self.double_threshold
        return "double" if threshold <= value < self.too_good else "no_double"

    def take_decision(self, game: Game) -> TakeDecision:
        """Return ``take`` or ``drop`` for the double on offer.

        Raises:
            GameStateError: no double waits for an answer.
        """
        if game.phase is not Phase.DOUBLED:
            raise GameStateError(f"no double to answer: the game is in phase {game.phase.value}")
        taker = game.turn
        value = -self.position_equity(game.position_for(1 - taker))
        return "take" if value >= self.take_threshold else "drop"

    def accept_resignation(self, game: Game) -> bool:
        """Return whether to accept the resignation on offer (it gives at least the expected result of play).

        Raises:
            GameStateError: no resignation is on offer.
        """
        if game.phase is not Phase.RESIGN or game.resign_offer is None:
            raise GameStateError(f"no resignation to answer: the game is in phase {game.phase.value}")
        resigner, level = game.resign_offer
        me = 1 - resigner
        value = self.position_equity(game.position_for(game.roller))
        if game.roller != me:
            value = -value
        return RESIGN_VALUES[level] >= value


class RandomPlayer(_BasePlayer):
    """Plays a uniformly random legal move; never doubles, always takes, accepts any resignation."""

    level = "random"

    def choose_move(self, game: Game) -> Move:
        """Return a random legal move.

        Raises:
            GameStateError: the game is not waiting for a move.
        """
        return self.rng.choice(_moves_of(game))

    def cube_action(self, game: Game) -> CubeAction:
        """Return ``no_double``."""
        return "no_double"

    def take_decision(self, game: Game) -> TakeDecision:
        """Return ``take``.

        Raises:
            GameStateError: no double waits for an answer.
        """
        if game.phase is not Phase.DOUBLED:
            raise GameStateError(f"no double to answer: the game is in phase {game.phase.value}")
        return "take"

    def accept_resignation(self, game: Game) -> bool:
        """Return True.

        Raises:
            GameStateError: no resignation is on offer.
        """
        if game.phase is not Phase.RESIGN:
            raise GameStateError(f"no resignation to answer: the game is in phase {game.phase.value}")
        return True


# the standard deviation of the error medium adds to each move's network equity in long nardy (see MediumPlayer)
LONG_MEDIUM_NOISE = 0.07
# the easy level's default (noise, blunder) by variant or family (see EasyPlayer; figures in benchmarks/ai_strength.py)
EASY_WEAKENING: dict[str, tuple[float, float]] = {
    "short": (12.0, 0.1),
    "long": (0.0, 0.0),
    "fevga": (3.0, 0.0),
    "gulbara": (3.0, 0.0),
    "reserve": (12.0, 0.1),
    "plakoto": (12.0, 0.1),
}
# the easy level's (block weight, cost of a checker on the head) on the long-nardy board by variant (see EasyPlayer;
# other variants of that board: no blocks and the medium evaluation's HEAD_COST)
EASY_LONG_PLAN: dict[str, tuple[float, float]] = {"long": (0.3, 2.0)}


class MediumPlayer(_BasePlayer):
    """Searches one turn deep: with the hand-written evaluation (:mod:`nardy.ai.heuristic`) in short nardy and the
    variants on its board (Hypergammon, Nackgammon and Portes with short nardy's evaluation for their checkers,
    Misère with its reversed one, Acey-deucey and Dutch with it and the reserve counted as the bar, Plakoto with
    its own evaluation of pins and the mother), and on the long-nardy board (Fevga, Gul bara: long nardy's block
    evaluation); with the trained network blurred by noise in long nardy itself.

    A position a variant ends at once (Plakoto's mother rule) is valued by that result like a finished game. In a
    Gul bara hand-over the mover is the player who receives the moves (``game.roller``), in Phase.CHOOSE the named
    double is chosen by :func:`nardy.ai.bonus.choose_double` over this player's moves and equities.

    A turn that ends the game is valued by the variant's result: what the mover wins, or in Misère (the first to
    finish loses) minus what the other side wins, so such a turn comes first, or in Misère last. The cube, take and
    resignation answers read the same evaluation (in Misère the reversed one), so they follow each variant's aim;
    the values they compare are per cube unit, a resignation's points are the variant's own.

    In long nardy the hand-written evaluation barely beats the easy level, so medium values the moves there with the
    hard level's network at 0-ply (no look-ahead) plus a seeded Gaussian error of ``LONG_MEDIUM_NOISE`` (equity
    units), which keeps it clearly below the hard level (benchmarks/ai_strength.py, section long).
    """

    level = "medium"
    double_threshold = 0.5
    redouble_threshold = 0.6
    take_threshold = -0.55
    uses_long_network = True

    def __init__(self, variant: str | Variant, seed: int | None = None) -> None:
        super().__init__(variant, seed)
        self.network: Network | None = None
        if self.uses_long_network and self.variant.name == "long":
            self.network = shipped_network(self.variant.name)

    def move_equities(self, moves: Sequence[Move], game: Game) -> F64:
        """Return the heuristic equity of each move (a won game counts its value); in long nardy the noisy network
        equity."""
        positions = [m.position for m in moves]
        if self.network is not None:
            batch = positions_array(positions)
            values = -equity(self.variant.name, self.network.probabilities(swap(batch)))
            values = values + np.array([self.rng.gauss(0.0, LONG_MEDIUM_NOISE) for _ in moves])
            won = won_values(self.variant, batch, positions, game.options)
            return np.asarray(np.where(np.isnan(won), values, won + 10.0 * np.sign(won)))
        batch = positions_array(positions)
        values = heuristic_equity(self.variant.name, batch)
        won = won_values(self.variant, batch, positions, game.options)
        return np.asarray(np.where(np.isnan(won), values, won + 10.0 * np.sign(won)))

    def position_equity(self, position: Position) -> float:
        """Return the heuristic (long nardy: network) equity of ``position`` for its side ``me``, that side to roll."""
        if self.network is not None:
            return float(self.network.equities(positions_array([position]))[0])
        return -float(heuristic_equity(self.variant.name, swap(positions_array([position])))[0])


class EasyPlayer(MediumPlayer):
    """The hand-written evaluation, weakened: plausible moves with clear mistakes.

    ``noise`` is the standard deviation of the error added to each move's score (pip-like units) and ``blunder``
    the chance of a random legal move (a turn that ends the game is still valued by its result); their defaults are
    :data:`EASY_WEAKENING`'s: 12 and 0.1 for short nardy and the variants on its board (Acey-deucey, Dutch and
    Plakoto too), 0 and 0 for long nardy, 3 and 0 for Fevga and Gul bara. ``blocking`` is the weight of the block
    terms of the long-nardy board's evaluation and ``head`` its cost of a checker left on the head; their defaults
    are :data:`EASY_LONG_PLAN`'s: 0.3 and 2 in long nardy (a faint sense of blocks, and a checker off the head in
    nearly every turn the rules allow it), 0 and 0.5 in Fevga and Gul bara (no plan for blocks). In long nardy,
    where every move of a roll moves about the same pips, noise or random moves lose to a simple greedy rule, so the
    easy level is weakened there by what it ignores instead; in Fevga and Gul bara the block terms alone make no
    measurable difference, so easy also blurs its scores by a little noise there.
    """

    level = "easy"
    uses_long_network = False
    double_threshold = 0.35
    redouble_threshold = 0.5
    take_threshold = -0.7

    def __init__(
        self,
        variant: str | Variant,
        seed: int | None = None,
        *,
        noise: float | None = None,
        blunder: float | None = None,
        blocking: float | None = None,
        head: float | None = None,
    ) -> None:
        super().__init__(variant, seed)
        kind = family(self.variant.name)
        default_noise, default_blunder = EASY_WEAKENING.get(self.variant.name, EASY_WEAKENING.get(kind, (0.0, 0.0)))
        self.noise = noise if noise is not None else default_noise
        self.blunder = blunder if blunder is not None else default_blunder
        default_blocking, default_head = EASY_LONG_PLAN.get(self.variant.name, (0.0, HEAD_COST))
        self.blocking = blocking if blocking is not None else default_blocking
        self.head = head if head is not None else default_head

    def move_equities(self, moves: Sequence[Move], game: Game) -> F64:
        """Return noisy heuristic scores of the moves (a won game always comes first, in Misère a finished one
        last)."""
        positions = [m.position for m in moves]
        batch = positions_array(positions)
        if self.rng.random() < self.blunder:
            scores = np.array([self.rng.random() for _ in moves])
        else:
            scores = heuristic_score(self.variant.name, batch, blocking=self.blocking, head=self.head)
            if self.noise:
                scores = scores + np.array([self.rng.gauss(0.0, self.noise) for _ in moves])
        won = won_values(self.variant, batch, positions, game.options)
        return np.asarray(np.where(np.isnan(won), scores, 1e6 * np.sign(won)))


class HardPlayer(_BasePlayer):
    """The trained network: 0-ply on every move, then a 1-ply look-ahead on the best few.

    In a variant with a race table (:mod:`nardy.ai.race`) the table's positions are valued by its exact chances
    instead of the network: Hypergammon's races, and the bear-offs of short nardy, Nackgammon, Portes and long nardy
    (``exact_races=False`` turns that off).

    Cube decisions, where the network gives the five gnubg chances (short nardy, Nackgammon, Hypergammon…), follow
    Janowski's cubeful model at the game's cube and score (:mod:`nardy.ai.cube_decisions`: money, or a match up to 25
    points with the Kazaross-XG2 table); elsewhere the equity thresholds below.

    Only for variants whose network ships in ``nardy/ai/weights`` (see :func:`has_level`); otherwise building one
    raises ``ValueError("no trained network for <variant> yet")``.

    The search's settings default to the variant's (:func:`nardy.ai.search.search_settings`); each can be given.
    ``lookahead`` is how many candidates get the 1-ply look-ahead (0 = pure 0-ply); ``window`` drops candidates whose
    0-ply equity is further than this below the best; ``node_budget`` caps the work of the look-ahead: once it has
    valued that many replies (network evaluations) no further candidate is started (the one under way finishes).
    The budget counts work, never time, so a position and seed give the same move however busy the machine is.

    In short and long nardy (:data:`nardy.ai.search.SEARCH`) the best ``deep`` candidates of the 1-ply look-ahead within
    ``deep_window`` of its best are then searched at 2-ply (:meth:`two_ply`) and the move is chosen among them; the
    2-ply search values at most ``deep_budget`` positions per decision: a candidate whose search would pass it is
    not searched, and the 1-ply values decide when fewer than two candidates were. ``deep=0`` turns it off.
    ``last_evaluations`` is the number of positions the last :meth:`move_equities` call valued beyond 0-ply.
    """

    level = "hard"
    double_threshold = 0.42
    redouble_threshold = 0.52
    too_good = 1.0
    take_threshold = -0.52

    def __init__(
        self,
        variant: str | Variant,
        seed: int | None = None,
        *,
        network: Network | None = None,
        lookahead: int | None = None,
        window: float | None = None,
        node_budget: int | None = None,
        exact_races: bool = True,
        deep: int | None = None,
        deep_window: float | None = None,
        deep_budget: int | None = None,
    ) -> None:
        super().__init__(variant, seed)
        if network is None:
            try:
                network = shipped_network(self.variant.name)
            except FileNotFoundError:
                raise ValueError(f"no trained network for {self.variant.name} yet") from None
        self.network = network
        settings = search_settings(self.variant.name)
        self.lookahead = settings.lookahead if lookahead is None else lookahead
        self.window = settings.window if window is None else window
        self.node_budget = settings.node_budget if node_budget is None else node_budget
        self.race: RaceTable | None = race_table(self.variant.name) if exact_races else None
        self.deep = settings.deep if deep is None else deep
        self.deep_window = settings.deep_window if deep_window is None else deep_window
        self.deep_budget = settings.deep_budget if deep_budget is None else deep_budget
        # the 2-ply search values finished games by their points only: not for variants ending games otherwise
        self.deep_search = type(self.variant).sudden_result is Variant.sudden_result
        self.last_evaluations = 0

    def probabilities(self, batch: U8) -> F64:
        """Return the network's output probabilities of an ``(n, 50)`` batch for the side on roll, the positions of
        the variant's race table valued by it where it has one (Hypergammon's races: the win chance; short nardy's
        bear-offs: the win and gammon chances)."""
        probs = self.network.probabilities(batch)
        if self.race is None:
            return probs
        exact = self.race.chances(batch, output_names(self.variant.name))
        covered = ~np.isnan(exact[:, 0])
        if covered.any():
            probs = probs.copy()
            probs[covered] = exact[covered]
        return probs

    def zero_ply(self, positions: Sequence[Position], options: Options) -> F64:
        """Return the 0-ply equity of each position after a move, for the side that moved."""
        return search.zero_ply(self, positions, options)

    def one_ply(self, position: Position, game: Game, opponent_first: bool) -> float:
        """Return the 1-ply equity of ``position`` (after our move, our frame): the average over the opponent's 21
        rolls of our 0-ply equity after its best reply."""
        return self._one_ply(position, game, opponent_first)[0]

    def _one_ply(self, position: Position, game: Game, opponent_first: bool) -> tuple[float, int]:
        """Return :meth:`one_ply` and the number of replies it valued."""
        return search.one_ply(self, position, game.options, opponent_first)

    def two_ply(self, position: Position, game: Game, opponent_first: bool) -> float:
        """Return the 2-ply equity of ``position`` (after our move, our frame): the average over the opponent's 21
        rolls of our 1-ply value after its best reply at 0-ply (see :meth:`_two_ply`; no work limit)."""
        value, _ = self._two_ply(position, game, opponent_first, limit=2**62)
        assert value is not None
        return value

    def _two_ply(self, position: Position, game: Game, opponent_first: bool, limit: int) -> tuple[float | None, int]:
        """Return the 2-ply equity of ``position`` (after our move, our frame) and the number of positions valued,
        or (None, what it valued) when the search would value more than ``limit`` (:func:`nardy.ai.search.two_ply`)."""
        return search.two_ply(self, position, game.options, opponent_first, limit)

    def move_equities(self, moves: Sequence[Move], game: Game) -> F64:
        """Return 0-ply equities, refined by the 1-ply look-ahead on the best candidates within the node budget and
        then, where the variant searches deeper, by the 2-ply search on the best of those (``-inf`` for the moves
        the deepest search did not value)."""
        values = self.zero_ply([m.position for m in moves], game.options)
        opponent_first = game.is_first_turn(1 - game.roller)
        refined, self.last_evaluations = search.look_ahead(
            values,
            moves,
            lookahead=self.lookahead,
            window=self.window,
            budget=self.node_budget,
            one_ply_of=lambda position: self._one_ply(position, game, opponent_first),
        )
        if refined is None:
            return values
        if self.deep < 2 or not self.deep_search:
            return refined
        deeper, spent = search.deepen(
            refined,
            count=self.deep,
            window=self.deep_window,
            budget=self.deep_budget,
            two_ply_of=lambda position, limit: self._two_ply(position, game, opponent_first, limit),
            moves=moves,
        )
        self.last_evaluations += spent
        return refined if deeper is None else deeper

    def position_equity(self, position: Position) -> float:
        """Return the network's cubeless equity of ``position`` for its side ``me``, that side to roll."""
        return float(equity(self.variant.name, self.probabilities(positions_array([position])))[0])

    def cube_equities(self, game: Game, doubler: int) -> CubeEquities:
        """Return the cubeful equities of ``doubler``'s cube decision (see :mod:`nardy.ai.cube_decisions`) from the
        network's chances of its position.

        Raises:
            ValueError: the cube is the other player's, or the match is longer than 25 points.
        """
        chances = self.probabilities(positions_array([game.position_for(doubler)]))[0]
        return game_cube_equities(game, doubler, [float(c) for c in chances])

    def cube_action(self, game: Game) -> CubeAction:
        """Return ``double`` when doubling is right by the cubeful model at the game's cube and score (money, or
        the match equity table), else ``no_double``; variants without the model use the equity thresholds."""
        if not game.can_double():
            return "no_double"
        if not rates_cube(game):
            return super().cube_action(game)
        if not double_can_gain(game):
            return "no_double"
        proper = self.cube_equities(game, game.roller).proper
        return "double" if proper in ("double_take", "double_pass") else "no_double"

    def take_decision(self, game: Game) -> TakeDecision:
        """Return ``take`` when taking is worth at least passing by the cubeful model (thresholds without it).

        Raises:
            GameStateError: no double waits for an answer.
        """
        if game.phase is not Phase.DOUBLED or not rates_cube(game):
            return super().take_decision(game)
        equities = self.cube_equities(game, 1 - game.turn)
        return "take" if equities.double_take <= equities.double_pass else "drop"
