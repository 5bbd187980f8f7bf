"""Expected texts of the end-to-end tests, taken from the bot's catalogue (:func:`bot.texts.tr`) rather than written
out, so that editing a translation does not break a test.

The fake Bot API keeps a message's ``content`` as Telegram shows it (tags removed, entities decoded), and a button's
or a toast's text as it was sent; :func:`shown` turns a catalogue entry into that same visible text. Where a test
cannot know every value of an entry (who won, by how many points), :func:`has_entry` looks for the entry with any
values.
"""

from __future__ import annotations

import re
import string
from typing import Final

from bot.i18n import Message, Plural
from bot.texts import TEXTS, esc, tr, translate
from tests.bot.fake_telegram import telegram_visible_text

EN: Final = "en"
RU: Final = "ru"

GAME_OVER: Final = ("over", "over.resign", "over.drop", "over.abandon", "over.draw", "over.mother")
"""The entries that can open the caption line of a finished game."""

TURN_KEYS: Final = ("turn.move", "turn.roll", "turn.thinking")
"""The entries of the caption line saying whose action is awaited."""


def shown(lang: str, key: str, **kwargs: object) -> str:
    """Return the catalogue text ``key`` in ``lang`` formatted with ``kwargs`` as a user sees it (HTML tags removed,
    entities decoded): what a message's ``content``, a button's label or a toast equals when the bot sent exactly
    that entry. Values that are themselves entries are given as ``tr(...)`` results (e.g. ``level=tr(lang,
    "kind.single")``), as the bot does."""
    return telegram_visible_text(tr(lang, key, **kwargs))


def shown_message(lang: str, message: Message) -> str:
    """Return a gettext message that is not a :func:`bot.texts.tr` key (such as the error middleware's apology) in
    ``lang`` as a user sees it."""
    return telegram_visible_text(translate(lang, message))


def resign_button(lang: str, kind: str = "single") -> str:
    """Return the label of the resignation menu's button for ``kind`` ("single", "gammon", "backgammon", …)."""
    return shown(lang, "btn.resign", level=tr(lang, f"kind.{kind}"))


def entry_pattern(lang: str, key: str, **kwargs: object) -> re.Pattern[str]:
    """Return a pattern finding the catalogue text ``key`` in ``lang`` in a message's content: the placeholders
    given in ``kwargs`` stand for their shown value, every other one for any text within a line; a text with plural
    forms matches each of its forms. Raises: KeyError for an unknown key."""
    message = TEXTS[key]
    counts = (1, 2, 5) if isinstance(message, Plural) else (1,)
    forms = {translate(lang, message, {message.quantity: n} if isinstance(message, Plural) else None) for n in counts}
    return re.compile("|".join(f"(?:{_form_pattern(form, kwargs)})" for form in sorted(forms)))


def _form_pattern(form: str, values: dict[str, object]) -> str:
    """Return the regular expression of one translated form (see :func:`entry_pattern`)."""
    parts: list[str] = []
    for literal, name, _, _ in string.Formatter().parse(form):
        parts.append(re.escape(literal))
        if name is None:
            continue
        if name in values:
            parts.append(re.escape(telegram_visible_text(esc(values[name]))))
        else:
            parts.append(r"[^\n]*?")
    return "".join(parts)


def has_entry(content: str, lang: str, *keys: str, **kwargs: object) -> bool:
    """Return whether ``content`` shows one of the catalogue texts ``keys`` in ``lang`` (see :func:`entry_pattern`
    for ``kwargs``)."""
    return any(entry_pattern(lang, key, **kwargs).search(content) for key in keys)


def opens_with(content: str, lang: str, *keys: str, **kwargs: object) -> bool:
    """Return whether ``content`` begins with one of the catalogue texts ``keys`` in ``lang`` (see
    :func:`entry_pattern` for ``kwargs``)."""
    return any(entry_pattern(lang, key, **kwargs).match(content) for key in keys)


def entry_lines(content: str, lang: str, *keys: str, **kwargs: object) -> list[str]:
    """Return the lines of ``content`` that are wholly one of the catalogue texts ``keys`` in ``lang``."""
    patterns = [entry_pattern(lang, key, **kwargs) for key in keys]
    return [line for line in content.splitlines() if any(p.fullmatch(line) for p in patterns)]


__all__ = [
    "EN",
    "GAME_OVER",
    "RU",
    "TURN_KEYS",
    "entry_lines",
    "entry_pattern",
    "has_entry",
    "opens_with",
    "resign_button",
    "shown",
]
