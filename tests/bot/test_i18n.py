"""Language choice and the gettext catalogues: complete, compiled and up to date."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po, write_po

from bot.i18n import (
    LOCALES_DIR,
    SUPPORTED_LANGUAGES,
    catalogue_problems,
    choose_language,
    create_i18n,
    extract_messages,
    normalize_language,
)


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


def _po(lang: str) -> Path:
    return LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_message_of_the_code_is_translated(lang: str) -> None:
    """Every msgid extracted from the code (``_``, ``gettext_noop``, ``ngettext_noop``, ``pgettext_noop``) has a
    non-empty, non-fuzzy translation in the catalogue, every plural form, and the English placeholders."""
    assert catalogue_problems(lang) == [], "translate these, then run: python scripts/update-catalogues.py"


def test_the_check_finds_a_missing_translation(tmp_path: Path) -> None:
    """The check itself: an emptied entry, a fuzzy one, a lost placeholder and a missing plural form are reported."""
    import shutil

    shutil.copytree(LOCALES_DIR, tmp_path / "locales")
    path = tmp_path / "locales" / "ru" / "LC_MESSAGES" / "messages.po"
    catalogue = read_po(io.BytesIO(path.read_bytes()), locale="ru")
    catalogue["📖 Rules"].string = ""
    catalogue["Cube: {value}"].string = "Куб"
    plural = catalogue.get("Won {points} point.")
    assert plural is not None
    plural.string = ("Победа: {points} очко.", "", "")
    catalogue["Saved."].flags.add("fuzzy")
    buffer = io.BytesIO()
    write_po(buffer, catalogue)
    path.write_bytes(buffer.getvalue())
    problems = "\n".join(catalogue_problems("ru", tmp_path / "locales"))
    for msgid in ("📖 Rules", "Cube: {value}", "Won {points} point.", "Saved."):
        assert repr(msgid) in problems


def test_extraction_finds_plural_and_contextual_messages() -> None:
    found = extract_messages()
    assert found[("Won {points} point.", None)] == ("Won {points} point.", "Won {points} points.")
    assert ("Portes", "button") in found and ("Portes", None) in found


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_compiled_catalogue_matches_the_po_file(lang: str) -> None:
    po = read_po(io.BytesIO(_po(lang).read_bytes()))
    mo = read_mo(io.BytesIO(_po(lang).with_suffix(".mo").read_bytes()))

    def entries(catalogue: Catalog) -> dict[tuple[object, object], object]:
        return {
            (m.context, tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id): (
                tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
            )
            for m in catalogue
            if m.id
        }

    assert entries(po) == entries(mo), "run: python scripts/update-catalogues.py"


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
    """``tr`` outside a handler (a background board sync, the sweeper) gives the catalogue's text, as inside."""
    from bot.texts import tr

    outside = tr("ru", "pending", steps="13→7")
    with create_i18n("en").context():
        inside = tr("ru", "pending", steps="13→7")
    assert outside == inside == "Сыграно: 13→7"
    assert tr("en", "pending", steps="13→7") == "Turn so far: 13→7"


def test_the_code_keeps_no_translations() -> None:
    """The catalogues are the only place a translation lives: no Cyrillic in the text modules of the bot."""
    root = LOCALES_DIR.parent
    for name in ("texts.py", "tournament_texts.py", "fairness_texts.py", "variants.py", "i18n.py"):
        source = (root / name).read_text(encoding="utf-8")
        strings = re.findall(r'"[^"\n]*[а-яё][^"\n]*"', source, flags=re.IGNORECASE)
        allowed = [s for s in strings if s.strip('"') in _TYPED_ALIASES or "гюльбар" in s]
        assert sorted(set(strings) - set(allowed)) == [], name


_TYPED_ALIASES = {"длинная", "короткая", "гипер", "единичка", "голландские", "голландский", "гюльбар", "тавли"}
_TYPED_ALIASES |= {"смешанный", "микс", "Русский"}
