"""Tests of nardy.ids: GNU Backgammon position and match ids, and the long nardy id."""

from __future__ import annotations

import base64
import random
from dataclasses import replace

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from nardy import compiled_engine
from nardy.errors import InvalidIdError, InvalidPositionError, NardyError
from nardy.ids import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_PLAYING,
    LONG_ID_PREFIX,
    LONG_OPENING_ID,
    OPENING_POSITION_ID,
    RESIGN_BACKGAMMON,
    MatchState,
    long_position_from_id,
    long_position_id,
    match_id,
    match_state_from_id,
    position_from_id,
    position_id,
)
from nardy.position import Position, Side, make_side

OPENING_SIDE = make_side({6: 5, 8: 3, 13: 5, 24: 2})
OPENING = Position(OPENING_SIDE, OPENING_SIDE)
LONG_HEAD = make_side({24: 15})
EMPTY: Side = (0,) * 25

# The manual's example: 9-point match, score 2-4, player 0 owns a 2-cube, player 1 has rolled 52.
MANUAL_MATCH_ID = "QYkqASAAIAAA"
MANUAL_MATCH_STATE = MatchState(
    cube_value=2,
    cube_owner=0,
    player_on_roll=1,
    crawford=False,
    game_state=GAME_PLAYING,
    turn=1,
    double_offered=False,
    resignation=0,
    dice=(5, 2),
    match_length=9,
    score=(2, 4),
)


def side_from_points(points: list[int]) -> Side:
    """Return a side with one checker on each listed index (0..24, 24 = bar)."""
    counts = [0] * 25
    for index in points:
        counts[index] += 1
    return tuple(counts)


sides = st.one_of(
    st.lists(st.integers(0, 24), max_size=15).map(side_from_points),
    # Piles: everything on a few points, up to the full 15 on one point.
    st.lists(st.tuples(st.integers(0, 24), st.integers(1, 15)), max_size=3).map(
        lambda piles: side_from_points([index for index, count in piles for _ in range(count)][:15])
    ),
)
positions = st.builds(Position, sides, sides)


def random_side(rng: random.Random) -> Side:
    """Return a random side with 0..15 checkers anywhere on points 1..24 and the bar."""
    return side_from_points([rng.randrange(25) for _ in range(rng.randint(0, 15))])


def random_positions(count: int, seed: int) -> list[Position]:
    """Return ``count`` reproducible random positions, edge cases first."""
    rng = random.Random(seed)
    fixed = [
        OPENING,
        Position(EMPTY, EMPTY),
        Position(make_side({25: 15}), make_side({1: 15})),
        Position(make_side({1: 1}), EMPTY),
        Position(EMPTY, make_side({1: 1})),
        Position(make_side({6: 5, 8: 3, 13: 5, 25: 2}), make_side({24: 15})),
    ]
    return fixed + [Position(random_side(rng), random_side(rng)) for _ in range(count - len(fixed))]


# --------------------------------------------------------------------------------------------------
# GNU Backgammon position id


def test_opening_position_id() -> None:
    assert position_id(OPENING) == "4HPwATDgc/ABMA" == OPENING_POSITION_ID
    assert position_from_id("4HPwATDgc/ABMA") == OPENING


def test_empty_and_single_checker_ids() -> None:
    assert position_id(Position(EMPTY, EMPTY)) == "AAAAAAAAAAAAAA"
    # The side not on roll (opp) comes first: its point 1 is the very first bit.
    assert position_id(Position(EMPTY, make_side({1: 1}))) == "AQAAAAAAAAAAAA"
    # The side on roll starts after the 25 zero bits that close opp's empty points.
    assert position_id(Position(make_side({1: 1}), EMPTY)) == "AAAAAgAAAAAAAA"


def test_opp_is_encoded_first() -> None:
    position = Position(make_side({6: 2}), make_side({11: 2}))
    swapped_id = position_id(position.swapped())
    assert position_id(position) != swapped_id
    assert position_from_id(swapped_id) == position.swapped()


@given(positions)
@example(Position(make_side({25: 15}), make_side({25: 15})))
@example(Position(EMPTY, EMPTY))
def test_position_id_round_trip(position: Position) -> None:
    text = position_id(position)
    assert len(text) == 14
    assert position_from_id(text) == position
    assert position_from_id(f"  {text}\n") == position


@given(positions)
def test_position_id_is_injective_on_swaps(position: Position) -> None:
    if position.me != position.opp:
        assert position_id(position) != position_id(position.swapped())


def test_position_id_accepts_lists() -> None:
    """On the pure build; the compiled one refuses a side that is not a tuple as the Position is made."""
    try:
        listed = Position(list(OPENING_SIDE), list(OPENING_SIDE))  # type: ignore[arg-type]
    except TypeError:
        assert compiled_engine()
        return
    assert position_id(listed) == OPENING_POSITION_ID


# --------------------------------------------------------------------------------------------------
# Oracle: GNU Backgammon's own encoder (gnubg_nn), used only here


def test_position_id_matches_gnubg() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    checked = 0
    for position in random_positions(1000, seed=20261130):
        board = [list(position.opp), list(position.me)]
        expected = gnubg_nn.position_id(board)
        assert position_id(position) == expected, position
        assert position_from_id(expected) == position
        checked += 1
    assert checked == 1000


def test_position_from_id_matches_gnubg_decoder() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    for position in random_positions(600, seed=7):
        text = position_id(position)
        board = gnubg_nn.board_from_position_id(text)
        decoded = position_from_id(text)
        assert decoded.opp == tuple(board[0])
        assert decoded.me == tuple(board[1])


def test_gnubg_moves_the_second_board_side() -> None:
    """Pin the convention our mapping relies on: gnubg_nn's board[1] is the side on roll."""
    gnubg_nn = pytest.importorskip("gnubg_nn")
    me = make_side({25: 1})  # on the bar: only the side on roll can move it
    opp = make_side({4: 1})
    results = {
        (tuple(after[0]), tuple(after[1]))
        for after in map(gnubg_nn.board_from_position_key, gnubg_nn.moves([list(opp), list(me)], 6, 6))
    }
    assert results == {(opp, make_side({1: 1}))}


@given(positions)
def test_position_id_matches_gnubg_hypothesis(position: Position) -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    assert position_id(position) == gnubg_nn.position_id([list(position.opp), list(position.me)])


# --------------------------------------------------------------------------------------------------
# Long nardy id


def test_long_opening_id() -> None:
    opening = Position(LONG_HEAD, LONG_HEAD)
    assert long_position_id(opening) == "L1AACA_z8AAID_Pw" == LONG_OPENING_ID
    assert long_position_from_id(LONG_OPENING_ID) == opening


@given(positions)
@example(Position(LONG_HEAD, EMPTY))
def test_long_position_id_round_trip(position: Position) -> None:
    text = long_position_id(position)
    assert len(text) == 16
    assert text.startswith(LONG_ID_PREFIX)
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert long_position_from_id(text) == position


def test_long_id_puts_the_mover_first() -> None:
    position = Position(make_side({1: 1}), EMPTY)
    assert long_position_id(position) == "L1AQAAAAAAAAAAAA"
    assert long_position_from_id("L1AQAAAAAAAAAAAA") == position


def test_long_and_gnubg_ids_cannot_be_confused() -> None:
    with pytest.raises(InvalidIdError, match="looks like a GNU Backgammon position id"):
        long_position_from_id(OPENING_POSITION_ID)
    # GNU Backgammon ids may start with "L" too; they still get the hint.
    for gnubg_id in ("LAAAAAAAAAAAAA", "L1AAAAAAAAAAAA", "L/AAAAAAAAAAAA"):
        with pytest.raises(InvalidIdError, match="looks like a GNU Backgammon position id"):
            long_position_from_id(gnubg_id)
    with pytest.raises(InvalidIdError, match="16 characters, expected 14"):
        position_from_id(LONG_OPENING_ID)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X1AACA_z8AAID_Pw", "does not start with 'L'"),
        ("L2AACA_z8AAID_Pw", "format version '2'"),
        ("L1AACA_z8AAID_P", "15 characters, expected 16"),
        ("L1AACA/z8AAID+Pw", "outside the URL-safe base64 alphabet: '/' at 6, '\\+' at 13"),
        ("L1AACA_z8AAID_Px", "unused low bits"),
        ("L1________AAAAAA", "more than 30"),
    ],
)
def test_bad_long_ids(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message) as caught:
        long_position_from_id(text)
    assert repr(text) in str(caught.value)


# --------------------------------------------------------------------------------------------------
# Bad position ids and positions


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "0 characters, expected 14"),
        ("4HPwATDgc/ABM", "13 characters, expected 14"),
        ("4HPwATDgc/ABMAA", "15 characters, expected 14"),
        ("4HPwATDgc-ABMA", "outside the base64 alphabet: '-' at 9"),
        ("4HPwATDgc/AB=A", "outside the base64 alphabet: '=' at 12"),
        ("4HPwATDgc/ABMB", "unused low bits"),
        ("/////////////w", "holds 80 checkers, more than 30"),
        # 16 checkers on opp's point 1 (16 ones, then zeros): too many on one side.
        ("//8AAAAAAAAAAA", "16 checkers on side opp .*more than 15"),
        # No checkers (50 closing zeros), then a stray 1-bit near the end of the key.
        ("AAAAAAAAAAAAgA", "1-bit at key bit 79 .*ended at bit 49"),
    ],
)
def test_bad_position_ids(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message) as caught:
        position_from_id(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def _key_of(text: str) -> int:
    """Return the 80-bit key of a GNU Backgammon position id, using the standard library's base64."""
    return int.from_bytes(base64.b64decode(text + "=="), "little")


def _id_of(key: int) -> str:
    """Return the GNU Backgammon position id of an 80-bit key, using the standard library's base64."""
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def test_key_helpers_agree_with_position_id() -> None:
    assert _id_of(_key_of(OPENING_POSITION_ID)) == OPENING_POSITION_ID


def test_too_many_bits_and_stray_bits() -> None:
    # 15 checkers on each side's point 1 use all 80 bits; one more 1-bit makes 31 checkers.
    full = Position(make_side({1: 15}), make_side({1: 15}))
    assert position_from_id(position_id(full)) == full
    with pytest.raises(InvalidIdError, match="holds 31 checkers, more than 30"):
        position_from_id(_id_of(_key_of(position_id(full)) | (1 << 79)))
    # Two checkers: the 50 closing zeros end at key bit 51; a 1 at bit 79 is stray.
    small = _key_of(position_id(Position(make_side({3: 2}), EMPTY)))
    with pytest.raises(InvalidIdError, match=r"1-bit at key bit 79 .* ended at bit 51"):
        position_from_id(_id_of(small | (1 << 79)))
    with pytest.raises(InvalidIdError, match=r"1-bit at key bit 52 "):
        position_from_id(_id_of(small | (1 << 52) | (1 << 60)))


def test_non_string_id() -> None:
    with pytest.raises(InvalidIdError, match="must be a string, got int"):
        position_from_id(42)  # type: ignore[arg-type]
    with pytest.raises(InvalidIdError, match="must be a string, got NoneType"):
        match_state_from_id(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidIdError, match="must be a string, got bytes"):
        long_position_from_id(b"L1AACA_z8AAID_Pw")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        (Position(EMPTY[:24], EMPTY), "side me has 24 counters, expected 25"),
        (Position(EMPTY, (0,) * 26), "side opp has 26 counters, expected 25"),
        (Position(make_side({1: 16}), EMPTY), "side me has 16 checkers, more than 15"),
        (Position(EMPTY, (-1,) + (0,) * 24), "side opp has a negative count -1 at index 0"),
        (Position(EMPTY, (1.0,) + (0,) * 24), "index 0 holds 1.0, not an int"),  # type: ignore[arg-type]
    ],
)
def test_bad_positions_refused(position: Position, message: str) -> None:
    for encode in (position_id, long_position_id):
        with pytest.raises(InvalidPositionError, match=message):
            encode(position)


def test_a_side_that_is_not_a_tuple_is_refused() -> None:
    """The compiled build refuses it as the Position is made (its fields are typed tuples); the pure build when the
    position is encoded."""
    try:
        position = Position("x" * 25, EMPTY)  # type: ignore[arg-type]
    except TypeError:
        assert compiled_engine()
        return
    for encode in (position_id, long_position_id):
        with pytest.raises(InvalidPositionError, match="must be a sequence"):
            encode(position)


# --------------------------------------------------------------------------------------------------
# Match id


def test_manual_match_id_example() -> None:
    assert match_id(MANUAL_MATCH_STATE) == MANUAL_MATCH_ID
    assert match_state_from_id(MANUAL_MATCH_ID) == MANUAL_MATCH_STATE


def test_manual_match_key_bytes() -> None:
    """The manual lists the key bytes of its example; check our packing bit by bit."""
    expected_bits = "01000001 10001001 00101010 00000001 00100000 00000000 00100000 00000000 00000000"
    data = base64.b64decode(match_id(MANUAL_MATCH_STATE))
    assert " ".join(f"{byte:08b}" for byte in data) == expected_bits


@pytest.mark.parametrize(
    ("text", "state"),
    [
        # Hand-decoded from the documented layout: money game not started, centred 1-cube.
        ("MAAAAAAAAAAA", MatchState(game_state=GAME_NONE)),
        # Money game in play, player 1 on roll and to act, dice not rolled.
        ("cAkAAAAAAAAA", MatchState(player_on_roll=1, turn=1)),
        # 7-point match at 3-4, player 1 has rolled 66.
        ("cAn7ADAAIAAA", MatchState(player_on_roll=1, turn=1, dice=(6, 6), match_length=7, score=(3, 4))),
    ],
)
def test_hand_decoded_match_ids(text: str, state: MatchState) -> None:
    assert match_state_from_id(text) == state
    assert match_id(state) == text


def test_match_id_field_positions() -> None:
    base = MatchState(game_state=GAME_NONE, cube_owner=0)
    assert match_id(base) == "AAAAAAAAAAAA"
    # Each single field lands in its documented bit (1-based bit n -> key bit n - 1).
    single_bits = {
        replace(base, cube_value=2): 0,
        replace(base, cube_value=1 << 8): 3,
        replace(base, cube_owner=1): 4,
        replace(base, player_on_roll=1): 6,
        replace(base, match_length=1, crawford=True): 7,  # and the length's bit 21 (checked below)
        replace(base, game_state=1): 8,
        replace(base, game_state=GAME_DROPPED): 10,
        replace(base, turn=1): 11,
        replace(base, double_offered=True): 12,
        replace(base, resignation=1): 13,
        replace(base, resignation=2): 14,
        replace(base, dice=(4, 1)): 17,  # die 1 = 4 -> bit 18; die 2 = 1 -> bit 19 (checked below)
        replace(base, match_length=1): 21,
        replace(base, match_length=1 << 5): 26,
        replace(base, score=(1, 0)): 36,
        replace(base, score=(0, 1)): 51,
        replace(base, score=(0, 1 << 14)): 65,
        replace(base, jacoby=False): 66,  # bit 67 is "Jacoby not in use"
    }
    for state, bit in single_bits.items():
        key = int.from_bytes(base64.b64decode(match_id(state)), "little")
        if state.dice == (4, 1):
            assert key == (1 << 17) | (1 << 18)
        elif state.crawford:
            assert key == (1 << 7) | (1 << 21)
        else:
            assert key == 1 << bit, state
        assert match_state_from_id(match_id(state)) == state


@st.composite
def match_states(draw: st.DrawFn) -> MatchState:
    """Draw a state GNU Backgammon accepts: scores below the length in match play, Crawford only in match play,
    the larger die first (as GNU Backgammon writes them, so that decoding gives the same state back)."""
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, 64)))
    top = length - 1 if length else 32767
    dice = draw(st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))))
    return MatchState(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=draw(st.booleans()) if length else False,
        game_state=draw(st.integers(0, 4)),
        turn=draw(st.integers(0, 1)),
        double_offered=draw(st.booleans()),
        resignation=draw(st.integers(0, 3)),
        dice=(max(dice), min(dice)),
        match_length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()),
    )


@given(match_states())
@example(MANUAL_MATCH_STATE)
@example(
    MatchState(
        cube_value=32768,
        cube_owner=1,
        player_on_roll=1,
        crawford=True,
        game_state=GAME_DROPPED,
        turn=1,
        double_offered=True,
        resignation=RESIGN_BACKGAMMON,
        dice=(6, 6),
        match_length=64,
        score=(63, 63),
        jacoby=False,
    )
)
def test_match_id_round_trip(state: MatchState) -> None:
    text = match_id(state)
    assert len(text) == 12
    assert match_state_from_id(text) == state
    assert match_state_from_id(f" {text} ") == state


def test_spare_match_bits_are_ignored() -> None:
    data = bytearray(base64.b64decode(MANUAL_MATCH_ID))
    data[8] |= 0b11111000  # bits 68..72, unused (bit 67 is GNU Backgammon's "Jacoby off" flag)
    text = base64.b64encode(bytes(data)).decode()
    assert text != MANUAL_MATCH_ID
    assert match_state_from_id(text) == MANUAL_MATCH_STATE
    data[8] |= 0b100
    assert match_state_from_id(base64.b64encode(bytes(data)).decode()) == replace(MANUAL_MATCH_STATE, jacoby=False)


def _with_field(field_bit: int, width: int, value: int) -> str:
    """Return the manual's match id with the field at 0-based ``field_bit`` set to ``value``."""
    key = int.from_bytes(base64.b64decode(MANUAL_MATCH_ID), "little")
    key &= ~(((1 << width) - 1) << field_bit)
    key |= value << field_bit
    return base64.b64encode(key.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QYkqASAAIAA", "11 characters, expected 12"),
        ("QYkqASAAIAAAA", "13 characters, expected 12"),
        ("QYkqASAAIA_A", "outside the base64 alphabet: '_' at 10"),
        ("QYkqAS AIAAA", "outside the base64 alphabet: ' ' at 6"),
        (_with_field(4, 2, 2), "cube owner code 2"),
        (_with_field(8, 3, 5), "game_state 5 is not one of 0..4"),
        (_with_field(8, 3, 7), "game_state 7 is not one of 0..4"),
        (_with_field(15, 3, 7), r"dice \(7, 2\)"),
        (_with_field(15, 3, 0), r"dice \(0, 2\)"),
        (_with_field(18, 3, 0), r"dice \(5, 0\)"),
    ],
)
def test_bad_match_ids(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message) as caught:
        match_state_from_id(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"cube_value": 3}, "cube_value 3 is not a power of two"),
        ({"cube_value": 0}, "cube_value 0"),
        ({"cube_value": 65536}, "cube_value 65536"),
        ({"cube_owner": 2}, "cube_owner 2"),
        ({"player_on_roll": 2}, "player_on_roll 2"),
        ({"turn": -1}, "turn -1"),
        ({"turn": True}, "turn True"),
        ({"crawford": 1}, "crawford 1 is not a bool"),
        ({"game_state": 5}, "game_state 5"),
        ({"resignation": 4}, "resignation 4"),
        ({"dice": (0, 3)}, r"dice \(0, 3\)"),
        ({"dice": (7, 1)}, r"dice \(7, 1\)"),
        ({"dice": (1, 2, 3)}, r"dice \(1, 2, 3\)"),
        ({"match_length": 32768}, "match_length 32768"),
        ({"score": (0, -1)}, r"score \(0, -1\)"),
        ({"score": (32768, 0)}, r"score \(32768, 0\)"),
    ],
)
def test_bad_match_states_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(NardyError, match=message):
        replace(MANUAL_MATCH_STATE, **changes)  # type: ignore[arg-type]
