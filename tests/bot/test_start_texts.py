"""/start and /help say how many games the bot offers (the variants of bot.variants, not the kinds of match), in
Russian and English."""

from __future__ import annotations

import pytest

from bot.handlers.start import help_text, welcome_text
from bot.i18n import create_i18n
from bot.texts import tr
from bot.variants import KINDS, OFFERED

COUNT_WORDS = {"en": ("Eleven games", "Eleven games"), "ru": ("одиннадцать игр", "Одиннадцать игр")}


def test_eleven_games_are_offered() -> None:
    assert len(OFFERED) - len(KINDS) == 11


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_start_and_help_say_eleven_games(lang: str) -> None:
    i18n = create_i18n("ru")
    welcome_word, help_word = COUNT_WORDS[lang]
    with i18n.context(), i18n.use_locale(lang):
        welcome = welcome_text("Ann")
        help_ = help_text()
    line = next(line for line in welcome.splitlines() if welcome_word in line)
    assert "/rules" in line and line.startswith("🎲")
    assert help_word in help_
    for variant in ("gulbara", "acey_deucey", "dutch", "plakoto"):  # named as the catalogue names the game
        assert tr(lang, f"variant.{variant}") in help_, variant
