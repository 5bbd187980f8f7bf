"""The arena's standings from its record: the pure scoring of :mod:`tournaments.arena` over the counted games, with
the players' ratings when they joined (for the performance tie-break)."""

from __future__ import annotations

from bot.model.arena import ArenaRecord
from tournaments.arena import ArenaStanding, arena_standings


def standings(record: ArenaRecord) -> list[ArenaStanding]:
    """Return the standings of every player who joined (withdrawn ones too: their score stays), best first."""
    players = [p.pid for p in record.players]
    return arena_standings(players, record.pure_games(), record.ratings(), record.settings.rules)


def scores(record: ArenaRecord) -> dict[str, int]:
    """Return player id → arena score."""
    return {s.player: s.score for s in standings(record)}
