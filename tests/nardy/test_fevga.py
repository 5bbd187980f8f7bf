"""Fevga (февга), docs/rules.md §6.2: worked examples for every special rule, a plain reference generator compared
with the engine on thousands of self-play positions, whole games through :class:`nardy.Game`, ids and hypothesis
properties.

The reference below is written straight from §6.2 and §1 and shares no code with the engine's generator: every order
of the dice, every checker, each single move checked against the rules on the whole board (no hitting, the start
rule, the start-quarter ban, the prime rule), then the must-play rules on the set of results.
"""

from __future__ import annotations

import random

import pytest
from class_docs import class_docstring
from hypothesis import given, settings
from hypothesis import strategies as st
from nardy_testkit import notations, pos

from nardy import (
    FixedDice,
    Game,
    GameStateError,
    IllegalMoveError,
    InvalidOptionError,
    Move,
    Options,
    Phase,
    Position,
    SeededDice,
    TurnPlan,
    get_variant,
    legal_moves,
    match_move,
    position_from_any_id,
    variant_position_id,
)
from nardy.errors import ILLEGAL_MOVE_CODES
from nardy.game_record import replay
from nardy.movegen import all_step_sequences
from nardy.position import make_side
from nardy.variants import Fevga, GameValue
from nardy.variants.base import to_state

FEVGA = get_variant("fevga")
START = FEVGA.initial_position()
FREE = Options(fevga_prime="free")
OPTION_SETS = (
    Options(),
    FREE,
    Options(block_check="end_of_turn"),
    Options(fevga_prime="free", block_check="end_of_turn"),
)

# ---------------------------------------------------------------------------------------------------------------
# the reference generator (docs/rules.md §6.2, §1)


def opp_number(point: int) -> int:
    """The opponent's number of the mover's point (parallel geometry: the opponent's q is the mover's q + 12)."""
    return point - 12 if point > 12 else point + 12


# the mover's points along the opponent's path, the opponent's point 1 first
PATH = [q + 12 if q <= 12 else q - 12 for q in range(1, 25)]


def unsupported_prime(me: list[int], opp: tuple[int, ...]) -> bool:
    """Whether the mover holds six or more points in a row along the opponent's path and no opponent checker is
    ahead of them (on a lower point of the opponent's path, or borne off)."""
    if sum(opp) < 15:
        return False
    q = 1
    while q <= 24:
        if not me[PATH[q - 1] - 1]:
            q += 1
            continue
        first = q
        while q <= 24 and me[PATH[q - 1] - 1]:
            q += 1
        if q - first >= 6 and not any(opp[: first - 1]):
            return True
    return False


def holds_start_quarter(me: list[int]) -> bool:
    """Whether the mover holds every one of its points 19..24."""
    return all(me[point - 1] for point in range(19, 25))


def may_leave_24(me: list[int]) -> bool:
    """The start rule: a checker may leave 24 when none has left it yet, or when one has passed the opponent's
    starting point (the mover's 12: it stands on 1..11, or has been borne off)."""
    borne_off = 15 - sum(me)
    none_left = borne_off == 0 and sum(me[:23]) == 0
    passed = borne_off > 0 or any(me[point - 1] for point in range(1, 12))
    return none_left or passed


ALL_RULES = frozenset({"start", "quarter"})


def ref_step(
    me: list[int], opp: tuple[int, ...], src: int, die: int, prime_now: bool, rules: frozenset[str] = ALL_RULES
) -> list[int] | None:
    """The mover's side after moving a checker from ``src`` by ``die``, or None when one move may not do that
    (``rules`` drops the start rule or the quarter ban, only to measure the corpus)."""
    if not me[src - 1]:
        return None
    if src == 24 and "start" in rules and not may_leave_24(me):
        return None
    dst = src - die
    new = list(me)
    new[src - 1] -= 1
    if dst >= 1:
        if opp[opp_number(dst) - 1]:
            return None  # a single checker holds a point
        new[dst - 1] += 1
        if "quarter" in rules and holds_start_quarter(new):
            return None
        if prime_now and unsupported_prime(new, opp):
            return None
        return new
    if any(me[6:24]):
        return None  # not all home
    if dst < 0 and any(me[src:24]):
        return None  # a larger die bears off only from the highest point
    return new


def ref_ends(
    position: Position, dice: tuple[int, int], options: Options, rules: frozenset[str] = ALL_RULES
) -> tuple[int, set[Position]]:
    """Return how many dice the turn uses and the set of legal end positions, must-play rules applied."""
    prime = options.fevga_prime == "long_rule"
    prime_now = prime and options.block_check == "per_move"
    prime_at_end = prime and options.block_check == "end_of_turn"
    opp = position.opp
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    found: dict[int, set[tuple[int, tuple[int, ...]]]] = {}

    def walk(me: list[int], left: list[int], used: int, first: int) -> None:
        found.setdefault(used, set()).add((first, tuple(me)))
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for src in range(1, 25):
                new = ref_step(me, opp, src, die, prime_now, rules)
                if new is not None:
                    walk(new, rest, used + 1, first or die)

    walk(list(position.me), pool, 0, 0)

    def ok(side: tuple[int, ...]) -> bool:
        return not (prime_at_end and unsupported_prime(list(side), opp))

    def result(used: int, sides: set[tuple[int, ...]]) -> tuple[int, set[Position]]:
        return used, {Position(side, opp) for side in sides}

    if dice[0] == dice[1]:
        for used in range(4, 0, -1):
            ends = {side for _, side in found.get(used, ()) if ok(side)}
            if ends:
                return result(used, ends)
        return 0, set()
    ends = {side for _, side in found.get(2, ()) if ok(side)}
    if ends:
        return result(2, ends)
    for die in sorted(dice, reverse=True):  # only one die: the larger if it can be played
        ends = {side for first, side in found.get(1, ()) if first == die and ok(side)}
        if ends:
            return result(1, ends)
    return 0, set()


# ---------------------------------------------------------------------------------------------------------------
# the corpus: seeded self-play and made-up positions


def _prime_length(side: tuple[int, ...]) -> int:
    best = run = 0
    for point in PATH:
        run = run + 1 if side[point - 1] else 0
        best = max(best, run)
    return best


def _quarter(side: tuple[int, ...]) -> int:
    return sum(1 for point in range(19, 25) if side[point - 1])


def _choose(moves: list[Move], rng: random.Random, style: str) -> Move:
    if style == "random" or rng.random() < 0.3:
        return rng.choice(moves)
    if style == "blocker":

        def score(move: Move) -> int:
            side = move.position.me
            return 4 * _prime_length(side) + 3 * _quarter(side) + sum(1 for c in side[:24] if c)

    else:

        def score(move: Move) -> int:
            return -move.position.pips()[0]

    best = max(map(score, moves))
    return rng.choice([m for m in moves if score(m) == best])


Ply = tuple[Position, tuple[int, int], Options]


def self_play(seed: int, options: Options, max_plies: int = 400) -> list[Ply]:
    """Return the plies (position before the move, roll, options) of one seeded self-play game."""
    rng = random.Random(f"fevga-{seed}")
    style = ("random", "blocker", "runner")[seed % 3]
    position = START
    plies: list[Ply] = []
    for _ in range(max_plies):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plies.append((position, dice, options))
        moves = legal_moves(FEVGA, position, dice, options=options)
        after = _choose(moves, rng, style).position if moves else position
        if not sum(after.me):
            break
        position = after.swapped()
    return plies


def _spread(rng: random.Random, points: list[int], checkers: int) -> dict[int, int]:
    counts = dict.fromkeys(points, 1)
    for _ in range(checkers - len(points)):
        counts[rng.choice(points)] += 1
    return counts


def crafted(count: int, seed: int) -> list[Ply]:
    """Return made-up positions near the special rules: five of 19..24 held, runs of 4..7 points along the
    opponent's path, a first checker still on 12..23 with the rest on 24, or a bear-off; none breaks a rule yet."""
    rng = random.Random(seed)
    out: list[Ply] = []
    while len(out) < count:
        kind = rng.choice((0, 1, 1, 2, 2, 2, 3))
        borne = 0
        if kind == 0:  # the start rule in force: one checker out, short of 11
            me = {24: 14, rng.randint(12, 23): 1}
        elif kind == 1:  # the quarter nearly full
            quarter = rng.sample(range(19, 25), 5)
            extra = rng.sample(range(1, 19), rng.randint(1, 4))
            me = _spread(rng, sorted(set(quarter) | set(extra)), 15)
        elif kind == 2:  # a near-prime somewhere, often with every opponent checker behind it
            length = rng.randint(4, 6)
            start = rng.randrange(24 - length)
            behind = rng.random() < 0.6
            points = {PATH[start + i] for i in range(length)} | set(rng.sample(range(1, 25), rng.randint(0, 2)))
            me = _spread(rng, sorted(points), 15)
        else:  # bearing off
            points = rng.sample(range(1, 7), rng.randint(1, 6))
            borne = rng.randint(0, 15 - len(points))
            me = _spread(rng, points, 15 - borne)
        lowest = start + length + 2 if kind == 2 and behind else 1
        free = [q for q in range(lowest, 25) if PATH[q - 1] not in me]
        if not free:
            continue
        opp_points = rng.sample(free, min(len(free), rng.randint(1, 6)))
        opp = _spread(rng, opp_points, 15 if kind == 2 and behind else rng.choice((15, 15, 15, 14, 11)))
        position = pos(me, opp)
        FEVGA.validate(position)
        options = rng.choice(OPTION_SETS)
        checked_prime = options.fevga_prime == "long_rule"
        bad = any(
            holds_start_quarter(list(side)) or (checked_prime and unsupported_prime(list(side), other))
            for side, other in ((position.me, position.opp), (position.opp, position.me))
        )
        if bad:
            continue
        out.append((position, (rng.randint(1, 6), rng.randint(1, 6)), options))
    return out


SELF_PLAY = [ply for seed in range(24) for ply in self_play(seed, OPTION_SETS[seed % len(OPTION_SETS)])]
CORPUS = SELF_PLAY + crafted(2500, 11)


def test_corpus_is_varied() -> None:
    assert len(CORPUS) > 3000
    assert sum(d[0] == d[1] for _, d, _ in CORPUS) > 400
    assert sum(not any(p.me[6:24]) for p, _, _ in CORPUS) > 150  # bearing off
    assert sum(not may_leave_24(list(p.me)) and p.me[23] > 0 for p, _, _ in CORPUS) > 200  # the start rule
    assert sum(_quarter(p.me) == 5 for p, _, _ in CORPUS) > 200
    assert {o for _, _, o in CORPUS} == set(OPTION_SETS)


def test_corpus_exercises_every_rule() -> None:
    """Enough plies of the corpus change when one rule is dropped from the reference."""
    sample = CORPUS[::8]

    def without(rule: str, ply: Ply) -> set[Position]:
        position, dice, options = ply
        if rule == "prime":
            return ref_ends(position, dice, options.updated(fevga_prime="free"))[1]
        return ref_ends(position, dice, options, ALL_RULES - {rule})[1]

    for rule in ("start", "quarter", "prime"):
        changed = sum(without(rule, ply) != ref_ends(*ply)[1] for ply in sample)
        assert changed > 15, rule


@pytest.mark.parametrize("chunk", range(6))
def test_engine_matches_reference(chunk: int) -> None:
    """The set of end positions and the number of dice used (must-play) agree with the reference."""
    for position, dice, options in CORPUS[chunk::6]:
        plan = TurnPlan(FEVGA, position, dice, options=options)
        used, expected = ref_ends(position, dice, options)
        assert {m.position for m in plan.moves()} == expected, (position.key(), dice, options)
        assert plan.length == used, (position.key(), dice, options)


def test_reached_positions_keep_the_rules() -> None:
    """No position reached in play holds all of 19..24, breaks the start rule, or (long_rule) an unsupported prime."""
    for position, _, options in SELF_PLAY:
        for side, other in ((position.me, position.opp), (position.opp, position.me)):
            assert not holds_start_quarter(list(side))
            if options.fevga_prime == "long_rule":
                assert not unsupported_prime(list(side), other)
            off_24 = 15 - side[23]
            assert off_24 <= 1 or may_leave_24(list(side)), position.key()


# ---------------------------------------------------------------------------------------------------------------
# worked examples (docs/rules.md §6.2)


def moves_of(position: Position, dice: tuple[int, int], options: Options | None = None) -> set[str]:
    return notations(legal_moves(FEVGA, position, dice, options=options or Options()))


def test_registry_and_settings() -> None:
    assert isinstance(FEVGA, Fevga)
    assert get_variant("февга") is FEVGA and get_variant("FEVGA") is FEVGA and get_variant("Февга") is FEVGA
    assert FEVGA.titles == {"en": "Fevga", "ru": "февга"}
    assert FEVGA.geometry == "parallel" and not FEVGA.has_bar and FEVGA.closing_count == 1
    assert FEVGA.id_prefix == "F1"
    assert Position(make_side({24: 15}), make_side({24: 15})) == START
    assert not FEVGA.cube_enabled(Options()) and FEVGA.cube_enabled(Options(cube=True))
    assert FEVGA.opening_rerolls and not FEVGA.last_roll_draw(Options())
    assert FEVGA.resign_options(Options()) == ("single", "gammon")
    assert "docs/rules.md §6.2" in class_docstring(Fevga)
    assert {"start_rule", "start_quarter"} <= set(ILLEGAL_MOVE_CODES)


def test_fevga_prime_option_is_checked() -> None:
    assert Options().fevga_prime == "long_rule"
    assert Options.from_dict({"fevga_prime": "free"}).fevga_prime == "free"
    with pytest.raises(InvalidOptionError, match="fevga_prime"):
        Options.from_dict({"fevga_prime": "none"})


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        # the first checker cannot reach 12 (the opponent's start); no second checker may leave
        ((6, 6), {"24/18"}),
        ((3, 3), {"24/21/18/15"}),
        ((4, 4), {"24/20/16"}),
        ((6, 5), {"24/18/13"}),
        ((1, 1), {"24/23/22/21/20"}),
        # 24/19/14/9 passes 12: a second checker may then leave in the same turn
        ((5, 5), {"24/19/14/9/4", "24/19 24/19/14/9"}),
        ((2, 2), {"24/22/20/18/16"}),
    ],
)
def test_start_rule_from_the_opening(dice: tuple[int, int], expected: set[str]) -> None:
    for options in OPTION_SETS:
        assert moves_of(START, dice, options) == expected


def test_start_rule_second_checker_may_leave_once_the_first_passed() -> None:
    """The first checker on 13: 6-2 plays it past 12 first (to 7 or 11); only then may a checker leave 24."""
    position = pos({24: 14, 13: 1}, {24: 15})
    assert moves_of(position, (6, 2)) == {"13/7/5", "24/22 13/7", "24/18 13/11"}
    # the first checker on 14 with 1-1: 14/13, then 13/12 is closed and 24 is still locked: one move only
    assert moves_of(pos({24: 14, 14: 1}, {24: 15}), (1, 1)) == {"14/13"}
    # once a checker has passed, the rule is gone for good (here one stands on 11)
    assert "24/23 24/22" in moves_of(pos({24: 13, 11: 1, 20: 1}, {24: 15}), (2, 1))
    # a checker borne off counts as passed
    assert may_leave_24(list(make_side({24: 13, 20: 1})))


def test_start_rule_is_explained() -> None:
    position = pos({24: 14, 13: 1}, {24: 15})
    plan = TurnPlan(FEVGA, position, (6, 2))
    with pytest.raises(IllegalMoveError) as error:
        match_move(plan, "24/18 24/22")
    assert error.value.code == "start_rule"
    assert "11 or lower" in str(error.value)


QUARTER = pos({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {24: 14, 3: 1})  # the opponent's 3 = our 15: ahead


@pytest.mark.parametrize("options", OPTION_SETS)
def test_start_quarter_ban(options: Options) -> None:
    """Holding 24, 23, 22, 21, 20: 24/19 would hold all six of 19..24 — never, under either prime option (the
    opponent checker on our 15 is ahead of 19..24, so the long-nardy prime rule alone would allow it)."""
    found = moves_of(QUARTER, (5, 4), options)
    for move in legal_moves(FEVGA, QUARTER, (5, 4), options=options):
        assert not holds_start_quarter(list(move.position.me)), move
    assert "24/19 5/1" not in found and "24/19/15" not in found  # 15 is the opponent's anyway
    assert "24/19 20/16" in found  # 20/16 first empties 20: then 24/19 holds five of the six
    assert "24/19 23/19" in found  # 23/19 first: 23 is emptied
    assert "24/20 23/18" in found  # 20 was already held: no new point
    assert FEVGA.step_refusal(to_state(QUARTER), 24, 5, TurnPlan(FEVGA, QUARTER, (5, 4)).ctx)[0] == "start_quarter"
    plan = TurnPlan(FEVGA, QUARTER, (5, 4), options=options)
    with pytest.raises(IllegalMoveError) as error:
        match_move(plan, "24/19 5/1")
    assert error.value.code == "start_quarter"


def test_start_quarter_ban_holds_mid_turn() -> None:
    """The ban is checked after every single move, even with block_check=end_of_turn: 24/19/14/9/4 with 5-5 would
    hold 19..24 after its first move (and leave 19 again), so it is refused; with 21 empty it is legal. No step
    sequence of any legal turn passes through a state holding all six."""
    position = pos({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {24: 15})
    open_21 = pos({24: 11, 23: 1, 22: 1, 20: 1, 5: 1}, {24: 15})
    for options in OPTION_SETS:
        assert "24/19/14/9/4" not in moves_of(position, (5, 5), options)
        assert "24/19/14/9/4" in moves_of(open_21, (5, 5), options)
        plan = TurnPlan(FEVGA, position, (5, 5), options=options)
        for steps in all_step_sequences(plan):
            for done in range(1, len(steps) + 1):
                assert not holds_start_quarter(list(plan.position_after(steps[:done]).me)), steps


PRIME = pos({24: 9, 13: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {24: 15})  # 13/10 would hold 5..10


def test_prime_rule_long_rule() -> None:
    """5..10 is six in a row on the opponent's path (its 17..22) with every opponent checker behind it (on its 24):
    13/10 is refused under long_rule; the same prime is legal once an opponent checker is ahead (its 10 = our 22)."""
    found = moves_of(PRIME, (3, 1))
    assert "13/10/9" not in found and "24/23 13/10" not in found  # 5..10 held at the end
    assert "13/10 5/4" in found  # 5/4 first: 5 is left before 10 is made
    ahead = pos({24: 9, 13: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {24: 14, 10: 1})
    assert any("13/10" in m for m in moves_of(ahead, (3, 1)))
    plan = TurnPlan(FEVGA, PRIME, (3, 1))
    with pytest.raises(IllegalMoveError) as error:
        match_move(plan, "24/23 13/10")
    assert error.value.code == "block_rule"


def test_prime_rule_free() -> None:
    """fevga_prime=free: the same unsupported prime is legal (only the start-quarter ban is left)."""
    assert {"24/23 13/10", "13/10/9"} <= moves_of(PRIME, (3, 1), FREE)
    assert {"24/23 13/10", "13/10/9"} <= moves_of(PRIME, (3, 1), Options(fevga_prime="free", block_check="end_of_turn"))
    assert moves_of(PRIME, (3, 1), FREE) - moves_of(PRIME, (3, 1)) == {"24/23 13/10", "13/10/9"}


def test_prime_rule_end_of_turn() -> None:
    """block_check=end_of_turn: a prime made and broken again within the turn is allowed under long_rule."""
    per_move = moves_of(PRIME, (3, 2))
    end = moves_of(PRIME, (3, 2), Options(block_check="end_of_turn"))
    assert end - per_move == {"13/10/8"}  # 5..10 made by 13/10, then 10 left again: 5..9 at the end


def test_no_hitting_single_checker_holds() -> None:
    """A lone opponent checker closes its point: our 18 (its 6) blocks 24/18."""
    position = pos({24: 15}, {24: 14, 6: 1})
    assert moves_of(position, (6, 5)) == {"24/19/13"}


def test_no_head_rule_after_the_start() -> None:
    """Once the first checker has passed, any number of checkers may leave 24 in one turn (no head rule)."""
    position = pos({24: 14, 4: 1}, {24: 15})
    assert "24/22(4)" in moves_of(position, (2, 2))


def test_bear_off_as_in_section_1() -> None:
    assert moves_of(pos({2: 1, 1: 1}, {24: 15}), (5, 3)) == {"2/off 1/off"}
    assert moves_of(pos({6: 1, 2: 1}, {24: 15}), (4, 1)) == {"6/2/1"}
    assert moves_of(pos({7: 1, 3: 14}, {24: 15}), (3, 1)) == {"7/4 3/2", "7/4/3", "7/6 3/off"}


@pytest.mark.parametrize(
    ("opp", "expected"),
    [({24: 15}, GameValue("gammon", 2)), ({24: 14}, GameValue("single", 1)), ({1: 3}, GameValue("single", 1))],
)
def test_game_value(opp: dict[int, int], expected: GameValue) -> None:
    position = pos({}, opp)
    for options in (Options(), Options(long_scoring="extended"), Options(misere=True)):
        assert FEVGA.game_value(position, options) == expected
        assert not FEVGA.finisher_loses(options)


# ---------------------------------------------------------------------------------------------------------------
# whole games through nardy.Game


def test_game_opening_reroll_and_start_rule() -> None:
    """The opening roll's winner rolls both dice afresh (Tavli); 6-6 then plays 24/18 only."""
    game = Game("fevga", dice=FixedDice([3, 3, 5, 2, 6, 6, 4, 1]))
    game.roll()  # 3-3 tie, then 5-2: player 0 starts and rolls again
    assert game.phase is Phase.ROLL and game.roller == 0 and game.first_player == 0
    assert not game.can_double()
    assert game.roll() == (6, 6)
    assert notations(game.legal_moves()) == {"24/18"}
    game.play("24/18")
    assert game.phase is Phase.ROLL and game.roller == 1
    game.roll()
    assert notations(game.legal_moves()) == {"24/20/19"}
    with pytest.raises(GameStateError):
        game.double()


def test_game_scoring_and_resignation() -> None:
    game = Game("fevga", dice=FixedDice([2, 1]), first_player=0)
    game.sides = [make_side({1: 1}), make_side({24: 15})]
    game.moves_played = 10
    game.roll()
    game.play("1/off")
    assert game.result is not None and (game.result.winner, game.result.kind, game.result.points) == (0, "gammon", 2)
    game = Game("fevga", dice=FixedDice([2, 1]), first_player=1)
    assert game.resign_levels() == ("single", "gammon")
    game.roll()
    game.resign(0, "gammon")
    game.accept_resignation()
    assert game.result is not None and (game.result.winner, game.result.points) == (1, 2)


def _random_game(seed: int, options: Options) -> Game:
    rng = random.Random(seed)
    game = Game("fevga", options=options, dice=SeededDice(seed))
    while game.phase is not Phase.OVER:
        if game.phase is Phase.MOVE:
            game.play(rng.choice(game.legal_moves()))
        else:
            game.roll()
        assert game.moves_played < 2000
    return game


def test_game_save_load_and_replay() -> None:
    game = _random_game(3, Options())
    assert game.result is not None and game.result.kind in ("single", "gammon")
    data = game.to_dict()
    again = Game.from_dict(data, verify=True)
    assert again.snapshot() == game.snapshot()
    assert Game.from_dict(game.to_dict(compact=True)).snapshot() == game.snapshot()
    states = replay(data)
    assert states[-1].snapshot() == game.snapshot()
    assert states[0].phase is Phase.OPENING
    # a game saved mid-turn restores to the same plan
    middle = next(s for s in states if s.phase is Phase.MOVE and s.moves_played > 20)
    restored = Game.from_dict(middle.to_dict())
    assert {m.position for m in restored.legal_moves()} == {m.position for m in middle.legal_moves()}


def test_game_follows_the_reference() -> None:
    """Every roll of a few whole games through Game: its legal turns are the reference's."""
    for seed, options in enumerate(OPTION_SETS):
        rng = random.Random(seed)
        game = Game("fevga", options=options, dice=SeededDice(100 + seed))
        while game.phase is not Phase.OVER:
            if game.phase is Phase.MOVE:
                assert game.dice is not None
                expected = ref_ends(game.position, game.dice, options)[1]
                moves = game.legal_moves()
                assert {m.position for m in moves} == expected
                game.play(rng.choice(moves).notation)
            else:
                game.roll()


# ---------------------------------------------------------------------------------------------------------------
# ids and properties


def test_ids_round_trip() -> None:
    for position, _, _ in CORPUS[::25]:
        text = variant_position_id("fevga", position)
        assert text.startswith("F1") and len(text) == 16
        assert position_from_any_id(text) == ("fevga", position)
    assert variant_position_id("fevga", START) == "F1AACA_z8AAID_Pw"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), options=st.sampled_from(OPTION_SETS))
def test_every_random_game_ends(seed: int, options: Options) -> None:
    game = _random_game(seed, options)
    assert game.result is not None and game.result.winner in (0, 1)
    assert sum(game.sides[game.result.winner]) == 0


@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, len(CORPUS) - 1), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_checker_conservation(index: int, dice: tuple[int, int]) -> None:
    """Every legal turn moves only the mover's checkers: each is on a point or borne off, the total stays 15."""
    position, _, options = CORPUS[index]
    before = sum(position.me)
    for move in legal_moves(FEVGA, position, dice, options=options):
        after = move.position
        assert after.opp == position.opp
        borne = sum(1 for step in move.steps if step.dst == 0)
        assert sum(after.me) == before - borne and all(c >= 0 for c in after.me) and after.me[24] == 0
        FEVGA.validate(after)
