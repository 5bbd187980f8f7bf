"""Whole-turn buttons: one press plays a whole turn.

A group allows about 20 messages or edits a minute, so in a group every press that only adds one checker step
(and costs one more board edit) slows the game for everyone. When the distinct legal turns that complete the steps
chosen so far are few (at most :data:`WHOLE_TURN_MAX`), the board offers them as whole-turn buttons (``t<index>``);
otherwise it offers single steps until they are few. The index refers to :func:`turn_choices` of the same game
version, which the callback's version pins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.keyboards.callbacks import game_button_data
from bot.model.actions import TurnAction
from nardy import Move, Step, TurnPlan

WHOLE_TURN_MAX: Final = 30
"""At most this many whole-turn buttons are offered at once."""
TURNS_PER_ROW: Final = 2
_MAX_NODES: Final = 5000


def turn_choices(
    plan: TurnPlan, pending: Sequence[Step], limit: int = WHOLE_TURN_MAX
) -> list[tuple[Move, list[Step]]] | None:
    """Return the distinct whole turns that complete ``pending`` (each with the steps that play it from the
    start of the turn), in the order :meth:`TurnPlan.moves` lists them; None when there are more than ``limit``
    (or the search grows too large). Empty when the roll is forfeited.

    Raises: IllegalMoveError when ``pending`` is not a valid start of a legal turn.
    """
    paths = plan.completion_paths(pending, limit, _MAX_NODES)
    if paths is None:
        return None
    found = dict(paths)
    order = {move.position: index for index, move in enumerate(plan.moves())}
    ranked = sorted(found.items(), key=lambda item: order.get(item[0], len(order)))
    return [(plan.move_for(steps), steps) for _, steps in ranked]


def turn_buttons(
    choices: Sequence[tuple[Move, list[Step]]], game_id: str, version: int
) -> list[list[InlineKeyboardButton]]:
    """Return rows of whole-turn buttons labelled with each turn's notation."""
    rows: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    for index, (move, _) in enumerate(choices):
        data = game_button_data(game_id, version, TurnAction(index))
        row.append(InlineKeyboardButton(text=move.notation or "—", callback_data=data))
        if len(row) == TURNS_PER_ROW:
            rows.append(row)
            row = []
    if row:
        rows.append(row)
    return rows
