"""Every text in both languages: Telegram HTML with any user string in it, and refusals in the user's words."""

from __future__ import annotations

import re
import string

import pytest

from bot.i18n import SUPPORTED_LANGUAGES, create_i18n
from bot.texts import _TEXTS, ILLEGAL_MOVE_CODES, Html, catalogue, esc, illegal_move_text, tr
from tests.bot.fake_telegram import telegram_html_error, telegram_visible_text

HOSTILE = ["Eve <3", "<b>x</b>", "&amp;", "say \"hi\" & 'bye'", "</i><a href='x'>", "a > b", "&#0;", "{name}"]
KEYS = sorted(_TEXTS["en"])


def _fields(key: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(_TEXTS["en"][key]) if field]


@pytest.mark.parametrize("with_catalogue", [False, True], ids=["fallback", "gettext"])
@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("hostile", HOSTILE)
def test_every_message_is_valid_telegram_html_with_hostile_values(
    lang: str, hostile: str, with_catalogue: bool
) -> None:
    """All catalogue messages, every placeholder filled with a hostile user string: Telegram would parse each, and
    shows the user string literally."""

    def render_all() -> None:
        for key in KEYS:
            fields = _fields(key)
            text = tr(lang, key, **dict.fromkeys(fields, hostile))
            assert telegram_html_error(text) is None, (lang, key, text)
            if fields:
                assert hostile in telegram_visible_text(text), (lang, key, text)

    if with_catalogue:
        with create_i18n("ru").context():
            render_all()
    else:
        render_all()


def test_reminder_escapes_the_name() -> None:
    """The turn reminder with ``Eve <3`` was refused by Telegram (the sweep formats it with ``tr``)."""
    text = tr("en", "reminder", name="Eve <3")
    assert text == "Eve &lt;3, it is your move in the nardy game."
    assert telegram_html_error(text) is None


def test_html_values_are_inserted_as_they_are() -> None:
    inner = tr("en", "kind.gammon")
    assert isinstance(inner, Html)
    assert tr("en", "over", name="<b>", kind=inner, points=2) == "Game over: &lt;b&gt; wins a gammon, 2 pt."
    assert tr("en", "move.error", reason=esc("a < b")) == "Move not accepted: a &lt; b"
    assert tr("en", "move.error", reason=Html("<b>bold</b>")) == "Move not accepted: <b>bold</b>"
    assert esc(esc("<")) == "&lt;"  # escaping twice changes nothing
    assert tr("en", "no.such <key>") == "no.such &lt;key&gt;"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_texts_need_no_escaping_themselves(lang: str) -> None:
    """Texts carry no markup or entities, so a text without user values is also good plain text (toasts,
    button labels)."""
    for source, text in catalogue(lang).items():
        assert not set("<>&") & set(source + text), (lang, source)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("code", ILLEGAL_MOVE_CODES)
def test_illegal_move_text_explains_every_code(lang: str, code: str) -> None:
    error = ValueError("Illegal move 13/7 in position 4HPwATDgc/ABMA: point 7 is blocked")
    error.code = code  # type: ignore[attr-defined]
    with create_i18n("ru").context():
        text = illegal_move_text(lang, error)
    assert text == tr(lang, f"illegal.{code}") and text
    assert "Illegal" not in text and "4HPwATDgc" not in text and "13/7" not in text
    if lang == "ru":
        assert re.search("[а-я]", text) and not re.search("[a-z]", text)
    else:
        assert not re.search("[а-я]", text)


def test_illegal_move_text_without_or_with_an_unknown_code_is_generic() -> None:
    generic = tr("ru", "illegal.generic")
    assert illegal_move_text("ru", ValueError("blocked at 4HPwATDgc/ABMA")) == generic
    unknown = ValueError("x")
    unknown.code = "no_such_code"  # type: ignore[attr-defined]
    assert illegal_move_text("ru", unknown) == generic
    assert illegal_move_text("en", unknown) == "this move is not possible in this position."


def test_each_illegal_move_reason_is_distinct() -> None:
    for lang in SUPPORTED_LANGUAGES:
        reasons = [tr(lang, f"illegal.{code}") for code in ILLEGAL_MOVE_CODES]
        assert len(set(reasons)) == len(reasons)


def test_russian_pass_and_resign_are_different_words() -> None:
    """The cube's Pass button read "Сдаться", the same word as resigning."""
    assert tr("ru", "btn.pass") == "Отказаться"
    resign_words = tr("ru", "btn.resign", level="x") + tr("ru", "resign.choose")
    assert "Отказ" not in resign_words and "Сдаться" not in tr("ru", "btn.pass")
    assert "отказаться" in tr("ru", "turn.doubled", name="A", value=2)
