"""Match IDs equal to GNU Backgammon's: a line-by-line Python reading of ``MatchID`` / ``MatchFromKey`` in
gnubg's ``matchid.c`` (1.x, extended Match ID, as built by default) is the oracle for any state, since ``gnubg_nn``
has no match id functions. It writes the larger die first and bit 67 (1-based) as "Jacoby off". What the real
program writes for real games (bit 67 set in every match) is checked by driving it in
tests/nardy/test_match_id_real_gnubg.py."""

from __future__ import annotations

import base64
import random
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import Game, Options, Phase, SeededDice
from nardy.cli import show
from nardy.errors import InvalidIdError, NardyError
from nardy.ids import GAME_NONE, GAME_PLAYING, MatchState, match_id, match_state_from_id

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
GNUBG_MAXSCORE = 64


def _set_bits(key: bytearray, pos: int, n: int, value: int) -> None:
    for i in range(n):
        k, r = divmod(pos + i, 8)
        if value & (1 << i):
            key[k] |= 1 << r
        else:
            key[k] &= 0xFF ^ (1 << r)


def _get_bits(key: bytes, pos: int, n: int) -> int:
    return sum(((key[(pos + i) // 8] >> ((pos + i) % 8)) & 1) << i for i in range(n))


def gnubg_match_id(
    dice: tuple[int, int],
    turn: int,
    resigned: int,
    doubled: int,
    move: int,
    cube_owner: int,
    crawford: int,
    match_to: int,
    score: tuple[int, int],
    cube: int,
    jacoby: int,
    gs: int,
) -> str:
    """Return gnubg's ``MatchID(...)`` (cube_owner -1 for a centred cube)."""
    key = bytearray(9)
    log = 0
    while cube > 1:
        cube >>= 1
        log += 1
    _set_bits(key, 0, 4, log)
    _set_bits(key, 4, 2, cube_owner & 0x3)
    _set_bits(key, 6, 1, move)
    _set_bits(key, 7, 1, crawford)
    _set_bits(key, 8, 3, gs)
    _set_bits(key, 11, 1, turn)
    _set_bits(key, 12, 1, doubled)
    _set_bits(key, 13, 2, resigned)
    if dice[0] >= dice[1]:
        _set_bits(key, 15, 3, dice[0] & 0x7)
        _set_bits(key, 18, 3, dice[1] & 0x7)
    else:
        _set_bits(key, 15, 3, dice[1] & 0x7)
        _set_bits(key, 18, 3, dice[0] & 0x7)
    _set_bits(key, 21, 15, match_to & 0x7FFF)
    _set_bits(key, 36, 15, score[0] & 0x7FFF)
    _set_bits(key, 51, 15, score[1] & 0x7FFF)
    _set_bits(key, 66, 1, int(not jacoby))
    out = []
    for i in range(3):
        a, b, c = key[3 * i : 3 * i + 3]
        out += [B64[a >> 2], B64[((a & 0x03) << 4) | (b >> 4)], B64[((b & 0x0F) << 2) | (c >> 6)], B64[c & 0x3F]]
    return "".join(out)


def gnubg_accepts(text: str) -> bool:
    """Return whether gnubg's ``MatchFromID`` accepts a 12-character base64 id (returns 0, not -1)."""
    key = base64.b64decode(text)
    dice = (_get_bits(key, 15, 3), _get_bits(key, 18, 3))
    match_to = _get_bits(key, 21, 15)
    score = (_get_bits(key, 36, 15), _get_bits(key, 51, 15))
    crawford = _get_bits(key, 7, 1)
    if not all(0 <= d <= 6 for d in dice) or not 0 <= match_to <= GNUBG_MAXSCORE:
        return False
    if match_to:
        return all(0 <= s <= match_to for s in score)
    return not crawford


def gnubg_id_of_state(state: MatchState) -> str:
    """Return gnubg's id for the state ``state`` describes."""
    return gnubg_match_id(
        state.dice,
        state.turn,
        state.resignation,
        int(state.double_offered),
        state.player_on_roll,
        -1 if state.cube_owner is None else state.cube_owner,
        int(state.crawford),
        state.match_length,
        state.score,
        state.cube_value,
        int(state.jacoby),
        state.game_state,
    )


def test_the_reference_encoder_gives_the_manuals_worked_example() -> None:
    # 9-point match, 2-4, player 0 owns a 2-cube, player 1 has rolled 52 (the manual's example)
    assert gnubg_match_id((5, 2), 1, 0, 0, 1, 0, 0, 9, (2, 4), 2, 1, GAME_PLAYING) == "QYkqASAAIAAA"


def test_the_larger_die_is_written_first() -> None:
    manual = MatchState(cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(2, 5), match_length=9, score=(2, 4))
    assert match_id(manual) == "QYkqASAAIAAA" == match_id(replace(manual, dice=(5, 2)))
    # an id written smaller die first (older gnubg) is still read, as written
    assert match_state_from_id(gnubg_match_id((5, 2), 1, 0, 0, 1, 0, 0, 9, (2, 4), 2, 1, 1)).dice == (5, 2)


def test_a_money_game_without_jacoby_sets_bit_67() -> None:
    on = MatchState(game_state=GAME_NONE)
    off = replace(on, jacoby=False)
    assert match_id(on) == "MAAAAAAAAAAA"  # gnubg's id of a new money session with its default settings
    assert match_id(off) == gnubg_match_id((0, 0), 0, 0, 0, 0, -1, 0, 0, (0, 0), 1, 0, 0) == "MAAAAAAAAAAE"
    assert match_state_from_id("MAAAAAAAAAAE") == off and not match_state_from_id("MAAAAAAAAAAE").jacoby


@pytest.mark.parametrize("jacoby", [False, True])
def test_a_money_games_id_carries_its_jacoby_option(jacoby: bool) -> None:
    game = Game("short", options=Options(jacoby=jacoby), dice=SeededDice(4))
    assert game.match_state().jacoby is jacoby
    key = int.from_bytes(base64.b64decode(game.match_id()), "little")
    assert bool(key >> 66 & 1) is not jacoby


@pytest.mark.parametrize("jacoby", [False, True])
def test_match_play_writes_the_jacoby_bit_as_gnubg_does(jacoby: bool) -> None:
    """GNU Backgammon sets bit 67 ("Jacoby off") in every match whatever its Jacoby setting (``new match 7`` gives
    ``cAnzAAAAAAAE``; tests/nardy/test_match_id_real_gnubg.py checks it against the real program)."""
    game = Game("short", options=Options(jacoby=jacoby), dice=SeededDice(4), match_length=7)
    assert game.match_state().jacoby is False
    assert int.from_bytes(base64.b64decode(game.match_id()), "little") >> 66 == 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), jacoby=st.booleans(), length=st.sampled_from([0, 0, 1, 3, 7]))
def test_every_state_of_real_games_has_gnubgs_match_id(seed: int, jacoby: bool, length: int) -> None:
    """Play random games (dice in rolled order, doubles, takes, resignations) and compare each state's id."""
    rng = random.Random(seed)
    game = Game("short", options=Options(jacoby=jacoby), dice=SeededDice(seed), match_length=length)
    for _ in range(400):
        expected = gnubg_match_id(
            game.dice or (0, 0),
            game.turn,
            game.match_state().resignation,
            int(game.phase is Phase.DOUBLED),
            game.roller,
            -1 if game.cube_owner is None else game.cube_owner,
            int(game.crawford),
            length,
            (0, 0),
            game.cube_value,
            int(jacoby) if length == 0 else 0,  # gnubg's own matches: "Jacoby off" (test_match_id_real_gnubg)
            game.match_state().game_state,
        )
        assert game.match_id() == expected
        if game.phase is Phase.OVER:
            break
        if game.phase in (Phase.OPENING, Phase.ROLL):
            if game.can_double() and rng.random() < 0.1:
                game.double()
            else:
                game.roll()
        elif game.phase is Phase.MOVE:
            if rng.random() < 0.01:
                game.resign(game.roller, rng.choice(game.resign_levels()))
            else:
                game.play(rng.choice(game.legal_moves()))
        elif game.phase is Phase.DOUBLED:
            game.take()
        elif game.phase is Phase.RESIGN:
            game.decline_resignation() if rng.random() < 0.5 else game.accept_resignation()


@st.composite
def gnubg_states(draw: st.DrawFn) -> MatchState:
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 11, 25, 64]))
    top = length - 1 if length else 200
    return MatchState(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=draw(st.booleans()) if length else False,
        game_state=draw(st.integers(0, 4)),
        turn=draw(st.integers(0, 1)),
        double_offered=draw(st.booleans()),
        resignation=draw(st.integers(0, 3)),
        dice=draw(st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6)))),
        match_length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()),
    )


@given(gnubg_states())
def test_match_id_equals_gnubgs_for_any_state(state: MatchState) -> None:
    text = match_id(state)
    assert text == gnubg_id_of_state(state)
    assert match_state_from_id(text) == replace(state, dice=(max(state.dice), min(state.dice)))


@given(st.binary(min_size=9, max_size=9))
def test_every_id_gnubg_refuses_is_refused(data: bytes) -> None:
    text = base64.b64encode(data).decode()
    if not gnubg_accepts(text):
        with pytest.raises(InvalidIdError):
            match_state_from_id(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # the money-session id with the Crawford flag set
        (gnubg_match_id((0, 0), 0, 0, 0, 0, -1, 1, 0, (0, 0), 1, 1, 1), "Crawford|crawford"),
        (gnubg_match_id((5, 2), 1, 0, 0, 1, 0, 0, 9, (9, 4), 2, 1, 1), "not below the match length 9"),
        (gnubg_match_id((5, 2), 1, 0, 0, 1, 0, 0, 9, (2, 10), 2, 1, 1), "not below the match length 9"),
        (gnubg_match_id((5, 2), 1, 0, 0, 1, 0, 0, 65, (2, 4), 2, 1, 1), "match_length 65"),
    ],
)
def test_ids_gnubg_refuses_are_refused_with_a_typed_error(text: str, message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        match_state_from_id(text)


def test_states_gnubg_would_refuse_cannot_be_built() -> None:
    with pytest.raises(NardyError, match="crawford"):
        MatchState(crawford=True)
    with pytest.raises(NardyError, match="not below the match length"):
        MatchState(match_length=5, score=(5, 0))


# ------------------------------------------------------------------------------------------- show POSITIONID:MATCHID


def test_show_accepts_gnubgs_combined_id() -> None:
    text = show("4HPwATDgc/ABMA:cIkKAAAAAAAA", None)
    assert "X (to move)" in text
    assert "dice: 5-2" in text or "dice 5-2" in text
    assert "money" in text


def test_show_describes_the_match_of_a_combined_id() -> None:
    text = show("4HPwATDgc/ABMA:QYkqASAAIAAA", None)
    assert "9-point match" in text and "2-4" in text and "cube 2" in text


def test_show_refuses_a_bad_match_id_in_a_combined_id() -> None:
    with pytest.raises(InvalidIdError):
        show("4HPwATDgc/ABMA:" + gnubg_match_id((0, 0), 0, 0, 0, 0, -1, 1, 0, (0, 0), 1, 1, 1), None)


def test_show_command_line_with_a_combined_id() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nardy", "show", "4HPwATDgc/ABMA:cIkKAAAAAAAA"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "X (to move)" in done.stdout
