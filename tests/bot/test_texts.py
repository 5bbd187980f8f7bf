"""Every text in both languages: Telegram HTML with any user string in it, and refusals in the user's words."""

from __future__ import annotations

import re

import pytest

from bot.i18n import SUPPORTED_LANGUAGES, Plural, create_i18n, placeholders
from bot.texts import ILLEGAL_MOVE_CODES, TEXTS, Html, esc, illegal_move_text, msgid, number, tr, translate
from tests.bot.fake_telegram import telegram_html_error, telegram_visible_text

HOSTILE = ["Eve <3", "<b>x</b>", "&amp;", "say \"hi\" & 'bye'", "</i><a href='x'>", "a > b", "&#0;", "{name}"]
KEYS = sorted(TEXTS)


def _fields(key: str) -> list[str]:
    message = TEXTS[key]
    return sorted(placeholders(message.plural if isinstance(message, Plural) else msgid(message)))


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
    assert tr("en", "over", name="<b>", kind=inner, points=2) == "Game over: &lt;b&gt; wins a gammon, 2 points."
    assert tr("en", "move.error", reason=esc("a < b")) == "Move not accepted: a &lt; b"
    assert tr("en", "move.error", reason=Html("<b>bold</b>")) == "Move not accepted: <b>bold</b>"
    assert esc(esc("<")) == "&lt;"  # escaping twice changes nothing
    assert tr("en", "no.such <key>") == "no.such &lt;key&gt;"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_texts_need_no_escaping_themselves(lang: str) -> None:
    """Texts carry no markup or entities, so a text without user values is also good plain text (toasts,
    button labels)."""
    for key, message in TEXTS.items():
        for count in (1, 2, 5):
            text = translate(lang, message, {message.quantity: count} if isinstance(message, Plural) else {})
            assert not set("<>&") & set(msgid(message) + text), (lang, key)


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


# -- every message with real names and counts ------------------------------------------------------------------------

NAMES = ["Маша", "Илья", "Жанна", "John", "🦄 Единорог", "محمد علي", "Ёж"]
"""Names of both genders, a soft sign, a Latin, an emoji and a right-to-left name: each must stay as written."""
COUNTS = [1, 2, 5, 11, 21, 22]
COUNT_PLACEHOLDERS = frozenset(
    {"points", "count", "limit", "minimum", "wins", "losses", "draws", "plays", "inaccuracies", "blunders"}
    | {"decisions", "errors", "matches", "bad", "experience", "n", "games", "total", "rounds"}
)
"""Placeholders that may hold a number of things (``games`` in one message is a list of game names)."""
NOT_A_COUNT = {
    ("pools.part", "count"): "a multiplier: 5 × 3",
    ("tour.length.value", "n"): "a match length: до 5",
    ("tour.round", "n"): "an ordinal: Тур 3",
    ("tour.round.winners", "n"): "an ordinal",
    ("tour.round.losers", "n"): "an ordinal",
    ("tour.computer", "n"): "an ordinal: Компьютер 2",
    ("tour.more", "count"): "no noun: … и ещё 3",
    ("top.usage", "games"): "a list of game names",
    ("rules.more", "commands"): "a list",
}
LABEL = r"(?:: |из |of |\(|/)\{%s\}|\{%s\}/"
"""A count after a colon, in a fraction or a bracket needs no plural form in either language (``побед: 21``)."""
RU_FORM = {1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1}
EN_FORM = {1: 0, 2: 1, 5: 1, 11: 1, 21: 1, 22: 1}


def _values(key: str, name: str, count: int) -> dict[str, object]:
    return {field: count if field in COUNT_PLACEHOLDERS else name for field in _fields(key)}


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_every_message_renders_with_any_name_and_count(lang: str, name: str) -> None:
    """Every message, with every name and every count: no placeholder left, the name exactly as written (it is never
    declined), the count as written."""
    for key in KEYS:
        for count in COUNTS:
            text = tr(lang, key, **_values(key, name, count))
            visible = telegram_visible_text(text)
            assert "{" not in visible and "}" not in visible, (lang, key, text)
            fields = _fields(key)
            if any(field not in COUNT_PLACEHOLDERS for field in fields):
                assert name in visible, (lang, key, text)
            if any(field in COUNT_PLACEHOLDERS for field in fields):
                assert re.search(rf"(?<!\d){count}(?!\d)", visible), (lang, key, text)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_count_takes_its_plural_form(lang: str) -> None:
    """A message with plural forms takes the catalogue's form for each count (ru: 1 → form 0, 2 → 1, 5 and 11 → 2,
    21 → 0, 22 → 1; en: 1 → form 0, else 1); the forms differ where the language needs them to."""
    from babel.messages.pofile import read_po

    from bot.i18n import LOCALES_DIR

    with (LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalogue = read_po(file, locale=lang)
    expected_form = RU_FORM if lang == "ru" else EN_FORM
    plurals = {key: message for key, message in TEXTS.items() if isinstance(message, Plural)}
    assert len(plurals) >= 10
    for key, message in plurals.items():
        entry = catalogue.get(message.singular)
        assert entry is not None and isinstance(entry.string, (list, tuple)), (lang, key)
        forms = entry.string
        assert forms[0] != forms[-1], (lang, key, forms)
        for count in COUNTS:
            values = _values(key, "Маша", count)
            assert tr(lang, key, **values) == forms[expected_form[count]].format(**values), (lang, key, count)


def test_a_number_takes_the_language_s_decimal_mark() -> None:
    """Russian writes half a point «1,5» (a score «1,5:0,5»), English «1.5»; whole numbers stay plain."""
    assert [number("ru", x) for x in (1.5, 0.5, 2.0, 3, "2.5", "?")] == ["1,5", "0,5", "2", "3", "2,5", "?"]
    assert [number("en", x) for x in (1.5, 2.0)] == ["1.5", "2"]
    assert str(tr("ru", "score", length=3, a=number("ru", 1.5), b=number("ru", 0.5))).endswith("1,5:0,5")


def test_the_form_of_one_reads_right_for_twenty_one_too() -> None:
    """Russian gives 1, 21, 31 one form: its words must not speak of a single thing (the limit messages once said
    «уже играет 21 партию: закончите её»)."""
    for key in ("limit.user", "limit.chat"):
        for count in (1, 21, 31):
            text = str(tr("ru", key, name="Маша", limit=count))
            assert f" {count} парти" in text and " её" not in text, (key, count, text)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_a_count_outside_a_plural_message_stands_where_any_number_reads_right(lang: str) -> None:
    """A count in a message without plural forms stands after a colon, in a fraction or in brackets (``побед: 21``,
    ``wins: 1``), never before a noun it would have to agree with (``21 побед``, ``1 wins``)."""
    for key, message in TEXTS.items():
        if isinstance(message, Plural):
            continue
        text = translate(lang, message)
        for field in placeholders(text) & COUNT_PLACEHOLDERS:
            if (key, field) in NOT_A_COUNT:
                continue
            assert re.search(LABEL % (field, field), text), (lang, key, field, text)


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (1, "Партия окончена. Маша: победа, марс, 1 очко."),
        (2, "Партия окончена. Маша: победа, марс, 2 очка."),
        (5, "Партия окончена. Маша: победа, марс, 5 очков."),
        (11, "Партия окончена. Маша: победа, марс, 11 очков."),
        (21, "Партия окончена. Маша: победа, марс, 21 очко."),
        (22, "Партия окончена. Маша: победа, марс, 22 очка."),
    ],
)
def test_russian_points_agree_with_their_number(count: int, text: str) -> None:
    """The result line read "{points} оч." for every number."""
    assert tr("ru", "over", name="Маша", kind=tr("ru", "kind.gammon"), points=count) == text


def test_names_stay_in_the_nominative_and_no_verb_guesses_a_gender() -> None:
    """ "выиграл у {loser}", "Рейтинг {name}", "против {opponent}", "сыграл(а)": a name never follows a preposition
    or a genitive noun, and no past-tense verb agrees with a name."""
    for key, message in TEXTS.items():
        for count in (1, 2, 5):
            text = translate("ru", message, {message.quantity: count} if isinstance(message, Plural) else {})
            assert "(а)" not in text and "(ла)" not in text, key
            for field in placeholders(text) & {"name", "loser", "winner", "opponent", "first", "second", "other"}:
                before = text.split("{" + field + "}")[0].rstrip()
                assert not re.search(r"(?:^|\s)(у|против|с|со|для|от|игрока|Рейтинг|в)$", before), (key, text)
            assert not re.search(r"(?:^|\s)в \{variant\}", text), (key, text)


STALE_RUSSIAN: tuple[str, ...] = (
    "гаммон",
    "бэкгаммон —",
    "бобёр",
    "бобр",
    "енот",
    "зерн",
    "обязательств",
    "запечатан",
    "отстала",
    "игра Кроуфорда",
    "новая игра",
    "трик-трак",
    "правил[оа] старта",
    "выбыл",
    "двойное выбывание",
    "лучшие игроки",
    "рейтинг чата",
    "таблица рейтинга",
    "несколько игр",
    "нескольких играх",
    "законченных игр",
    "вызывает на игру",
)
"""Words the Russian texts once used and the glossary (docs/glossary.md) replaced, as case-insensitive patterns that
no word may end before: the catalogue and the Russian guide (tests/test_guides.py) must contain none of them."""


def test_russian_terms_follow_the_players() -> None:
    """One word per concept (docs/glossary.md): марс and кокс for the double and triple win, отказ for a dropped
    double, партия for a game of a match, бивер and ракун, Отменить ход and Отмена kept apart, score 5:3."""
    assert tr("ru", "kind.gammon") == "марс" and tr("ru", "kind.backgammon") == "кокс"
    assert tr("ru", "kind.single") == "оин"
    assert tr("ru", "btn.beaver") == "Бивер" and tr("ru", "btn.raccoon") == "Ракун"
    assert tr("ru", "btn.undo") != tr("ru", "btn.cancel")
    assert tr("ru", "analysis.cube.pass") == "отказ"
    assert "сда" not in tr("ru", "analysis.proper.double_pass")
    assert tr("ru", "crawford") == "Партия Кроуфорда"
    assert tr("ru", "score", length=5, a=3, b=1) == "Матч до 5: 3:1"
    assert tr("ru", "tour.opt.format", value=tr("ru", "tour.format.sw")) == "Формат: швейцарская система"
    assert tr("ru", "tour.format.de") == "до двух поражений"
    assert tr("ru", "btn.portes") == "Портес" and tr("ru", "variant.portes") == "портес"
    everything = " ".join(translate("ru", m, {m.quantity: 5} if isinstance(m, Plural) else {}) for m in TEXTS.values())
    for wrong in STALE_RUSSIAN:
        assert not re.search(rf"(?<![а-яё]){wrong}", everything, re.IGNORECASE), wrong
    for rules in ("rules.short", "rules.long", "rules.portes", "rules.plakoto", "rules.fevga", "rules.acey_deucey"):
        assert "марс" in tr("ru", rules), rules


def test_a_knocked_out_player_and_the_leaderboard_have_one_name_each() -> None:
    """A player out of a knock-out is «вылет» (a noun: no verb guesses the player's gender), on the bot's tables and on
    the rendering package's Russian examples alike; the group's leaderboard (/top) is «Рейтинг группы» wherever it is
    named: the command menu, /help, the picture's title, the refusal in a private chat and the note under /rating."""
    from bot.commands import bot_commands
    from bot.texts import board_labels, table_labels
    from rendering.scenes import RU_BOARD_LABELS, RU_TABLE_LABELS

    assert tr("ru", "table.out") == "вылет"
    assert table_labels("ru") == RU_TABLE_LABELS and board_labels("ru") == RU_BOARD_LABELS
    menu = {command.command: command.description for command in bot_commands(create_i18n("ru"), "ru", group=True)}
    assert menu["top"] == "Рейтинг группы: /top и игра"
    assert tr("ru", "top.title", variant="длинные нарды") == "Рейтинг группы: длинные нарды"
    assert tr("en", "top.title", variant="long nardy") == "Leaderboard of this group: long nardy"
    assert tr("ru", "top.private").startswith("Рейтинг группы")
    assert tr("ru", "rating.note").endswith("Рейтинг группы: /top.")


def test_long_nardy_rules_say_what_the_engine_scores() -> None:
    """The default scoring of long nardy is оин 1 and марс 2 (no кокс): the rules text says so, in both languages."""
    from nardy import Options
    from nardy.variants import get_variant

    assert Options().long_scoring == "federation"
    assert set(get_variant("long").resign_levels) == {"oin", "mars"}
    assert "кокса нет" in tr("ru", "rules.long") and "оин" in tr("ru", "rules.long").lower()
    assert "no koks" in tr("en", "rules.long")


def test_rolls_are_named_as_in_the_seeds() -> None:
    """Russian names a roll the traditional way, hyphenated (seed 000's list; 6-5 is шеш-беш); 1-1 has no name, and
    English names none."""
    from bot.texts import dice_name

    assert dice_name("ru", 6, 5) == dice_name("ru", 5, 6) == "шеш-беш"
    assert (
        dice_name("ru", 6, 6) == "ду-шеш" and dice_name("ru", 3, 2) == "се-ба-ду" and dice_name("ru", 2, 2) == "дубара"
    )
    assert dice_name("ru", 1, 1) is None
    assert all(dice_name("en", a, b) is None for a in range(1, 7) for b in range(1, 7))
    named = {dice_name("ru", a, b) for a in range(1, 7) for b in range(1, a + 1)} - {None}
    assert len(named) == 20 and all(" " not in name for name in named if name)
