"""Time control, typed: the clock a game is played on (docs/rules.md §1 "Time control").

A :class:`TimeControl` is what players choose (``12+1``: a delay of D seconds per action plus a reserve of r minutes
per point of the match); a :class:`GameClock` is the state the game record keeps under ``"clock"``::

    {"delay": D, "per_point": r, "reserves": [seconds left of player 0, of player 1],
     "running"?: the player whose action is awaited, "began"?: unix time that action began,
     "started"?: unix time the player's time started to count (the board of the action reached them),
     "first"?: the players whose first action of the session is still to come, "flag"?: the player who ran out of time,
     "action"?: how many actions have begun on the clock, "berserk"?: the players who went berserk}

**A clock runs only once its board is seen.** An action begins when it is saved (``began``), but the player's time
counts from the moment the board of that action reached them (``started``: the first board of that version or a
later one delivered to a chat where they play, or the Mini App showing it to them, whichever is first), so a board
held back by Telegram's pacing costs nobody time. Until then the clock *waits* (``running`` set, ``started`` None): no
deadline, nothing charged. The moment of delivery is recorded beside the record, not in it (it would otherwise be a
new version to draw): :meth:`GameClock.seen` applies it when the record is read. A record written before ``began``
existed has ``started`` alone: its clock runs as it always did.

**The first action of each player** in a session is timed by the first-move window (:data:`FIRST_MOVE_WINDOW` from
the delivery, as lichess gives a first move its own countdown) instead of the clock: nothing is taken from the
reserve, and a missed window ends the session (docs/rules.md §1 "Time control").

**Berserk** (an arena's, docs/rules.md "Arena"): a player may, before their first action of the session, give up half
their reserve and the delay (:meth:`GameClock.go_berserk`); a berserk side's actions have no delay. A record without
``"berserk"`` has none.

Everything about the clock is computed from this value and the server's time alone: the reserve left now
(:meth:`GameClock.left`, for a view that shows it ticking), when the running player's time runs out
(:meth:`GameClock.deadline`), and the clock after an action (:meth:`GameClock.charge`, :meth:`GameClock.await_board`,
:meth:`GameClock.seen`).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Annotated, Final

from pydantic import BeforeValidator, Field, SerializerFunctionWrapHandler, StrictInt, model_serializer
from pydantic.dataclasses import dataclass

from bot.model.codec import JsonObject, dump, load

MIN_DELAY: Final = 0.0
MAX_DELAY: Final = 60.0
"""The delay D per action, in seconds: 0 to 60."""
MIN_PER_POINT: Final = 0.25
MAX_PER_POINT: Final = 10.0
"""The reserve r per point of the match, in minutes: 0.25 to 10."""
FIRST_MOVE_WINDOW: Final = 60.0
"""Seconds a player has for their first action of a session, from the moment its board reached them: a player who
came from a notification has time to open the chat, and one who never comes does not hold the game for the whole
reserve."""

_CONTROL = re.compile(r"^\s*(\d{1,3})\s*\+\s*(\d{1,3}(?:[.,]\d{1,2})?)\s*$")
"""``D+r``: D whole seconds, r minutes with at most two decimals (so a label is at most 7 characters: ``60+0.25``)."""


CLOCK_WORDS: Final = ("clock", "контроль", "часы")
"""The words that name a time control in a command's arguments: ``clock 12+1``, ``контроль 12+1``."""


class ClockError(ValueError):
    """A time control that cannot be used: not ``D+r`` or out of the limits (the message says which; ``value``:
    the text as typed)."""

    def __init__(self, message: str, value: str = "") -> None:
        super().__init__(message)
        self.value = value


def clock_in(args: str | None) -> TimeControl | None:
    """Return the time control named in a command's arguments (``... clock 12+1`` or ``контроль 12+1``), None when
    none is named.

    Raises: ClockError (``value``: the text after the word) when the value is missing, not ``D+r`` or out of the
    limits."""
    words = (args or "").split()
    for index, word in enumerate(words):
        if word.lower() in CLOCK_WORDS:
            value = words[index + 1] if index + 1 < len(words) else ""
            try:
                return TimeControl.parse(value)
            except ClockError as error:
                raise ClockError(str(error), value) from None
    return None


def _seconds(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError("must be a finite number")
    return float(value)


Seconds = Annotated[float, BeforeValidator(_seconds)]


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A chosen time control: ``delay`` seconds free per action, then a reserve of ``per_point`` minutes per point
    of the match (a single game counts as one point)."""

    delay: Annotated[Seconds, Field(ge=MIN_DELAY, le=MAX_DELAY)]
    per_point: Annotated[Seconds, Field(ge=MIN_PER_POINT, le=MAX_PER_POINT)]

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Return the time control written ``D+r`` (``12+1``, ``0+0.5``): D whole seconds, r minutes with at most two
        decimals (a decimal comma is read too).

        Raises: ClockError when the text is not ``D+r`` or a value is out of its limits."""
        found = _CONTROL.match(text)
        if found is None:
            raise ClockError(f"{text[:20]!r} is not D+r", text)
        delay, per_point = (float(part.replace(",", ".")) for part in found.groups())
        if not MIN_DELAY <= delay <= MAX_DELAY:
            raise ClockError(f"the delay {delay:g} s is not within {MIN_DELAY:g}–{MAX_DELAY:g} s", text)
        if not MIN_PER_POINT <= per_point <= MAX_PER_POINT:
            limits = f"{MIN_PER_POINT:g}–{MAX_PER_POINT:g}"
            raise ClockError(f"the reserve {per_point:g} min per point is not within {limits}", text)
        return cls(delay, per_point)

    @property
    def label(self) -> str:
        """Return the control as typed: ``12+1``."""
        return f"{self.delay:g}+{self.per_point:g}"

    def reserve(self, length: int) -> float:
        """Return each player's reserve, in seconds, for a match to ``length`` points (0: a single game, one point)."""
        return self.per_point * 60.0 * max(1, length)

    def to_dict(self) -> JsonObject:
        """Return the control as stored: ``{"delay", "per_point"}``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> TimeControl:
        """Return the control of a stored ``{"delay", "per_point"}``. Raises: ClockError when it is malformed or
        out of the limits."""
        return load(cls, data, ClockError)


Side = Annotated[StrictInt, Field(ge=0, le=1)]


@dataclass(frozen=True, slots=True)
class GameClock:
    """A game's clock (see the module docstring). ``running``: the player whose action is awaited (None: nobody's
    clock runs — the computer's turn, between games, the game over); ``began``: when that action began; ``started``:
    when the player's time started to count (None while the clock waits for the board to reach them); ``first``: the
    players whose first action of the session is still to come; ``flag``: the player who lost on time; ``action``:
    how many actions have begun on this clock (the awaited one's number: what a mark of its board names); ``berserk``:
    the players who went berserk (their delay is 0, their reserve was halved)."""

    delay: Seconds
    per_point: Seconds
    reserves: tuple[Seconds, Seconds]
    running: Side | None = None
    started: Seconds | None = None
    flag: Side | None = None
    began: Seconds | None = None
    first: tuple[Side, ...] = ()
    action: Annotated[StrictInt, Field(ge=0)] = 0
    berserk: tuple[Side, ...] = ()

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        for key in ("running", "started", "flag", "began"):
            if data[key] is None:
                del data[key]
        for key in ("first", "action", "berserk"):
            if not data[key]:
                del data[key]
        for key in ("first", "berserk"):
            if key in data:
                data[key] = list(data[key])
        data["reserves"] = list(data["reserves"])
        return data

    @classmethod
    def new(cls, control: TimeControl, length: int) -> GameClock:
        """Return the clock of a new match to ``length`` points under ``control``: full reserves, not running, both
        players' first actions to come."""
        reserve = control.reserve(length)
        return cls(control.delay, control.per_point, (reserve, reserve), first=(0, 1))

    @property
    def control(self) -> TimeControl:
        """Return the time control the clock was set to."""
        return TimeControl(self.delay, self.per_point)

    def delay_of(self, side: int) -> float:
        """Return the delay of ``side``'s actions: none for a berserk side, else the control's."""
        return 0.0 if side in self.berserk else self.delay

    def may_go_berserk(self, side: int) -> bool:
        """Return whether ``side`` may still go berserk: their first action of the session is to come, nobody's
        flag fell and they have not gone berserk yet."""
        return side in self.first and side not in self.berserk and self.flag is None

    def go_berserk(self, side: int) -> GameClock:
        """Return the clock with ``side`` berserk: half their reserve taken away and no delay for their actions.

        Raises: ClockError when they may not (:meth:`may_go_berserk`)."""
        if not self.may_go_berserk(side):
            raise ClockError("berserk only before one's first action")
        reserves = list(self.reserves)
        reserves[side] = reserves[side] / 2
        return replace(self, reserves=(reserves[0], reserves[1]), berserk=tuple(sorted((*self.berserk, side))))

    @property
    def waiting(self) -> bool:
        """Whether an action is awaited whose board has not reached its player yet (no time counts)."""
        return self.running is not None and self.started is None and self.flag is None

    @property
    def opening(self) -> bool:
        """Whether the awaited action is its player's first of the session (timed by the first-move window)."""
        return self.running is not None and self.running in self.first

    def deadline(self) -> float | None:
        """Return the unix time the running player's time runs out (start + delay + reserve, or start + the
        first-move window for a first action), None when no clock runs or it waits for its board."""
        if self.running is None or self.started is None:
            return None
        if self.opening:
            return self.started + FIRST_MOVE_WINDOW
        return self.started + self.delay_of(self.running) + self.reserves[self.running]

    def expired(self, now: float) -> bool:
        """Return whether the running player's time has run out at ``now``."""
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def left(self, side: int, now: float) -> float:
        """Return the reserve ``side`` has at ``now``, in seconds (the delay of a running action and a first
        action not counted, never below 0): what a live view shows ticking."""
        reserve = self.reserves[side]
        if side == self.running and self.started is not None and not self.opening:
            reserve -= max(0.0, now - self.started - self.delay_of(side))
        return max(0.0, reserve)

    def charge(self, now: float) -> GameClock:
        """Return the clock with the running action made at ``now``: the time beyond the delay taken from the
        running player's reserve (never below 0; the reserve never grows; nothing for a first action or one made
        before its board was seen), and no clock running."""
        if self.running is None:
            return self.stopped()
        reserves = list(self.reserves)
        reserves[self.running] = self.left(self.running, now)
        first = tuple(side for side in self.first if side != self.running)
        return replace(self.stopped(), reserves=(reserves[0], reserves[1]), first=first)

    def start(self, side: int | None, now: float) -> GameClock:
        """Return the clock with ``side``'s action beginning at ``now`` and its time counting at once (None: no
        clock runs)."""
        if side is None:
            return self.stopped()
        return replace(self, running=side, started=now, began=now, action=self.action + 1)

    def await_board(self, side: int | None, now: float) -> GameClock:
        """Return the clock with ``side``'s action beginning at ``now``, its time counting only from when its board
        reaches them (:meth:`seen`; None: no clock runs)."""
        if side is None:
            return self.stopped()
        return replace(self, running=side, started=None, began=now, action=self.action + 1)

    def seen(self, action: int, at: float) -> GameClock:
        """Return the clock with the board of its ``action``-th action seen by its player at ``at``: its time counts
        from then (never before the action began). Any other clock is returned unchanged (the mark belongs to an
        earlier action, or the time already counts)."""
        if not self.waiting or self.action != action or self.began is None:
            return self
        return replace(self, started=max(at, self.began))

    def stopped(self) -> GameClock:
        """Return the clock with no clock running (the reserves unchanged)."""
        return replace(self, running=None, started=None, began=None)

    def ran_out(self) -> GameClock:
        """Return the clock of a match lost on time by the running player: that reserve 0, the flag theirs (a
        missed first-move window keeps the reserve).

        Raises: ClockError when no clock runs."""
        if self.running is None:
            raise ClockError("no clock runs")
        reserves = list(self.reserves)
        if not self.opening:
            reserves[self.running] = 0.0
        return replace(self.stopped(), reserves=(reserves[0], reserves[1]), flag=self.running)

    def to_dict(self) -> JsonObject:
        """Return the clock as stored under the record's ``"clock"``."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> GameClock:
        """Return the clock of a stored ``"clock"`` value. Raises: ClockError when it is malformed."""
        return load(cls, data, ClockError)


def format_reserve(seconds: float) -> str:
    """Return a reserve as a clock shows it: ``m:ss`` (``3:12``; whole seconds, rounded down)."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"
