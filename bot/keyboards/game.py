"""Keyboards of the board message: step buttons, undo/confirm, roll/double, take/pass, resignation, game over."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.keyboards.callbacks import ComputerCb, HistoryCb, MenuCb, game_button_data
from bot.model.actions import ChooseDoubleAction, GameAction, GameCommand, ResignAction, StepAction
from bot.texts import tr
from bot.variants import computer_levels, computer_variants
from nardy import Game, Phase, Step

STEPS_PER_ROW = 3


def step_label(step: Step) -> str:
    """Return the button text of a step, e.g. ``13→7``, ``bar→22``, ``in→20`` (from the reserve), ``6→off``,
    ``8→5*`` (a hit, or in Plakoto a pin)."""
    src = {25: "bar", 26: "in"}.get(step.src, str(step.src))
    dst = "off" if step.dst == 0 else str(step.dst)
    return f"{src}→{dst}{'*' if step.hit else ''}"


def _cb(game_id: str, version: int, action: GameAction) -> str:
    return game_button_data(game_id, version, action)


def game_keyboard(
    game: Game,
    game_id: str,
    version: int,
    lang: str,
    *,
    options: list[Step],
    pending: list[Step],
    complete: bool,
    next_cube: int,
    undo: bool | None = None,
) -> InlineKeyboardMarkup | None:
    """Return the keyboard of the player whose action is awaited, or None when nobody can press anything.

    ``options``: the legal next steps; ``pending``: steps already played this turn; ``complete``: the turn can be
    confirmed; ``next_cube``: the cube value a double would offer; ``undo``: whether Undo is offered (default: when
    steps are pending — pass False when the pending steps were all played by the bot itself).
    """
    rows: list[list[InlineKeyboardButton]] = []
    if game.phase is Phase.MOVE:
        row: list[InlineKeyboardButton] = []
        labels = [step_label(step) for step in options]
        for step, label in zip(options, labels, strict=True):
            if labels.count(label) > 1:  # e.g. bearing off from 3 with a 4 or a 5
                label = f"{label} ({step.die})"
            row.append(InlineKeyboardButton(text=label, callback_data=_cb(game_id, version, StepAction.of(step))))
            if len(row) == STEPS_PER_ROW:
                rows.append(row)
                row = []
        if row:
            rows.append(row)
        tail: list[InlineKeyboardButton] = []
        if pending if undo is None else undo:
            tail.append(
                InlineKeyboardButton(text=tr(lang, "btn.undo"), callback_data=_cb(game_id, version, GameCommand.UNDO))
            )
        if complete:
            tail.append(
                InlineKeyboardButton(
                    text=tr(lang, "btn.confirm"), callback_data=_cb(game_id, version, GameCommand.CONFIRM)
                )
            )
        if tail:
            rows.append(tail)
    elif game.phase is Phase.CHOOSE:
        doubles = [
            InlineKeyboardButton(text=f"{die}-{die}", callback_data=_cb(game_id, version, ChooseDoubleAction(die)))
            for die in range(1, 7)
        ]
        rows.extend([doubles[:3], doubles[3:]])
    elif game.phase is Phase.ROLL:
        rows.append(
            [
                InlineKeyboardButton(text=tr(lang, "btn.roll"), callback_data=_cb(game_id, version, GameCommand.ROLL)),
                InlineKeyboardButton(
                    text=tr(lang, "btn.double", value=next_cube),
                    callback_data=_cb(game_id, version, GameCommand.DOUBLE),
                ),
            ]
        )
    elif game.phase is Phase.DOUBLED:
        row = [InlineKeyboardButton(text=tr(lang, "btn.take"), callback_data=_cb(game_id, version, GameCommand.TAKE))]
        if game.can_raccoon():
            row.append(
                InlineKeyboardButton(
                    text=tr(lang, "btn.raccoon"), callback_data=_cb(game_id, version, GameCommand.RACCOON)
                )
            )
        else:
            row.append(
                InlineKeyboardButton(text=tr(lang, "btn.pass"), callback_data=_cb(game_id, version, GameCommand.PASS))
            )
        if game.can_beaver():
            row.append(
                InlineKeyboardButton(
                    text=tr(lang, "btn.beaver"), callback_data=_cb(game_id, version, GameCommand.BEAVER)
                )
            )
        rows.append(row)
    elif game.phase is Phase.RESIGN:
        rows.append(
            [
                InlineKeyboardButton(
                    text=tr(lang, "btn.accept"), callback_data=_cb(game_id, version, GameCommand.ACCEPT_RESIGNATION)
                ),
                InlineKeyboardButton(
                    text=tr(lang, "btn.decline"), callback_data=_cb(game_id, version, GameCommand.DECLINE_RESIGNATION)
                ),
            ]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def resign_keyboard(game: Game, game_id: str, version: int, lang: str, player: int) -> InlineKeyboardMarkup:
    """Return the resigning ``player``'s buttons of the resignation levels (``rs<player>-<level>``)."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=tr(lang, "btn.resign", level=tr(lang, f"kind.{level}")),
                    callback_data=_cb(game_id, version, ResignAction(player, level)),
                )
            ]
            for level in game.resign_levels()
        ]
    )


def over_keyboard(
    game_id: str, version: int, variant: str, lang: str, *, computer: bool = False
) -> InlineKeyboardMarkup:
    """Return the game-over buttons: Rematch and New game (against the computer again when ``computer``), and
    Record, which sends the game's record files as ``/export`` does (the ``/history`` Export press)."""
    new = MenuCb(action="bot" if computer else f"new_{variant}")
    record = HistoryCb(game_id=game_id, action="export")
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=tr(lang, "btn.rematch"), callback_data=_cb(game_id, version, GameCommand.REMATCH)
                ),
                InlineKeyboardButton(text=tr(lang, "btn.new"), callback_data=new.pack()),
            ],
            [InlineKeyboardButton(text=tr(lang, "btn.record"), callback_data=record.pack())],
        ]
    )


def computer_keyboard(offer_id: str, variant: str, level: str, lang: str) -> InlineKeyboardMarkup:
    """Return the "play against the computer" chooser: the variants the computer plays (two a row), the levels it
    has for the chosen variant (the chosen ones ticked) and Start."""
    variants = computer_variants()

    def button(key: str, new_variant: str, new_level: str, chosen: bool) -> InlineKeyboardButton:
        cb = ComputerCb(offer_id=offer_id, action="pick", variant=new_variant, level=new_level)  # type: ignore[arg-type]
        return InlineKeyboardButton(text=("✓ " if chosen else "") + tr(lang, key), callback_data=cb.pack())

    start = ComputerCb(offer_id=offer_id, action="go", variant=variant, level=level)  # type: ignore[arg-type]
    return InlineKeyboardMarkup(
        inline_keyboard=[
            *(
                [button(f"btn.{v}", v, level, v == variant) for v in variants[i : i + 2]]
                for i in range(0, len(variants), 2)
            ),
            [button(f"btn.{lv}", variant, lv, lv == level) for lv in computer_levels(variant)],
            [InlineKeyboardButton(text=tr(lang, "btn.start"), callback_data=start.pack())],
        ]
    )
