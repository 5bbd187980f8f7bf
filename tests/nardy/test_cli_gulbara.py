"""``python -m nardy moves`` answers whole Gul bara turns: an escalating double (docs/rules.md §6.4) is
four d, four d+1, … four 6, and the CLI used to answer only the plays of the four d — 159 plays of four 5s (20 pips)
where the engine goes on with four 6s (44 pips in all). Every answer is checked against :class:`nardy.Game` itself,
driven part by part over every legal play: the same outcomes (position after the turn, moves handed over), one to
one, and each listed play's parts replay in the engine to that outcome."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from nardy_testkit import pos

from nardy import FixedDice, Game, Options, Phase, Position, get_variant
from nardy.cli import run_moves, whole_turns
from nardy.position import make_side
from nardy.variants.base import Pool

GULBARA = get_variant("gulbara")
# a Gul bara middle game from seeded self-play (seed 20, ply 94; each side in its own frame, 25 counters): 98 plays
# of four 5s, after most of which four 6s follow
MIDDLE = Position(
    (5, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 1, 0, 3, 0, 0, 1, 0),
    (8, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
)
HAND_ME = {24: 14, 7: 1}  # test_gulbara.test_hand_over: 4-4 forced, two 5s and four 6s pass to the opponent
HAND_OPP = {2: 10, 10: 1, 5: 1, 17: 1, 20: 1, 1: 1}


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    out = io.StringIO()
    run_moves([json.dumps(request)], out)
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


def _request(position: Position, dice: tuple[int, int], **extra: Any) -> dict[str, Any]:
    return {"variant": "gulbara", "me": list(position.me), "opp": list(position.opp), "dice": list(dice), **extra}


def _game(position: Position, dice: tuple[int, int], options: Options, turns: int) -> Game:
    """A game at player 0's roll of ``dice`` in ``position``, both players having taken ``turns`` turns."""
    game = Game("gulbara", options=options, dice=FixedDice(list(dice)), first_player=0)
    game.sides = [position.me, position.opp]
    game.turns_taken = [turns, turns]
    game.moves_played = 2 * turns
    game.roll()
    return game


def _copy(game: Game) -> Game:
    return Game.from_dict(game.to_dict(), dice=FixedDice([]))


@pytest.fixture(autouse=True)
def _record_hand_overs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Note on each game the moves the engine hands over (``handed``: ``(die, count)`` per number), as it starts
    playing them: a receiver that cannot play them passes at once, so the state after the play no longer shows them."""
    original = Game._play_pools

    def play_pools(self: Game, pools: list[Pool]) -> None:
        if self.hand_over and not hasattr(self, "handed"):
            self.handed = tuple((p.dice[0], p.count) for p in pools)  # type: ignore[attr-defined]
        original(self, pools)

    monkeypatch.setattr(Game, "_play_pools", play_pools)


def handed(game: Game) -> tuple[tuple[int, int], ...]:
    """Return what the engine handed over to the opponent in ``game`` (see :func:`_record_hand_overs`)."""
    return tuple(getattr(game, "handed", ()))


def engine_outcomes(game: Game) -> dict[tuple[Position, tuple[tuple[int, int], ...]], int]:
    """Drive ``game`` over every legal play of every part of player 0's turn; return each distinct outcome (player
    0's position after the turn, the ``(die, count)`` handed over) with the pips player 0 moved to reach it."""
    start = sum(i * n for i, n in enumerate(game.position_for(0).me[:25], 1))
    outcomes: dict[tuple[Position, tuple[tuple[int, int], ...]], int] = {}
    seen: set[tuple[tuple[int, int] | None, Position]] = set()
    stack = [game]
    while stack:
        here = stack.pop()
        mine = here.position_for(0)
        if here.phase is not Phase.MOVE or here.roller != 0:
            outcomes[mine, handed(here)] = start - sum(i * n for i, n in enumerate(mine.me[:25], 1))
            continue
        if (here.dice, mine) in seen:
            continue
        seen.add((here.dice, mine))
        for move in here.legal_moves():
            after = _copy(here)
            after.play(move)
            stack.append(after)
    return outcomes


def _pips(side: list[int]) -> int:
    return sum(i * n for i, n in enumerate(side[:24], 1))


def test_escalating_5_5_answers_whole_turns_with_the_6s() -> None:
    """The report: 5-5 followed by 6-6. Every listed play moves 20 pips of 5s and then the 6s the engine plays."""
    position = MIDDLE
    answer = _answer(_request(position, (5, 5)))
    engine = engine_outcomes(_game(position, (5, 5), Options(), turns=5))
    listed = {
        (Position(tuple(m["me"]), tuple(m["opp"])), tuple(tuple(p) for p in m["hand_over"])): m for m in answer["moves"]
    }
    assert answer["count"] == len(answer["moves"]) == len(listed) == len(engine)
    assert set(listed) == set(engine)
    for (after, rest), move in listed.items():
        assert [part["dice"] for part in move["parts"]] == [[5, 5], [6, 6]][: len(move["parts"])]
        assert _pips(list(position.me)) - _pips(move["me"]) == engine[after, rest]
    full = [m for m in answer["moves"] if not m["hand_over"]]
    assert full and all(_pips(list(position.me)) - _pips(m["me"]) == 44 for m in full)
    assert answer["count"] == 482 and len(full) == 465  # the four 5s alone have 98 plays


def test_each_listed_turn_replays_in_the_engine() -> None:
    position = MIDDLE
    answer = _answer(_request(position, (5, 5)))
    for move in answer["moves"][::7]:
        game = _game(position, (5, 5), Options(), turns=5)
        for part in move["parts"]:
            assert list(game.dice or ()) == part["dice"]
            if part["move"]:
                game.play(part["move"])
        mine = game.position_for(0)
        assert list(mine.me) == move["me"] and list(mine.opp) == move["opp"]
        assert [list(pair) for pair in handed(game)] == move["hand_over"]


@pytest.mark.parametrize(
    ("position", "dice", "options", "turns"),
    [
        (MIDDLE, (3, 3), Options(), 5),
        (MIDDLE, (4, 4), Options(gulbara_pass_unplayed=False), 5),
        (MIDDLE, (5, 5), Options(), 1),  # a plain turn: four 5s only
        (MIDDLE, (6, 5), Options(), 5),
        (pos(HAND_ME, HAND_OPP), (4, 4), Options(), 5),
        (pos({24: 14, 13: 1}, {6: 1, 19: 1, 24: 13}), (6, 6), Options(), 5),  # all four 6s forfeited: handed over
        (pos({24: 15}, {24: 15}), (4, 4), Options(gulbara_plain_turns=0), 0),  # the first turn, escalating
    ],
)
def test_answers_match_the_engine_one_to_one(
    position: Position, dice: tuple[int, int], options: Options, turns: int
) -> None:
    request = _request(position, dice, options=options.to_dict(), turns_taken=turns, first_turn=turns == 0)
    answer = _answer(request)
    assert "error" not in answer, answer
    engine = engine_outcomes(_game(position, dice, options, turns))
    listed = {
        (Position(tuple(m["me"]), tuple(m["opp"])), tuple(tuple(p) for p in m.get("hand_over", ())))
        for m in answer["moves"]
    }
    assert answer["count"] == len(listed)
    if answer["count"] == 0:  # the whole roll forfeited, nothing handed over
        assert set(engine) == {(position, ())}
    else:
        assert listed == set(engine)


def test_hand_over_test_position_lists_the_moves_passed_on() -> None:
    (turn,) = _answer(_request(pos(HAND_ME, HAND_OPP), (4, 4)))["moves"]
    assert turn["move"] == "24/20/16/12 7/3 | 12/7/2"
    assert turn["parts"] == [{"dice": [4, 4], "move": "24/20/16/12 7/3"}, {"dice": [5, 5], "move": "12/7/2"}]
    assert turn["hand_over"] == [[5, 2], [6, 4]]


def test_a_hand_over_request_plays_the_later_numbers_too() -> None:
    """The receiver of two 5s and four 6s (test_gulbara.test_hand_over, its frame): 10/5, then 17/11/5."""
    receiver = Position(make_side(HAND_OPP), pos(HAND_ME, {}).me)
    after_giver = pos({24: 13, 2: 1, 3: 1}, {})  # the giver after 24/20/16/12 7/3 and 12/7/2
    receiver = Position(receiver.me, after_giver.me)
    (turn,) = _answer(_request(receiver, (5, 5), count=2))["moves"]
    assert turn["parts"] == [{"dice": [5, 5], "move": "10/5"}, {"dice": [6, 6], "move": "17/11/5"}]
    assert turn["hand_over"] == []


def test_whole_turns_of_an_ordinary_roll_are_its_moves() -> None:
    short = get_variant("short")
    turns = whole_turns(short, short.initial_position(), (3, 1))
    assert len(turns) == 16 and all(len(t.parts) == 1 and not t.hand_over for t in turns)


def test_bad_gul_bara_fields_are_refused() -> None:
    position = MIDDLE
    for extra in ({"turns_taken": -1}, {"turns_taken": "3"}, {"turns_taken": 2, "first_turn": True}, {"hand_over": 1}):
        assert "error" in _answer(_request(position, (5, 5), **extra)), extra
    assert "error" in _answer(_request(position, (5, 4), hand_over=True))
    assert "error" in _answer({**_request(position, (5, 5), hand_over=True), "variant": "long"})
