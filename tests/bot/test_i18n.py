"""Language choice and the gettext catalogues: complete, compiled and up to date."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from bot.i18n import LOCALES_DIR, SUPPORTED_LANGUAGES, choose_language, create_i18n, normalize_language


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("ru", "ru"),
        ("en", "en"),
        ("en-GB", "en"),
        ("en_US", "en"),
        ("RU", "ru"),
        ("uk", "ru"),
        ("kk", "ru"),
        ("uz", "ru"),
        ("hy-AM", "ru"),
        ("tt", "ru"),
        ("de", "en"),
        ("pt-br", "en"),
        ("??", None),
        (None, None),
        ("", None),
    ],
)
def test_normalize_language(code: str | None, expected: str | None) -> None:
    assert normalize_language(code) == expected


def test_choose_language_prefers_the_stored_choice() -> None:
    assert choose_language("en", "ru", "ru") == "en"
    assert choose_language(None, "en-US", "ru") == "en"
    assert choose_language("xx", "fr", "ru") == "en"  # any known code other than the Russian-reading ones
    assert choose_language("xx", None, "ru") == "ru"
    assert choose_language(42, None, "en") == "en"


PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}")


def _po(lang: str) -> Path:
    return LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_catalogue_translates_every_template_message(lang: str) -> None:
    template = read_po(io.BytesIO((LOCALES_DIR / "messages.pot").read_bytes()))
    catalogue = read_po(io.BytesIO(_po(lang).read_bytes()))
    assert not catalogue.fuzzy
    for message in template:
        if not message.id:
            continue
        translated = catalogue.get(message.id)
        assert translated is not None and translated.string, f"{lang}: {message.id!r} is not translated"
        assert not translated.fuzzy, f"{lang}: {message.id!r} is fuzzy"
        # Placeholders survive translation.
        assert set(PLACEHOLDER.findall(message.id)) == set(PLACEHOLDER.findall(translated.string)), (
            f"{lang}: placeholders of {message.id!r}"
        )


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_compiled_catalogue_matches_the_po_file(lang: str) -> None:
    po = read_po(io.BytesIO(_po(lang).read_bytes()))
    mo = read_mo(io.BytesIO(_po(lang).with_suffix(".mo").read_bytes()))
    assert {m.id: m.string for m in po if m.id} == {m.id: m.string for m in mo if m.id}, (
        "run: pybabel compile -d bot/locales -D messages"
    )


def test_norm_lang_follows_the_same_rule() -> None:
    from bot.texts import norm_lang

    for code in ("ru", "en-GB", "uk", "ky", "it", "de", "az"):
        assert norm_lang(code) == normalize_language(code)
    assert norm_lang(None) == "ru"  # no code: the default language (outside a handler: Russian)
    i18n = create_i18n("en")
    with i18n.context():
        assert norm_lang(None) == "en" and norm_lang("") == "en"


def test_i18n_loads_both_languages() -> None:
    i18n = create_i18n("ru")
    assert set(i18n.available_locales) == set(SUPPORTED_LANGUAGES)
    assert i18n.gettext("📖 Rules", locale="ru") == "📖 Правила"
    assert i18n.gettext("📖 Rules", locale="en") == "📖 Rules"


def test_game_texts_read_the_same_inside_and_outside_a_handler() -> None:
    """The Russian kept in bot/texts.py (the fallback) and the compiled catalogue agree on every game text, and
    ``tr`` outside a handler (a background board sync, the sweeper) gives the catalogue's text."""
    from bot.texts import _TEXTS, catalogue, tr

    i18n = create_i18n()
    differing = {
        source: (text, i18n.gettext(source, locale="ru"))
        for source, text in catalogue("ru").items()
        if i18n.gettext(source, locale="ru") != text
    }
    assert differing == {}
    assert tr("ru", "pending", steps="13→7") == "Сыграно: 13→7"
    assert tr("en", "pending", steps="13→7") == _TEXTS["en"]["pending"].format(steps="13→7")
