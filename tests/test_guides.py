"""The player guides speak the bot's words, read from the compiled catalogues the bot itself uses, so that a button
renamed in the catalogue cannot live on in a guide.

- Every «quote» of the Russian guide (and of the README's Russian paragraph) is a text of the Russian catalogue — a
  button, a message, a setting's name — or a term the catalogue, the rule book or a heading quotes.
- Whatever the Russian guide quotes from the catalogue, the English guide names with the same message's English text.
- Every button the English guide writes in bold with its symbol (**↩ Undo**) is an English catalogue text.
- The commands' table of each guide describes /rating and /top with the words of the bot's /help.
- The Russian guide and README use none of the words the glossary replaced (tests/bot/test_texts.py, STALE_RUSSIAN).
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo

from tests.bot.test_texts import STALE_RUSSIAN

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LOCALES = ROOT / "bot" / "locales"
GUIDES = {"ru": DOCS / "user-guide.ru.md", "en": DOCS / "user-guide.en.md"}
PLACEHOLDER = re.compile(r"\\\{\w+\\\}")
QUOTE = re.compile(r"«([^«»]+)»")
BOLD = re.compile(r"\*\*([^*]+)\*\*")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$", re.MULTILINE)


def flat(text: str) -> str:
    """Return ``text`` with every run of whitespace (a line break in a paragraph too) made one space."""
    return " ".join(text.split())


@cache
def catalogue(lang: str) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Return the compiled catalogue of ``lang``: (context, English msgid) → its texts (every plural form), HTML
    entities read as the characters Telegram shows."""
    with (LOCALES / lang / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        messages = read_mo(file)
    texts: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for message in messages:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        forms = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        texts[(message.context, msgid)] = tuple(html.unescape(form) for form in forms if form)
    return texts


def pattern(text: str, wildcard: str) -> re.Pattern[str]:
    """Return ``text`` as a regular expression, each ``{placeholder}`` standing for ``wildcard``."""
    return re.compile(PLACEHOLDER.sub(lambda _: wildcard, re.escape(flat(text))))


def names(text: str) -> list[str]:
    """Return the ways a guide may quote a catalogue ``text``: the text itself and, for a setting's button
    ("Подтверждение хода: {value}"), the name before its value."""
    found = [text]
    head, colon, tail = text.partition(": {")
    if colon and tail.endswith("}") and "{" not in head:
        found.append(head)
    return found


def catalogue_ids(lang: str, quote: str) -> list[tuple[str | None, str]]:
    """Return the messages of ``lang`` whose text (or setting name) is ``quote``, placeholders matching anything."""
    return [
        key
        for key, texts in catalogue(lang).items()
        if any(pattern(name, ".+").fullmatch(quote) for text in texts for name in names(text))
    ]


def quotes(text: str) -> list[str]:
    """Return the «quotes» of a page, whitespace made single spaces, each once, in order."""
    return list(dict.fromkeys(flat(q) for q in QUOTE.findall(text)))


def russian_pages() -> dict[str, str]:
    """Return the Russian pages for players: the Russian guide and the README's paragraphs in Cyrillic."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("\n\n")
    return {
        "docs/user-guide.ru.md": GUIDES["ru"].read_text(encoding="utf-8"),
        "README.md": "\n\n".join(p for p in readme if re.search(r"[а-яё]{4}", p) and not p.startswith("|")),
    }


def known_terms() -> set[str]:
    """Return what a Russian page may quote besides a catalogue text: terms quoted inside the catalogue («мать»,
    «Разрешения»), in the rule book («длинные поддавки»), and the headings of the rule book and the guides (a
    heading "Time control (контроль времени)" may be quoted by its part before the parenthesis)."""
    terms = {flat(q) for texts in catalogue("ru").values() for text in texts for q in QUOTE.findall(text)}
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    terms |= set(quotes(rules))
    for page in (DOCS / "rules.md", *GUIDES.values()):
        for heading in HEADING.findall(page.read_text(encoding="utf-8")):
            terms |= {heading, heading.split(" (")[0].lstrip("§0123456789. ")}
    return terms


def test_the_catalogues_are_read() -> None:
    """The check below has something to check against: both catalogues, and the buttons the guides must name."""
    assert catalogue("ru")[(None, "↩ Undo")] == ("↩ Отменить ход",)
    assert catalogue("en")[("button", "Portes")] == ("Portes",)
    assert catalogue_ids("ru", "Удвоить ×N") == [(None, "Double ×{value}")]
    assert catalogue_ids("ru", "Подтверждение хода") == [(None, "Confirm turns: {value}")]


@pytest.mark.parametrize("page", sorted(russian_pages()))
def test_every_quote_of_a_russian_page_is_the_bots_own_text(page: str) -> None:
    """«↩ Отменить ход», «Новая партия», «Бивер», «Этот вызов уже не действует.»: what a player reads in the guide is
    what the bot shows, letter for letter."""
    found = quotes(russian_pages()[page])
    assert len(found) >= (20 if page.startswith("docs") else 2), found
    terms = known_terms()
    strange = [q for q in found if q not in terms and not catalogue_ids("ru", q)]
    assert not strange, f"{page} quotes what the bot never says: {strange}"


def test_the_english_guide_names_what_the_russian_guide_quotes() -> None:
    """Each catalogue text the Russian guide quotes appears in the English guide in its English words (Join for
    «Играть», Withdraw for «Отозвать», "This challenge is no longer open." for «Этот вызов уже не действует.»)."""
    english = flat(GUIDES["en"].read_text(encoding="utf-8"))
    missing = []
    checked = 0
    for quote in quotes(GUIDES["ru"].read_text(encoding="utf-8")):
        keys = catalogue_ids("ru", quote)
        if not keys:
            continue  # a term or a heading, not the bot's text
        checked += 1
        wanted = [name for key in keys for text in catalogue("en")[key] for name in names(text)]
        if not any(pattern(name, r"[^\s*\"]+").search(english) for name in wanted):
            missing.append(f"«{quote}» → {wanted}")
    assert checked >= 20
    assert not missing, f"the English guide does not name: {missing}"


def test_every_button_the_english_guide_shows_with_its_symbol_is_the_bots() -> None:
    """**↩ Undo**, **✖ Cancel**, **📱 Live board**: a bold name that starts with a symbol is a button's exact text."""
    texts = [name for texts in catalogue("en").values() for text in texts for name in names(text)]
    bold = {flat(b) for b in BOLD.findall(GUIDES["en"].read_text(encoding="utf-8"))}
    buttons = [b for b in bold if not b[0].isalnum() and b[0] not in "`\"'("]
    assert len(buttons) >= 10, buttons
    strange = [b for b in buttons if not any(pattern(text, ".+").fullmatch(b) for text in texts)]
    assert not strange, f"buttons the bot does not have: {strange}"


@pytest.mark.parametrize("lang", sorted(GUIDES))
@pytest.mark.parametrize("command", ["rating", "top"])
def test_the_guides_describe_rating_and_top_as_help_does(lang: str, command: str) -> None:
    """The leaderboard has one name: the guide's table of commands says what /help says («рейтинг группы», "the
    group's leaderboard"), and so does the group's command menu."""
    help_text = next(
        text for (_, msgid), (text,) in catalogue(lang).items() if "\n/top [game] — " in msgid and "/rating" in msgid
    )
    line = next(line for line in help_text.splitlines() if line.startswith(f"/{command} "))
    described = line.split(" — ", 1)[1]
    row = re.search(rf"^\| `/{command}[ `].*?\| (.*?) \|$", GUIDES[lang].read_text(encoding="utf-8"), re.MULTILINE)
    assert row is not None and row.group(1) == described
    if command == "top" and lang == "ru":  # English words it "Leaderboard of this group" there
        menu = catalogue(lang)[(None, "Leaderboard of this group: /top and a game")][0]
        assert menu.split(":")[0].lower() == described.lower()


@pytest.mark.parametrize("page", sorted(russian_pages()))
def test_no_russian_page_uses_a_word_the_glossary_replaced(page: str) -> None:
    """зерно, обязательство, Бобёр, Енот, гаммон, «Новая игра», трик-трак, «выбыл», «лучшие игроки»… (the list of
    tests/bot/test_texts.py, which the catalogue obeys too)."""
    text = flat(russian_pages()[page])
    used = [wrong for wrong in STALE_RUSSIAN if re.search(rf"(?<![а-яё]){wrong}", text, re.IGNORECASE)]
    assert not used, f"{page} uses replaced words: {used}"
