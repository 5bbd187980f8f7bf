"""The action of a game button, typed: what :class:`~bot.keyboards.callbacks.GameCb` carries in ``action``.

:data:`GameAction` is one union of value types, told apart by their class (a :class:`GameCommand` word, or a step,
a whole turn, a resignation level, a chosen double); :meth:`GameCb.parsed_action
<bot.keyboards.callbacks.GameCb.parsed_action>` is the one place a button's data becomes one, and
:mod:`bot.services.actions` dispatches on it with one ``match``.

The wire form (the ``action`` string inside the callback data) is what the first releases put on their buttons,
so old boards still in chats keep working:

- ``s<src>-<dst>-<die>`` — one checker step (:class:`StepAction`; the hit follows from the position);
- ``t<index>`` — a whole turn of :func:`bot.keyboards.turns.turn_choices` (:class:`TurnAction`);
- ``rs<player>-<level>`` — the resignation menu's levels (:class:`ResignAction`);
- ``cd<die>`` — the double named after an Acey-deucey 1-2 (:class:`ChooseDoubleAction`);
- the words of :class:`GameCommand`: ``undo``, ``ok``, ``roll``, ``double``, ``take``, ``pass``, ``beaver``,
  ``raccoon``, ``r-yes``, ``r-no``, ``rematch``, ``berserk``, and the "which game?" choices ``board`` and ``rsmenu``.

:func:`parse_action` accepts exactly the strings ``pack()`` makes (no leading zeros, numbers in range), so
``parse_action(a.pack()) == a`` and every other string — forged or garbled — is refused (None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, TypeAlias

from nardy import Step

_NUMBER: Final = r"(0|[1-9][0-9]?)"
_STEP_RE: Final = re.compile(rf"s{_NUMBER}-{_NUMBER}-([1-6])")
_TURN_RE: Final = re.compile(rf"t{_NUMBER}")
_RESIGN_RE: Final = re.compile(r"rs([01])-([a-z]{1,12})")
_CHOOSE_RE: Final = re.compile(r"cd([1-6])")


class GameCommand(StrEnum):
    """A button without arguments; its value is its wire form."""

    UNDO = "undo"
    CONFIRM = "ok"
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    ACCEPT_RESIGNATION = "r-yes"
    DECLINE_RESIGNATION = "r-no"
    REMATCH = "rematch"
    CHOOSE_BOARD = "board"
    """A "which game?" button that re-posts that game's board in the chat."""
    CHOOSE_RESIGN = "rsmenu"
    """A "which game?" button that offers the resignation levels of that game."""
    BERSERK = "berserk"
    """An arena game's "berserk" (before the player's first action: half the reserve and no delay, for a point more
    on a win; docs/rules.md "Arena")."""

    def pack(self) -> str:
        """Return the wire form."""
        return self.value


@dataclass(frozen=True, slots=True)
class StepAction:
    """One checker step: ``src`` 1..26 (25 = bar, 26 = the reserve), ``dst`` 0..24 (0 = off), by ``die`` 1..6."""

    src: int
    dst: int
    die: int

    @classmethod
    def of(cls, step: Step) -> StepAction:
        """Return the action of an engine step."""
        return cls(step.src, step.dst, step.die)

    def matches(self, step: Step) -> bool:
        """Return whether ``step`` is this step (the hit is not compared: it follows from the position)."""
        return (step.src, step.dst, step.die) == (self.src, self.dst, self.die)

    def pack(self) -> str:
        """Return the wire form ``s<src>-<dst>-<die>``."""
        return f"s{self.src}-{self.dst}-{self.die}"


@dataclass(frozen=True, slots=True)
class TurnAction:
    """A whole-turn button: the ``index`` of the turn in the keyboard's ``turn_choices`` (0..99)."""

    index: int

    def pack(self) -> str:
        """Return the wire form ``t<index>``."""
        return f"t{self.index}"


@dataclass(frozen=True, slots=True)
class ResignAction:
    """A level of the resignation menu of ``player`` (0 or 1); ``level`` is one of the variant's levels (checked
    by the engine)."""

    player: int
    level: str

    def pack(self) -> str:
        """Return the wire form ``rs<player>-<level>``."""
        return f"rs{self.player}-{self.level}"


@dataclass(frozen=True, slots=True)
class ChooseDoubleAction:
    """The double ``die``-``die`` (1..6) named after a wholly played Acey-deucey 1-2."""

    die: int

    def pack(self) -> str:
        """Return the wire form ``cd<die>``."""
        return f"cd{self.die}"


GameAction: TypeAlias = GameCommand | StepAction | TurnAction | ResignAction | ChooseDoubleAction
"""Every action a game button carries."""


def parse_action(text: str) -> GameAction | None:
    """Return the action of a button's wire form, or None when ``text`` is none that :func:`pack_action` makes.
    Never raises."""
    try:
        return GameCommand(text)
    except ValueError:
        pass
    if found := _STEP_RE.fullmatch(text):
        src, dst, die = (int(g) for g in found.groups())
        return StepAction(src, dst, die) if 1 <= src <= 26 and 0 <= dst <= 24 else None
    if found := _TURN_RE.fullmatch(text):
        return TurnAction(int(found.group(1)))
    if found := _RESIGN_RE.fullmatch(text):
        return ResignAction(int(found.group(1)), found.group(2))
    if found := _CHOOSE_RE.fullmatch(text):
        return ChooseDoubleAction(int(found.group(1)))
    return None


def pack_action(action: GameAction) -> str:
    """Return the wire form of ``action`` (the inverse of :func:`parse_action`)."""
    return action.pack()
