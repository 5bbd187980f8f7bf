"""The board as text for a chat that takes no pictures (:mod:`bot.services.text_boards`): the drawing, the sides and
the whole caption in one message Telegram takes, with the longest captions and names, in every game."""

from __future__ import annotations

import html
from typing import Any

import pytest

from bot.model.game import GameRecord, PlayerInfo
from bot.services.captions import MAX_CAPTION, caption, visible_length
from bot.services.engine_flow import drawn_position
from bot.services.text_boards import MAX_MESSAGE, text_board
from bot.texts import tr
from nardy import FixedDice, Match, Phase, Step
from nardy.textboard import draw_position
from nardy.variants import variant_names
from tests.bot.fake_telegram import check_formatted, telegram_visible_text, utf16_length

LONGEST_NAMES = ["&" * 129, "<" * 129, "😀" * 64, "👨‍👩‍👧" * 21, "Ёжик Вася Пупкин-Задунайский " * 4]
"""Names at Telegram's limits (a first and a last name of 64 characters each), escaped longer or counted double."""


def _record(match: Match, names: tuple[str, str], events: list[Any] | None = None, pending: Any = ()) -> GameRecord:
    return GameRecord(
        match=match.to_dict(),
        players=[PlayerInfo(1, names[0], "en"), PlayerInfo(2, names[1], "ru")],
        chats=[],
        events=events or [],
        pending_steps=list(pending),
    )


def _rolled(variant: str, length: int = 0) -> Match:
    """A match of ``variant`` whose opening roll is played out to the first move (player 0 moves with 6-5)."""
    match = Match(variant, length, dice=FixedDice([6, 5] * 20))
    while match.game.phase is not Phase.MOVE:
        match.game.roll()
    return match


@pytest.mark.parametrize("variant", variant_names())
@pytest.mark.parametrize("name", LONGEST_NAMES, ids=["ampersands", "less-than", "emoji", "zwj-emoji", "cyrillic"])
def test_the_longest_caption_and_names_fit_one_message(variant: str, name: str) -> None:
    match = _rolled(variant, 25)
    events = [{"t": "played", "player": i % 2, "move": "13/7 8/7"} for i in range(60)]
    for lang in ("en", "ru"):
        record = _record(match, (name, name[::-1]), events)
        full_caption = caption(record, match, lang, "AAAAAAAAAA")
        assert visible_length(full_caption) >= MAX_CAPTION - 40  # the caption is as long as it gets
        text = text_board(record, match, lang, "AAAAAAAAAA")
        assert check_formatted(text, "HTML", MAX_MESSAGE) is None  # Telegram takes it
        assert text.endswith(full_caption)  # the whole caption, nothing of the message cut
        shown = telegram_visible_text(text)
        assert utf16_length(shown) == visible_length(text) <= MAX_MESSAGE
        assert text.startswith("<pre>") and "X (to move)" in shown


def test_the_sides_are_named_and_the_roll_drawn() -> None:
    match = _rolled("short")
    roller = match.game.roller
    assert roller == 0  # the opening roll gave player 0 the six
    names = ("Anna", "Boris")
    for lang in ("en", "ru"):
        text = text_board(_record(match, names), match, lang)
        legend = tr(lang, "board.text.legend", mover=names[roller], other=names[1 - roller])
        assert f"</pre>\n{legend}\n\n" in text
        assert "dice: 6-5" in text
    assert "</pre>\nX: Anna · O: Boris\n" in text_board(_record(match, names), match, "ru")


def test_the_turn_being_built_is_drawn_played_out() -> None:
    match = _rolled("short")
    step = match.game.plan().next_steps([])[0]
    record = _record(match, ("Anna", "Boris"), pending=[step])
    after = match.game.plan().position_after([step])
    assert after != match.game.position
    assert drawn_position(record, match) == after
    drawing = html.escape(draw_position(after, "short", dice=(6, 5)))
    assert f"<pre>{drawing}</pre>" in text_board(record, match, "en")


def test_a_turn_the_engine_no_longer_takes_draws_the_position_before_it() -> None:
    match = _rolled("short")
    record = _record(match, ("Anna", "Boris"), pending=[Step(1, 0, 6, False)])  # no such step from the start
    assert drawn_position(record, match) == match.game.position


def test_a_finished_game_is_drawn_without_dice() -> None:
    match = _rolled("long")
    match.game.resign(match.game.turn, match.game.resign_levels()[0])
    match.game.accept_resignation()
    assert match.game.phase is Phase.OVER
    text = text_board(_record(match, ("Anna", "Boris")), match, "en", "AAAAAAAAAA")
    assert "dice:" not in text and "/verify" not in text and "Game over" in telegram_visible_text(text)
