"""The bot's readers of typed command arguments never raise, whatever is typed: numbers are decimal digits
of any script (:func:`bot.commands.read_number`, the digits :mod:`nardy.notation` reads in moves); ``²``, ``①`` and
the like are no numbers."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands import read_number
from bot.handlers.challenge import MAX_MATCH_LENGTH, parse_new_args, unread_match_length
from bot.handlers.computer import parse_bot_args
from bot.handlers.ratings import parse_variant
from bot.handlers.rules import rules_text
from bot.services.inline import MAX_LENGTH, MAX_RESULTS, offers
from bot.variants import OFFERED

NUMBER_CHARS = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Nd", "No", "Nl")]
DIGITS = st.sampled_from(NUMBER_CHARS[::5] + list("0123456789²①٣５۳४₃⑬Ⅻ"))
WORDS = st.sampled_from(["match", "матч", "до", "bot", "бот", "long", "short", "длинные", "hard", "last", "bar", "-"])
ARGS = st.one_of(
    st.text(st.characters()),
    st.lists(st.one_of(st.text(DIGITS, min_size=1, max_size=8), WORDS, st.text(max_size=3)), max_size=10).map(" ".join),
)


def test_read_number() -> None:
    assert read_number("5", 2) == 5
    assert read_number("١٢", 2) == 12
    assert read_number("１２", 2) == 12
    assert read_number("1٢", 2) == 12
    for word in ("²", "①", "1²", "Ⅻ", "-1", "+1", "1_0", " 1", "1.0", "", "123"):
        assert read_number(word, 2) is None, word


@settings(max_examples=500, deadline=None)
@given(st.text(st.one_of(DIGITS, st.characters()), max_size=10), st.integers(1, 6))
def test_read_number_reads_decimal_digits_only(word: str, max_digits: int) -> None:
    number = read_number(word, max_digits)
    if number is None:
        assert not word or len(word) > max_digits or not all(unicodedata.category(c) == "Nd" for c in word)
    else:
        assert number == int("".join(str(unicodedata.decimal(c)) for c in word))


@settings(max_examples=400, deadline=None)
@given(ARGS)
def test_command_parsers_never_raise(args: str) -> None:
    variant, length = parse_new_args(args)
    assert variant in OFFERED and 0 <= length <= MAX_MATCH_LENGTH
    variant, level, length = parse_bot_args(args)
    assert level in ("easy", "medium", "hard") and 0 <= length <= MAX_MATCH_LENGTH
    assert parse_variant(args) in (None, "", *OFFERED)
    assert rules_text("en", args) and rules_text("ru", args)
    found = offers(args)
    assert 0 < len(found) <= MAX_RESULTS and all(0 <= o.length <= MAX_LENGTH for o in found)


def test_match_lengths_in_other_scripts() -> None:
    assert parse_new_args("long match ٥") == ("long", 5)
    assert parse_new_args("short до ５") == ("short", 5)
    assert parse_new_args("short match ²") == ("short", 0)
    assert parse_bot_args("bot hard match ३") == ("short", "hard", 3)
    assert offers("long ٣")[0].length == 3
    assert offers("long ³")[0].length != 3


def test_a_match_length_that_is_no_number_is_named() -> None:
    assert unread_match_length("short match ²") == "²"
    assert unread_match_length("long матч пять") == "пять"
    assert unread_match_length("long match 5") is None and unread_match_length("match ٥") is None
    assert unread_match_length("match long") is None  # a variant after "match": no length was meant
    assert unread_match_length("long match") is None and unread_match_length(None) is None
