"""The Mini App's link to a tournament's live table on the tournament's keyboards: a ``web_app`` button in private,
a t.me link with ``startapp=t_<id>`` in groups, nothing without a Mini App."""

from __future__ import annotations

from bot.keyboards.tournament import menu_keyboard, registration_keyboard
from bot.keyboards.webapp import WebAppLinks, tournament_button

LINKS = WebAppLinks("https://nardy.example.org/webapp/", "play", bot_username="nardy_bot")


def test_the_button_is_a_web_app_in_private_and_a_startapp_link_in_groups() -> None:
    private = tournament_button(LINKS, "AbCdEfGhIj", "en", private=True)
    assert private is not None and private.web_app is not None
    assert private.web_app.url == "https://nardy.example.org/webapp/?tournament=AbCdEfGhIj"
    assert private.text == "📱 Live table"
    group = tournament_button(LINKS, "AbCdEfGhIj", "ru", private=False)
    assert group is not None and group.url == "https://t.me/nardy_bot/play?startapp=t_AbCdEfGhIj"
    assert group.text == "📱 Таблица в приложении"


def test_no_button_without_a_mini_app_or_a_link_for_groups() -> None:
    assert tournament_button(None, "AbCdEfGhIj", "en", private=True) is None
    unnamed = WebAppLinks("https://nardy.example.org/webapp/")
    assert tournament_button(unnamed, "AbCdEfGhIj", "en", private=False) is None


def test_the_button_rides_on_the_cards_keyboards() -> None:
    button = tournament_button(LINKS, "AbCdEfGhIj", "en", private=False)
    menu = menu_keyboard("AbCdEfGhIj", "en", watch=[("A – B", "0")], app_button=button)
    assert menu.inline_keyboard[2] == [button]
    assert (
        menu_keyboard("AbCdEfGhIj", "en").inline_keyboard
        == menu_keyboard("AbCdEfGhIj", "en", app_button=None).inline_keyboard
    )
    card = registration_keyboard("AbCdEfGhIj", "en", app_button=button)
    assert card.inline_keyboard[-1] == [button]
    assert len(registration_keyboard("AbCdEfGhIj", "en").inline_keyboard) == len(card.inline_keyboard) - 1
