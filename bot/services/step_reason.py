"""Why the engine refuses one checker step: the Mini App's drop of a checker on a point no legal step reaches."""

from __future__ import annotations

from collections.abc import Sequence

from bot.model.actions import StepAction
from bot.texts import illegal_move_text, tr
from nardy import Game, NardyError, Phase, Step
from nardy.matching import match_move


def _point(value: int, *, source: bool) -> str:
    """Return a step's point as the move notation writes it (bar, off, the reserve's ``in``)."""
    if source and value == 25:
        return "bar"
    if source and value == 26:
        return "in"
    if not source and value == 0:
        return "off"
    return str(value)


def step_refusal(game: Game, pending: Sequence[Step], action: StepAction, lang: str) -> str:
    """Return why the engine refuses ``action`` after the steps ``pending`` of the turn being built, in ``lang``
    (the same explanation a typed move gets, :func:`bot.texts.illegal_move_text`): the turn written so far with the
    step added is matched against the legal turns, and the rule that stops it is named. Returns the generic
    refusal ("This button is not valid any more.") when the game awaits no move or the engine names no rule.
    Raises nothing."""
    if game.phase is not Phase.MOVE:
        return str(tr(lang, "toast.bad"))
    hops = [*((s.src, s.dst) for s in pending), (action.src, action.dst)]
    text = " ".join(f"{_point(a, source=True)}/{_point(b, source=False)}" for a, b in hops)
    try:
        match_move(game.plan(), text)
    except NardyError as error:
        code = getattr(error, "code", None)
        if isinstance(code, str) and code != "incomplete":
            return str(illegal_move_text(lang, error))
    return str(tr(lang, "toast.bad"))
