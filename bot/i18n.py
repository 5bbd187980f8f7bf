"""Languages of the bot: the gettext catalogues in ``bot/locales`` and the choice of a user's language.

Source strings (msgids) are English and live only in the code (marked with ``_``, :func:`gettext_noop`,
:func:`ngettext_noop` or :func:`pgettext_noop`); ``bot/locales/{ru,en}/LC_MESSAGES/messages.po`` are the only
place a translation lives. After changing strings run ``python scripts/update-catalogues.py`` (extract, update,
compile, check), translate what it lists in both ``.po`` files, and run it again.

Both the ``.po`` and the compiled ``.mo`` files are committed.
"""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Final, NamedTuple

from aiogram.utils.i18n import I18n
from babel.messages.extract import DEFAULT_KEYWORDS

LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"
"""Directory with ``<lang>/LC_MESSAGES/messages.mo``."""
DOMAIN: Final = "messages"
SUPPORTED_LANGUAGES: Final[tuple[str, ...]] = ("ru", "en")
"""Languages the bot speaks, in the order the /lang keyboard shows them."""
LANGUAGE_NAMES: Final[dict[str, str]] = {"ru": "Русский", "en": "English"}
"""Each language's name in itself (never translated)."""


EXTRACTION_KEYWORDS: Final[tuple[str, ...]] = ("_", "__", "gettext_noop", "ngettext_noop:2,3", "pgettext_noop:1c,2")
"""The ``pybabel extract -k`` keywords that find every message of the bot."""


class Plural(NamedTuple):
    """A message with plural forms: ``quantity`` names the placeholder whose value chooses the form."""

    quantity: str
    singular: str
    plural: str


class Contextual(NamedTuple):
    """A message with a gettext context (``msgctxt``): the same English in two roles (a button, a sentence)."""

    context: str
    message: str


Message = str | Plural | Contextual
"""A message id as the code holds it: plain English, English with plural forms, or English in a context."""


def gettext_noop(message: str) -> str:
    """Return ``message`` unchanged; marks a constant for extraction, to be translated later with gettext."""
    return message


def ngettext_noop(quantity: str, singular: str, plural: str) -> Plural:
    """Return a :class:`Plural` message (marked for extraction): its form is chosen by the value of the placeholder
    named ``quantity``."""
    return Plural(quantity, singular, plural)


def pgettext_noop(context: str, message: str) -> Contextual:
    """Return a :class:`Contextual` message (marked for extraction with ``msgctxt`` ``context``)."""
    return Contextual(context, message)


def extract_messages() -> dict[tuple[str, str | None], tuple[str, ...]]:
    """Return every message the code of ``bot/`` marks for translation, as Babel extracts it:
    ``{(msgid, msgctxt): (msgid, plural msgid?)}`` (the plural id only for a message with plural forms)."""
    from babel.messages.extract import extract_from_dir

    keywords = dict(DEFAULT_KEYWORDS)
    for spec in EXTRACTION_KEYWORDS:
        name, _, indices = spec.partition(":")
        keywords[name] = _keyword_spec(indices) if indices else None
    found: dict[tuple[str, str | None], tuple[str, ...]] = {}
    root = LOCALES_DIR.parent
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        root, method_map=[("**.py", "python")], keywords=keywords
    ):
        ids = (message,) if isinstance(message, str) else tuple(m for m in message if m)
        found[(ids[0], context)] = ids
    return found


def catalogue_problems(lang: str, locales: Path = LOCALES_DIR) -> list[str]:
    """Return what is wrong with the ``lang`` catalogue (``messages.po`` under ``locales``) against the code: a
    message the code marks that is missing, untranslated (an empty form) or fuzzy, or whose placeholders differ from
    the English. Empty when every message is translated."""
    from babel.messages.pofile import read_po

    with (locales / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file, locale=lang)
    problems: list[str] = []
    for (msgid, context), ids in extract_messages().items():
        entry = catalog.get(msgid, context=context)
        where = f"{lang}: {msgid!r}" + (f" (context {context!r})" if context else "")
        if entry is None:
            problems.append(f"{where}: missing")
            continue
        forms = [
            str(form or "") for form in (entry.string if isinstance(entry.string, (list, tuple)) else [entry.string])
        ]
        if len(ids) > 1 and len(forms) != catalog.num_plurals:
            problems.append(f"{where}: {len(forms)} plural forms, {catalog.num_plurals} expected")
        if entry.fuzzy or not all(forms):
            problems.append(f"{where}: untranslated or fuzzy")
            continue
        expected = placeholders(ids[-1])
        for form in forms:
            if placeholders(form) != expected:
                problems.append(f"{where}: placeholders {sorted(placeholders(form))} != {sorted(expected)}")
    return problems


def placeholders(text: str) -> set[str]:
    """Return the names of the ``str.format`` placeholders of ``text`` (``{name}`` → ``name``)."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def _keyword_spec(indices: str) -> tuple[int | tuple[int, str], ...]:
    """Return Babel's keyword spec for ``"2,3"`` or ``"1c,2"``."""
    return tuple((int(i[:-1]), "c") if i.endswith("c") else int(i) for i in indices.split(","))


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
