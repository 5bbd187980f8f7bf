"""The lobby's "seeking…" keyboard: Cancel, and the Mini App's Play screen when the operator set the app up."""

from __future__ import annotations

from bot.keyboards.callbacks import LobbyCb
from bot.keyboards.lobby import seeking_keyboard
from bot.keyboards.webapp import WebAppLinks, play_button

LINKS = WebAppLinks("https://nardy.example.org/webapp/", "play", bot_username="nardy_bot")


def test_seeking_keyboard_without_the_app_has_cancel_alone() -> None:
    keyboard = seeking_keyboard("en", play_button(None, "en", private=True))
    assert len(keyboard.inline_keyboard) == 1
    (cancel,) = keyboard.inline_keyboard[0]
    assert cancel.callback_data == LobbyCb(action="cancel").pack()


def test_seeking_keyboard_with_the_app_opens_the_play_screen_in_a_private_chat() -> None:
    keyboard = seeking_keyboard("ru", play_button(LINKS, "ru", private=True))
    assert [len(row) for row in keyboard.inline_keyboard] == [1, 1]
    app = keyboard.inline_keyboard[1][0]
    assert app.web_app is not None
    assert app.web_app.url == LINKS.play_url()
    assert app.text == "🎲 Играть"
