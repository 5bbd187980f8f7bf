"""Game clocks (docs/rules.md §1 "Time control"): pure helpers between a saved action and the record's clock.

:func:`tick` is called by every save of a game (:meth:`bot.services.saving.GameSaver.save`): it charges the player
whose action was awaited and starts the clock of the side awaited next. :func:`lose_on_time` ends the match of a
player whose time has run out (the game's wake-up at the clock's deadline, :mod:`bot.services.clock_watch`; the
sweeper after a restart; or a save that comes after it); it is written with a compare-and-set by the saver, so it
happens once. Nothing here keeps state: the record is the clock.
"""

from __future__ import annotations

from typing import Any

from bot.model.clock import ClockError
from bot.model.game import Event, GameRecord
from bot.services.engine_flow import record_count
from nardy import Match, Phase


def awaited_side(record: GameRecord, match: Match) -> int | None:
    """Return the player whose action the match awaits and whose clock runs: None when the game is over or opens,
    or when the computer is to act (the computer has no clock)."""
    game = match.game
    if game.phase in (Phase.OVER, Phase.OPENING):
        return None
    side = game.turn
    if side not in (0, 1) or record.players[side].ai:
        return None
    return side


def acted(before: dict[str, Any], match: Match) -> bool:
    """Return whether the engine's match changed since the saved ``before`` (an action was made: a roll, a double,
    a move, an answer), as opposed to a step of a turn being built or taken back."""
    return record_count(before) != record_count(match.to_dict())


def tick(record: GameRecord, before: dict[str, Any], match: Match, now: float) -> None:
    """Bring the record's clock to the save of ``match`` at ``now`` (``before``: the saved match it follows):
    when an action was made or the awaited side changed, the running player is charged the time beyond the delay
    and the action of the side now awaited begins, its clock waiting until its board reaches them
    (:mod:`bot.services.clock_start`); a step of a turn being built leaves the clock as it is. Does nothing for a
    game without a clock. Mutates the record; returns nothing."""
    clock = record.clock
    if clock is None:
        return
    side = awaited_side(record, match)
    if side is not None and side == clock.running and not acted(before, match):
        return
    record.clock = clock.charge(now).await_board(side, now)


def clock_deadline(record: GameRecord) -> float | None:
    """Return when the running player's time runs out (None: no clock runs)."""
    return None if record.clock is None else record.clock.deadline()


def earliest(deadline: float, record: GameRecord) -> float:
    """Return the earlier of ``deadline`` (a reminder, a turn timeout or a wake-up) and the record's clock deadline:
    the store's deadline index never wakes a game later than its clock runs out."""
    clock = clock_deadline(record)
    return deadline if clock is None else min(deadline, clock)


def cancelled(record: GameRecord) -> bool:
    """Return whether the record's session was cancelled: a player missed the first-move window of a casual session
    (it counts for nobody)."""
    return any(event.get("first") == "cancelled" for event in record.events)


def ran_out(record: GameRecord, now: float) -> bool:
    """Return whether the running player's time has run out at ``now`` (the match is then lost on time)."""
    return record.clock is not None and record.clock.flag is None and record.clock.expired(now)


def lose_on_time(record: GameRecord, match: Match) -> int:
    """End ``match`` (the saved one, before any late action) as lost on time by the running player: the current
    game is abandoned by them (scored as a turn timeout scores it) and the session ends with the opponent the
    winner of the match, whatever the score. A player who missed the first-move window of their first action
    (:data:`~bot.model.clock.FIRST_MOVE_WINDOW`) cancels a casual session (counted for nobody: the event's
    ``"first"`` is ``"cancelled"``) and loses a tournament's match (``"lost"``). Sets the caption's events, the
    clock's flag, no turn deadline and no rating. Mutates both; returns the loser. Raises: ClockError when no clock
    runs; GameStateError when the saved game cannot be abandoned."""
    clock = record.clock
    if clock is None or clock.running is None:
        raise ClockError("no clock runs")
    loser = clock.running
    game = match.game
    if game.phase is not Phase.OVER:
        game.abandon(loser)
    assert game.result is not None
    record.clear_turn()
    over: Event = {"t": "over", **game.result.to_dict(), "score": list(match.score_after_game()), "time": loser}
    if clock.opening:  # the first-move window missed: a casual session is cancelled, a tournament's match lost
        over["first"] = "lost" if record.tournament is not None else "cancelled"
    record.events = [over]
    record.match = match.to_dict()
    record.clock = clock.ran_out()
    record.turn_deadline = None
    record.plan_rating(None)  # a match lost on time is not rated (docs/rules.md §8 "Ratings")
    return loser
