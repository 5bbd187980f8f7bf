"""Knock-out rounds named as players say them, in both languages: for the announcements and result
lines (:func:`bot.services.tournaments.chat_views.round_label`) and the bracket pictures' headers
(:func:`bot.services.tournaments.chat_views.bracket_labels`)."""

from __future__ import annotations

import pytest

from bot.services.tournaments.chat_views import bracket_labels, bracket_page_labels, bracket_size, stage_name
from tournaments import Player, double_elimination, single_elimination


def players(count: int) -> list[Player]:
    return [Player(f"p{i}", 1500.0 - i) for i in range(count)]


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["Round of 32", "Round of 16", "Quarterfinal", "Semifinal", "Final"]),
        ("ru", ["1/16 финала", "1/8 финала", "Четвертьфинал", "Полуфинал", "Финал"]),
    ],
)
def test_single_elimination_rounds(lang: str, names: list[str]) -> None:
    assert [stage_name(lang, "winners", r, size=32, double=False) for r in range(1, 6)] == names
    assert [stage_name(lang, "winners", r, size=4, double=False) for r in (1, 2)] == names[-2:]
    labels = bracket_labels(lang, single_elimination(players(20)))  # 32 slots
    assert [labels.rounds[f"W{r}"] for r in range(1, 6)] == names
    assert stage_name(lang, "winners", 1, size=64, double=False) == ("Round 1" if lang == "en" else "Тур 1")


def test_double_elimination_rounds_in_both_languages() -> None:
    en = bracket_labels("en", double_elimination(players(16))).rounds
    assert [en[f"W{r}"] for r in range(1, 5)] == [
        "Winners' round of 16",
        "Winners' quarterfinal",
        "Winners' semifinal",
        "Winners' final",
    ]
    assert [en[f"L{r}"] for r in range(1, 7)] == [*(f"Losers' round {r}" for r in range(1, 6)), "Losers' final"]
    assert en["GF1"] == "Grand final"
    ru = bracket_labels("ru", double_elimination(players(16))).rounds
    assert [ru[f"W{r}"] for r in range(1, 5)] == [
        "1/8 финала верхней сетки",
        "Четвертьфинал верхней сетки",
        "Полуфинал верхней сетки",
        "Финал верхней сетки",
    ]
    assert ru["L1"] == "Нижняя сетка, тур 1" and ru["L6"] == "Финал нижней сетки" and ru["GF1"] == "Суперфинал"
    words = bracket_labels("ru", double_elimination(players(4)))
    assert (words.winners, words.losers, words.champion, words.bye, words.in_play) == (
        "Верхняя сетка",
        "Нижняя сетка",
        "Чемпион",
        "без игры",
        "идёт игра",
    )
    assert stage_name("en", "losers", 2, size=4, double=True) == "Losers' final"


def test_bracket_size() -> None:
    assert [bracket_size(n) for n in (1, 2, 3, 4, 5, 16, 17, 32)] == [1, 2, 4, 4, 8, 16, 32, 32]


def test_bracket_pages_name_rounds_without_the_section_above_them() -> None:
    """A page names its section («Верхняя сетка», «Нижняя сетка», «Суперфинал») once, above the round headers."""
    ru = bracket_page_labels("ru", double_elimination(players(16)))
    assert [ru.rounds[f"W{r}"] for r in range(1, 5)] == ["1/8 финала", "Четвертьфинал", "Полуфинал", "Финал"]
    assert [ru.rounds[f"L{r}"] for r in range(1, 7)] == [*(f"Тур {r}" for r in range(1, 6)), "Финал"]
    assert ru.rounds["GF1"] == "" and (ru.winners, ru.losers, ru.final) == (
        "Верхняя сетка",
        "Нижняя сетка",
        "Суперфинал",
    )
    assert (ru.forfeit, ru.number(3), ru.loser(3), ru.winner(24)) == (
        "неявка",
        "М3",
        "проигравший М3",
        "победитель М24",
    )
    en = bracket_page_labels("en", double_elimination(players(16)))
    assert [en.rounds[f"W{r}"] for r in range(1, 5)] == ["Round of 16", "Quarterfinal", "Semifinal", "Final"]
    assert en.rounds["L3"] == "Round 3" and en.rounds["L6"] == "Final" and en.final == "Grand final"
    assert (en.forfeit, en.loser(3), en.winner(24)) == ("forfeit", "Loser of M3", "Winner of M24")
    single = bracket_page_labels("en", single_elimination(players(8)))
    assert single.rounds == bracket_labels("en", single_elimination(players(8))).rounds  # no sections to repeat
    assert single.forfeit == "forfeit"
