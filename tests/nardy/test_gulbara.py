"""Gul bara (гюльбара, «бешеный гюльбар»), docs/rules.md §6.4: worked examples of the escalation, the hand-over, the
plain turns and the head rule across an escalation; whole games through :class:`nardy.Game` checked part by part against
a plain reference and an independent model of the turn order; save/load, replay, ids and hypothesis properties.

The reference below is written straight from §2 and §6.4 and shares no code with the engine: one part of a turn (two
dice, or ``count`` moves of one number) is played over every order and every checker, each single move checked on the
whole board (no landing on the opponent, the head rule counted from the start of the turn, the block rule), then the
must-play rules and the first-turn exception on the set of results. The driver predicts, from the dice alone, which
parts each roll is played in, who plays each of them and who rolls next.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from class_docs import class_docstring
from hypothesis import given, settings
from hypothesis import strategies as st
from nardy_testkit import notations, pos

from nardy import (
    FixedDice,
    Game,
    InvalidOptionError,
    Options,
    Phase,
    Position,
    SeededDice,
    TurnPlan,
    get_variant,
    position_from_any_id,
    variant_position_id,
)
from nardy.game_record import replay
from nardy.position import make_side
from nardy.variants import GameValue, GulBara
from nardy.variants.base import Pool

GULBARA = get_variant("gulbara")
ESCALATE = Options(gulbara_plain_turns=0)
LOSE = Options(gulbara_plain_turns=0, gulbara_pass_unplayed=False)
OPTION_SETS = (
    Options(),
    ESCALATE,
    LOSE,
    Options(gulbara_plain_turns=1, head_exception="classic"),
    Options(gulbara_plain_turns=0, block_check="end_of_turn"),
    Options(gulbara_plain_turns=2, head_exception="none", long_scoring="extended"),
)

# ---------------------------------------------------------------------------------------------------------------
# the reference (docs/rules.md §2, §6.4)

PATH = [q + 12 if q <= 12 else q - 12 for q in range(1, 25)]  # the mover's points along the opponent's path


def opp_number(point: int) -> int:
    """The opponent's number of the mover's point."""
    return point - 12 if point > 12 else point + 12


def unsupported_block(me: list[int], opp: tuple[int, ...]) -> bool:
    """Whether the mover holds six points in a row along the opponent's path with no opponent checker ahead."""
    if sum(opp) < 15:
        return False
    run, first = 0, 0
    for q in range(1, 25):
        if me[PATH[q - 1] - 1]:
            if not run:
                first = q
            run += 1
            if run >= 6 and not any(opp[: first - 1]):
                return True
        else:
            run = 0
    return False


def one_move(me: list[int], opp: tuple[int, ...], src: int, die: int, check_block: bool) -> list[int] | None:
    """The mover's side after one checker moves ``die`` from ``src`` (the head rule is the caller's), or None."""
    if not me[src - 1]:
        return None
    dst = src - die
    new = list(me)
    new[src - 1] -= 1
    if dst >= 1:
        if opp[opp_number(dst) - 1]:
            return None
        new[dst - 1] += 1
        if check_block and unsupported_block(new, opp):
            return None
        return new
    if any(me[6:24]) or (dst < 0 and any(me[src:24])):
        return None
    return new


def ref_part(
    position: Position, dice: tuple[int, int], count: int, head_moves: int, options: Options
) -> tuple[int, set[Position]]:
    """Return the moves used and the end positions of one part, at most ``head_moves`` more checkers off the head."""
    opp = position.opp
    per_move = options.block_check == "per_move"
    pool = [dice[0]] * count if dice[0] == dice[1] else list(dice)
    found: dict[int, set[tuple[int, tuple[int, ...]]]] = {}

    def walk(me: list[int], left: list[int], used: int, first: int, head_left: int) -> None:
        found.setdefault(used, set()).add((first, tuple(me)))
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for src in range(1, 25):
                if src == 24 and head_left <= 0:
                    continue
                new = one_move(me, opp, src, die, per_move)
                if new is not None:
                    walk(new, rest, used + 1, first or die, head_left - (src == 24))

    walk(list(position.me), pool, 0, 0, head_moves)

    def ok(side: tuple[int, ...]) -> bool:
        return per_move or not unsupported_block(list(side), opp)

    def result(used: int, sides: set[tuple[int, ...]]) -> tuple[int, set[Position]]:
        return used, {Position(side, opp) for side in sides}

    for used in range(len(pool), 0, -1):
        if dice[0] != dice[1] and used == 1:
            for die in sorted(dice, reverse=True):
                ends = {side for first, side in found.get(1, ()) if first == die and ok(side)}
                if ends:
                    return result(1, ends)
            break
        ends = {side for _, side in found.get(used, ()) if ok(side)}
        if ends:
            return result(used, ends)
    return 0, set()


def ref_legal(
    position: Position, dice: tuple[int, int], count: int, departed: int, first_turn: bool, options: Options
) -> tuple[int, set[Position]]:
    """One part of a turn with the head rule: one checker off the head per turn (``departed`` have left since the
    turn began); on the mover's own first turn the exception lets a second leave (under ``blocked`` when this part
    cannot be played in full with one, under ``classic`` when the number is 3, 4 or 6)."""
    full = count if dice[0] == dice[1] else 2
    if not first_turn or options.head_exception == "none":
        return ref_part(position, dice, count, 1 - departed, options)
    if options.head_exception == "classic":
        two = dice[0] == dice[1] and dice[0] in (3, 4, 6)
        return ref_part(position, dice, count, (2 if two else 1) - departed, options)
    used, ends = ref_part(position, dice, count, 1 - departed, options)
    if used == full:
        return used, ends
    return ref_part(position, dice, count, 2 - departed, options)


def value_of(loser: tuple[int, ...], options: Options) -> GameValue:
    """What the winner scores, from the loser's side (docs/rules.md §2)."""
    if sum(loser) < 15:
        return GameValue("oin", 1)
    if options.long_scoring == "federation":
        return GameValue("mars", 2)
    if loser[23]:
        return GameValue("koks", 4)
    if any(loser[6:24]):
        return GameValue("mars", 2)
    return GameValue("home_mars", 3)


# ---------------------------------------------------------------------------------------------------------------
# the driver: whole games through Game, every part checked against the reference and the model


@dataclass
class Tally:
    """What the driven games went through (to show the corpus exercises every rule)."""

    parts: int = 0
    escalations: int = 0
    hand_overs: int = 0
    received_parts: int = 0
    lost_moves: int = 0
    second_head: int = 0
    second_head_later_part: int = 0
    forfeited_parts: int = 0
    saves: int = 0
    games: int = 0
    kinds: set[str] = field(default_factory=set)


def drive(seed: int, options: Options, tally: Tally, save_every: int = 0) -> Game:
    """Play one seeded game through Game, checking every part against the reference and the turn order against
    a model of docs/rules.md §6.4 built from the dice alone; return the finished game."""
    rng = random.Random(seed)
    greedy = seed % 2 == 0
    dice_source = SeededDice(seed)
    game = Game("gulbara", options=options, dice=dice_source)
    game.roll()
    assert game.phase is Phase.ROLL and game.first_player is not None
    turns = [0, 0]
    while True:
        roller = game.roller
        assert game.phase is Phase.ROLL and game.turns_taken == turns, (game.snapshot(), turns)
        dice = game.roll()
        double = dice[0] == dice[1]
        escalate = double and turns[roller] >= options.gulbara_plain_turns
        if escalate:
            parts = [((n, n), 4) for n in range(dice[0], 7)]
            tally.escalations += 1
        else:
            parts = [(dice, 4 if double else 2)]
        handing = escalate and options.gulbara_pass_unplayed
        mover, receiving = roller, False
        head_start = game.sides[mover][23]
        index = 0
        while index < len(parts):
            part_dice, count = parts[index]
            position = Position(game.sides[mover], game.sides[1 - mover])
            POSITIONS.append(position)
            departed = head_start - position.me[23]
            first_turn = turns[mover] == 0 and not receiving
            used, ends = ref_legal(position, part_dice, count, departed, first_turn, options)
            tally.parts += 1
            tally.received_parts += receiving
            if used:
                assert game.phase is Phase.MOVE and game.roller == mover and game.dice == part_dice
                assert game.pool == Pool(part_dice, count, handing and not receiving)
                assert game.hand_over is receiving
                plan = game.plan()
                moves = plan.moves()
                assert {m.position for m in moves} == ends, (position.key(), part_dice, count, departed)
                assert plan.length == used
                if rng.random() < 0.7 and greedy:
                    best = min(m.position.pips()[0] for m in moves)
                    move = rng.choice([m for m in moves if m.position.pips()[0] == best])
                else:
                    move = rng.choice(moves)
                left_head = head_start - move.position.me[23]
                if left_head == 2 and departed < 2:
                    tally.second_head += 1
                    tally.second_head_later_part += index > 0
                game.play(move if rng.random() < 0.5 else move.notation)
                if not sum(game.sides[mover]):
                    assert game.phase is Phase.OVER and game.result is not None
                    value = value_of(game.sides[1 - mover], options)
                    assert (game.result.winner, game.result.kind, game.result.points) == (
                        mover,
                        value.kind,
                        value.points,
                    )
                    tally.kinds.add(value.kind)
                    tally.games += 1
                    return game
                if save_every and rng.randrange(save_every) == 0:
                    snapshot = game.snapshot()
                    game = Game.from_dict(game.to_dict(), dice=dice_source)
                    assert game.snapshot() == snapshot
                    tally.saves += 1
            else:
                tally.forfeited_parts += 1
            if used < count:
                if handing and not receiving:
                    tally.hand_overs += 1
                    turns[mover] += 1
                    parts = [(part_dice, count - used), *parts[index + 1 :]]
                    index = 0
                    mover, receiving = 1 - mover, True
                    head_start = game.sides[mover][23]
                    continue
                if not receiving:
                    tally.lost_moves += count - used + sum(c for _, c in parts[index + 1 :])
                    break
            index += 1
        if not receiving:
            turns[roller] += 1
        assert game.phase is Phase.ROLL and game.roller == (mover if receiving else 1 - roller)
        assert game.pool is None and not game.pools and not game.hand_over


TALLY = Tally()
POSITIONS: list[Position] = []
GAMES = [drive(seed, OPTION_SETS[seed % len(OPTION_SETS)], TALLY, save_every=40) for seed in range(48)]


def test_driven_games_exercise_every_rule() -> None:
    assert TALLY.games == len(GAMES)
    assert TALLY.parts > 3000
    assert TALLY.escalations > 150 and TALLY.hand_overs > 40 and TALLY.received_parts > 60
    assert TALLY.lost_moves > 10 and TALLY.forfeited_parts > 50 and TALLY.saves > 20
    assert TALLY.second_head > 5 and TALLY.second_head_later_part > 0
    assert {"oin", "mars"} <= TALLY.kinds


# ---------------------------------------------------------------------------------------------------------------
# worked examples (docs/rules.md §6.4)


def test_registry_and_settings() -> None:
    assert isinstance(GULBARA, GulBara)
    for alias in ("гюльбара", "гюльбар", "бешеный гюльбар", "gul bara", "Gul Bara", "GULBARA"):
        assert get_variant(alias) is GULBARA
    assert GULBARA.titles == {"en": "Gul bara", "ru": "гюльбара"}
    assert GULBARA.id_prefix == "G1" and GULBARA.geometry == "parallel"
    assert GULBARA.initial_position() == get_variant("long").initial_position()
    assert not GULBARA.cube_enabled(Options()) and GULBARA.opening_rerolls
    assert GULBARA.resign_options(Options()) == ("oin", "mars")
    assert "docs/rules.md §6.4" in class_docstring(GulBara)


def test_options_are_checked() -> None:
    assert (Options().gulbara_plain_turns, Options().gulbara_pass_unplayed) == (3, True)
    assert Options.from_dict({"gulbara_plain_turns": 0, "gulbara_pass_unplayed": False}) == LOSE
    for bad in (
        {"gulbara_plain_turns": -1},
        {"gulbara_plain_turns": 11},
        {"gulbara_plain_turns": "3"},
        {"gulbara_plain_turns": True},
        {"gulbara_pass_unplayed": 1},
        {"gulbara_pass_unplayed": None},
    ):
        with pytest.raises(InvalidOptionError, match="gulbara"):
            Options.from_dict(bad)


def test_roll_pools() -> None:
    """4-4 escalates to four 4s, four 5s and four 6s in that order, once the plain turns are over."""
    four = (Pool((4, 4), 4, True), Pool((5, 5), 4, True), Pool((6, 6), 4, True))
    assert GULBARA.roll_pools((4, 4), 3, Options()) == four
    assert GULBARA.roll_pools((4, 4), 7, Options()) == four
    assert GULBARA.roll_pools((4, 4), 2, Options()) == (Pool((4, 4), 4),)  # a plain turn
    assert GULBARA.roll_pools((4, 4), 0, ESCALATE) == four
    assert GULBARA.roll_pools((1, 1), 0, LOSE) == tuple(Pool((n, n), 4, False) for n in range(1, 7))
    assert GULBARA.roll_pools((6, 6), 5, Options()) == (Pool((6, 6), 4, True),)
    assert GULBARA.roll_pools((6, 5), 5, Options()) == (Pool((6, 5), 2),)
    assert get_variant("long").roll_pools((4, 4), 5, ESCALATE) == (Pool((4, 4), 4),)


def _game(me: dict[int, int], opp: dict[int, int], dice: list[int], options: Options, turns: int = 5) -> Game:
    """A game at player 0's roll in the given position, both players having taken ``turns`` turns."""
    game = Game("gulbara", options=options, dice=FixedDice(dice), first_player=0)
    game.sides = [make_side(me), make_side(opp)]
    game.turns_taken = [turns, turns]
    game.moves_played = 2 * turns
    return game


def test_escalation_order_through_game() -> None:
    game = _game({24: 5, 20: 2, 18: 2, 16: 2, 14: 2, 10: 2}, {24: 15}, [4, 4], Options(), turns=3)
    assert game.roll() == (4, 4)
    for number in (4, 5, 6):
        assert game.phase is Phase.MOVE and game.roller == 0 and game.dice == (number, number)
        assert game.pool == Pool((number, number), 4, True)
        plan = game.plan()
        assert plan.length == 4
        game.play(plan.moves()[0])
    assert game.phase is Phase.ROLL and game.roller == 1 and game.turns_taken == [4, 3]


def test_plain_turns_play_doubles_normally() -> None:
    game = _game({24: 5, 20: 2, 18: 2, 16: 2, 14: 2, 10: 2}, {24: 15}, [4, 4], Options(), turns=2)
    game.roll()
    assert game.pool == Pool((4, 4), 4) and game.pools == []
    game.play(game.legal_moves()[0])
    assert game.phase is Phase.ROLL and game.roller == 1


# the mover holds 24 (14) and 7; the opponent (its frame) 2 (10), 10, 5, 17, 20, 1 = our 14, 22, 17, 5, 8, 13
HAND_ME = {24: 14, 7: 1}
HAND_OPP = {2: 10, 10: 1, 5: 1, 17: 1, 20: 1, 1: 1}


def test_hand_over() -> None:
    """4-4: the 4s are forced (24/20/16/12, 12/8 closed, one head checker, and 7/3); of the 5s only 12/7/2 can be
    played (the head is used, 3/off is not allowed): two 5s and four 6s pass to the opponent. In its own frame it
    plays them in order, as many as it can: of the two 5s only 10/5 (20/15 and 17/12 are ours, 5/off is early);
    of the 6s only 17/11/5 (20/14 is ours); the rest is lost, and it rolls for its own turn."""
    game = _game(HAND_ME, HAND_OPP, [4, 4, 3, 1], Options())
    game.roll()
    assert notations(game.legal_moves()) == {"24/20/16/12 7/3"}
    game.play("24/20/16/12 7/3")
    assert game.dice == (5, 5) and game.roller == 0
    assert notations(game.legal_moves()) == {"12/7/2"} and game.plan().length == 2
    game.play("12/7/2")
    assert game.phase is Phase.MOVE and game.roller == 1 and game.hand_over and game.turns_taken == [6, 5]
    assert game.pool == Pool((5, 5), 2) and game.pools == [Pool((6, 6), 4)]
    plan = game.plan()
    assert plan.count == 2 and plan.length == 1 and notations(plan.moves()) == {"10/5"}
    game.play("10/5")
    assert game.phase is Phase.MOVE and game.roller == 1 and game.dice == (6, 6)
    assert notations(game.legal_moves()) == {"17/11/5"}
    saved = game.to_dict()
    game.play("17/11/5")
    assert game.phase is Phase.ROLL and game.roller == 1 and not game.hand_over and game.turns_taken == [6, 5]
    assert game.roll() == (3, 1)
    assert game.roller == 1 and game.phase is Phase.MOVE
    # a save in the middle of the hand-over plays on the same way
    again = Game.from_dict(saved, dice=FixedDice([3, 1]))
    assert again.hand_over and again.pool == Pool((6, 6), 4) and notations(again.legal_moves()) == {"17/11/5"}
    again.play("17/11/5")
    again.roll()
    assert again.snapshot() == game.snapshot()


def test_hand_over_option_off() -> None:
    """gulbara_pass_unplayed off: the same two 5s and four 6s are simply lost; the opponent rolls its own turn."""
    game = _game(HAND_ME, HAND_OPP, [4, 4], Options(gulbara_pass_unplayed=False))
    game.roll()
    assert game.pool == Pool((4, 4), 4, False)
    game.play("24/20/16/12 7/3")
    game.play("12/7/2")
    assert game.phase is Phase.ROLL and game.roller == 1 and not game.hand_over and game.pools == []
    assert game.turns_taken == [6, 5]


def test_hand_over_of_a_forfeited_number() -> None:
    """A number the mover cannot play at all passes whole: 6-6 with 24/18 and 13/7 closed (the opponent's 6 and
    19) — the roll is passed at once and all four 6s go to the opponent, who plays 24/18 (one head checker) and
    19/13/7 (7/1 is our 13); the fourth 6 is lost."""
    game = _game({24: 14, 13: 1}, {6: 1, 19: 1, 24: 13}, [6, 6], Options())
    game.roll()
    assert game.history[-1] == {"t": "pass"}
    assert game.roller == 1 and game.hand_over and game.pool == Pool((6, 6), 4) and game.pools == []
    plan = game.plan()
    assert plan.length == 3 and notations(plan.moves()) == {"24/18 19/13/7"}
    game.play("24/18 19/7")
    assert game.phase is Phase.ROLL and game.roller == 1 and game.turns_taken == [6, 5]


def test_head_rule_across_an_escalation() -> None:
    """1-1 escalated on a later turn: one checker leaves the head in the whole turn (24/20 with the 1s, then no
    head move in the 2s, 3s, ...)."""
    game = _game({24: 14, 23: 1}, {24: 15}, [1, 1], Options())
    game.roll()
    game.play("24/20")
    assert game.dice == (2, 2)
    assert all(step.src != 24 for step in game.next_steps())
    while game.phase is Phase.MOVE and game.roller == 0:
        for move in game.legal_moves():
            assert move.position.me[23] == 13
        game.play(game.legal_moves()[0])
    assert game.sides[0][23] == 13


def test_first_turn_exception_with_plain_turns_zero() -> None:
    """plain turns 0, the first mover's first turn: 4-4 escalates. The 4s cannot be played with one head checker
    (16/12 is the opponent's head): 24/20/16(2). Then the head is closed for the 5s (two have left): 16/11/6(2) or
    16/11 16/11/6/1. After 16/11/6(2) no 6 can be played (head closed, 6/off early): all four pass, and the
    opponent cannot play them either (its 24/18 lands on our 6); it then rolls its own first turn."""
    game = Game("gulbara", options=ESCALATE, dice=FixedDice([5, 2, 4, 4, 3, 1]))
    game.roll()
    assert game.roller == 0
    game.roll()
    assert notations(game.legal_moves()) == {"24/20/16(2)"}
    game.play("24/20/16(2)")
    assert game.dice == (5, 5)
    assert notations(game.legal_moves()) == {"16/11/6(2)", "16/11 16/11/6/1"}
    game.play("16/11/6(2)")
    assert [r["t"] for r in game.history[-2:]] == ["pass", "pass"]  # the mover's four 6s, then the opponent's
    assert game.phase is Phase.ROLL and game.roller == 1 and not game.hand_over and game.is_first_turn(1)
    assert game.turns_taken == [1, 0]
    game = Game("gulbara", options=ESCALATE, dice=FixedDice([5, 2, 4, 4]))
    game.roll()
    game.roll()
    game.play("24/20/16(2)")
    game.play("16/11 16/11/6/1")
    assert game.dice == (6, 6) and game.roller == 0
    assert all(step.src != 24 for step in game.next_steps())


def test_first_turn_exception_in_a_later_number() -> None:
    """plain turns 0, the first mover's 1-1: the 1s go with one head checker (24/20); the 2s cannot then be played
    in full (20/18/16/14, 14/12 is closed), so the exception lets a second head checker leave in the 2s; the 3s
    keep the head closed (two have left). Not on a later turn: there the 2s stay at three moves."""
    game = Game("gulbara", options=ESCALATE, dice=FixedDice([5, 2, 1, 1]))
    game.roll()
    game.roll()
    game.play("24/20")
    assert game.dice == (2, 2)
    plan = game.plan()
    assert plan.length == 4 and any(m.position.me[23] == 13 for m in plan.moves())
    game.play(next(m for m in plan.moves() if m.position.me[23] == 13))
    assert game.dice == (3, 3)
    assert all(m.position.me[23] == 13 for m in game.legal_moves())
    later = _game({24: 15}, {24: 15}, [1, 1], ESCALATE)
    later.roll()
    later.play("24/20")
    assert later.dice == (2, 2) and later.plan().length == 3 and notations(later.legal_moves()) == {"20/18/16/14"}


def test_first_turn_6_6_hand_over_at_the_opening() -> None:
    """plain turns 0: the first mover's 6-6 is 24/18(2) and two 6s pass; the second player plays one of them
    (24/18, one head checker: a hand-over is not its first turn) and then rolls its own first turn, where the
    exception is still available."""
    game = Game("gulbara", options=ESCALATE, dice=FixedDice([5, 2, 6, 6, 6, 6]))
    game.roll()
    game.roll()
    assert notations(game.legal_moves()) == {"24/18(2)"}
    game.play("24/18(2)")
    assert game.roller == 1 and game.hand_over and game.pool == Pool((6, 6), 2)
    assert notations(game.legal_moves()) == {"24/18"}
    game.play("24/18")
    assert game.phase is Phase.ROLL and game.roller == 1 and game.is_first_turn(1)
    game.roll()
    assert notations(game.legal_moves()) == {"24/18(2)"}  # its own first turn: two head checkers


def test_last_chance_never_hands_over_to_a_finished_player() -> None:
    """last_roll_draw: the first player has borne off all 15; the other's last roll 5-5 escalates and cannot be
    played in full — the last chance ends there and the first player wins (no hand-over to a side with no
    checkers)."""
    options = Options(last_roll_draw=True, gulbara_plain_turns=0)
    game = _game({1: 1}, {24: 15}, [2, 1, 5, 5], options)
    game.roll()
    game.play("1/off")
    assert game.phase is Phase.ROLL and game.roller == 1
    game.roll()
    game.play("24/19/14/9/4")
    assert game.phase is Phase.OVER and game.result is not None
    assert (game.result.winner, game.result.kind, game.result.points) == (0, "mars", 2)


def test_last_chance_after_finishing_in_a_hand_over() -> None:
    """last_roll_draw: player 1's 6-6 escalates, 24/18/12/6 (6/off is early) and one 6 passes to player 0, the first
    mover, whose last checker goes 1/off with it. Player 1 then gets its one last roll as an ordinary turn (no
    hand-over is left over from before): it cannot finish, so player 0 wins."""
    options = Options(last_roll_draw=True)
    game = _game({1: 1}, {24: 15}, [6, 6, 3, 1, 2, 2], options)
    game.roller = game.turn = 1
    game.roll()
    game.play("24/18/12/6")
    assert game.roller == 0 and game.hand_over and game.pool == Pool((6, 6), 1)
    game.play("1/off")
    assert game.phase is Phase.ROLL and game.roller == 1 and not game.hand_over
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.phase is Phase.OVER and game.result is not None
    assert (game.result.winner, game.result.kind, game.result.points) == (0, "mars", 2)


def test_misere_is_not_read() -> None:
    """Gul bara keeps оин/марс (docs/rules.md §6.4): long nardy's option misere does not apply."""
    misere = Options(misere=True)
    assert not GULBARA.finisher_loses(misere) and GULBARA.resign_options(misere) == ("oin", "mars")
    assert GULBARA.game_value(pos({}, {24: 15}), misere) == GameValue("mars", 2)
    game = _game({1: 1}, {24: 15}, [2, 1], misere)
    game.roll()
    game.play("1/off")
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 2)


# ---------------------------------------------------------------------------------------------------------------
# save/load, replay, ids, properties


def test_save_load_and_replay() -> None:
    """The shortest driven game with a hand-over: saved, loaded (snapshot and replayed history) and replayed record
    by record; every intermediate state (in the middle of an escalation or a hand-over) saves and loads as it is."""
    game = min((g for g in GAMES if g.options.gulbara_pass_unplayed), key=lambda g: len(g.history))
    data = game.to_dict()
    assert Game.from_dict(data, verify=True).snapshot() == game.snapshot()
    assert Game.from_dict(game.to_dict(compact=True)).snapshot() == game.snapshot()
    states = replay(data)
    assert states[-1].snapshot() == game.snapshot()
    assert any(s.hand_over for s in states) and any(s.pools for s in states)
    for state in states[:: max(1, len(states) // 25)]:
        assert Game.from_dict(state.to_dict()).snapshot() == state.snapshot()
        assert Game.from_dict(state.to_dict(), verify=True).snapshot() == state.snapshot()


def test_ids_round_trip() -> None:
    for position in POSITIONS[::20]:
        for shown in (position, position.swapped()):
            text = variant_position_id("gulbara", shown)
            assert text.startswith("G1") and len(text) == 16
            assert position_from_any_id(text) == ("gulbara", shown)
    assert variant_position_id("gulbara", GULBARA.initial_position()) == "G1AACA_z8AAID_Pw"


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), options=st.sampled_from(OPTION_SETS))
def test_every_random_game_ends(seed: int, options: Options) -> None:
    rng = random.Random(seed)
    game = Game("gulbara", options=options, dice=SeededDice(seed))
    while game.phase is not Phase.OVER:
        if game.phase is Phase.MOVE:
            game.play(rng.choice(game.legal_moves()))
        else:
            game.roll()
        assert sum(game.sides[0]) <= 15 and sum(game.sides[1]) <= 15
        assert game.moves_played < 3000
    assert game.result is not None and sum(game.sides[game.result.winner]) == 0


@settings(max_examples=80, deadline=None)
@given(index=st.integers(0, 10**6), number=st.integers(1, 6), count=st.integers(1, 4), first=st.booleans())
def test_checker_conservation(index: int, number: int, count: int, first: bool) -> None:
    """Every part of any size keeps the checkers: only the mover's move, each to a point or off, at most one
    (first turn: two) off the head."""
    position = POSITIONS[index % len(POSITIONS)]
    plan = TurnPlan(GULBARA, position, (number, number), first_turn=first, count=count)
    assert plan.length <= count
    for move in plan.moves():
        borne = sum(1 for step in move.steps if step.dst == 0)
        assert move.position.opp == position.opp
        assert sum(move.position.me) == sum(position.me) - borne
        assert position.me[23] - move.position.me[23] <= (2 if first else 1)
        GULBARA.validate(move.position)
