"""Long nardy edge cases (docs/rules.md §1, §2) and a differential test against a naive reference generator.

The reference below is written straight from the rule book, position by position and with no shared code with the
engine's generator: every order of the dice, every checker, then the must-play and head-exception rules on the whole
set of results. It is slow but easy to check by eye; the engine must give exactly the same set of end positions.
"""

from __future__ import annotations

import random

import pytest
from nardy_testkit import LONG, LONG_OPTIONS, Turn, game_turns, notations, pos

from nardy import Options, Position, TurnPlan, legal_moves
from nardy.variants import GameValue

# ---------------------------------------------------------------------------------------------------------------
# the reference generator


def _mover_point(q: int) -> int:
    """The mover's number of the opponent's point q."""
    return q + 12 if q <= 12 else q - 12


_PATH = [_mover_point(q) for q in range(1, 25)]  # mover points along the opponent's path, its point 1 first


def unsupported_block(me: list[int], opp: tuple[int, ...]) -> bool:
    """Whether the mover holds six or more points in a row of the opponent's path with no opponent checker ahead."""
    opp_off = 15 - sum(opp)
    q = 1
    while q <= 24:
        if not me[_PATH[q - 1] - 1]:
            q += 1
            continue
        lo = q
        while q <= 24 and me[_PATH[q - 1] - 1]:
            q += 1
        if q - lo >= 6 and not opp_off and not any(opp[: lo - 1]):
            return True
    return False


def ref_step(me: list[int], opp: tuple[int, ...], src: int, die: int, per_move: bool) -> list[int] | None:
    """Return the mover's side after moving a checker from ``src`` by ``die``, or None when that is not legal."""
    if not me[src - 1]:
        return None
    dst = src - die
    new = list(me)
    new[src - 1] -= 1
    if dst >= 1:
        q = dst - 12 if dst > 12 else dst + 12
        if opp[q - 1]:
            return None
        new[dst - 1] += 1
        if per_move and unsupported_block(new, opp):
            return None
        return new
    if any(me[6:24]):
        return None
    if dst < 0 and any(me[src:24]):
        return None
    return new


def ref_turns(position: Position, dice: tuple[int, int], head_limit: int, block: str) -> dict[int, set]:
    """Return ``{dice used: {(first die, end side)}}`` over every way to play ``dice`` step by step."""
    opp = position.opp
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    out: dict[int, set] = {}

    def walk(me: list[int], left: list[int], used: int, first: int, head_left: int) -> None:
        out.setdefault(used, set()).add((first, tuple(me)))
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for src in range(1, 25):
                if src == 24 and head_left == 0:
                    continue
                new = ref_step(me, opp, src, die, block == "per_move")
                if new is not None:
                    walk(new, rest, used + 1, first or die, head_left - (src == 24))

    walk(list(position.me), pool, 0, 0, head_limit)
    return out


def ref_ends(position: Position, dice: tuple[int, int], head_limit: int, block: str) -> tuple[int, set[Position]]:
    """Return the number of dice the turn uses and its legal end positions, must-play rules applied.

    ``block`` is when the block rule is checked: ``per_move``, ``end_of_turn`` or ``never`` (to measure the corpus).
    """
    found = ref_turns(position, dice, head_limit, block)

    def ok(side: tuple[int, ...]) -> bool:
        return block != "end_of_turn" or not unsupported_block(list(side), position.opp)

    def result(used: int, sides: set) -> tuple[int, set[Position]]:
        return used, {Position(side, position.opp) for side in sides}

    if dice[0] == dice[1]:
        for used in range(4, 0, -1):
            ends = {side for _, side in found.get(used, ()) if ok(side)}
            if ends:
                return result(used, ends)
        return 0, set()
    ends = {side for _, side in found.get(2, ()) if ok(side)}
    if ends:
        return result(2, ends)
    for die in sorted(dice, reverse=True):
        ends = {side for first, side in found.get(1, ()) if first == die and ok(side)}
        if ends:
            return result(1, ends)
    return 0, set()


def ref_legal(
    position: Position, dice: tuple[int, int], first_turn: bool, options: Options, block: str | None = None
) -> set[Position]:
    """Return the set of positions the reference allows after ``dice`` (empty: the roll is forfeited)."""
    when = block or options.block_check
    full = 4 if dice[0] == dice[1] else 2
    if not first_turn or options.head_exception == "none":
        return ref_ends(position, dice, 1, when)[1]
    if options.head_exception == "classic":
        two = dice[0] == dice[1] and dice[0] in (3, 4, 6)
        return ref_ends(position, dice, 2 if two else 1, when)[1]
    used, ends = ref_ends(position, dice, 1, when)
    if used == full:
        return ends
    return ref_ends(position, dice, 2, when)[1]


def _spread(rng: random.Random, points: list[int], checkers: int) -> dict[int, int]:
    counts = dict.fromkeys(points, 1)
    for _ in range(checkers - len(points)):
        point = rng.choice(points)
        counts[point] += 1
    return counts


def crafted_positions(count: int, seed: int) -> list[Turn]:
    """Return made-up long-nardy positions full of near-blocks (runs of 4..7 points along the opponent's path),
    sometimes with the mover bearing off; each is valid and holds no unsupported block yet."""
    rng = random.Random(seed)
    out: list[Turn] = []
    while len(out) < count:
        if rng.random() < 0.2:  # bearing off, the opponent anywhere
            me_points = rng.sample(range(1, 7), rng.randint(1, 6))
            me_checkers = rng.randint(len(me_points), 15)
        else:
            start, length = rng.randrange(24), rng.randint(3, 7)
            run = {_PATH[(start + i) % 24] for i in range(length)}
            extra = set(rng.sample(range(1, 25), rng.randint(0, 3)))
            me_points = sorted(run | extra | ({24} if rng.random() < 0.4 else set()))
            me_checkers = 15
        if me_checkers < len(me_points):
            continue
        me = _spread(rng, me_points, me_checkers)
        free = [q for q in range(1, 25) if _mover_point(q) not in me]
        opp_points = rng.sample(free, min(len(free), rng.randint(1, 6)))
        opp_checkers = rng.choice((15, 15, 15, 14, 12))
        opp = _spread(rng, opp_points, opp_checkers)
        position = pos(me, opp)
        LONG.validate(position)
        if unsupported_block(list(position.me), position.opp) or unsupported_block(list(position.opp), position.me):
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        options = rng.choice((*LONG_OPTIONS, Options(block_check="end_of_turn")))
        out.append(Turn(LONG, position, dice, rng.random() < 0.2, options, -1))
    return out


def _corpus() -> list[Turn]:
    turns = list(game_turns(LONG, range(24), LONG_OPTIONS))
    # every first turn again with every roll, under every option set
    firsts = [t for t in turns if t.first_turn]
    extra = [t.with_dice((a, b)) for t in firsts for a in range(1, 7) for b in range(a, 7)]
    return turns + extra + crafted_positions(3000, 7)


CORPUS = _corpus()


def test_corpus_is_varied() -> None:
    assert len(CORPUS) > 2000
    assert sum(t.first_turn for t in CORPUS) > 500
    bearing = [t for t in CORPUS if not any(t.position.me[6:24])]
    assert len(bearing) > 100
    assert sum(t.dice[0] == t.dice[1] for t in CORPUS) > 300
    assert {t.options for t in CORPUS} == set(LONG_OPTIONS)


def test_corpus_exercises_the_block_rule() -> None:
    """Enough turns of the corpus change when the block rule is dropped, or checked only at the end of the turn."""
    sample = CORPUS[::3]
    changed = sum(
        ref_legal(t.position, t.dice, t.first_turn, t.options, "never")
        != ref_legal(t.position, t.dice, t.first_turn, t.options)
        for t in sample
    )
    assert changed > 20


@pytest.mark.parametrize("chunk", range(8))
def test_engine_matches_reference(chunk: int) -> None:
    for turn in CORPUS[chunk::8]:
        ours = {m.position for m in turn.moves()}
        expected = ref_legal(turn.position, turn.dice, turn.first_turn, turn.options)
        assert ours == expected, turn


@pytest.mark.parametrize("chunk", range(4))
def test_no_unsupported_block_is_ever_reached(chunk: int) -> None:
    """In any position reached in play, neither side holds a block with every opponent checker behind it."""
    for turn in CORPUS[chunk::4]:
        assert not unsupported_block(list(turn.position.me), turn.position.opp), turn
        assert not unsupported_block(list(turn.position.opp), turn.position.me), turn


# ---------------------------------------------------------------------------------------------------------------
# the head rule

INITIAL = LONG.initial_position()


def moves_of(position: Position, dice: tuple[int, int], first_turn: bool = False, **options: str) -> set[str]:
    return notations(legal_moves(LONG, position, dice, first_turn=first_turn, options=Options(**options)))


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((6, 6), {"24/18(2)"}),
        ((4, 4), {"24/20/16(2)"}),
        ((3, 3), {"24/21/18(2)", "24/21 24/21/18/15"}),
        ((5, 5), {"24/19/14/9/4"}),
        ((6, 5), {"24/18/13"}),
        ((2, 2), {"24/22/20/18/16"}),
        ((1, 1), {"24/23/22/21/20"}),
        ((2, 1), {"24/22/21"}),
    ],
)
def test_first_mover_head_rule(dice: tuple[int, int], expected: set[str]) -> None:
    assert moves_of(INITIAL, dice, first_turn=True) == expected
    assert moves_of(INITIAL, dice, first_turn=True, head_exception="classic") == expected


@pytest.mark.parametrize("dice", [(6, 6), (4, 4), (3, 3)])
def test_first_mover_without_head_exception(dice: tuple[int, int]) -> None:
    moves = legal_moves(LONG, INITIAL, dice, first_turn=True, options=Options(head_exception="none"))
    assert len(moves) == 1
    assert moves[0].position.me[23] == 14


def test_head_exception_only_on_first_turn() -> None:
    """The same opening position, but not the mover's first turn: one checker only."""
    assert moves_of(INITIAL, (6, 6)) == {"24/18"}
    assert moves_of(INITIAL, (4, 4)) == {"24/20/16"}
    assert moves_of(INITIAL, (3, 3)) == {"24/21/18/15"}


def test_second_mover_5_5_blocked_by_first_movers_checker() -> None:
    """The first mover's checker on its 21 (our 9) stops one checker's 24/4: a second may leave under `blocked`."""
    position = pos({24: 15}, {24: 14, 21: 1})
    assert moves_of(position, (5, 5), first_turn=True) == {"24/19/14(2)"}
    assert moves_of(position, (5, 5), first_turn=True, head_exception="classic") == {"24/19/14"}
    assert moves_of(position, (5, 5), first_turn=True, head_exception="none") == {"24/19/14"}


def test_second_mover_6_2_blocked_by_first_movers_checker() -> None:
    """The first mover's checker on its 4 (our 16) stops 24/16 with one checker: 24/18 24/22 under `blocked`."""
    position = pos({24: 15}, {24: 14, 4: 1})
    assert moves_of(position, (6, 2), first_turn=True) == {"24/22 24/18"}
    assert moves_of(position, (6, 2), first_turn=True, head_exception="classic") == {"24/18"}
    assert moves_of(position, (6, 2), first_turn=True, head_exception="none") == {"24/18"}


def test_second_mover_6_6_and_4_4() -> None:
    position = pos({24: 15}, {24: 14, 18: 1})  # first mover played 6-6 ... one checker seen on its 18 = our 6
    assert moves_of(position, (6, 6), first_turn=True) == {"24/18(2)"}
    assert moves_of(position, (4, 4), first_turn=True) == {"24/20/16(2)"}


def test_later_turn_6_5_one_head_checker_plays_both() -> None:
    """docs/rules.md §7: the head holds checkers, no other checker can move: one head checker plays 6-5."""
    position = pos({24: 14, 1: 1}, {24: 15})
    moves = legal_moves(LONG, position, (6, 5))
    assert notations(moves) == {"24/18/13"}
    assert moves[0].position.me[23] == 13


def test_later_turn_head_checker_blocked_plays_the_larger_die() -> None:
    """Only one die can be played (the opponent holds our 13 and 19), so the 6 is played; no second head checker."""
    position = pos({24: 14, 1: 1}, {24: 13, 1: 1, 7: 1})
    assert moves_of(position, (6, 5)) == {"24/18"}


def test_head_rule_for_the_second_player_later() -> None:
    """The head rule holds for both players: here the mover is the one who moved second."""
    position = pos({24: 13, 20: 1, 16: 1}, {24: 14, 18: 1})
    for move in legal_moves(LONG, position, (4, 4)):
        assert move.position.me[23] >= 12, move


# ---------------------------------------------------------------------------------------------------------------
# the block rule

CORNER = pos({24: 10, 23: 1, 22: 1, 4: 1, 3: 1, 2: 1}, {24: 15})


@pytest.mark.parametrize("block_check", ["per_move", "end_of_turn"])
def test_block_across_the_corner(block_check: str) -> None:
    """docs/rules.md §7: 22, 23, 24, 1, 2, 3 are six in a row on the opponent's path."""
    found = moves_of(CORNER, (6, 3), block_check=block_check)
    assert "24/18 4/1" not in found
    assert "24/18/15" in found  # 24/15
    assert "24/21 4/1" not in found  # 24/21 is not a block, but 4/1 with a 3 also completes it
    for move in legal_moves(LONG, CORNER, (6, 3), options=Options(block_check=block_check)):
        assert not unsupported_block(list(move.position.me), move.position.opp), move


def test_block_rule_per_move_versus_end_of_turn() -> None:
    """8/2/1 (the opponent holds our 7, so 8/7 is closed) makes a block on 2 and breaks it again on 1."""
    position = pos({24: 10, 23: 1, 22: 1, 3: 1, 1: 1, 8: 1}, {24: 14, 19: 1})
    per_move = moves_of(position, (6, 1))
    end_of_turn = moves_of(position, (6, 1), block_check="end_of_turn")
    assert "8/2/1" not in per_move
    assert "8/2/1" in end_of_turn
    assert end_of_turn - per_move == {"8/2/1"}


def test_block_with_an_opponent_checker_ahead_is_allowed() -> None:
    """The same corner block is allowed once an opponent checker has passed it (its point 5 = our 17)."""
    position = pos({24: 10, 23: 1, 22: 1, 4: 1, 3: 1, 2: 1}, {24: 14, 5: 1})
    assert "24/18 4/1" in moves_of(position, (6, 3))


def test_block_with_an_opponent_checker_borne_off_is_allowed() -> None:
    """Borne-off opponent checkers count as ahead: a block on the opponent's home points 1..6 (our 13..18)."""
    me = {24: 4, 18: 2, 17: 2, 16: 2, 15: 2, 14: 2, 20: 1}
    behind = pos(me, {24: 10, 23: 5})
    ahead = pos(me, {24: 10, 23: 4})
    blocking = {"20/14/13", "24/18 14/13", "20/19 14/8"}  # 13..18 or 14..19 held
    assert not blocking & moves_of(behind, (6, 1))
    assert blocking <= moves_of(ahead, (6, 1))
    assert "14/13 14/8" in moves_of(behind, (6, 1))  # 14 is left again: no block


def test_no_block_across_the_opponents_path_ends() -> None:
    """Our 12 and 13 are the opponent's 24 and 1, the two ends of its path: 10..15 held is not a block."""
    me = {24: 5, 15: 2, 14: 2, 13: 2, 12: 1, 11: 2, 16: 1}
    opp = {9: 5, 8: 5, 7: 5}  # our 21, 20, 19: behind our 10..15 in no sense that matters
    position = pos(me, opp)
    found = moves_of(position, (6, 5))
    assert "16/10" in " ".join(found)  # 16/10 completes 10..16 in our numbering: two short runs for the opponent
    for move in legal_moves(LONG, position, (6, 5)):
        assert not unsupported_block(list(move.position.me), move.position.opp)


# ---------------------------------------------------------------------------------------------------------------
# bearing off


def test_bear_off_exact_die() -> None:
    position = pos({6: 5, 5: 5, 4: 5}, {24: 15})
    found = moves_of(position, (6, 5))
    assert found == {"6/off 5/off", "6/1 6/off"}


def test_bear_off_with_higher_dice_takes_the_highest() -> None:
    position = pos({3: 1, 2: 1}, {24: 15})
    assert moves_of(position, (6, 5)) == {"3/off 2/off"}


def test_rules_example_bear_off_from_2_then_1() -> None:
    """docs/rules.md §7: home holds checkers only on 1 and 2, roll 5-3: take off from 2, then from 1."""
    position = pos({2: 1, 1: 1}, {24: 15})
    assert moves_of(position, (5, 3)) == {"2/off 1/off"}
    position = pos({2: 3, 1: 2}, {24: 15})
    assert moves_of(position, (5, 3)) == {"2/off(2)"}


def test_bear_off_lower_die_must_move_inside_home() -> None:
    """A die lower than the highest point cannot bear off a checker from a lower point."""
    position = pos({6: 1, 2: 1}, {24: 15})
    assert moves_of(position, (4, 1)) == {"6/2/1"}  # the 4 cannot take the 2 off; 6/2 2/1 is the same position
    assert moves_of(position, (2, 1)) == {"6/4 2/1", "6/4/3", "6/5 2/off"}  # never 2/1/off: 6 is higher


def test_higher_checker_blocked_forbids_bearing_off_with_that_die() -> None:
    """Our 6 cannot move 4 (the opponent holds our 2) and stands higher: the 4 cannot bear off the 1."""
    position = pos({6: 1, 1: 1, 5: 13}, {14: 15})
    assert not any("1/off" in m for m in moves_of(position, (4, 4)))


def test_bear_off_not_before_all_home() -> None:
    position = pos({7: 1, 3: 14}, {24: 15})
    assert moves_of(position, (3, 1)) == {"7/4 3/2", "7/4/3", "7/6 3/off"}


def test_bear_off_follows_a_move_into_home() -> None:
    position = pos({8: 1, 3: 14}, {24: 15})
    assert "8/2 3/off" in moves_of(position, (6, 3))


# ---------------------------------------------------------------------------------------------------------------
# оин / марс


@pytest.mark.parametrize(
    ("opp", "federation", "extended"),
    [
        ({1: 14}, GameValue("oin", 1), GameValue("oin", 1)),
        ({24: 3, 10: 12}, GameValue("mars", 2), GameValue("koks", 4)),
        ({10: 3, 5: 12}, GameValue("mars", 2), GameValue("mars", 2)),
        ({6: 3, 1: 12}, GameValue("mars", 2), GameValue("home_mars", 3)),
        ({24: 1, 3: 1}, GameValue("oin", 1), GameValue("oin", 1)),
    ],
)
def test_game_value(opp: dict[int, int], federation: GameValue, extended: GameValue) -> None:
    position = pos({}, opp)
    assert LONG.game_value(position, Options()) == federation
    assert LONG.game_value(position, Options(long_scoring="extended")) == extended


def test_every_finishing_move_has_a_game_value() -> None:
    """The last checker off: game_value of the position after the move, seen by the winner."""
    position = pos({1: 1}, {24: 15})
    (move,) = legal_moves(LONG, position, (6, 1))
    assert move.position.me_off == 15
    assert LONG.game_value(move.position, Options()) == GameValue("mars", 2)


def test_forfeit_when_nothing_can_move() -> None:
    """Every destination is held by the opponent: no legal move, an empty list and a forfeited plan."""
    position = pos({24: 14, 1: 1}, {6: 5, 7: 5, 24: 5})  # their 6 = our 18, their 7 = our 19, their 24 = our 12
    assert legal_moves(LONG, position, (6, 5)) == []
    assert TurnPlan(LONG, position, (6, 5)).forfeited
