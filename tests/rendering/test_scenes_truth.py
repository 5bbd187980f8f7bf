"""The gallery's board scenes are a golden set, so each must be a true moment of a game: its last move a legal turn
of the player who made it (for some roll), its steps in progress a part of a legal turn of the mover with the dice
shown, its crowned winner a player who has borne off. Checked against the engine, not by reading the scenes."""

from __future__ import annotations

from collections import Counter

import pytest
from render_helpers import Drawn, drawn_boards

from nardy.move import RESERVE_POINT, Step
from nardy.movegen import legal_moves
from nardy.position import PINNED_OFFSET, Position
from nardy.variants import get_variant
from rendering.frames import other_frame, variant_info

BOARDS = drawn_boards()


def undo(position: Position, steps: tuple[Step, ...], variant: str) -> Position:
    """Return the position (the maker's frame) before the maker played ``steps`` to reach ``position``."""
    info = variant_info(variant)
    me, opp = list(position.me), list(position.opp)
    for step in reversed(steps):
        if step.dst != 0:
            assert me[step.dst - 1] > 0, f"no checker on {step.dst} to take back"
            me[step.dst - 1] -= 1
        me[{25: 24, RESERVE_POINT: 25}.get(step.src, step.src - 1)] += 1
        if step.hit:
            victim = other_frame(step.dst, info.board)
            if info.layout == "pinned":
                flag = PINNED_OFFSET + victim - 1
                assert opp[flag] == 1, f"no pinned checker under {step.dst}"
                opp[flag] = 0
            else:
                assert opp[24] > 0, "no hit checker on the bar"
                opp[24] -= 1
            opp[victim - 1] += 1
    return Position(tuple(me), tuple(opp))


def rolls_of(steps: tuple[Step, ...]) -> list[tuple[int, int]]:
    """Return the rolls that could have given ``steps``: their two dice, or each die with every other value."""
    dies = sorted({step.die for step in steps})
    if len(dies) == 2:
        return [(dies[0], dies[1])]
    die = dies[0]
    return [(die, other) for other in range(1, 7)]


def is_legal_turn(before: Position, after: Position, steps: tuple[Step, ...], variant: str) -> bool:
    for roll in rolls_of(steps):
        for first_turn in (False, True):
            for move in legal_moves(variant, before, roll, first_turn=first_turn):
                if move.position == after and Counter(move.steps) == Counter(steps):
                    return True
    return False


def in_maker_frame(board: Drawn, maker: int) -> Position:
    mover = board.options.get("mover", 0)
    position = board.position
    return position if maker == mover else Position(position.opp, position.me)


WITH_LAST_MOVE = [b for b in BOARDS if b.options.get("last_move")]
WITH_PENDING = [b for b in BOARDS if b.options.get("pending_steps")]
FINISHED = [b for b in BOARDS if b.options.get("winner") is not None]


def test_the_scenes_show_last_moves_steps_in_progress_and_winners() -> None:
    assert len(WITH_LAST_MOVE) >= 8
    assert len(WITH_PENDING) >= 5
    assert {b.scene for b in FINISHED} >= {"short_finished"}


@pytest.mark.parametrize("board", WITH_LAST_MOVE, ids=[b.scene for b in WITH_LAST_MOVE])
def test_a_scene_s_last_move_is_a_legal_turn(board: Drawn) -> None:
    mover = board.options.get("mover", 0)
    maker = board.options.get("last_move_player")
    maker = 1 - mover if maker is None else maker
    steps = tuple(board.options["last_move"])
    drawn = board
    if board.options.get("pending_steps"):  # the mover's steps in progress taken back first
        taken_back = undo(board.position, board.options["pending_steps"], board.variant)
        drawn = Drawn(board.scene, taken_back, board.variant, {"mover": mover})
    after = in_maker_frame(drawn, maker)
    before = undo(after, steps, board.variant)
    get_variant(board.variant).validate(before)
    assert is_legal_turn(before, after, steps, board.variant), f"{board.scene}: {steps} is not a legal turn"


@pytest.mark.parametrize("board", WITH_PENDING, ids=[b.scene for b in WITH_PENDING])
def test_a_scene_s_steps_in_progress_are_part_of_a_legal_turn_with_its_dice(board: Drawn) -> None:
    steps = tuple(board.options["pending_steps"])
    dice = board.options["dice"]
    before = undo(board.position, steps, board.variant)
    get_variant(board.variant).validate(before)
    turns = legal_moves(board.variant, before, dice) + legal_moves(board.variant, before, dice, first_turn=True)
    assert any(not Counter(steps) - Counter(move.steps) for move in turns), f"{board.scene}: {steps} with {dice}"
    assert sorted(board.options.get("used_dice", [])) in ([], sorted(step.die for step in steps))


@pytest.mark.parametrize("board", FINISHED, ids=[b.scene for b in FINISHED])
def test_a_crowned_player_has_won(board: Drawn) -> None:
    winner = board.options["winner"]
    variant = get_variant(board.variant)
    side = in_maker_frame(board, winner).me
    loser = in_maker_frame(board, winner).opp
    if board.options.get("last_move"):
        assert board.options.get("last_move_player") == winner, f"{board.scene}: the last move is the loser's"
    assert variant.borne_off(side) == variant.checkers, f"{board.scene}: the crowned player has not borne off"
    assert variant.borne_off(loser) < variant.checkers
