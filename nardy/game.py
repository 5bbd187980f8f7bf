"""A game of nardy as a state machine: opening roll, rolls, turns, forfeits, doubling cube, resignation, result.

Every change is an *event* (:mod:`nardy.events`) appended to the game's history; the state is what replaying the
history gives, so a game serialises to its history (plus a snapshot that is checked on load; :mod:`nardy.game_codec`)
and can always be rebuilt and replayed. The doubling cube's own rules are :mod:`nardy.cube`'s. Players are 0 and 1.
``turn`` is the player whose action the game waits for; ``roller`` the player whose turn it is (they differ while a
double or a resignation waits for an answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from nardy import game_codec
from nardy.cube import Cube, CubeRules
from nardy.dice import DiceSource, SystemDice
from nardy.errors import GameStateError, IllegalMoveError, NardyError
from nardy.events import (
    PLAY_EVENTS,
    Abandoned,
    Beavered,
    Doubled,
    DoubleNamed,
    Dropped,
    GameEvent,
    Moved,
    OpeningRolled,
    Passed,
    Raccooned,
    ResignationAccepted,
    ResignationDeclined,
    Resigned,
    Rolled,
    Taken,
    event_from_dict,
)
from nardy.game_status import GameResult as GameResult  # the game's status values, re-exported
from nardy.game_status import Phase as Phase
from nardy.ids import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchState,
    match_id,
    variant_position_id,
)
from nardy.matching import match_move
from nardy.move import Move, Step
from nardy.movegen import TurnPlan, turn_plan
from nardy.options import Options
from nardy.position import Position, Side
from nardy.variants import Variant, get_variant
from nardy.variants.base import GameValue, Pool

RESIGN_VALUES = {"single": 1, "gammon": 2, "backgammon": 3, "oin": 1, "mars": 2}


class Game:
    """One game of a variant, from the opening roll to its result."""

    def __init__(
        self,
        variant: str | Variant = "short",
        *,
        options: Options | None = None,
        dice: DiceSource | None = None,
        match_length: int = 0,
        score: tuple[float, float] = (0, 0),
        crawford: bool = False,
        first_player: int | None = None,
    ) -> None:
        """Start a game at its opening roll.

        ``match_length`` 0 is a money game; ``score`` the match score before this game; ``crawford`` marks the
        Crawford game (no cube); ``first_player`` skips the opening roll (option ``opening=winner_starts``).

        Raises:
            UnknownVariantError: no such variant.
            GameStateError: an impossible match setting.
        """
        self.variant = get_variant(variant)
        self.options = options or Options()
        self.dice_source: DiceSource = dice or SystemDice()
        if match_length < 0 or first_player not in (None, 0, 1):
            raise GameStateError(f"bad game settings: match_length={match_length}, first_player={first_player}")
        self.match_length = match_length
        self.score = (score[0], score[1])
        self.crawford = crawford
        self.initial_first_player = first_player
        self.history: list[dict[str, Any]] = []  # the events as saved records (nardy.events), oldest first
        side = self.variant.initial_side()
        self.sides: list[Side] = [side, side]
        self.phase = Phase.OPENING
        self.roller = 0
        self.turn = 0
        self.dice: tuple[int, int] | None = None
        self.cube = Cube()
        self.first_player: int | None = None
        self.turns_taken = [0, 0]
        self.moves_played = 0
        self.result: GameResult | None = None
        self.last_move: Move | None = None
        self.last_mover: int | None = None
        self.resign_offer: tuple[int, str] | None = None
        self._before_resign: tuple[Phase, int] | None = None
        self._last_chance = False
        # the part of the turn being played and the parts after it (docs/rules.md §6.4, §6.5)
        self.pool: Pool | None = None
        self.pools: list[Pool] = []
        self.hand_over = False  # the roller plays moves handed over by the opponent (Gul bara)
        self.bonus: str | None = None  # Acey-deucey: "choose", "double" (the named double), "extra" (the extra roll)
        self._turn_start: Side | None = None  # the roller's side when its turn (or hand-over) began
        if first_player is not None:
            self._start_with(first_player)

    # ----------------------------------------------------------------- queries

    @property
    def events(self) -> list[GameEvent]:
        """Return the history as events (:attr:`history` holds them as their saved records).

        Raises:
            GameStateError: a record of the history cannot be read (a game loaded from its snapshot keeps its
                history unread).
        """
        try:
            return [event_from_dict(record) for record in self.history]
        except (KeyError, TypeError, IndexError, ValueError) as error:
            if isinstance(error, GameStateError):
                raise
            raise GameStateError(f"the history cannot be read: {error}") from error

    @property
    def cube_value(self) -> int:
        """Return the value of the doubling cube."""
        return self.cube.value

    @cube_value.setter
    def cube_value(self, value: int) -> None:
        self.cube = replace(self.cube, value=value)

    @property
    def cube_owner(self) -> int | None:
        """Return the player who owns the cube (None: it is in the middle)."""
        return self.cube.owner

    @cube_owner.setter
    def cube_owner(self, owner: int | None) -> None:
        self.cube = replace(self.cube, owner=owner)

    @property
    def cube_enabled(self) -> bool:
        """Return whether the doubling cube is used in this game (variant option, and not the Crawford game)."""
        return self.variant.cube_enabled(self.options) and not self.crawford

    @property
    def cube_rules(self) -> CubeRules:
        """Return the cube's rules in this game (its options, match length, and whether the cube is in play)."""
        return CubeRules(self.options, self.match_length, self.cube_enabled)

    @property
    def position(self) -> Position:
        """Return the position in the roller's frame (``me`` = the roller)."""
        return self.position_for(self.roller)

    def position_for(self, player: int) -> Position:
        """Return the position with ``player`` as ``me``."""
        return Position(self.sides[player], self.sides[1 - player])

    def is_first_turn(self, player: int) -> bool:
        """Return whether ``player`` has not yet taken a turn in this game."""
        return self.turns_taken[player] == 0

    def plan(self) -> TurnPlan:
        """Return the step-wise plan of the current roll.

        Raises:
            GameStateError: the game is not waiting for a move.
        """
        if self.phase is not Phase.MOVE or self.dice is None:
            raise GameStateError(f"no roll to play: the game is in phase {self.phase.value}")
        pool = self.pool if self.pool is not None and self.pool.dice == self.dice else Pool.of_roll(self.dice)
        later_part = self._turn_start is not None and self._turn_start != self.sides[self.roller]
        turn_start = (
            Position(self._turn_start, self.sides[1 - self.roller]) if later_part and self._turn_start else None
        )
        first_turn = self.is_first_turn(self.roller) and not self.hand_over
        return turn_plan(self.variant, self.position, pool.dice, first_turn, self.options, pool.count, turn_start)

    def legal_moves(self) -> list[Move]:
        """Return the legal turns of the current roll.

        Raises:
            GameStateError: the game is not waiting for a move.
        """
        return self.plan().moves()

    def next_steps(self, played: Sequence[Step] = ()) -> list[Step]:
        """Return the single steps that may follow ``played`` in the current turn (step-wise API).

        Raises:
            GameStateError: the game is not waiting for a move.
            IllegalMoveError: ``played`` is not a valid start of a legal turn.
        """
        return self.plan().next_steps(played)

    def can_double(self, player: int | None = None) -> bool:
        """Return whether ``player`` (default: the roller) may offer a double now."""
        player = self.roller if player is None else player
        return (
            self.phase is Phase.ROLL
            and player == self.roller
            and self.moves_played > 0
            and not self._last_chance
            and self.bonus is None
            and self.cube_rules.may_double(self.cube, player)
        )

    def can_beaver(self) -> bool:
        """Return whether the player answering a double may beaver it: option ``beaver``, money play only (as in
        GNU Backgammon), and the beavered cube within ``max_cube``."""
        return self.phase is Phase.DOUBLED and self.cube_rules.may_beaver(self.cube)

    def can_raccoon(self) -> bool:
        """Return whether the doubler, answering a beaver, may raccoon it: option ``raccoon``, money play only,
        and the cube within ``max_cube``."""
        return self.phase is Phase.DOUBLED and self.cube_rules.may_raccoon(self.cube)

    def resign_levels(self) -> tuple[str, ...]:
        """Return the resignation levels of the variant under the game's options, smallest first."""
        return self.variant.resign_options(self.options)

    def match_state(self) -> MatchState:
        """Return the game's cube and match state as GNU Backgammon's Match ID carries it.

        The Jacoby flag is the option ``jacoby`` (with the cube in play) in money play; in match play, where the rule
        never applies, it is off, as GNU Backgammon writes every match's id (bit 67 set, whatever its Jacoby
        setting: ``new match 3`` gives ``cIluAAAAAAAE`` after an opening 5-3).

        Raises:
            NardyError: the state cannot be expressed (an arithmetic cube value, a draw's half point, a score at
                or above the match length).
        """
        a, b = self.score
        if not (float(a).is_integer() and float(b).is_integer()):
            raise NardyError(f"the match score {a:g}-{b:g} has a half point (a drawn game): a Match ID cannot hold it")
        if self.phase is Phase.OVER:
            reason = self.result.reason if self.result else ""
            state = {"drop": GAME_DROPPED, "resign": GAME_RESIGNED}.get(reason, GAME_OVER)
        else:
            state = GAME_NONE if self.phase is Phase.OPENING else GAME_PLAYING
        resignation = 0
        if self.resign_offer is not None:
            resignation = RESIGN_VALUES[self.resign_offer[1]]
        return MatchState(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            player_on_roll=self.roller,
            crawford=self.crawford,
            game_state=state,
            turn=self.turn,
            double_offered=self.phase is Phase.DOUBLED,
            resignation=resignation,
            dice=self.dice or (0, 0),
            match_length=self.match_length,
            score=(int(a), int(b)),
            jacoby=self.options.jacoby and self.cube_enabled and self.match_length == 0,
        )

    def match_id(self) -> str:
        """Return the GNU Backgammon Match ID of the game's state.

        Raises:
            NardyError: the state cannot be expressed in a Match ID.
        """
        return match_id(self.match_state())

    def position_id(self) -> str:
        """Return the id of the position in the roller's frame (gnubg Position ID for short nardy and the variants on
        its board, ``L1`` for long)."""
        return variant_position_id(self.variant.name, self.position)

    # ----------------------------------------------------------------- actions

    def roll(self) -> tuple[int, int]:
        """Roll the dice: the opening roll at the start, else the roller's roll. A roll with no legal move is
        forfeited at once (the turn passes). Return the dice rolled (at the opening: the first player's dice, or
        the opening dice when the first player rolls again).

        Raises:
            GameStateError: the game is not waiting for a roll.
        """
        if self.phase is Phase.OPENING:
            while self.phase is Phase.OPENING:
                opening = OpeningRolled((self.dice_source.roll_die(), self.dice_source.roll_die()))
                self._record(opening)
            return self.dice or (max(opening.dice), min(opening.dice))
        if self.phase is not Phase.ROLL:
            raise GameStateError(f"cannot roll now: the game is in phase {self.phase.value}")
        rolled = (self.dice_source.roll_die(), self.dice_source.roll_die())
        self._record(Rolled(rolled))
        return rolled

    def play(self, move: Move | str | Sequence[Step]) -> Move:
        """Play the roller's turn, given as a Move, its notation, or its steps; return the Move played.

        Raises:
            GameStateError: the game is not waiting for a move.
            InvalidMoveError, IllegalMoveError, AmbiguousMoveError, IncompleteMoveError: the move is not legal.
        """
        plan = self.plan()
        if isinstance(move, str):
            chosen = match_move(plan, move)
        elif isinstance(move, Move):
            chosen = plan.move_for(move.steps)
        else:
            chosen = plan.move_for(tuple(move))
        self._record(Moved(chosen.steps))
        return chosen

    def choose_double(self, die: int) -> None:
        """Name the double ``die``-``die`` to play after a wholly played Acey-deucey 1-2 (docs/rules.md §6.5).

        Raises:
            GameStateError: no double is to be named now, or ``die`` is not 1..6.
        """
        self._need(Phase.CHOOSE)
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise GameStateError(f"the double to play must be named by a number 1..6, not {die!r}")
        self._record(DoubleNamed(die))

    def double(self) -> None:
        """Offer a double (the roller, before rolling).

        Raises:
            GameStateError: doubling is not allowed now.
        """
        if not self.can_double():
            raise GameStateError(self._why_no_double())
        self._record(Doubled())

    def take(self) -> None:
        """Take the double on offer (or, after a beaver, accept the beavered cube).

        Raises:
            GameStateError: no double waits for an answer.
        """
        self._need(Phase.DOUBLED)
        self._record(Taken())

    def drop(self) -> None:
        """Pass (drop) the double on offer: the answering player loses the current cube value.

        Raises:
            GameStateError: no double waits for an answer, or a beaver cannot be dropped.
        """
        self._need(Phase.DOUBLED)
        if self.cube.offer and self.cube.offer[1] == "beaver":
            raise GameStateError("a beaver cannot be dropped: take it or raccoon")
        self._record(Dropped())

    def beaver(self) -> None:
        """Take the double and at once redouble, keeping the cube (option ``beaver``).

        Raises:
            GameStateError: a beaver is not allowed now.
        """
        if not self.can_beaver():
            raise GameStateError("a beaver is not allowed now (option beaver is off, or no double was offered)")
        self._record(Beavered())

    def raccoon(self) -> None:
        """Answer a beaver with another redouble (option ``raccoon``).

        Raises:
            GameStateError: a raccoon is not allowed now.
        """
        if not self.can_raccoon():
            raise GameStateError("a raccoon is not allowed now (option raccoon is off, or no beaver was made)")
        self._record(Raccooned())

    def resign(self, player: int, level: str) -> None:
        """Offer to resign the game at ``level`` (see :meth:`resign_levels`); the opponent answers.

        Raises:
            GameStateError: the game is over, an offer is already open, or the level is unknown.
        """
        if self.phase in (Phase.OVER, Phase.RESIGN, Phase.OPENING):
            raise GameStateError(f"cannot resign now: the game is in phase {self.phase.value}")
        if level not in self.resign_levels() or player not in (0, 1):
            raise GameStateError(f"unknown resignation {level!r}; levels: {', '.join(self.resign_levels())}")
        self._record(Resigned(player, level))

    def accept_resignation(self) -> None:
        """Accept the resignation on offer: the game ends.

        Raises:
            GameStateError: no resignation is on offer.
        """
        self._need(Phase.RESIGN)
        self._record(ResignationAccepted())

    def decline_resignation(self) -> None:
        """Decline the resignation on offer: play goes on where it was.

        Raises:
            GameStateError: no resignation is on offer.
        """
        self._need(Phase.RESIGN)
        self._record(ResignationDeclined())

    def abandon(self, player: int) -> None:
        """End the game as lost by ``player`` (timeout or leaving): a single game times the cube.

        Raises:
            GameStateError: the game is already over.
        """
        if self.phase is Phase.OVER or player not in (0, 1):
            raise GameStateError("the game is already over" if self.phase is Phase.OVER else "no such player")
        self._record(Abandoned(player))

    # ----------------------------------------------------------------- events

    def _record(self, event: GameEvent) -> None:
        """Apply a new event and keep its record; a roll left with no legal move is then forfeited at once."""
        self._apply(event)
        self.history.append(event.to_dict())
        if isinstance(event, PLAY_EVENTS) and self.phase is Phase.MOVE and self.plan().forfeited:
            self._record(Passed())

    def _apply(self, event: GameEvent) -> None:
        """Change the state by one event (a new action's, or a saved history's when it is replayed).

        Raises:
            GameStateError, IllegalMoveError (and the other NardyErrors of a move): the event is not possible now.
        """
        match event:
            case OpeningRolled():
                self._apply_open(event)
            case Rolled():
                self._apply_roll(event)
            case Moved():
                self._apply_move(event)
            case Passed():
                self._apply_pass()
            case DoubleNamed():
                self._apply_choose(event)
            case Doubled():
                self._apply_double()
            case Taken():
                self._apply_take()
            case Dropped():
                self._apply_drop()
            case Beavered():
                self._apply_beaver()
            case Raccooned():
                self._apply_raccoon()
            case Resigned():
                self._apply_resign(event)
            case ResignationAccepted():
                self._apply_accept()
            case ResignationDeclined():
                self._apply_decline()
            case Abandoned():
                self._apply_abandon(event)

    def _apply_open(self, event: OpeningRolled) -> None:
        self._need(Phase.OPENING)
        a, b = event.dice
        if a == b:
            self.cube = self.cube_rules.after_tied_opening(self.cube)
            return
        first = 0 if a > b else 1
        rolls_again = self.variant.opening_rerolls or self.options.opening == "reroll"
        if rolls_again:
            self._start_with(first)
        else:
            self.first_player = self.roller = self.turn = first
            self._begin_roll((max(a, b), min(a, b)))

    def _start_with(self, first: int) -> None:
        self.first_player = self.roller = self.turn = first
        self.phase = Phase.ROLL

    def _apply_roll(self, event: Rolled) -> None:
        self._need(Phase.ROLL)
        self._begin_roll(event.dice)

    def _begin_roll(self, dice: tuple[int, int]) -> None:
        pools = self.variant.roll_pools(dice, self.turns_taken[self.roller], self.options)
        self.bonus = None  # an extra roll (Acey-deucey) is a roll like any other
        self._turn_start = self.sides[self.roller]
        self._play_pools(list(pools))

    def _play_pools(self, pools: list[Pool]) -> None:
        """Make the first of ``pools`` the part to play now and keep the rest."""
        self.pool, self.pools = pools[0], pools[1:]
        self.dice = self.pool.dice
        self.phase = Phase.MOVE

    def _apply_choose(self, event: DoubleNamed) -> None:
        self._need(Phase.CHOOSE)
        die = event.die
        if not 1 <= die <= 6:
            raise GameStateError(f"the named double must be 1..6, not {die}")
        self.bonus = "double"
        self._play_pools([Pool.of_roll((die, die))])

    def _apply_pass(self) -> None:
        self._need(Phase.MOVE)
        if not self.plan().forfeited:
            raise IllegalMoveError(f"the roll {self.dice} can be played, it cannot be passed")
        self._part_played(0)

    def _apply_move(self, event: Moved) -> None:
        plan = self.plan()
        move = plan.move_for(event.steps)
        mover = self.roller
        self.sides[mover] = move.position.me
        self.sides[1 - mover] = move.position.opp
        self.last_move, self.last_mover = move, mover
        self.moves_played += 1
        if sum(move.position.me) == 0:
            self._finished(mover)
            return
        sudden = self.variant.sudden_result(move.position, self.options)
        if sudden is not None:
            self._sudden_end(mover, *sudden)
            return
        self._part_played(plan.length)

    def _sudden_end(self, mover: int, who: int | None, value: GameValue, reason: str) -> None:
        if who is None:
            self._end(
                GameResult(None, value.kind, value.points, self.cube_value, value.points * self.cube_value / 2, reason)
            )
            return
        winner = mover if who == 0 else 1 - mover
        self._end(
            GameResult(winner, value.kind, value.points, self.cube_value, float(value.points * self.cube_value), reason)
        )

    def _part_played(self, played: int) -> None:
        """Go on after the roller has played ``played`` moves of the current part of its turn: the next part, a
        hand-over, a double to name, an extra roll, or the end of the turn."""
        pool = self.pool if self.pool is not None and self.pool.dice == self.dice else Pool.of_roll(self.dice or (1, 2))
        if played < pool.count and pool.hand_over and not self.hand_over and not self._last_chance:
            unplayed = [Pool(pool.dice, pool.count - played)] + [Pool(p.dice, p.count) for p in self.pools]
            self.turns_taken[self.roller] += 1
            self.roller = self.turn = 1 - self.roller
            self.hand_over = True
            self._turn_start = self.sides[self.roller]
            self._play_pools(unplayed)
        elif self.pools and (played == pool.count or self.hand_over):
            self._play_pools(self.pools)
        elif self.hand_over:  # the handed-over moves are done: the receiver rolls for its own turn
            self.hand_over = False
            self._to_roll(self.roller)
        elif played == pool.count and self.bonus is None and self.variant.names_double_after(pool.dice, self.options):
            self.bonus = "choose"
            self.pool, self.pools, self.dice = None, [], None
            self.phase = Phase.CHOOSE
        elif played == pool.count and self.bonus == "double":
            self.turns_taken[self.roller] += 1
            self.bonus = "extra"
            self._to_roll(self.roller)
        elif self._last_chance:
            self._award_bearoff(1 - self.roller)
        else:
            self._end_turn()

    def _to_roll(self, player: int) -> None:
        self.roller = self.turn = player
        self.pool, self.pools, self.dice = None, [], None
        self.hand_over = False
        self.phase = Phase.ROLL

    def _finished(self, mover: int) -> None:
        other = 1 - mover
        if self._last_chance:
            self.turns_taken[mover] += 1
            self._end(GameResult(None, "draw", 1, self.cube_value, 0.5 * self.cube_value, "draw"))
        elif self.variant.last_roll_draw(self.options) and mover == self.first_player and sum(self.sides[other]) > 0:
            self._last_chance = True
            self._end_turn()
        else:
            self._award_bearoff(mover)

    def _award_bearoff(self, finisher: int) -> None:
        """End the game that ``finisher`` ended by bearing off all its checkers first: it wins, or in a variant
        whose first finisher loses (Misère), the other player wins."""
        value = self.variant.game_value(self.position_for(finisher), self.options)
        winner = 1 - finisher if self.variant.finisher_loses(self.options) else finisher
        base = self._jacoby(value.points)
        kind = value.kind if base == value.points else self.variant.resign_levels[0]
        self._end(GameResult(winner, kind, base, self.cube_value, base * self.cube_value, "bearoff"))

    def _jacoby(self, points: int) -> int:
        return self.cube_rules.jacoby(points, self.cube)

    def _end_turn(self) -> None:
        if self._last_chance and self.roller != self.first_player:
            # the second player's last roll was forfeited
            self.turns_taken[self.roller] += 1
            self._award_bearoff(1 - self.roller)
            return
        self.turns_taken[self.roller] += 1
        self.bonus = None
        self._to_roll(1 - self.roller)

    def _apply_double(self) -> None:
        if not self.can_double():
            raise GameStateError(self._why_no_double())
        self.cube = CubeRules.offered(self.cube, self.roller)
        self.phase = Phase.DOUBLED
        self.turn = 1 - self.roller

    def _apply_take(self) -> None:
        self._need(Phase.DOUBLED)
        self.cube = self.cube_rules.taken(self.cube)
        self.phase = Phase.ROLL
        self.turn = self.roller

    def _apply_drop(self) -> None:
        self._need(Phase.DOUBLED)
        assert self.cube.offer is not None
        doubler = self.cube.offer[0]
        self.cube = CubeRules.withdrawn(self.cube)
        self._end(GameResult(doubler, "drop", 1, self.cube_value, float(self.cube_value), "drop"))

    def _apply_beaver(self) -> None:
        if not self.can_beaver():
            raise GameStateError("a beaver is not allowed now")
        self.cube = self.cube_rules.beavered(self.cube)
        if self.cube.offer is not None:  # the doubler may raccoon; else a beaver is not answered (never dropped)
            self.turn = self.cube.offer[0]
        else:
            self.phase = Phase.ROLL
            self.turn = self.roller

    def _apply_raccoon(self) -> None:
        if not self.can_raccoon():
            raise GameStateError("a raccoon is not allowed now")
        self.cube = self.cube_rules.raccooned(self.cube)
        self.phase = Phase.ROLL
        self.turn = self.roller

    def _apply_resign(self, event: Resigned) -> None:
        player, level = event.player, event.level
        if self.phase in (Phase.OVER, Phase.RESIGN, Phase.OPENING) or level not in self.resign_levels():
            raise GameStateError(f"cannot resign {level!r} in phase {self.phase.value}")
        self._before_resign = (self.phase, self.turn)
        self.resign_offer = (player, level)
        self.phase = Phase.RESIGN
        self.turn = 1 - player

    def _apply_accept(self) -> None:
        self._need(Phase.RESIGN)
        assert self.resign_offer is not None
        player, level = self.resign_offer
        base = self._jacoby(RESIGN_VALUES[level])
        # under the Jacoby rule a resigned gammon or backgammon counts single, exactly as one borne off does
        kind = level if base == RESIGN_VALUES[level] else self.variant.resign_levels[0]
        self._end(GameResult(1 - player, kind, base, self.cube_value, float(base * self.cube_value), "resign"))

    def _apply_decline(self) -> None:
        self._need(Phase.RESIGN)
        assert self._before_resign is not None
        self.phase, self.turn = self._before_resign
        self.resign_offer = self._before_resign = None

    def _apply_abandon(self, event: Abandoned) -> None:
        player = event.player
        if self.phase is Phase.OVER:
            raise GameStateError("the game is already over")
        level = self.variant.resign_levels[0]
        self._end(GameResult(1 - player, level, 1, self.cube_value, float(self.cube_value), "abandon"))

    def _end(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self.dice = None
        self.pool, self.pools = None, []
        self.resign_offer = None
        self.cube = CubeRules.withdrawn(self.cube)

    def _need(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise GameStateError(f"the game is in phase {self.phase.value}, not {phase.value}")

    def _why_no_double(self) -> str:
        if not self.cube_enabled:
            return "the cube is not in play in this game"
        if self.phase is not Phase.ROLL:
            return f"a double can be offered only before rolling (phase is {self.phase.value})"
        if self.moves_played == 0:
            return "no double before the first move of the game"
        return self.cube_rules.why_not_double(self.cube, self.roller)

    # ----------------------------------------------------------------- serialisation (nardy.game_codec)

    def snapshot(self) -> dict[str, Any]:
        """Return the whole derived state, from which :meth:`from_dict` restores the game without replaying its
        history (JSON-compatible)."""
        return game_codec.snapshot(self)

    def to_dict(self, *, compact: bool = False) -> dict[str, Any]:
        """Return the game as a JSON-compatible dict (schema version, settings, history, snapshot); ``compact``
        writes the history records in their short text form (:mod:`nardy.records`) and of the snapshot only the
        result, as a match keeps its finished games (:meth:`from_dict` then replays the history)."""
        return game_codec.dump(self, compact=compact)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, dice: DiceSource | None = None, verify: bool = False) -> Game:
        """Return the game saved by :meth:`to_dict`: restored from its snapshot (the history is kept as it is, for
        replay and export), or rebuilt by replaying the history when the saved dict has no full snapshot (an older
        save) or ``verify`` asks for it (the replayed state must then equal the snapshot).

        Raises:
            GameStateError: an unknown schema, a malformed snapshot, a history that cannot be replayed, or a
                snapshot that disagrees with the replayed history.
        """
        factory: game_codec.GameFactory[Game] = cls  # annotated: mypy infers no G from a bare class
        return game_codec.load(factory, data, dice=dice, verify=verify)
