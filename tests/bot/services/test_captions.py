"""The board caption: Telegram HTML within Telegram's caption limit as Telegram counts it, wording per language,
results said once, finished games never "to move"."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.model.game import GameRecord, PlayerInfo
from bot.services.captions import MAX_CAPTION, caption, cut_caption, result_text, visible_length
from bot.texts import tr
from nardy import FixedDice, Match, Phase
from tests.bot.fake_telegram import check_formatted, telegram_html_error, telegram_visible_text, utf16_length


def _record(match: Match, names: tuple[str, str] = ("Alice", "Bob"), events: list[Any] | None = None) -> GameRecord:
    return GameRecord(
        match=match.to_dict(),
        players=[PlayerInfo(1, names[0], "en"), PlayerInfo(2, names[1], "ru")],
        chats=[],
        events=events or [],
    )


def _rolled(d1: int, d2: int) -> Match:
    """A match whose opening roll gave player 0 ``d1`` and player 1 ``d2`` (d1 > d2: player 0 moves with it)."""
    match = Match("short", dice=FixedDice([d1, d2]))
    match.game.roll()
    assert match.game.phase is Phase.MOVE and match.game.dice is not None
    return match


def test_english_names_the_roll_in_english_and_russian_in_persian_russian() -> None:
    """English captions showed the dice names in Cyrillic only ("шешу беш")."""
    match = _rolled(6, 5)
    english = caption(_record(match), match, "en")
    russian = caption(_record(match), match, "ru")
    assert "Alice rolled 6-5" in english and not re.search("[а-яё]", english)
    assert tr("ru", "roll.named", name="Alice", d1=6, d2=5, dname="шеш-беш") in russian


def test_match_winner_score_first_and_no_turn_on_a_finished_game() -> None:
    """ "Bob выигрывает матч 0 – 3!" put the winner's score second; the final board still said "to move"."""
    match = Match("short", 3, dice=FixedDice([6, 5]))
    match.game.roll()
    match.score = (0, 2)
    match.game.score = (0, 2)
    match.game.resign(0, "gammon")
    match.game.accept_resignation()
    assert match.game.phase is Phase.OVER
    for lang in ("en", "ru"):
        text = caption(_record(match), match, lang)  # no "over" event: the result comes from the game
        assert tr(lang, "match.over", name="Bob", won=4, lost=0) in text, text
        assert tr(lang, "turn.move", name="Bob") not in text and tr(lang, "turn.move", name="Alice") not in text
        assert "rolled" not in text
    english = caption(_record(match), match, "en")
    assert "Game over: Alice resigned; Bob wins a gammon, 2 points." in english
    assert english.count("Game over") == 1


@pytest.mark.parametrize(
    ("reason", "kind", "english"),
    [
        ("drop", "drop", "Game over: Alice passed the double; Bob wins 2 points."),
        ("resign", "single", "Game over: Alice resigned; Bob wins a single game, 2 points."),
        ("abandon", "single", "Game over: Alice ran out of time; Bob wins 2 points."),
        ("bearoff", "backgammon", "Game over: Bob wins a backgammon, 2 points."),
    ],
)
def test_result_line_says_it_once(reason: str, kind: str, english: str) -> None:
    """The result line repeated itself: "(passed) … (double passed)"."""
    event = {"t": "over", "winner": 1, "kind": kind, "points": 2.0, "reason": reason}
    assert result_text("en", ["Alice", "Bob"], event) == english
    russian = result_text("ru", ["Alice", "Bob"], event)
    assert russian.count("Партия окончена") == 1 and "(" not in russian and "2 очка" in russian
    for text in (english, russian):
        words = re.findall(r"\w+", text)
        repeated = {w for w in words if len(w) > 3 and words.count(w) > 1}
        assert not repeated, text


def test_played_events_are_announced() -> None:
    match = _rolled(6, 5)
    events = [{"t": "played", "player": 1, "move": "13/7 8/7"}, {"t": "auto", "player": 0, "move": "24/18"}]
    text = caption(_record(match, events=events), match, "en")
    assert "Bob played 13/7 8/7" in text and "Alice played 24/18" in text


def _long_record(names: tuple[str, str]) -> tuple[GameRecord, Match]:
    match = _rolled(6, 5)
    events = [{"t": "played", "player": i % 2, "move": "13/7 8/7"} for i in range(60)]
    return _record(match, names, events), match


@pytest.mark.parametrize(
    "name",
    ['"' * 32, "&" * 32, "<" * 32, "😀" * 16, "Ёжик Вася Пупкин-Задунайский 12", "👨‍👩‍👧" * 6],
    ids=["quotes", "ampersands", "less-than", "emoji", "cyrillic", "zwj-emoji"],
)
def test_long_captions_are_cut_by_what_telegram_counts(name: str) -> None:
    """32 quotes in a name cut the caption to 240 visible characters: it was cut by raw HTML length."""
    record, match = _long_record((name, name))
    text = caption(record, match, "en")
    assert check_formatted(text, "HTML", 1024) is None  # Telegram takes it
    shown = telegram_visible_text(text)
    assert utf16_length(shown) == visible_length(text) <= MAX_CAPTION
    assert utf16_length(shown) >= MAX_CAPTION - 40  # nearly all the room is used
    assert shown.endswith("…")


@given(st.text(max_size=60), st.integers(10, 300))
def test_cut_caption_never_breaks_markup(user_text: str, limit: int) -> None:
    text = "<b>" + html.escape(user_text, quote=False) + "</b>\n" + html.escape(user_text * 5, quote=False)
    cut = cut_caption(text, limit)
    assert telegram_html_error(cut) is None
    assert visible_length(cut) <= limit
    assert utf16_length(telegram_visible_text(cut)) == visible_length(cut)
    if visible_length(text) <= limit:
        assert cut == text


def test_the_caption_names_the_commitment_at_the_start_and_verify_and_export_at_the_end() -> None:
    from bot.services.engine_flow import new_fair_seeds, system_dice
    from nardy import FairDice, Match, Phase

    seeds = new_fair_seeds(system_dice, "AAAAAAAAAA", [1, 2])
    assert seeds is not None
    match = Match("short", 1, dice=FairDice(seeds.server_seed, seeds.client_seed))
    match.game.roll()
    record = _record(match)
    record.fairness = seeds
    start = caption(record, match, "en", "AAAAAAAAAA")
    assert seeds.commitment in start and "/verify AAAAAAAAAA" in start and seeds.server_seed not in start
    assert seeds.commitment not in caption(record, match, "en")  # without the id: nothing to point to
    match.game.play(match.game.plan().moves()[0])
    record.match = match.to_dict()
    assert seeds.commitment not in caption(record, match, "en", "AAAAAAAAAA")  # only until the first move
    match.game.abandon(match.game.turn)
    assert match.game.phase is Phase.OVER
    record.match = match.to_dict()
    end = caption(record, match, "ru", "AAAAAAAAAA")
    assert "/verify AAAAAAAAAA" in end and "/export AAAAAAAAAA" in end and seeds.server_seed not in end
