"""The lobby's rules as pure functions (docs/rules.md "Lobby"): what ``/play`` reads, the seek's key, the
cool-down after abandoned games and who abandoned a game (a game's winner and its series score are
:mod:`bot.services.series`). No I/O."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.model.clock import ClockError, TimeControl, clock_in
from bot.model.game import GameRecord
from bot.model.lobby import KEPT_GAMES, Abandons
from bot.services.clocks import cancelled
from bot.services.ratings import session_moves
from bot.services.series import game_winner, series_score
from bot.variants import DEFAULT, KINDS, OFFERED, resolve

LOBBY_POOL: Final = "lobby"
LOBBY_TICKER_LEAD: Final = "lobby-ticker"
"""The name under which one worker at a time leads the ticker's passes (a lead of its own: the matchmaker's pass lease
on :data:`LOBBY_POOL` serialises the passes themselves, whoever starts them)."""
"""The pairing pool of the lobby (:mod:`bot.storage.pools`)."""
DEFAULT_CLOCK: Final = TimeControl(12.0, 2.0)
"""The lobby's clock when none is asked: a delay of 12 s per action and a reserve of 2 minutes (the standard
backgammon clock of a 1-point game, the arena's too): a game lasts about five to ten minutes."""
GAME_LENGTH: Final = 0
"""A lobby game is a single game (rated as a match to 1; its clock's reserve is that of one point); players who
want more play a series with Rematch."""
COOLDOWNS: Final = (300.0, 1800.0, 86400.0)
"""The cool-down after the 1st, 2nd and 3rd (and every further) abandonment in a row: 5 min, 30 min, 1 day."""
CLEAN_AFTER: Final = 7 * 86400.0
"""Seconds without abandoning after which the count of abandonments starts again from zero."""
MORE_WORDS: Final = ("more", "ещё", "еще")
"""The word of ``/play`` that asks for a lobby game beside a running game."""
MAX_BLOCKED: Final = 500
"""How many blocked players a user's settings keep (the oldest block is forgotten beyond)."""


def lobby_variants() -> tuple[str, ...]:
    """Return the variants the lobby pairs: every offered variant but the rotating match kinds (tavli, mixed), which
    are matches, not single games."""
    return tuple(v for v in OFFERED if v not in KINDS)


class PlayArgsError(ValueError):
    """``/play`` arguments that cannot be read (``word``: the first one not understood)."""

    def __init__(self, word: str) -> None:
        super().__init__(f"cannot read {word!r}")
        self.word = word


@dataclass(frozen=True, slots=True)
class PlayRequest:
    """What ``/play`` asks for: the variant and clock (None: the defaults) and whether beside a running game."""

    variant: str | None = None
    clock: TimeControl | None = None
    more: bool = False


def parse_play(args: str | None) -> PlayRequest:
    """Return the request of ``/play`` arguments: a game's name (any alias), a clock ``D+r`` (alone or after
    ``clock``/``контроль``) and ``more`` (``ещё``), in any order.

    Raises: PlayArgsError for a word that is none of these (an unknown game, a match kind, a malformed clock);
    ClockError (``value``: the text) for a clock out of the limits."""
    words = (args or "").split()
    variant: str | None = None
    clock: TimeControl | None = None
    more = False
    skip = False
    for index, word in enumerate(words[:8]):
        if skip:
            skip = False
            continue
        lower = word.casefold()
        if lower in MORE_WORDS:
            more = True
        elif lower in ("clock", "контроль", "часы"):
            clock = clock_in(" ".join(words[index:]))
            skip = True
        elif "+" in word:
            clock = TimeControl.parse(word)
        elif (name := resolve(lower)) is not None and name in lobby_variants():
            variant = name
        else:
            raise PlayArgsError(word)
    if len(words) > 8:
        raise PlayArgsError(words[8])
    return PlayRequest(variant, clock, more)


def seek_key(variant: str, clock: TimeControl) -> str:
    """Return the key of a seek: only seeks of equal keys (the same game on the same clock) are paired."""
    return f"{variant}|{clock.label}"


def default_variant(variant: str | None) -> str:
    """Return the variant a seek plays: the one asked, else short nardy."""
    return variant if variant in lobby_variants() else DEFAULT


def cooldown_until(abandons: Abandons | None, now: float) -> float | None:
    """Return until when a user with these abandonments may not seek (None: they may): the latest abandonment plus
    the cool-down of its rank in the row (:data:`COOLDOWNS`), unless the row is over (:data:`CLEAN_AFTER`)."""
    if abandons is None or abandons.count <= 0 or now - abandons.last >= CLEAN_AFTER:
        return None
    until = abandons.last + COOLDOWNS[min(abandons.count, len(COOLDOWNS)) - 1]
    return until if until > now else None


def after_abandon(abandons: Abandons | None, game_id: str, at: float) -> Abandons | None:
    """Return the abandonments once the game ``game_id`` abandoned at ``at`` is counted, or None when it was counted
    already (nothing changes). A row 7 days apart from the last abandonment starts again from one."""
    before = abandons or Abandons()
    if game_id in before.games:
        return None
    count = 1 if before.count <= 0 or at - before.last >= CLEAN_AFTER else before.count + 1
    return Abandons(count, at, (*before.games, game_id)[-KEPT_GAMES:])


def abandoned_by(record: GameRecord) -> int | None:
    """Return the player (0 or 1) who abandoned a finished lobby game: whose clock ran out (the first-move window
    missed, or the flag fell) without a move of their own in the game; None when nobody did."""
    clock = record.clock
    if record.lobby is None or clock is None or clock.flag is None:
        return None
    loser = clock.flag
    if cancelled(record):
        return loser
    try:
        moves = session_moves(record.match)
    except (KeyError, TypeError, ValueError):
        return None
    return loser if moves[loser] == 0 else None


__all__ = [
    "COOLDOWNS",
    "DEFAULT_CLOCK",
    "GAME_LENGTH",
    "LOBBY_POOL",
    "LOBBY_TICKER_LEAD",
    "ClockError",
    "PlayArgsError",
    "PlayRequest",
    "abandoned_by",
    "after_abandon",
    "cooldown_until",
    "default_variant",
    "game_winner",
    "lobby_variants",
    "parse_play",
    "seek_key",
    "series_score",
]
