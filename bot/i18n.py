"""Languages of the bot: the gettext catalogues in ``bot/locales`` and the choice of a user's language.

Source strings (msgids) are English; ``bot/locales/{ru,en}/LC_MESSAGES/messages.po`` translate them. After
changing strings, re-extract and compile (from the repository root)::

    pybabel extract -k _ -k __ -k gettext_noop -o bot/locales/messages.pot bot
    pybabel update -i bot/locales/messages.pot -d bot/locales -D messages
    # translate the new entries in bot/locales/*/LC_MESSAGES/messages.po, then:
    pybabel compile -d bot/locales -D messages

Both the ``.po`` and the compiled ``.mo`` files are committed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from aiogram.utils.i18n import I18n

LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"
"""Directory with ``<lang>/LC_MESSAGES/messages.mo``."""
DOMAIN: Final = "messages"
SUPPORTED_LANGUAGES: Final[tuple[str, ...]] = ("ru", "en")
"""Languages the bot speaks, in the order the /lang keyboard shows them."""
LANGUAGE_NAMES: Final[dict[str, str]] = {"ru": "Русский", "en": "English"}
"""Each language's name in itself (never translated)."""


def gettext_noop(message: str) -> str:
    """Return ``message`` unchanged; marks a constant for extraction, to be translated later with gettext."""
    return message


def create_i18n(default_language: str = "ru") -> I18n:
    """Return an aiogram ``I18n`` over the bot's compiled catalogues.

    Raises: RuntimeError (from aiogram) when a ``.po`` file has no compiled ``.mo`` next to it.
    """
    return I18n(path=LOCALES_DIR, default_locale=default_language, domain=DOMAIN)


RUSSIAN_READERS: Final[frozenset[str]] = frozenset({"ru", "uk", "be", "kk", "ky", "uz", "tg", "hy", "az", "tt"})
"""Telegram language codes whose users get Russian; every other known code gets English."""
_LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}$")


def normalize_language(code: str | None) -> str | None:
    """Return the language to speak for a Telegram ``language_code`` (``ru``, ``en-GB``, ``pt-br`` …): ``ru`` for
    Russian-reading users (:data:`RUSSIAN_READERS`), ``en`` for any other known code, None when the code is
    missing or is not a language code (the caller then uses ``DEFAULT_LANGUAGE``). This is the bot's one rule."""
    if not code:
        return None
    base = code.replace("_", "-").split("-", 1)[0].lower()
    if base in RUSSIAN_READERS:
        return "ru"
    if _LANGUAGE_CODE.match(base):
        return "en"
    return None


def choose_language(stored: object, telegram_code: str | None, default: str) -> str:
    """Return the language to speak to a user: the stored choice (from /lang) if supported, else the
    language of the Telegram code (:func:`normalize_language`), else ``default`` (``DEFAULT_LANGUAGE``)."""
    if isinstance(stored, str) and stored in SUPPORTED_LANGUAGES:
        return stored
    return normalize_language(telegram_code) or default
