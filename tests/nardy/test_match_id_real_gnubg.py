"""Match IDs against the real GNU Backgammon: the ``gnubg`` PyPI package (a test extra, GPL, used in tests
only) is driven in a subprocess — its settings are global to the process, and its worker threads must be limited
to one there — through its own commands (``new match 3``, ``move``, ``double``, ``take``, ``set dice``), and every
Match ID it writes is compared with ours for the same state, field by field and bit by bit; each of our ids is
also given back to it (``set matchid``) and must be read as written.

GNU Backgammon writes the Jacoby bit (bit 67, "Jacoby off") set in every match, whatever its Jacoby setting, and
its setting in money play; we wrote it clear in matches."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from dataclasses import asdict, replace
from typing import Any

import pytest

from nardy import FixedDice, Game, Options
from nardy.ids import match_state_from_id

pytest.importorskip("gnubg", reason="GNU Backgammon's Python module (PyPI gnubg, a test extra)")

DRIVER = """
import json, sys
import gnubg
for command in ("set threads 1", "set sound enable off", "set confirm new off", "set player 0 human",
                "set player 1 human", "set automatic roll off"):
    gnubg.command(command)
answers = []
for step in json.load(sys.stdin):
    if step == "?":
        answers.append(gnubg.matchid())
    else:
        gnubg.command(step)
print("ANSWERS " + json.dumps(answers))
"""
"""Runs gnubg commands read as a JSON list from stdin; ``"?"`` notes gnubg's current Match ID."""


def gnubg_ids(steps: list[str]) -> list[str]:
    """Return the Match IDs gnubg shows at each ``"?"`` of ``steps`` (commands run in order in a fresh gnubg)."""
    done = subprocess.run(
        [sys.executable, "-c", DRIVER], input=json.dumps(steps), capture_output=True, text=True, check=True
    )
    line = next(line for line in done.stdout.splitlines() if line.startswith("ANSWERS "))
    answers: list[str] = json.loads(line.removeprefix("ANSWERS "))
    return answers


def bits(match_id: str) -> str:
    """Return the 72 bits of a Match ID, bit 0 first."""
    key = int.from_bytes(base64.b64decode(match_id), "little")
    return "".join(str(key >> i & 1) for i in range(72))


def assert_same_id(ours: str, theirs: str, where: str) -> None:
    """Compare two Match IDs field by field (decoded) and bit by bit."""
    assert asdict(match_state_from_id(ours)) == asdict(match_state_from_id(theirs)), where
    assert bits(ours) == bits(theirs), where
    assert ours == theirs, where


def opening_game(theirs: str, **kwargs: Any) -> Game:
    """Return our game of short nardy after the opening roll gnubg's id ``theirs`` shows (player 0's die first)."""
    state = match_state_from_id(theirs)
    high, low = state.dice
    game = Game("short", dice=FixedDice([high, low] if state.player_on_roll == 0 else [low, high]), **kwargs)
    game.roll()
    return game


@pytest.mark.parametrize("length", [3, 7])
def test_a_new_match_has_gnubgs_id(length: int) -> None:
    (theirs,) = gnubg_ids(["set seed 11", f"new match {length}", "?"])
    game = opening_game(theirs, match_length=length)
    ours = game.match_id()
    assert_same_id(ours, theirs, f"new match {length}")
    assert bits(ours)[66] == "1"  # "Jacoby off" in every match
    assert gnubg_ids([f"new match {length}", f"set matchid {ours}", "?"]) == [ours]


@pytest.mark.parametrize(("length", "literal"), [(3, "cIluAAAAAAAE"), (7, "cAnzAAAAAAAE")])
def test_the_reported_new_match_ids(length: int, literal: str) -> None:
    """GNU Backgammon's ``new match 3`` after an opening 5-3 and ``new match 7`` after 6-4, player 1 on roll."""
    game = opening_game(literal, match_length=length)
    assert game.match_id() == literal


@pytest.mark.parametrize("jacoby", [True, False])
def test_a_money_game_has_gnubgs_id(jacoby: bool) -> None:
    setting = "on" if jacoby else "off"
    (theirs,) = gnubg_ids(["set seed 5", f"set jacoby {setting}", "new session", "?"])
    game = opening_game(theirs, options=Options(jacoby=jacoby, cube=True))
    assert_same_id(game.match_id(), theirs, f"money, jacoby {setting}")
    assert gnubg_ids([f"set jacoby {setting}", "new session", f"set matchid {game.match_id()}", "?"]) == [
        game.match_id()
    ]


def test_a_match_game_after_moves_and_a_double_has_gnubgs_ids() -> None:
    """A match to 5: the opening move, the other player doubles and the opener takes, a roll of 6-4 and its move,
    a roll of 3-3: our ids and gnubg's at every step; each of ours read back by gnubg as written."""
    (opening,) = gnubg_ids(["set seed 3", "new match 5", "?"])
    state = match_state_from_id(opening)
    high, low = state.dice
    mover = state.player_on_roll
    game = Game("short", match_length=5, dice=FixedDice([*([high, low] if mover == 0 else [low, high]), 6, 4, 3, 3]))
    game.roll()
    ours = [game.match_id()]
    steps = ["set seed 3", "new match 5", "?"]
    first = game.legal_moves()[0].notation
    game.play(first)
    steps += [f"move {first}", "?"]
    ours.append(game.match_id())
    game.double()
    steps += ["double", "?"]
    ours.append(game.match_id())
    game.take()
    steps += ["take", "?"]
    ours.append(game.match_id())
    game.roll()
    steps += ["set dice 6 4", "?"]
    ours.append(game.match_id())
    second = game.legal_moves()[0].notation
    game.play(second)
    steps += [f"move {second}", "?"]
    ours.append(game.match_id())
    game.roll()
    steps += ["set dice 3 3", "?"]
    ours.append(game.match_id())
    assert game.cube_value == 2 and game.cube_owner == mover
    theirs = gnubg_ids(steps)
    assert len(theirs) == len(ours) == 7
    for index, (mine, gnubgs) in enumerate(zip(ours, theirs, strict=True)):
        assert_same_id(mine, gnubgs, f"step {index}: {steps}")
    read_back = gnubg_ids([step for mine in ours for step in ("new match 5", f"set matchid {mine}", "?")])
    for mine, back in zip(ours, read_back, strict=True):
        state = match_state_from_id(mine)
        if state.double_offered:  # gnubg's set matchid drops a pending double (its own id of that moment too)
            state = replace(state, double_offered=False, turn=state.player_on_roll)
        assert match_state_from_id(back) == state, (mine, back)
    assert sum(a == b for a, b in zip(ours, read_back, strict=True)) == 6
