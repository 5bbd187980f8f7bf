"""Computer players: random, easy, medium (hand-written evaluation) and hard (self-play trained network), for long
and short nardy and the variants of RULES.md §6: on the short-nardy board Hypergammon, Nackgammon, Portes, Misère,
Plakoto (pinned checkers), Acey-deucey and Dutch backgammon (a reserve); on the long-nardy board Fevga and Gul bara.

Every player answers the :class:`~nardy.ai.ComputerPlayer` protocol on a :class:`~nardy.game.Game`. Players are cheap
to build and hold only a random generator; the hard player's network is loaded once per process and shared
read-only, so players may be used from worker threads (one player object per thread or per game).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from nardy.ai.bonus import choose_double
from nardy.ai.cube import CubeEquities
from nardy.ai.cube_decisions import double_can_gain, game_cube_equities, rates_cube
from nardy.ai.features import F64, U8, family, positions_array, swap
from nardy.ai.heuristic import heuristic_equity, heuristic_score
from nardy.ai.network import Network, equity, shipped_network
from nardy.ai.protocol import ComputerPlayer, CubeAction, TakeDecision
from nardy.ai.race import RaceTable, race_table
from nardy.ai.search import candidate_states, states_array
from nardy.dice import SeededDice
from nardy.errors import GameStateError
from nardy.game import RESIGN_VALUES, Game, GameResult, Phase
from nardy.match import Match
from nardy.move import Move
from nardy.options import Options
from nardy.position import Position
from nardy.variants import Variant, get_variant
from nardy.variants.base import from_state

# the hard player's look-ahead budget in replies valued per decision (see benchmarks/ai_strength.py, section speed)
NODE_BUDGET = 16_000

# the 2-ply search after the 1-ply look-ahead: how many candidates by variant (0 or absent: none), the window below
# the best 1-ply value, and the budget in positions valued (see benchmarks/ai_strength.py, sections judged and speed)
DEEP_CANDIDATES: dict[str, int] = {"short": 2}
DEEP_WINDOW = 0.10
DEEP_BUDGET = 30_000

ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7)
)


def _moves_of(game: Game) -> list[Move]:
    if game.phase is not Phase.MOVE:
        raise GameStateError(f"no move to choose: the game is in phase {game.phase.value}")
    moves = game.legal_moves()
    if not moves:  # pragma: no cover - the game forfeits such rolls itself
        raise GameStateError("the roll has no legal move")
    return moves


def finish_sign(variant: Variant) -> float:
    """Return +1 where bearing off all first wins, -1 where it loses (Misère)."""
    return -1.0 if variant.first_off_loses else 1.0


def _won_values(variant: Variant, batch: U8, positions: Sequence[Position], options: Options) -> F64:
    """Return the mover's value of each position that ends the game (the mover has borne off all), NaN elsewhere:
    what it wins, or in Misère minus what the other side wins (a last-roll draw counts as that loss too, so the
    players always avoid finishing first there). A position the variant ends at once (Plakoto's mother rule,
    :meth:`~nardy.variants.base.Variant.sudden_result`) is valued by that result: plus or minus its points, 0 for
    a draw."""
    values = np.full(len(positions), np.nan)
    sign = finish_sign(variant)
    half = batch.shape[1] // 2
    finished = batch[:, :half].sum(axis=1) == 0
    for i in np.flatnonzero(finished):
        values[i] = sign * variant.game_value(positions[int(i)], options).points
    if type(variant).sudden_result is not Variant.sudden_result:
        for i in np.flatnonzero(~finished):
            sudden = variant.sudden_result(positions[int(i)], options)
            if sudden is not None:
                who, value, _ = sudden
                values[i] = 0.0 if who is None else (1.0 if who == 0 else -1.0) * value.points
    return values


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
            won = _won_values(self.variant, batch, positions, game.options)
            return np.asarray(np.where(np.isnan(won), values, won + 10.0 * np.sign(won)))
        batch = positions_array(positions)
        values = heuristic_equity(self.variant.name, batch)
        won = _won_values(self.variant, batch, positions, game.options)
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
    terms of the long nardy evaluation (by default 0: easy plays the long-nardy board without a plan for blocks). In
    long nardy, where every move of a roll moves about the same pips, noise or random moves lose to a simple greedy
    rule, so the easy level is weakened there by what it ignores instead; in Fevga and Gul bara the block terms
    alone make no measurable difference, so easy also blurs its scores by a little noise there.
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
        blocking: float = 0.0,
    ) -> None:
        super().__init__(variant, seed)
        kind = family(self.variant.name)
        default_noise, default_blunder = EASY_WEAKENING.get(self.variant.name, EASY_WEAKENING.get(kind, (0.0, 0.0)))
        self.noise = noise if noise is not None else default_noise
        self.blunder = blunder if blunder is not None else default_blunder
        self.blocking = blocking

    def move_equities(self, moves: Sequence[Move], game: Game) -> F64:
        """Return noisy heuristic scores of the moves (a won game always comes first, in Misère a finished one
        last)."""
        positions = [m.position for m in moves]
        batch = positions_array(positions)
        if self.rng.random() < self.blunder:
            scores = np.array([self.rng.random() for _ in moves])
        else:
            scores = heuristic_score(self.variant.name, batch, blocking=self.blocking)
            if self.noise:
                scores = scores + np.array([self.rng.gauss(0.0, self.noise) for _ in moves])
        won = _won_values(self.variant, batch, positions, game.options)
        return np.asarray(np.where(np.isnan(won), scores, 1e6 * np.sign(won)))


class HardPlayer(_BasePlayer):
    """The trained network: 0-ply on every move, then a 1-ply look-ahead on the best few.

    In a variant with a race table (:mod:`nardy.ai.race`) the table's positions are valued by its exact chances
    instead of the network: Hypergammon's races, and the bear-offs of short nardy, Nackgammon and Portes
    (``exact_races=False`` turns that off).

    Cube decisions, where the network gives the five gnubg chances (short nardy, Nackgammon, Hypergammon…), follow
    Janowski's cubeful model at the game's cube and score (:mod:`nardy.ai.cube_decisions`: money, or a match up to 25
    points with the Kazaross-XG2 table); elsewhere the equity thresholds below.

    Only for variants whose network ships in ``nardy/ai/weights`` (see :func:`has_level`); otherwise building one
    raises ``ValueError("no trained network for <variant> yet")``.

    ``lookahead`` is how many candidates get the 1-ply look-ahead (0 = pure 0-ply); ``window`` drops candidates whose
    0-ply equity is further than this below the best; ``node_budget`` caps the work of the look-ahead: once it has
    valued that many replies (network evaluations) no further candidate is started (the one under way finishes).
    The budget counts work, never time, so a position and seed give the same move however busy the machine is.

    In short nardy (:data:`DEEP_CANDIDATES`) the best ``deep`` candidates of the 1-ply look-ahead within
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
        lookahead: int = 4,
        window: float = 0.12,
        node_budget: int = NODE_BUDGET,
        exact_races: bool = True,
        deep: int | None = None,
        deep_window: float = DEEP_WINDOW,
        deep_budget: int = DEEP_BUDGET,
    ) -> None:
        super().__init__(variant, seed)
        if network is None:
            try:
                network = shipped_network(self.variant.name)
            except FileNotFoundError:
                raise ValueError(f"no trained network for {self.variant.name} yet") from None
        self.network = network
        self.lookahead = lookahead
        self.window = window
        self.node_budget = node_budget
        self.race: RaceTable | None = race_table(self.variant.name) if exact_races else None
        self.deep = DEEP_CANDIDATES.get(self.variant.name, 0) if deep is None else deep
        self.deep_window = deep_window
        self.deep_budget = deep_budget
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
        exact = self.race.chances(batch)
        covered = ~np.isnan(exact[:, 0])
        if covered.any():
            probs = probs.copy()
            probs[covered] = exact[covered]
        return probs

    def zero_ply(self, positions: Sequence[Position], options: Options) -> F64:
        """Return the 0-ply equity of each position after a move, for the side that moved."""
        batch = positions_array(list(positions))
        values = -equity(self.variant.name, self.probabilities(swap(batch)))
        won = _won_values(self.variant, batch, positions, options)
        return np.asarray(np.where(np.isnan(won), values, won))

    def one_ply(self, position: Position, game: Game, opponent_first: bool) -> float:
        """Return the 1-ply equity of ``position`` (after our move, our frame): the average over the opponent's 21
        rolls of our 0-ply equity after its best reply."""
        return self._one_ply(position, game, opponent_first)[0]

    def _turns_by_roll(
        self, position: Position, first_turn: bool, options: Options, into: list[bytes]
    ) -> tuple[list[tuple[int, int, float]], float]:
        """Append to ``into`` the generator states after every legal turn of ``position``'s mover for each of the 21
        rolls; return each roll's (start, stop, chance) in ``into`` and the chance of a forfeited roll."""
        spans: list[tuple[int, int, float]] = []
        forfeits = 0.0
        for d1, d2, weight in ROLLS:
            states = candidate_states(self.variant, position, (d1, d2), first_turn, options)
            if not states:
                forfeits += weight
                continue
            spans.append((len(into), len(into) + len(states), weight))
            into.extend(states)
        return spans, forfeits

    def _after_move(self, batch: U8, states: Sequence[bytes], options: Options) -> F64:
        """Return the mover's 0-ply value of each generator state after its move (the mover's frame, ``batch`` their
        array): the network's equity for the side it moved against, or the result where the move bore off all (what
        it wins, in Misère minus that)."""
        values = -equity(self.variant.name, self.probabilities(swap(batch)))
        sign = finish_sign(self.variant)
        for i in np.flatnonzero(batch[:, : batch.shape[1] // 2].sum(axis=1) == 0):
            values[i] = sign * self.variant.game_value(from_state(states[int(i)]), options).points
        return values

    def _one_ply(self, position: Position, game: Game, opponent_first: bool) -> tuple[float, int]:
        """Return :meth:`one_ply` and the number of replies it valued."""
        replies: list[bytes] = []
        spans, forfeits = self._turns_by_roll(position.swapped(), opponent_first, game.options, replies)
        total = 0.0
        if replies:
            batch = states_array(replies)
            # our equity, on roll after the reply: minus the replier's value
            ours = -self._after_move(batch, replies, game.options)
            if type(self.variant).sudden_result is not Variant.sudden_result:  # Plakoto's mother rule
                for i in np.flatnonzero(batch[:, : batch.shape[1] // 2].sum(axis=1) > 0):
                    sudden = self.variant.sudden_result(from_state(replies[int(i)]), game.options)
                    if sudden is not None:
                        who, value, _ = sudden
                        ours[i] = 0.0 if who is None else (-1.0 if who == 0 else 1.0) * value.points
            for start, stop, weight in spans:
                total += weight * float(np.min(ours[start:stop]))
        if forfeits:
            total += forfeits * float(equity(self.variant.name, self.probabilities(positions_array([position])))[0])
        return total, len(replies)

    def two_ply(self, position: Position, game: Game, opponent_first: bool) -> float:
        """Return the 2-ply equity of ``position`` (after our move, our frame): the average over the opponent's 21
        rolls of our 1-ply value after its best reply at 0-ply (see :meth:`_two_ply`; no work limit)."""
        value, _ = self._two_ply(position, game, opponent_first, limit=2**62)
        assert value is not None
        return value

    def _two_ply(self, position: Position, game: Game, opponent_first: bool, limit: int) -> tuple[float | None, int]:
        """Return the 2-ply equity of ``position`` (after our move, our frame) and the number of positions valued:
        for each of the opponent's 21 rolls its best reply at 0-ply, then our 1-ply value of the result (the mean
        over our 21 rolls of our best move at 0-ply); a forfeited roll leaves the position as it is. When the
        search would value more than ``limit`` positions it stops before the second level: (None, what it valued)."""
        options = game.options
        replies: list[bytes] = []
        spans, forfeits = self._turns_by_roll(position.swapped(), opponent_first, options, replies)
        total = 0.0  # the chance-weighted value of the replies that end the game
        # our positions on roll after the opponent's choice, with their chances (a forfeit leaves ours as it is)
        ours_on_roll: list[tuple[Position, float]] = [(position, forfeits)] if forfeits else []
        if replies:
            theirs = self._after_move(states_array(replies), replies, options)
            for start, stop, weight in spans:
                best = start + int(np.argmax(theirs[start:stop]))
                reply = from_state(replies[best])
                if sum(reply.me) == 0:
                    total -= weight * float(theirs[best])
                else:
                    ours_on_roll.append((reply.swapped(), weight))
        moves: list[bytes] = []
        blocks = [self._turns_by_roll(ours, False, options, moves) for ours, _ in ours_on_roll]
        if len(replies) + len(moves) > limit:
            return None, len(replies)
        after = self._after_move(states_array(moves), moves, options) if moves else np.zeros(0)
        standing = [ours.swapped() for (ours, _), (_, forfeited) in zip(ours_on_roll, blocks, strict=True) if forfeited]
        # where we cannot move the opponent is on roll
        standing_values: list[float] = (
            (-equity(self.variant.name, self.probabilities(positions_array(standing)))).tolist() if standing else []
        )
        stay = iter(standing_values)
        for (_, chance), (rolls, forfeited) in zip(ours_on_roll, blocks, strict=True):
            value = sum(weight * float(np.max(after[start:stop])) for start, stop, weight in rolls)
            if forfeited:
                value += forfeited * float(next(stay))
            total += chance * value
        return total, len(replies) + len(moves) + len(standing)

    def move_equities(self, moves: Sequence[Move], game: Game) -> F64:
        """Return 0-ply equities, refined by the 1-ply look-ahead on the best candidates within the node budget and
        then, where the variant searches deeper, by the 2-ply search on the best of those (``-inf`` for the moves
        the deepest search did not value)."""
        self.last_evaluations = 0
        values = self.zero_ply([m.position for m in moves], game.options)
        if self.lookahead <= 0 or len(moves) < 2:
            return values
        order = np.argsort(-values)
        best = values[order[0]]
        if sum(moves[int(order[0])].position.me) == 0:
            return values
        chosen = [int(i) for i in order[: self.lookahead] if values[i] >= best - self.window]
        if len(chosen) < 2:
            return values
        opponent_first = game.is_first_turn(1 - game.roller)
        refined = np.full(len(moves), -np.inf)
        for i in chosen:
            if self.last_evaluations >= self.node_budget:
                break
            refined[i], evaluated = self._one_ply(moves[i].position, game, opponent_first)
            self.last_evaluations += evaluated
        done = np.isfinite(refined)
        if done.sum() < 2:
            return values
        deeper = self._deepen(refined, moves, game, opponent_first)
        return refined if deeper is None else deeper

    def _deepen(self, refined: F64, moves: Sequence[Move], game: Game, opponent_first: bool) -> F64 | None:
        """Return 2-ply equities of the best 1-ply candidates (``-inf`` elsewhere), or None when fewer than two
        qualify or the budget allows fewer than two."""
        if self.deep < 2 or not self.deep_search:
            return None
        order = [int(i) for i in np.argsort(-refined) if np.isfinite(refined[i])]
        best = refined[order[0]]
        chosen = [i for i in order[: self.deep] if refined[i] >= best - self.deep_window]
        if len(chosen) < 2:
            return None
        deeper = np.full(len(moves), -np.inf)
        spent = 0
        for i in chosen:
            value, evaluated = self._two_ply(moves[i].position, game, opponent_first, self.deep_budget - spent)
            spent += evaluated
            if value is None:
                break
            deeper[i] = value
        self.last_evaluations += spent
        return deeper if int(np.isfinite(deeper).sum()) >= 2 else None

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


LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def has_level(level: str, variant: str | Variant) -> bool:
    """Return whether :func:`get_player` builds ``level`` for ``variant`` (``hard`` needs a shipped network).

    Raises:
        UnknownVariantError: an unknown variant.
    """
    name = get_variant(variant).name
    if level != "hard":
        if level not in (*LEVELS, "random"):
            return False
        if level == "random":
            return True
        try:  # the hand-written evaluation exists for every variant with an encoding (nardy.ai.features.family)
            family(name)
        except ValueError:
            return False
        return True
    try:
        shipped_network(name)
    except FileNotFoundError:
        return False
    return True


def levels_for(variant: str | Variant) -> tuple[str, ...]:
    """Return the levels of :data:`LEVELS` that exist for ``variant``.

    Raises:
        UnknownVariantError: an unknown variant.
    """
    return tuple(level for level in LEVELS if has_level(level, variant))


def get_player(level: str, variant: str | Variant, *, seed: int | None = None) -> _BasePlayer:
    """Return a computer player of ``level`` (``easy``, ``medium``, ``hard``; also ``random``) for ``variant``.

    Raises:
        UnknownVariantError: an unknown variant.
        ValueError: an unknown level, or ``hard`` for a variant without a trained network
            (:func:`has_level` tells beforehand).
    """
    classes: dict[str, type[_BasePlayer]] = {
        "random": RandomPlayer,
        "easy": EasyPlayer,
        "medium": MediumPlayer,
        "hard": HardPlayer,
    }
    cls = classes.get(level)
    if cls is None:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(classes)}")
    return cls(variant, seed)


def take_action(game: Game, players: Sequence[ComputerPlayer]) -> None:
    """Make the one action ``game`` waits for, decided by the player to act (``players[0]`` is player 0): the
    opening roll, a double or a roll, a take or a drop, a move, or an Acey-deucey double to name.

    Raises:
        GameStateError: the game is over, or waits for something no computer player answers (a resignation).
    """
    if game.phase is Phase.OPENING:
        game.roll()
    elif game.phase is Phase.ROLL:
        if game.can_double() and players[game.roller].cube_action(game) == "double":
            game.double()
        else:
            game.roll()
    elif game.phase is Phase.DOUBLED:
        if players[game.turn].take_decision(game) == "take":
            game.take()
        else:
            game.drop()
    elif game.phase is Phase.MOVE:
        game.play(players[game.roller].choose_move(game))
    elif game.phase is Phase.CHOOSE:  # Acey-deucey's 1-2: the roller names a double (nardy.ai.bonus)
        game.choose_double(choose_double(players[game.roller], game))
    else:
        raise GameStateError(f"no computer action in phase {game.phase.value}")


def play_match(match: Match, players: Sequence[ComputerPlayer], *, max_actions: int = 20_000) -> Match:
    """Play ``match`` to its end between two computer players (a money game: its one game) and return it.

    Raises:
        GameStateError: the match did not end within ``max_actions`` actions.
    """
    for _ in range(max_actions):
        if match.game.phase is Phase.OVER:
            if match.is_money or match.over:
                return match
            match.next_game()
        else:
            take_action(match.game, players)
    raise GameStateError(f"the match did not end within {max_actions} actions")


def play_game(
    variant: str | Variant,
    players: tuple[ComputerPlayer, ComputerPlayer],
    *,
    seed: int,
    options: Options | None = None,
    max_plies: int = 3000,
) -> GameResult:
    """Play a whole game between two computer players (player 0 = ``players[0]``) and return its result.

    The cube is used when ``options`` enable it (short nardy by default; pass ``Options(cube=False)`` for cubeless).

    Raises:
        GameStateError: the game did not end within ``max_plies`` actions.
    """
    game = Game(variant, options=options or Options(), dice=SeededDice(seed))
    for _ in range(max_plies):
        if game.phase is Phase.OVER:
            assert game.result is not None
            return game.result
        take_action(game, players)
    raise GameStateError(f"the game did not end within {max_plies} actions")
