"""Buttons of tournaments: the creation card (stateless: every button carries the whole choice), the registration
card, and the tournament menu shown by ``/tournament`` during play.

The creation card stores nothing: each of its buttons packs the settings the card shows and which one to change, so
a card forgotten in a chat costs nothing and can still be used. Everything fits Telegram's 64 bytes (checked in
``tests/bot/test_tournament_keyboards.py``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Final, Literal

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from pydantic import Field

from bot.keyboards.callbacks import GameId, Word
from bot.model.clock import ClockError, TimeControl
from bot.model.tournament import (
    DEADLINES,
    FORMAT_CODES,
    LENGTHS,
    LIMITS,
    SWISS_ROUNDS,
    TournamentRecordError,
    TournamentSettings,
)
from bot.texts import tr
from bot.variants import OFFERED, is_offered

ARENA_CODE: Final = "ar"
"""The creation card's format code of an arena (not a tournament format: the card then creates an arena)."""
SetupAction = Literal["v", "f", "n", "d", "p", "m", "r", "go", "x"]
"""What a creation-card button does: cycle the variant (v), format (f), length (n), deadline (d), venue (p),
limit (m) or Swiss rounds (r); open registration (go); close the card (x)."""
TourAction = Literal[
    "join", "leave", "start", "cancel", "add", "table", "mine", "pairs", "quit", "quit_yes", "watch", "last"
]
"""What a tournament button does."""
Level = Literal["easy", "medium", "hard", "-"]


class SetupCb(CallbackData, prefix="ts"):
    """A press on the creation card of ``owner`` (only they may use it), showing the packed settings."""

    owner: Annotated[int, Field(ge=1, le=10**13)]
    variant: Word
    """A short word; :meth:`settings` checks that it is an offered variant."""
    format: Literal["rr", "drr", "sw", "se", "de", "ar"]
    """A format code of :data:`~bot.model.tournament.FORMAT_CODES`, or ``ar``: an arena (:mod:`bot.services.arena`)."""
    length: Annotated[int, Field(ge=1, le=13)]
    deadline: Literal["1h", "6h", "24h", "3d"]
    venue: Literal["private", "group"]
    limit: Annotated[int, Field(ge=2, le=32)]
    rounds: Annotated[int, Field(ge=0, le=7)]
    action: SetupAction
    clock: Annotated[str, Field(pattern=r"^[0-9.+-]{1,7}$")] = "-"
    """The time control as typed (``12+1``), ``-`` for none."""

    @classmethod
    def unpack(cls, value: str) -> SetupCb:
        """Return the press of a packed button; a card posted before the clock option (one field fewer) reads as
        one without a clock. Raises: TypeError or ValueError for a malformed button (as aiogram's)."""
        if value.count(cls.__separator__) == len(cls.model_fields) - 1:
            value += f"{cls.__separator__}-"
        return super().unpack(value)

    def settings(self) -> TournamentSettings:
        """Return the settings this button carries. Raises TournamentRecordError when one is not on offer."""
        try:
            clock = None if self.clock == "-" else TimeControl.parse(self.clock)
        except ClockError as error:
            raise TournamentRecordError(str(error)) from None
        settings = TournamentSettings(
            self.variant, self.format, self.length, self.deadline, self.venue, self.limit, self.rounds, clock
        )
        if self.format == ARENA_CODE:  # an arena's card: only the variant and the clock are read
            if not is_offered(self.variant):
                raise TournamentRecordError(f"not an offered variant: {self.variant}")
            return settings
        return settings.checked()


class TourCb(CallbackData, prefix="tt"):
    """A press on a tournament's card or menu: ``action``, with a computer ``level`` for ``add`` or a match
    index for ``watch``."""

    tournament_id: GameId
    action: TourAction
    arg: Annotated[str, Field(pattern=r"^[a-z0-9-]{1,8}$")] = "-"


def _cycle(values: tuple[object, ...], current: object) -> object:
    index = values.index(current) if current in values else -1
    return values[(index + 1) % len(values)]


def next_settings(settings: TournamentSettings, action: SetupAction) -> TournamentSettings:
    """Return ``settings`` with the option named by ``action`` moved to its next value (others unchanged)."""
    fields: dict[str, tuple[str, tuple[object, ...]]] = {
        "v": ("variant", OFFERED),
        "f": ("format", (*FORMAT_CODES, ARENA_CODE)),
        "n": ("length", LENGTHS),
        "d": ("deadline", tuple(DEADLINES)),
        "p": ("venue", ("private", "group")),
        "m": ("limit", LIMITS),
        "r": ("rounds", SWISS_ROUNDS),
    }
    if action not in fields:
        return settings
    name, values = fields[action]
    changes: dict[str, Any] = {name: _cycle(values, getattr(settings, name))}
    return replace(settings, **changes)


def setup_callback(owner: int, settings: TournamentSettings, action: SetupAction) -> str:
    """Return the packed creation-card button of ``owner`` showing ``settings`` that does ``action``."""
    return SetupCb(
        owner=owner,
        variant=settings.variant,
        format=settings.format,  # type: ignore[arg-type]
        length=settings.length,
        deadline=settings.deadline,  # type: ignore[arg-type]
        venue=settings.venue,
        limit=settings.limit,
        rounds=settings.rounds,
        action=action,
        clock="-" if settings.clock is None else settings.clock.label,
    ).pack()


def describe_settings(lang: str, settings: TournamentSettings) -> dict[str, str]:
    """Return the option values of ``settings`` as texts in ``lang``, by option name."""
    rounds = tr(lang, "tour.rounds.auto") if settings.rounds == 0 else str(settings.rounds)
    return {
        "variant": tr(lang, f"variant.{settings.variant}"),
        "format": tr(lang, f"tour.format.{settings.format}"),
        "length": tr(lang, "tour.length.value", n=settings.length),
        "deadline": tr(lang, f"tour.deadline.{settings.deadline}"),
        "venue": tr(lang, f"tour.venue.{settings.venue}"),
        "limit": str(settings.limit),
        "rounds": rounds,
    }


def setup_keyboard(owner: int, settings: TournamentSettings, lang: str) -> InlineKeyboardMarkup:
    """Return the creation card's keyboard: one button per option (a press moves it to the next value), then
    "open registration" and "close"."""
    values = describe_settings(lang, settings)
    options: list[tuple[SetupAction, str]] = [
        ("v", tr(lang, "tour.opt.variant", value=values["variant"])),
        ("f", tr(lang, "tour.opt.format", value=values["format"])),
    ]
    if settings.format == ARENA_CODE:  # an arena: its length and clock come from /arena, or the defaults
        return InlineKeyboardMarkup(
            inline_keyboard=[*_option_rows(owner, settings, options), _open_row(owner, settings, lang)]
        )
    if settings.format == "sw":
        options.append(("r", tr(lang, "tour.opt.rounds", value=values["rounds"])))
    options += [
        ("n", tr(lang, "tour.opt.length", value=values["length"])),
        ("d", tr(lang, "tour.opt.deadline", value=values["deadline"])),
        ("p", tr(lang, "tour.opt.venue", value=values["venue"])),
        ("m", tr(lang, "tour.opt.limit", value=values["limit"])),
    ]
    return InlineKeyboardMarkup(
        inline_keyboard=[*_option_rows(owner, settings, options), _open_row(owner, settings, lang)]
    )


def _option_rows(
    owner: int, settings: TournamentSettings, options: list[tuple[SetupAction, str]]
) -> list[list[InlineKeyboardButton]]:
    return [
        [InlineKeyboardButton(text=text, callback_data=setup_callback(owner, settings, action))]
        for action, text in options
    ]


def _open_row(owner: int, settings: TournamentSettings, lang: str) -> list[InlineKeyboardButton]:
    opening = "arena.btn.start" if settings.format == ARENA_CODE else "tour.btn.open"
    return [
        InlineKeyboardButton(text=tr(lang, opening), callback_data=setup_callback(owner, settings, "go")),
        InlineKeyboardButton(text=tr(lang, "tour.btn.close"), callback_data=setup_callback(owner, settings, "x")),
    ]


def tour_callback(tournament_id: str, action: TourAction, arg: str = "-") -> str:
    """Return the packed tournament button."""
    return TourCb(tournament_id=tournament_id, action=action, arg=arg).pack()


COMPUTER_LEVELS: Final = ("easy", "medium", "hard")


def registration_keyboard(
    tournament_id: str,
    lang: str,
    *,
    deep_link: str | None = None,
    full: bool = False,
    app_button: InlineKeyboardButton | None = None,
) -> InlineKeyboardMarkup:
    """Return the registration card's keyboard: Join / Leave, Start / Cancel (the organiser's), one "add a computer
    player" button per level, (``deep_link``) a button that opens the bot in private, and ``app_button`` (the Mini
    App's live table, :func:`bot.keyboards.webapp.tournament_button`) as the last row when given."""
    button = InlineKeyboardButton
    rows: list[list[InlineKeyboardButton]] = []
    first = [button(text=tr(lang, "tour.btn.leave"), callback_data=tour_callback(tournament_id, "leave"))]
    if not full:
        first.insert(0, button(text=tr(lang, "tour.btn.join"), callback_data=tour_callback(tournament_id, "join")))
    rows.append(first)
    rows.append(
        [
            button(text=tr(lang, "tour.btn.start"), callback_data=tour_callback(tournament_id, "start")),
            button(text=tr(lang, "tour.btn.cancel"), callback_data=tour_callback(tournament_id, "cancel")),
        ]
    )
    if not full:
        rows.append(
            [
                button(
                    text=tr(lang, "tour.btn.add", level=tr(lang, f"level.{level}")),
                    callback_data=tour_callback(tournament_id, "add", level),
                )
                for level in COMPUTER_LEVELS
            ]
        )
    if deep_link:
        rows.append([button(text=tr(lang, "tour.btn.open_bot"), url=deep_link)])
    if app_button is not None:
        rows.append([app_button])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def menu_keyboard(
    tournament_id: str,
    lang: str,
    *,
    watch: list[tuple[str, str]] | None = None,
    app_button: InlineKeyboardButton | None = None,
) -> InlineKeyboardMarkup:
    """Return the keyboard under the standings shown by ``/tournament`` during play: standings, my match,
    pairings, withdraw, ``app_button`` (the Mini App's live table, :func:`bot.keyboards.webapp.tournament_button`)
    when given, and one "watch" button per running match (``watch``: label and match index)."""
    button = InlineKeyboardButton
    rows = [
        [
            button(text=tr(lang, "tour.btn.table"), callback_data=tour_callback(tournament_id, "table")),
            button(text=tr(lang, "tour.btn.pairs"), callback_data=tour_callback(tournament_id, "pairs")),
        ],
        [
            button(text=tr(lang, "tour.btn.mine"), callback_data=tour_callback(tournament_id, "mine")),
            button(text=tr(lang, "tour.btn.quit"), callback_data=tour_callback(tournament_id, "quit")),
        ],
    ]
    if app_button is not None:
        rows.append([app_button])
    for label, index in (watch or [])[:8]:
        rows.append(
            [
                button(
                    text=tr(lang, "tour.btn.watch", match=label),
                    callback_data=tour_callback(tournament_id, "watch", index),
                )
            ]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def quit_confirm_keyboard(tournament_id: str, lang: str) -> InlineKeyboardMarkup:
    """Return the "really withdraw?" keyboard."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=tr(lang, "tour.btn.quit_yes"), callback_data=tour_callback(tournament_id, "quit_yes")
                )
            ]
        ]
    )
