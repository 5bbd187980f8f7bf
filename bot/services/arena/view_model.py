"""The arena as typed data for a viewer: what the Mini App's arena view shows (time left, the leaderboard with
streak marks, the viewer's own state and current game). :meth:`ArenaView.to_json` gives the API's JSON
(``GET /api/arenas/{id}``)::

    {"id", "title", "variant", "clock": "12+2", "ends_at", "now", "finished": bool,
     "players": [{"id", "name", "rank", "score", "fire", "sheet": [{"points", "fire", "berserk", "won"}], "games",
                  "paused", "withdrawn", "playing"}],
     "me": {"joined", "paused", "game"}}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.model.arena import ArenaRecord
from bot.services.arena.table import standings
from bot.texts import tr


@dataclass(frozen=True, slots=True)
class SheetView:
    """One game of a player's score sheet: the points it scored, on fire, berserk, won."""

    points: int
    fire: bool
    berserk: bool
    won: bool


@dataclass(frozen=True, slots=True)
class ArenaPlayerView:
    """One line of the leaderboard."""

    id: int
    name: str
    rank: int
    score: int
    fire: bool
    sheet: tuple[SheetView, ...]
    games: int
    paused: bool
    withdrawn: bool
    playing: bool


@dataclass(frozen=True, slots=True)
class MeView:
    """The viewer's own state: in the arena, paused, and the id of the game they play now (None: none)."""

    joined: bool
    paused: bool
    game: str | None


@dataclass(frozen=True, slots=True)
class ArenaView:
    """What one viewer sees of an arena (see the module docstring)."""

    id: str
    title: str
    variant: str
    clock: str
    ends_at: float
    now: float
    finished: bool
    players: tuple[ArenaPlayerView, ...]
    me: MeView

    def to_json(self) -> dict[str, Any]:
        """Return the view as the API's JSON object."""
        return {
            "id": self.id,
            "title": self.title,
            "variant": self.variant,
            "clock": self.clock,
            "ends_at": self.ends_at,
            "now": self.now,
            "finished": self.finished,
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "rank": p.rank,
                    "score": p.score,
                    "fire": p.fire,
                    "sheet": [
                        {"points": e.points, "fire": e.fire, "berserk": e.berserk, "won": e.won} for e in p.sheet
                    ],
                    "games": p.games,
                    "paused": p.paused,
                    "withdrawn": p.withdrawn,
                    "playing": p.playing,
                }
                for p in self.players
            ],
            "me": {"joined": self.me.joined, "paused": self.me.paused, "game": self.me.game},
        }


def arena_view(arena_id: str, record: ArenaRecord, viewer_id: int, now: float, lang: str) -> ArenaView:
    """Return the arena ``record`` as ``viewer_id`` sees it at ``now``, its words in ``lang``."""
    busy = record.busy()
    lines: list[ArenaPlayerView] = []
    for standing in standings(record):
        player = record.player(int(standing.player))
        if player is None:
            continue
        lines.append(
            ArenaPlayerView(
                id=player.user_id,
                name=player.name,
                rank=standing.rank,
                score=standing.score,
                fire=standing.fire,
                sheet=tuple(SheetView(e.points, e.fire, e.berserk, e.won) for e in standing.sheet),
                games=standing.games,
                paused=player.paused,
                withdrawn=player.withdrawn,
                playing=player.user_id in busy,
            )
        )
    me = record.player(viewer_id)
    game = record.game_of(viewer_id)
    title = f"{tr(lang, 'arena.name')} · {tr(lang, f'variant.{record.settings.variant}')}"
    return ArenaView(
        id=arena_id,
        title=title,
        variant=record.settings.variant,
        clock=record.settings.clock.label,
        ends_at=record.ends_at,
        now=now,
        finished=record.status != "running",
        players=tuple(lines),
        me=MeView(
            joined=me is not None and not me.withdrawn,
            paused=me is not None and me.paused,
            game=None if game is None else game.game_id,
        ),
    )
