"""The command line: moves (JSON lines), show, play."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

from nardy.cli import main, play, run_moves, show

OPENING = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
HEAD = [0] * 23 + [15, 0]


def _answers(*requests: object) -> list[dict[str, object]]:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    out = io.StringIO()
    run_moves(lines, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_moves_answers_each_line_in_order_and_survives_bad_requests() -> None:
    answers = _answers(
        {"variant": "short", "me": OPENING, "opp": OPENING, "dice": [3, 1]},
        "not json",
        {"variant": "long", "me": HEAD, "opp": HEAD, "dice": [6, 6], "first_turn": True},
        {"variant": "short", "position_id": "4HPwATDgc/ABMA", "dice": [6, 5]},
        {"variant": "chess", "me": OPENING, "opp": OPENING, "dice": [1, 2]},
        {"variant": "short", "me": OPENING, "opp": OPENING, "dice": [0, 7]},
        {"variant": "short", "me": OPENING, "opp": OPENING, "dice": [3, 1], "options": {"nope": 1}},
    )
    assert answers[0]["count"] == 16
    assert any(m["move"] == "8/5 6/5" for m in answers[0]["moves"])  # type: ignore[union-attr]
    assert "error" in answers[1]
    assert answers[2] == {
        "count": 1,
        "moves": [{"move": "24/18(2)", "me": [0] * 17 + [2] + [0] * 5 + [13, 0], "opp": HEAD}],
    }
    assert answers[3]["count"] == 7  # GNU Backgammon lists 7 plays of an opening 6-5
    assert all("error" in a for a in answers[4:])


def test_forfeit_gives_zero_moves() -> None:
    me = [0] * 24 + [2]
    me[12] = 13
    closed = [2, 2, 2, 2, 2, 2, 0, 3] + [0] * 17
    (answer,) = _answers({"variant": "short", "me": me, "opp": closed, "dice": [6, 5]})
    assert answer == {"count": 0, "moves": []}


def test_show_draws_points_and_checkers() -> None:
    text = show("4HPwATDgc/ABMA", None)
    assert "24" in text and "X5" in text and "O5" in text and "pips 167" in text
    assert "X15" in show(json.dumps({"variant": "long", "me": HEAD, "opp": HEAD}), None)
    assert main(["show", "not-an-id"]) == 2


def test_play_lists_moves_plays_a_typed_move_and_quits() -> None:
    lines: list[str] = []
    typed = iter(["moves", "8/5 6/5", "24/23 24/20", "quit"])
    game = play("short", computer=None, seed=11, read=lambda _: next(typed), write=lines.append)
    assert any(line.startswith("Legal: ") for line in lines)
    assert game.result is not None and game.result.reason == "abandon"
    assert any("Game over" in line for line in lines)


def test_play_against_the_computer() -> None:
    lines: list[str] = []
    game = play("long", computer=0, seed=7, read=lambda _: "quit", write=lines.append)
    assert game.result is not None
    assert any("Computer plays" in line for line in lines) or game.roller == 1


EMPTY = [0] * 25


def test_moves_of_a_variant_with_a_reserve_take_the_reserve_field() -> None:
    (answer,) = _answers({"variant": "acey_deucey", "me": EMPTY, "opp": EMPTY, "reserve": [15, 15], "dice": [6, 5]})
    notations = {m["move"] for m in answer["moves"]}  # type: ignore[union-attr]
    assert notations == {"in/20 in/19", "in/19/14"}  # entering with both dice, or one checker entered and moved on
    first = answer["moves"][0]  # type: ignore[index]
    assert len(first["me"]) == 25 and sum(first["reserve"]) in (28, 29)
    # the whole 26-entry side is accepted too, and the reserve defaults to empty
    side = [*EMPTY, 15]
    (same,) = _answers({"variant": "acey_deucey", "me": side, "opp": side, "dice": [6, 5]})
    assert same == answer
    (bad,) = _answers({"variant": "dutch", "me": EMPTY, "opp": EMPTY, "reserve": [16, 0], "dice": [6, 5]})
    assert "error" in bad


def test_moves_of_plakoto_take_the_pinned_field() -> None:
    me = [0] * 25
    me[23], me[12] = 14, 1  # 14 on my 24, one on 13 pinned there by the opponent
    opp = [0] * 25
    opp[23], opp[11] = 13, 2  # the opponent's 12 is my 13: two checkers pin mine
    request = {"variant": "plakoto", "me": me, "opp": opp, "pinned": {"me": [13], "opp": []}, "dice": [6, 1]}
    me[12] = 0  # a pinned checker is in the pinned field only, not among the free counts
    (answer,) = _answers({**request, "me": me})
    assert answer["count"] > 0
    assert all(m["pinned"]["me"] == [13] for m in answer["moves"])  # type: ignore[index,union-attr]
    assert all(not m["move"].startswith("13/") for m in answer["moves"])  # type: ignore[union-attr]


def test_moves_of_a_gul_bara_hand_over_take_the_count() -> None:
    """Whole turns (tests/nardy/test_cli_gulbara.py checks them against the engine): a hand-over of two 5s goes on
    with the four 6s; an escalating 5-5 after the plain turns with four 6s (here one head checker per turn leaves
    the 6s little to do, and what is left of them passes to the opponent); within the plain turns four 5s only."""
    side = [0] * 25
    side[23], side[5] = 14, 1
    (two,) = _answers({"variant": "gulbara", "me": side, "opp": side, "dice": [5, 5], "count": 2})
    assert [m["move"] for m in two["moves"]] == ["24/19 6/1 | 19/13/7/1", "24/19/14 | 14/8/2"]  # type: ignore[union-attr]
    assert two["moves"][0]["parts"] == [  # type: ignore[index]
        {"dice": [5, 5], "move": "24/19 6/1"},
        {"dice": [6, 6], "move": "19/13/7/1"},
    ]
    (four,) = _answers({"variant": "gulbara", "me": side, "opp": side, "dice": [5, 5]})
    assert [(m["move"], m["hand_over"]) for m in four["moves"]] == [  # type: ignore[union-attr]
        ("24/19/14/9 6/1 | 9/3", [[6, 3]]),
        ("24/19/14/9/4", [[6, 4]]),
    ]
    (plain,) = _answers({"variant": "gulbara", "me": side, "opp": side, "dice": [5, 5], "turns_taken": 2})
    assert [m["move"] for m in plain["moves"]] == ["24/19/14/9 6/1", "24/19/14/9/4"]  # type: ignore[union-attr]
    assert all("parts" not in m for m in plain["moves"])  # type: ignore[union-attr]
    (bad,) = _answers({"variant": "gulbara", "me": side, "opp": side, "dice": [5, 4], "count": 2})
    assert "error" in bad


def test_show_and_play_work_for_every_variant() -> None:
    from nardy.variants import registered_variants

    for variant in registered_variants():
        position = variant.initial_position()
        from nardy.ids import variant_position_id

        assert show(variant_position_id(variant.name, position), variant.name)
        lines: list[str] = []
        answers = iter(["moves", "1", "quit"])

        def read(_prompt: str, answers: Iterator[str] = answers) -> str:
            return next(answers)

        game = play(variant.name, computer=1, seed=5, read=read, write=lines.append)
        assert game.phase.value == "over" and game.result is not None, variant.name
        assert any(line.startswith("Legal:") for line in lines), (variant.name, lines)
