"""Acey-deucey (docs/rules.md §6.5) and Dutch backgammon (§6.6): a differential test against a plain reference
generator, worked examples, the 1-2 bonus through :class:`nardy.Game`, notation, ids, save and replay, properties.

The reference below is written straight from the rule book, with no code shared with the engine's generator (not
even its step successors): sides are plain lists of 26 counters (points 1..24, bar, reserve), every order of the
dice and every checker is tried one die at a time, and the must-play rules are applied to the whole set of results.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import (
    FixedDice,
    Game,
    GameStateError,
    IllegalMoveError,
    Move,
    Options,
    Phase,
    Position,
    SeededDice,
    Step,
    TurnPlan,
    get_variant,
    legal_moves,
    parse_segments,
    position_from_any_id,
    variant_position_id,
)
from nardy.errors import ILLEGAL_MOVE_CODES, InvalidMoveError, InvalidPositionError
from nardy.game_record import replay
from nardy.ids import extended_position_from_id, extended_position_id
from nardy.matching import match_move
from nardy.move import point_name
from nardy.movegen import all_step_sequences
from nardy.records import decode_record, encode_record
from nardy.textboard import draw_position

ACEY = get_variant("acey_deucey")
DUTCH = get_variant("dutch")
VARIANTS = (ACEY, DUTCH)
IN = 26  # the reserve as a step's source
BAR = 25

# ---------------------------------------------------------------------------------------------------------------
# the reference generator (docs/rules.md §1, §3, §6.5, §6.6)

RefSide = tuple[int, ...]  # 26 counters: [0..23] points 1..24, [24] bar, [25] reserve


def ref_step(me: RefSide, opp: RefSide, src: int, die: int, dutch: bool) -> tuple[RefSide, RefSide, bool] | None:
    """Return ``(me, opp, hit)`` after moving one checker of the mover from ``src`` (1..24, 25 bar, 26 reserve)
    by ``die``, or None when the rules forbid it."""
    if me[24] and src != 25:  # a checker on the bar enters before anything else
        return None
    if src in (25, 26):
        if not me[src - 1]:
            return None
        dst = 25 - die  # entry on the opponent's home board, from the bar and from the reserve alike
    else:
        if not me[src - 1]:
            return None
        dst = src - die
    new_me, new_opp = list(me), list(opp)
    new_me[src - 1] -= 1
    hit = False
    if dst >= 1:
        theirs = opp[(25 - dst) - 1]  # the opponent's point 25 - dst lies under the mover's dst
        if theirs >= 2:
            return None
        if theirs == 1:
            if dutch and not any(me[0:6]):  # Dutch: no hitting before a checker of the mover is home
                return None
            hit = True
            new_opp[(25 - dst) - 1] = 0
            new_opp[24] += 1  # to the bar, not back to the reserve
        new_me[dst - 1] += 1
    else:
        # bearing off: every checker still in play must be home (nothing in the reserve, on the bar, on 7..24)
        if me[25] or me[24] or any(me[6:24]):
            return None
        if dst < 0 and any(me[src:6]):  # a larger die than the point only from the highest point
            return None
    return tuple(new_me), tuple(new_opp), hit


def ref_ends(position: Position, dice: tuple[int, int], dutch: bool) -> set[Position]:
    """Return the positions the reference allows after ``dice`` (empty: the roll is forfeited)."""
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    found: dict[int, set[tuple[int, RefSide, RefSide]]] = {}

    def walk(me: RefSide, opp: RefSide, left: list[int], used: int, first: int) -> None:
        found.setdefault(used, set()).add((first, me, opp))
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for src in range(1, 27):
                after = ref_step(me, opp, src, die, dutch)
                if after is not None:
                    walk(after[0], after[1], rest, used + 1, first or die)

    walk(tuple(position.me), tuple(position.opp), pool, 0, 0)
    best = max(found)
    if best == 0:
        return set()
    ends = found[best]
    if best == 1 and dice[0] != dice[1]:  # only one die can be played: the larger if it can be
        larger = [end for end in ends if end[0] == max(dice)]
        ends = set(larger) if larger else ends
    return {Position(me, opp) for _, me, opp in ends}


def ref_side_ok(side: RefSide) -> bool:
    return len(side) == 26 and all(c >= 0 for c in side) and sum(side) <= 15


# ---------------------------------------------------------------------------------------------------------------
# seeded self-play through nardy.Game (the bonus included), recording every roll to play


@dataclass(frozen=True, slots=True)
class Ply:
    variant_name: str
    position: Position
    dice: tuple[int, int]

    def __repr__(self) -> str:
        return f"Ply({self.variant_name}, {self.position.key()}, dice={self.dice})"


def _runner(move: Move) -> int:
    return -move.position.pips()[0]


def self_play(variant_name: str, seed: int, max_actions: int = 3000) -> Iterator[tuple[Game, Ply | None]]:
    """Play one seeded game with random (sometimes greedy) moves and random named doubles, yielding the game after
    each action with the roll it then waits to be played (None when it waits for something else)."""
    rng = random.Random(f"{variant_name}-{seed}")
    greed = rng.choice((0.0, 0.3, 0.7, 0.9))
    game = Game(variant_name, dice=SeededDice(f"{variant_name}-{seed}"))
    for _ in range(max_actions):
        if game.phase is Phase.OVER:
            return
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        elif game.phase is Phase.CHOOSE:
            game.choose_double(rng.randint(1, 6))
        elif game.phase is Phase.MOVE:
            assert game.dice is not None
            yield game, Ply(variant_name, game.position, game.dice)
            moves = game.legal_moves()
            if rng.random() < greed:
                top = max(map(_runner, moves))
                game.play(rng.choice([m for m in moves if _runner(m) == top]))
            else:
                game.play(rng.choice(moves))
            continue
        yield game, None
    raise AssertionError(f"the {variant_name} game of seed {seed} did not end")


def corpus(variant_name: str, games: int, extra_rolls: int) -> list[Ply]:
    """Return the plies of ``games`` self-play games, each position also with ``extra_rolls`` other random rolls."""
    rng = random.Random(variant_name)
    out: list[Ply] = []
    for seed in range(games):
        for _, ply in self_play(variant_name, seed):
            if ply is None:
                continue
            out.append(ply)
            for _ in range(extra_rolls):
                out.append(Ply(variant_name, ply.position, (rng.randint(1, 6), rng.randint(1, 6))))
    return out


CORPUS = {v.name: corpus(v.name, 20, 1) for v in VARIANTS}


def _engine_ends(ply: Ply) -> set[Position]:
    return {m.position for m in legal_moves(ply.variant_name, ply.position, ply.dice)}


def test_corpus_is_varied() -> None:
    for name, plies in CORPUS.items():
        assert len(plies) > 2000, name
        positions = [p.position for p in plies]
        assert sum(1 for p in positions if p.me[25]) > 300, name  # checkers waiting in the reserve
        assert sum(1 for p in positions if p.me[24]) > 100, name  # checkers on the bar
        assert sum(1 for p in positions if p.me[24] and p.me[25]) > 20, name  # both at once
        bearing = [p for p in positions if not p.me[25] and not any(p.me[6:25])]
        assert len(bearing) > 100, name
        assert sum(1 for p in positions if not any(p.me[0:6]) and not p.me[24]) > 100, name  # nobody home yet


def test_corpus_exercises_dutch_no_hit_rule() -> None:
    """Enough Dutch turns change when hitting is allowed from the start (so the differential test sees the rule)."""
    changed = sum(
        ref_ends(p.position, p.dice, dutch=True) != ref_ends(p.position, p.dice, dutch=False)
        for p in CORPUS["dutch"][::2]
    )
    assert changed > 30


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
@pytest.mark.parametrize("chunk", range(3))
def test_engine_matches_reference(name: str, chunk: int) -> None:
    dutch = name == "dutch"
    for ply in CORPUS[name][chunk::3]:
        assert _engine_ends(ply) == ref_ends(ply.position, ply.dice, dutch), ply


def test_every_played_position_keeps_fifteen_checkers_a_side() -> None:
    for name, plies in CORPUS.items():
        variant = get_variant(name)
        for ply in plies[::5]:
            variant.validate(ply.position)
            for counters in (ply.position.me, ply.position.opp):
                assert ref_side_ok(counters)
                assert sum(counters) + variant.borne_off(counters) == 15


# ---------------------------------------------------------------------------------------------------------------
# positions for the worked examples


def side(points: dict[int, int] | None = None, *, bar: int = 0, reserve: int = 0) -> tuple[int, ...]:
    """Return a 26-entry side from ``{point: count}``, its bar and its reserve."""
    counts = [0] * 26
    for point, count in (points or {}).items():
        counts[point - 1] += count
    counts[24], counts[25] = bar, reserve
    return tuple(counts)


def opp_on(mover_points: dict[int, int], *, bar: int = 0, reserve: int | None = None) -> tuple[int, ...]:
    """Return the opponent's side with ``{mover point: count}`` converted to its frame; its reserve holds
    ``reserve`` checkers (by default the rest of its 15)."""
    theirs = {25 - p: c for p, c in mover_points.items()}
    rest = 15 - sum(mover_points.values()) - bar if reserve is None else reserve
    return side(theirs, bar=bar, reserve=rest)


def moves_of(variant_name: str, position: Position, dice: tuple[int, int]) -> set[str]:
    return {m.notation for m in legal_moves(variant_name, position, dice)}


def same_turns(variant_name: str, position: Position, dice: tuple[int, int], texts: set[str]) -> bool:
    """Return whether the legal turns are exactly the ones ``texts`` write (several texts may write one turn, as
    ``in/23/19`` and ``in/21/19``: they are compared by resulting position)."""
    plan = TurnPlan(variant_name, position, dice)
    return {match_move(plan, text).position for text in texts} == {m.position for m in plan.moves()}


def refusal(variant_name: str, position: Position, dice: tuple[int, int], text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        match_move(TurnPlan(variant_name, position, dice), text)
    assert caught.value.code in ILLEGAL_MOVE_CODES
    return caught.value


# ---------------------------------------------------------------------------------------------------------------
# setup, entering, the bar, bear-off


@pytest.mark.parametrize("name", ["acey_deucey", "dutch"])
def test_setup_and_attributes(name: str) -> None:
    var = get_variant(name)
    start = var.initial_position()
    assert start.me == start.opp == (0,) * 25 + (15,)
    assert var.side_length == 26 and var.geometry == "opposite" and var.has_bar
    assert var.pips(start.me) == 15 * 25 and start.pips() == (375, 375)
    assert var.borne_off(start.me) == 0
    assert var.resign_levels == ("single", "gammon", "backgammon")
    var.validate(start)


def test_names_titles_and_defaults() -> None:
    for alias in ("acey_deucey", "acey-deucey", "Американка", "единичка-двоечка"):
        assert get_variant(alias) is ACEY
    for alias in ("dutch", "Dutch Backgammon", "голландский трик-трак"):
        assert get_variant(alias) is DUTCH
    assert ACEY.titles == {"en": "Acey-deucey", "ru": "американка"}
    assert DUTCH.titles == {"en": "Dutch backgammon", "ru": "голландский трик-трак"}
    assert (ACEY.id_prefix, DUTCH.id_prefix) == ("A1", "D1")
    assert not ACEY.cube_enabled(Options()) and ACEY.cube_enabled(Options(cube=True))
    assert DUTCH.cube_enabled(Options()) and not DUTCH.cube_enabled(Options(cube=False))
    assert ACEY.opening_rerolls and not DUTCH.opening_rerolls
    assert ACEY.names_double_after((1, 2), Options()) and ACEY.names_double_after((2, 1), Options())
    assert not any(
        ACEY.names_double_after((a, b), Options()) for a in range(1, 7) for b in range(1, 7) if {a, b} != {1, 2}
    )
    assert not DUTCH.names_double_after((1, 2), Options())


@pytest.mark.parametrize("name", ["acey_deucey", "dutch"])
def test_entering_from_the_reserve(name: str) -> None:
    start = get_variant(name).initial_position()
    moves = legal_moves(name, start, (3, 1))
    # both dice enter two checkers, or one checker enters and moves on (in/22/21 and in/24/21 end the same)
    assert len(moves) == 2
    ends = {m.position.me for m in moves}
    assert ends == {side({24: 1, 22: 1}, reserve=13), side({21: 1}, reserve=14)}
    assert {m.notation for m in moves} & {"in/24 in/22"}
    entry = next(m for m in moves if m.notation == "in/24 in/22")
    assert sorted(entry.steps) == [Step(IN, 22, 3), Step(IN, 24, 1)]
    assert moves_of(name, start, (6, 6)) == {
        "in/19(4)",
        "in/19(2) in/19/13",
        "in/19/13(2)",
        "in/19 in/19/13/7",
        "in/19/13/7/1",
    }


def test_a_checker_on_the_board_may_move_without_entering_the_rest() -> None:
    position = Position(side({13: 1}, reserve=14), opp_on({}))
    texts = {"in/23 in/21", "in/23 13/9", "in/21 13/11", "in/23/19", "in/21/19", "13/9/7", "13/11/7"}
    assert same_turns("acey_deucey", position, (4, 2), texts)
    assert len(legal_moves("acey_deucey", position, (4, 2))) == 5


def test_entry_is_blocked_like_the_bar_and_may_hit() -> None:
    # the opponent holds the mover's 22 (its own 3) and leaves a blot on 24 (its 1)
    position = Position(side(reserve=15), opp_on({22: 2, 24: 1}))
    assert moves_of("acey_deucey", position, (3, 3)) == set()  # forfeited
    moves = legal_moves("acey_deucey", position, (1, 3))
    assert [m.notation for m in moves] == ["in/24*/21"]
    after = moves[0].position
    assert after.opp[24] == 1 and after.opp[25] == 12  # the hit checker goes to the bar, not the reserve


def test_bar_before_the_reserve() -> None:
    # one checker on the bar, 13 in the reserve, one on 10; the opponent holds the mover's 20 (its 5)
    position = Position(side({10: 1}, bar=1, reserve=13), opp_on({20: 2}))
    assert moves_of("acey_deucey", position, (5, 2)) == {"bar/23/18", "bar/23 10/5"}
    assert refusal("acey_deucey", position, (5, 2), "in/23 10/5").code == "bar_first"
    assert refusal("acey_deucey", position, (5, 2), "10/5 in/23").code == "bar_first"
    assert match_move(TurnPlan("acey_deucey", position, (5, 2)), "10/5 bar/23").notation == "bar/23 10/5"
    code, reason = ACEY.step_refusal(
        bytes(position.me) + bytes(position.opp), IN, 2, TurnPlan("acey_deucey", position, (5, 2)).ctx
    )
    assert code == "bar_first" and "reserve" in reason
    # the bar checker cannot enter at all: nothing else moves, not even entries from the reserve
    blocked = Position(side({10: 1}, bar=1, reserve=13), opp_on({20: 2, 23: 2}))
    assert moves_of("acey_deucey", blocked, (5, 2)) == set()
    # once the bar is empty the second die may enter from the reserve
    free = Position(side({10: 1}, bar=1, reserve=13), opp_on({}))
    assert moves_of("dutch", free, (5, 2)) == {"in/23 bar/20", "bar/20/18", "bar/20 10/8", "bar/23 10/5"}
    assert match_move(TurnPlan("dutch", free, (5, 2)), "bar/23 in/20").notation == "in/23 bar/20"


def test_bear_off_waits_for_the_reserve() -> None:
    position = Position(side({6: 5, 5: 5, 4: 4}, reserve=1), opp_on({}))
    moves = legal_moves("acey_deucey", position, (6, 1))
    assert moves and all(step.dst != 0 for m in moves for step in m.steps)
    assert "in/19/18" in {m.notation for m in moves}
    error = refusal("acey_deucey", position, (6, 1), "6/off 6/5")
    assert error.code == "bear_off_early" and "reserve" in str(error)
    # with the reserve empty the same home board bears off
    home = Position(side({6: 5, 5: 5, 4: 5}), opp_on({}))
    assert moves_of("acey_deucey", home, (6, 1)) == {"6/5 6/off", "6/off 5/4", "6/off 4/3"}
    # a checker brought in from the reserve must come home first; then bearing off may follow in the same turn
    last = Position(side({1: 14}, reserve=1), opp_on({}))
    assert moves_of("dutch", last, (6, 6)) == {"in/19/13/7/1"}
    near = Position(side({1: 13, 19: 1}), opp_on({}))
    assert moves_of("dutch", near, (6, 6)) == {"19/13/7/1/off"}


def test_pips_count_the_reserve_as_twenty_five() -> None:
    position = Position(side({6: 2, 1: 1}, bar=1, reserve=3), side(reserve=15))
    assert ACEY.pips(position.me) == 12 + 1 + 25 + 75
    assert position.pips() == (113, 375)


def test_validation() -> None:
    ACEY.validate(Position(side({6: 2}, reserve=13), side(reserve=15)))
    with pytest.raises(InvalidPositionError, match="both colours"):
        ACEY.validate(Position(side({6: 1}, reserve=14), side({19: 1}, reserve=14)))
    with pytest.raises(InvalidPositionError, match="reserve"):
        ACEY.validate(Position(side({6: 1}, reserve=13), side(reserve=15)))  # one borne off, 13 not entered
    with pytest.raises(InvalidPositionError, match="26"):
        ACEY.validate(Position((0,) * 25, side(reserve=15)))
    with pytest.raises(InvalidPositionError, match="more than 15"):
        DUTCH.validate(Position(side({6: 1}, reserve=15), side(reserve=15)))


# ---------------------------------------------------------------------------------------------------------------
# Dutch: no hitting before a checker is home


def test_dutch_no_hit_before_a_checker_is_home() -> None:
    # the mover has nobody on 1..6; an opponent blot stands on the mover's 9 (its 16)
    position = Position(side({13: 2, 20: 2}, reserve=11), opp_on({9: 1, 3: 2}))
    assert {"20/17 13/9*", "13/9*/6", "13/10 13/9*"} <= moves_of("acey_deucey", position, (4, 3))
    dutch = moves_of("dutch", position, (4, 3))
    assert not any("*" in m for m in dutch)
    assert not any("/9" in m for m in dutch)  # the blot's point is closed to the mover until then
    error = refusal("dutch", position, (4, 3), "13/9* 20/17")
    assert error.code == "no_hit" and "home board" in str(error)
    assert "no_hit" in ILLEGAL_MOVE_CODES


def test_dutch_may_hit_once_a_checker_is_home() -> None:
    position = Position(side({13: 2, 20: 2, 6: 1}, reserve=10), opp_on({9: 1, 3: 2}))
    assert "13/9* 6/3" not in moves_of("dutch", position, (4, 3))  # 3 is held by the opponent
    assert "20/17 13/9*" in moves_of("dutch", position, (4, 3))


def test_dutch_hit_allowed_after_the_first_checker_reaches_home_in_the_same_turn() -> None:
    # a checker on 8 and a blot on the mover's 15 (its 10): with 3-2, 8/5 first makes the hit legal
    position = Position(side({8: 1, 17: 1}, reserve=13), opp_on({15: 1}))
    moves = moves_of("dutch", position, (3, 2))
    assert "17/15* 8/5" in moves  # played as 8/5 then 17/15*
    plan = TurnPlan("dutch", position, (3, 2))
    first = plan.next_steps()
    assert Step(17, 15, 2, True) not in first  # the hit cannot come first
    assert Step(8, 5, 3) in first
    assert Step(17, 15, 2, True) in plan.next_steps([Step(8, 5, 3)])
    assert refusal("dutch", position, (3, 2), "17/15*").code in ("no_hit", "incomplete")
    # the checker that lands on a home blot does not count for itself
    home_blot = Position(side({8: 1, 20: 1}, reserve=13), opp_on({5: 1}))
    assert not any("*" in m for m in moves_of("dutch", home_blot, (3, 1)))
    assert refusal("dutch", home_blot, (3, 1), "8/5* 20/19").code == "no_hit"
    assert "20/19 8/5*" in moves_of("acey_deucey", home_blot, (3, 1))


def test_dutch_no_hit_rule_applies_to_entering() -> None:
    # a blot on the mover's 22 (the opponent's 3): entering there with a 3 would hit
    position = Position(side({13: 1}, reserve=14), opp_on({22: 1}))
    # 13/10/7/4 brings a checker home first: then the fourth 3 may enter by hitting, in the same turn
    assert moves_of("dutch", position, (3, 3)) == {"13/10/7/4/1", "in/22* 13/10/7/4"}
    assert refusal("dutch", position, (3, 3), "in/22* 13/10/7").code == "no_hit"
    assert match_move(TurnPlan("dutch", position, (3, 3)), "13/4 in/22*").notation == "in/22* 13/10/7/4"
    assert refusal("dutch", position, (3, 1), "in/22* 13/12").code == "no_hit"
    assert "in/22*(4)" not in moves_of("acey_deucey", position, (3, 3))
    assert any(m.startswith("in/22*") for m in moves_of("acey_deucey", position, (3, 3)))
    home = Position(side({13: 1, 2: 1}, reserve=13), opp_on({22: 1}))
    assert any("in/22*" in m for m in moves_of("dutch", home, (3, 3)))


def test_dutch_no_hit_rule_comes_back_when_the_home_checkers_are_hit() -> None:
    position = Position(side({13: 3}, bar=1, reserve=11), opp_on({22: 1, 9: 1}))
    # nobody home: the bar checker may not enter by hitting on 22, so the 3 cannot enter at all
    assert moves_of("dutch", position, (3, 3)) == set()
    assert refusal("dutch", position, (3, 4), "bar/22*").code == "no_hit"


# ---------------------------------------------------------------------------------------------------------------
# notation


@pytest.mark.parametrize(
    "text", ["in/22", "IN/22", "In-22", "res/22", "reserve/22", "вв/22", "ввод/22", "Резерв/22", "26/22", "in 22"]
)
def test_reserve_words_parse(text: str) -> None:
    (segment,) = parse_segments(text)
    assert segment.points == (IN, 22)


def test_reserve_notation_round_trips() -> None:
    assert point_name(IN) == "in" and str(Step(IN, 22, 3)) == "in/22" and str(Step(IN, 24, 1, True)) == "in/24*"
    position = Position(side({13: 1}, reserve=14), opp_on({}))
    plan = TurnPlan("acey_deucey", position, (5, 3))
    assert match_move(plan, "in/22 in/20").position.me == side({13: 1, 22: 1, 20: 1}, reserve=12)
    assert match_move(plan, "in/20 in/22").notation == "in/22 in/20"
    assert match_move(plan, "вв/22 ввод/20").notation == "in/22 in/20"
    assert match_move(plan, "in/17").notation in ("in/22/17", "in/20/17")
    assert match_move(plan, "in/22/17").position == match_move(plan, "in/20/17").position
    assert match_move(plan, "13/8 in/22").notation == "in/22 13/8"
    for move in plan.moves():
        assert match_move(plan, move.notation) == move
    with pytest.raises(IllegalMoveError) as caught:
        match_move(plan, "in/21")
    assert caught.value.code == "die_not_rolled" and "4 points" in str(caught.value)
    with pytest.raises(ValueError, match="towards home"):
        parse_segments("in/bar")
    with pytest.raises(ValueError, match="towards home"):
        parse_segments("22/in")


def test_the_reserve_word_in_a_variant_without_one() -> None:
    start = get_variant("short").initial_position()
    for text in ("in/22 in/24", "26/20"):
        with pytest.raises(InvalidMoveError, match="has none"):
            match_move(TurnPlan("short", start, (3, 1)), text)


def test_step_refusal_explains_the_reserve() -> None:
    position = Position(side({6: 5, 5: 5, 4: 5}), opp_on({}))
    state = bytes(position.me) + bytes(position.opp)
    ctx = TurnPlan("acey_deucey", position, (3, 1)).ctx
    code, reason = ACEY.step_refusal(state, IN, 3, ctx)
    assert code == "no_checker" and "reserve" in reason
    assert refusal("acey_deucey", position, (3, 1), "in/22 6/5").code == "no_checker"
    blocked = Position(side(reserve=15), opp_on({22: 2}))
    state = bytes(blocked.me) + bytes(blocked.opp)
    assert ACEY.step_refusal(state, IN, 3, ctx)[0] == "blocked"
    assert refusal("acey_deucey", blocked, (3, 1), "in/22 in/24").code == "blocked"


# ---------------------------------------------------------------------------------------------------------------
# ids and the text board


def test_ids_round_trip() -> None:
    for name, prefix in (("acey_deucey", "A1"), ("dutch", "D1")):
        for ply in CORPUS[name][::40]:
            text = variant_position_id(name, ply.position)
            assert text.startswith(prefix) and len(text) == 17
            assert extended_position_from_id(prefix, text, 26) == ply.position
            assert position_from_any_id(text) == (name, ply.position)
            assert text == extended_position_id(prefix, ply.position, 26)
    start = ACEY.initial_position()
    assert TurnPlan("acey_deucey", start, (2, 1)).position_id == variant_position_id("acey_deucey", start)


def test_text_board_shows_the_reserve() -> None:
    position = Position(side({22: 1, 6: 2}, bar=1, reserve=11), opp_on({24: 2, 5: 1}, bar=1))
    board = draw_position(position, "dutch", dice=(2, 1))
    assert "X (to move): pips 334, bar 1, off 0, in 11" in board
    assert "O:           pips" in board and "bar 1, off 0, in 11" in board.splitlines()[-2]
    cells = board.splitlines()[1].split()
    assert cells[-1] == "O2" and "X1" in cells  # the mover's 24 holds two of the opponent's, 22 one of its own


# ---------------------------------------------------------------------------------------------------------------
# the game: opening, the 1-2 bonus, results, saving


def at(variant: str, me: tuple[int, ...], opp: tuple[int, ...], dice: list[int], **kw: object) -> Game:
    """Return a game of ``variant`` at player 0's roll in the given position (player 0 = ``me``)."""
    game = Game(variant, dice=FixedDice(dice), **kw)  # type: ignore[arg-type]
    game.sides = [me, opp]
    game.phase, game.roller, game.turn, game.first_player, game.moves_played = Phase.ROLL, 0, 0, 0, 1
    game.turns_taken = [3, 3]
    return game


def test_acey_opening_winner_rolls_afresh_and_may_roll_a_double() -> None:
    game = Game("acey_deucey", dice=FixedDice([3, 5, 4, 4]))
    game.roll()
    assert game.phase is Phase.ROLL and game.roller == 1
    assert game.roll() == (4, 4)
    assert game.phase is Phase.MOVE and game.dice == (4, 4)
    game.play("in/21(4)")
    assert game.phase is Phase.ROLL and game.roller == 0
    assert not game.can_double()  # the cube is off by default
    cubed = Game("acey_deucey", options=Options(cube=True), dice=FixedDice([5, 3, 6, 5, 6, 5]))
    cubed.roll()
    cubed.roll()
    cubed.play("in/20 in/19")
    assert cubed.can_double()


def test_dutch_opening_dice_are_the_first_roll() -> None:
    game = Game("dutch", dice=FixedDice([5, 3, 6, 2]))
    assert game.roll() == (5, 3)
    assert game.phase is Phase.MOVE and game.roller == 0
    assert game.moves_played == 0 and not game.can_double()
    game.play("in/22 in/20")
    assert game.phase is Phase.ROLL and game.roller == 1 and game.can_double()
    game.roll()
    assert game.dice == (6, 2) and game.phase is Phase.MOVE


def test_dutch_has_no_bonus() -> None:
    game = Game("dutch", dice=FixedDice([5, 3, 2, 1]))
    game.roll()
    game.play("in/22 in/20")
    game.roll()
    game.play("in/24 in/23")
    assert game.phase is Phase.ROLL and game.roller == 0 and game.bonus is None


def test_the_whole_bonus() -> None:
    game = Game("acey_deucey", dice=FixedDice([5, 3, 2, 1, 6, 5, 4, 4]))
    game.roll()
    assert game.roll() == (2, 1)
    with pytest.raises(GameStateError):
        game.choose_double(6)  # not before the 1-2 is played
    game.play("in/24 in/23")
    assert game.phase is Phase.CHOOSE and game.roller == game.turn == 0 and game.dice is None
    assert game.bonus == "choose"
    with pytest.raises(GameStateError):
        game.roll()
    with pytest.raises(GameStateError):
        game.plan()
    for bad in (0, 7, True, "3", 2.0):
        with pytest.raises(GameStateError):
            game.choose_double(bad)  # type: ignore[arg-type]
    game.choose_double(6)
    assert game.phase is Phase.MOVE and game.dice == (6, 6) and game.bonus == "double"
    with pytest.raises(GameStateError):
        game.choose_double(6)
    game.play("in/19(2) 24/18 23/17")
    assert game.phase is Phase.ROLL and game.roller == 0 and game.bonus == "extra"
    assert not game.can_double()
    assert game.roll() == (6, 5)
    assert game.bonus is None
    game.play("in/19 in/20")
    assert game.phase is Phase.ROLL and game.roller == 1  # the extra roll played, the turn passes
    assert game.roll() == (4, 4)
    game.play("in/21(4)")
    assert game.sides[1] == side({21: 4}, reserve=11)
    assert game.sides[0] == side({20: 1, 19: 3, 18: 1, 17: 1}, reserve=9)
    kinds = [r["t"] for r in game.history]
    assert kinds == ["open", "roll", "move", "choose", "move", "roll", "move", "roll", "move"]


def test_the_extra_roll_may_be_another_1_2() -> None:
    game = Game("acey_deucey", dice=FixedDice([5, 3, 2, 1, 1, 2, 5, 5]))
    game.roll()
    game.roll()
    game.play("in/24 in/23")
    game.choose_double(1)
    game.play(game.legal_moves()[0])
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.phase is Phase.CHOOSE
    game.choose_double(5)
    game.play(game.legal_moves()[0])
    assert game.phase is Phase.ROLL and game.roller == 0 and game.bonus == "extra"


def test_bonus_ends_without_naming_when_the_1_2_cannot_be_played_in_full() -> None:
    # two on the bar; the opponent holds the mover's 24 (its 1): only the 2 enters
    me = side(bar=2, reserve=13)
    opp = opp_on({24: 2, 13: 2})
    game = at("acey_deucey", me, opp, [2, 1, 6, 6])
    game.roll()
    assert [m.notation for m in game.legal_moves()] == ["bar/23"]
    game.play("bar/23")
    assert game.phase is Phase.ROLL and game.roller == 1 and game.bonus is None
    # wholly forfeited 1-2: the turn passes at once
    game = at("acey_deucey", side(bar=1, reserve=14), opp_on({24: 2, 23: 2}), [1, 2, 6, 6])
    game.roll()
    assert game.phase is Phase.ROLL and game.roller == 1 and game.history[-1] == {"t": "pass"}


def test_bonus_ends_without_extra_roll_when_the_double_cannot_be_played_in_full() -> None:
    # the opponent holds the mover's 19 and 16: after 24/22 3/2 a 6 can neither enter (19) nor move 22/16, and
    # 2/off is no bear-off while checkers are outside home: only 13/7/1, two of the four sixes
    me = side({24: 1, 13: 1, 3: 1}, reserve=12)
    opp = opp_on({19: 2, 16: 2})
    game = at("acey_deucey", me, opp, [2, 1, 5, 5])
    game.roll()
    game.play("24/22 3/2")
    assert game.phase is Phase.CHOOSE
    game.choose_double(6)
    assert game.plan().length == 2  # 13/7/1 only: the reserve's 19 and the others are closed
    assert {m.notation for m in game.legal_moves()} == {"13/7/1"}
    game.play("13/7/1")
    assert game.phase is Phase.ROLL and game.roller == 1 and game.bonus is None
    assert game.roll() == (5, 5)


def test_naming_a_double_that_cannot_be_played_passes_the_turn() -> None:
    me = side({13: 1}, reserve=14)
    opp = opp_on({19: 2, 18: 2, 17: 2, 7: 2})
    game = at("acey_deucey", me, opp, [1, 2, 3, 3])
    game.roll()
    game.play("in/24 in/23")
    game.choose_double(6)  # in/19, 24/18, 23/17 and 13/7 are all closed
    assert game.phase is Phase.ROLL and game.roller == 1
    assert [r["t"] for r in game.history[-2:]] == ["choose", "pass"]


def test_bonus_is_saved_loaded_and_replayed_at_every_stage() -> None:
    game = Game("acey_deucey", dice=FixedDice([5, 3, 2, 1, 6, 5, 4, 4]))
    stages = []
    for action in (
        game.roll,
        game.roll,
        lambda: game.play("in/24 in/23"),
        lambda: game.choose_double(6),
        lambda: game.play("in/19(2) 24/18 23/17"),
        game.roll,
        lambda: game.play("in/19 in/20"),
    ):
        action()
        data = json.loads(json.dumps(game.to_dict()))
        loaded = Game.from_dict(data, dice=FixedDice([4, 4]))
        assert loaded.snapshot() == game.snapshot()
        assert Game.from_dict(data, verify=True).snapshot() == game.snapshot()
        compact = json.loads(json.dumps(game.to_dict(compact=True)))
        assert Game.from_dict(compact).snapshot() == game.snapshot()
        stages.append((loaded.phase, loaded.bonus))
    assert stages == [
        (Phase.ROLL, None),
        (Phase.MOVE, None),
        (Phase.CHOOSE, "choose"),
        (Phase.MOVE, "double"),
        (Phase.ROLL, "extra"),
        (Phase.MOVE, None),
        (Phase.ROLL, None),
    ]
    loaded = Game.from_dict(json.loads(json.dumps(game.to_dict())), dice=FixedDice([4, 4]))
    assert loaded.roll() == (4, 4)  # the loaded game plays on: player 1's turn
    assert loaded.roller == 1 and "in/21(4)" in {m.notation for m in loaded.legal_moves()}
    states = replay(game.to_dict())
    assert [s.phase for s in states] == [
        Phase.OPENING,
        Phase.ROLL,
        Phase.MOVE,
        Phase.CHOOSE,
        Phase.MOVE,
        Phase.ROLL,
        Phase.MOVE,
        Phase.ROLL,
    ]
    assert states[-1].snapshot() == game.snapshot()
    assert encode_record({"t": "choose", "die": 6}) == "k6" and decode_record("k6") == {"t": "choose", "die": 6}
    with pytest.raises(GameStateError):
        decode_record("k7")


def test_resigning_while_a_double_is_to_be_named() -> None:
    game = Game("acey_deucey", dice=FixedDice([5, 3, 2, 1]))
    game.roll()
    game.roll()
    game.play("in/24 in/23")
    game.resign(1, "single")
    game.decline_resignation()
    assert game.phase is Phase.CHOOSE and game.turn == 0
    data = json.loads(json.dumps(game.to_dict()))
    assert Game.from_dict(data, verify=True).phase is Phase.CHOOSE
    game.choose_double(2)
    assert game.phase is Phase.MOVE


@pytest.mark.parametrize(
    ("opp", "expected"),
    [
        (side({6: 14}), ("single", 1)),
        (side({7: 15}), ("gammon", 2)),
        (side({19: 1, 7: 14}), ("backgammon", 3)),
        (side({7: 14}, bar=1), ("backgammon", 3)),
        (side({7: 14}, reserve=1), ("backgammon", 3)),
        (side(reserve=15), ("backgammon", 3)),
    ],
)
@pytest.mark.parametrize("name", ["acey_deucey", "dutch"])
def test_results(name: str, opp: tuple[int, ...], expected: tuple[str, int]) -> None:
    game = at(name, side({1: 1}), opp, [3, 4])
    game.roll()
    game.play(game.legal_moves()[0])
    assert game.result is not None and game.result.winner == 0 and game.result.reason == "bearoff"
    assert (game.result.kind, game.result.value) == expected
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).result == game.result


def test_a_game_in_progress_through_the_step_api() -> None:
    game = Game("dutch", dice=FixedDice([6, 4]))
    game.roll()
    steps = game.next_steps()
    assert steps == [Step(IN, 19, 6), Step(IN, 21, 4)]
    game.play([Step(IN, 21, 4), Step(21, 15, 6)])
    assert game.last_move is not None and game.last_move.notation == "in/19/15"  # the canonical path of that turn
    assert game.sides[0] == side({15: 1}, reserve=14)


# ---------------------------------------------------------------------------------------------------------------
# properties


def _conserved(game: Game) -> None:
    for player in (0, 1):
        counters = game.sides[player]
        on_board, bar, reserve = sum(counters[:24]), counters[24], counters[25]
        assert on_board + bar + reserve + game.variant.borne_off(counters) == 15
        assert len(counters) == 26 and min(counters) >= 0
    game.variant.validate(game.position)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(["acey_deucey", "dutch"]))
def test_random_games_conserve_checkers_and_end(seed: int, name: str) -> None:
    game: Game | None = None
    for game, _ in self_play(name, seed):
        _conserved(game)
    assert game is not None and game.phase is Phase.OVER and game.result is not None
    _conserved(game)
    data = json.loads(json.dumps(game.to_dict(compact=True)))
    assert Game.from_dict(data).result == game.result


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(["acey_deucey", "dutch"]),
    seed=st.integers(0, 13),
    pick=st.integers(0, 10**6),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_every_step_sequence_is_a_legal_turn(name: str, seed: int, pick: int, dice: tuple[int, int]) -> None:
    plies = [p for p in CORPUS[name] if p.dice]
    ply = plies[pick % len(plies)]
    plan = TurnPlan(name, ply.position, dice)
    ends = {m.position for m in plan.moves()}
    for steps in all_step_sequences(plan):
        if plan.forfeited:
            assert steps == () and not ends
            continue
        move = plan.move_for(steps)
        assert move.position in ends
        for step in steps:
            assert step.dst == (25 - step.die if step.src in (BAR, IN) else max(step.src - step.die, 0))
