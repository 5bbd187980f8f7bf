"""The arena's texts for the chats (Telegram HTML, in the record's language or a viewer's): the card, the standings
table and the result. Pure: from the record and the time alone."""

from __future__ import annotations

import html
import math
from typing import Final

from bot.model.arena import ArenaRecord
from bot.services.arena.table import standings
from bot.texts import tr
from tournaments.arena import ArenaStanding

MAX_LISTED: Final = 20
"""Players listed in a standings message (the Mini App shows everyone)."""
LEFT_STEP: Final = 600.0
"""The card shows the time left in whole tens of minutes (so that it is edited about every ten minutes at most)."""


def minutes_left(record: ArenaRecord, now: float, *, step: float = LEFT_STEP) -> int:
    """Return the minutes left, rounded up to ``step`` seconds (0 once it is over)."""
    left = max(0.0, record.ends_at - now)
    return int(math.ceil(left / step) * step / 60) if left > 0 else 0


def settings_line(lang: str, record: ArenaRecord) -> str:
    """Return the line of the arena's game, length, clock and scoring."""
    settings = record.settings
    line = tr(
        lang,
        "arena.summary",
        variant=tr(lang, f"variant.{settings.variant}"),
        minutes=settings.minutes,
        control=settings.clock.label,
    )
    if settings.status_bonus:
        line = tr(lang, "arena.summary.status", summary=line)
    return line


def card_text(lang: str, record: ArenaRecord, now: float) -> str:
    """Return the card's text: the settings, the time left (or that it is over), the players in and playing, and
    how to take part; at the end, how many games still running do not count."""
    lines = [tr(lang, "arena.title"), settings_line(lang, record), ""]
    active = [p for p in record.players if not p.withdrawn]
    if record.status == "running":
        lines.append(tr(lang, "arena.left", count=minutes_left(record, now)))
        lines.append(tr(lang, "arena.players", count=len(active), playing=len(record.busy())))
        lines += ["", tr(lang, "arena.hint")]
    else:
        games = tr(lang, "arena.over.games", games=len(record.games))
        lines.append(tr(lang, "arena.over", count=len(record.players), games=games))
        if record.late:
            lines.append(tr(lang, "arena.late", count=len(record.late)))
    return "\n".join(lines)


def standing_line(record: ArenaRecord, standing: ArenaStanding) -> str:
    """Return one line of the table: rank, name, score, the fire mark and the last games' points."""
    player = record.player(int(standing.player))
    name = html.escape(player.name if player is not None else standing.player)
    fire = " 🔥" if standing.fire else ""
    sheet = "".join(_sheet_mark(e.points, e.won, e.fire) for e in standing.sheet[-10:])
    away = " ⏸" if player is not None and player.paused and not player.withdrawn else ""
    return f"{standing.rank}. {name} — <b>{standing.score}</b>{fire}{away} {sheet}".rstrip()


def _sheet_mark(points: int, won: bool, fire: bool) -> str:
    if not won:
        return "0"
    return f"<u>{points}</u>" if fire else str(points)


def standings_text(lang: str, record: ArenaRecord, now: float, *, final: bool = False) -> str:
    """Return the standings as a message: a title (the final result, or the time left), then the best
    :data:`MAX_LISTED` players."""
    table = standings(record)
    left = minutes_left(record, now, step=60.0)
    title = tr(lang, "arena.result.title" if final else "arena.standings.title", count=left)
    lines = [title, settings_line(lang, record), ""]
    lines += [standing_line(record, s) for s in table[:MAX_LISTED]]
    if len(table) > MAX_LISTED:
        lines.append(tr(lang, "tour.more", count=len(table) - MAX_LISTED))
    if not table:
        lines.append(tr(lang, "arena.nobody"))
    if final:
        lines += ["", tr(lang, "arena.result.games", games=len(record.games))]
        if record.late:
            lines.append(tr(lang, "arena.late", count=len(record.late)))
    return "\n".join(lines)
