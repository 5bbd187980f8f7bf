"""Unit tests of the game service's pure parts: automatic actions, step actions, /new arguments, captions."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.handlers.challenge import parse_new_args
from bot.keyboards.game import step_label
from bot.model.actions import StepAction, parse_action
from bot.model.game import GameRecord, PlayerInfo
from bot.services.captions import caption
from bot.services.engine_flow import advance, match_finished
from bot.texts import norm_lang, tr
from nardy import FixedDice, Match, Phase, SeededDice, Step


def _record(match: Match, confirm: bool = False) -> GameRecord:
    return GameRecord(
        match=match.to_dict(),
        players=[PlayerInfo(1, "A<b>", "en"), PlayerInfo(2, "B", "ru")],
        chats=[],
        confirm=confirm,
    )


def test_step_actions_round_trip() -> None:
    for step in (Step(13, 7, 6, False), Step(25, 22, 3, True), Step(6, 0, 6, False)):
        assert parse_action(StepAction.of(step).pack()) == StepAction(step.src, step.dst, step.die)
    assert parse_action("s13-7-9") is None
    assert not isinstance(parse_action("roll"), StepAction)
    assert step_label(Step(25, 22, 3, True)) == "bar→22*"
    assert step_label(Step(6, 0, 6, False)) == "6→off"


def test_parse_new_args() -> None:
    assert parse_new_args(None) == ("short", 0)
    assert parse_new_args("long match 5") == ("long", 5)
    assert parse_new_args("матч 999", "long") == ("long", 25)
    assert parse_new_args("x" * 1000) == ("short", 0)


def test_languages() -> None:
    assert norm_lang("en-GB") == "en" and norm_lang("uk") == "ru" and norm_lang(None) == "ru"
    assert tr("en", "toast.not_turn") == "It is not your turn."
    assert tr("ru", "toast.not_turn") == "Сейчас не ваш ход."
    assert tr("de", "no.such.key") == "no.such.key"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(["short", "long"]))
def test_advance_stops_only_where_a_player_decides(seed: int, variant: str) -> None:
    match = Match(variant, dice=SeededDice(seed))
    record = _record(match)
    for _ in range(400):
        events: list[dict[str, Any]] = []
        advance(match, record, events)
        game = match.game
        if game.phase is Phase.OVER:
            assert match_finished(match)
            break
        assert game.phase in (Phase.MOVE, Phase.ROLL, Phase.DOUBLED)
        if game.phase is Phase.ROLL:
            assert game.can_double()
            game.roll()
            continue
        if game.phase is Phase.DOUBLED:
            game.take()
            continue
        pending = record.pending_steps
        options = game.plan().next_steps(pending)
        assert len(options) >= 2 or len(game.legal_moves()) > 1
        record.pending_steps.append(options[0])
        text = caption(record, match, "en")
        assert len(text) <= 1000 and "A&lt;b&gt;" in text
    else:
        raise AssertionError("the game did not end")


def test_forfeit_is_announced() -> None:
    # short nardy: player 1 closed out on the bar would need a prepared position; use the caption of a forfeit event
    match = Match("short", dice=FixedDice([6, 5] * 10))
    record = _record(match)
    record.events = [{"t": "forfeit", "player": 1, "dice": [6, 6]}]
    assert "B cannot move with 6-6: the roll is forfeited" in caption(record, match, "en")


def test_duplicate_step_labels_show_the_die() -> None:
    from bot.keyboards.game import game_keyboard

    match = Match("short", dice=SeededDice(3))
    record = _record(match)
    advance(match, record, [])
    game = match.game
    options = [Step(3, 0, 4, False), Step(3, 0, 5, False), Step(13, 7, 6, False)]
    keyboard = game_keyboard(game, "A" * 10, 2, "en", options=options, pending=[], complete=False, next_cube=2)
    assert keyboard is not None
    texts = [b.text for row in keyboard.inline_keyboard for b in row]
    if game.phase is Phase.MOVE:
        assert texts[:3] == ["3→off (4)", "3→off (5)", "13→7"]
