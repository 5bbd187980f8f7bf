"""The arena's standings as a picture for the group (:func:`rendering.render_arena_standings`): the words in the
record's language, the players' names and marks from the record, and the caption under it. Pure: from the record and
the time alone (the renderer is called by :mod:`bot.services.arena.messages`, off the event loop)."""

from __future__ import annotations

import html

from bot.model.arena import ArenaRecord
from bot.services.arena.table import standings
from bot.services.arena.texts import minutes_left, settings_line
from bot.texts import tr
from rendering import ArenaLabels, render_arena_standings
from rendering.arena import MAX_ROWS


def _plain(text: str) -> str:
    """Return a text of :func:`bot.texts.tr` (Telegram HTML) as the words drawn on a picture."""
    return html.unescape(text)


def arena_labels(lang: str, record: ArenaRecord, now: float, *, final: bool = False) -> ArenaLabels:
    """Return the picture's words in ``lang``: the headers, the header line (the minutes left, or that the arena is
    over with its players and games), the "+N more" line and the legend."""
    hidden = max(0, len(record.players) - MAX_ROWS)
    return ArenaLabels(
        rank=_plain(tr(lang, "table.number")),
        player=_plain(tr(lang, "table.player")),
        score=_plain(tr(lang, "arena.table.score")),
        games=_plain(tr(lang, "arena.table.games")),
        sheet=_plain(tr(lang, "arena.table.sheet")),
        time_left=_plain(tr(lang, "arena.left", count=minutes_left(record, now, step=60.0))),
        finished=_plain(tr(lang, "arena.over", count=len(record.players), games=len(record.games))),
        more=_plain(tr(lang, "tour.more", count=hidden)),
        nobody=_plain(tr(lang, "arena.nobody")),
        fire=_plain(tr(lang, "arena.table.fire")),
        berserk=_plain(tr(lang, "arena.table.berserk")),
        paused=_plain(tr(lang, "arena.table.paused")),
        left=_plain(tr(lang, "arena.table.left")),
    )


def standings_picture(
    lang: str, record: ArenaRecord, now: float, theme: str = "classic", *, final: bool = False
) -> bytes:
    """Return the standings picture (JPEG) at ``now``: the live one (the minutes left), or with ``final`` the
    result (the arena is over). Raises: whatever the renderer raises."""
    title = tr(lang, "arena.result.title" if final else "arena.picture.title")
    return render_arena_standings(
        standings(record),
        {p.pid: p.name for p in record.players},
        theme=theme,
        labels=arena_labels(lang, record, now, final=final),
        title=_plain(title),
        minutes_left=None if final or record.status != "running" else minutes_left(record, now, step=60.0),
        paused={p.pid for p in record.players if p.paused and not p.withdrawn},
        left={p.pid for p in record.players if p.withdrawn},
        max_rows=MAX_ROWS,
    )


def standings_caption(lang: str, record: ArenaRecord, now: float, *, final: bool = False) -> str:
    """Return the caption under the picture (Telegram HTML): the title with the minutes left, or the result's with
    the podium, the games counted and those that did not count; then the arena's settings."""
    left = minutes_left(record, now, step=60.0)
    lines: list[str] = [tr(lang, "arena.result.title" if final else "arena.standings.title", count=left)]
    lines.append(settings_line(lang, record))
    if final:
        podium = []
        for medal, standing in zip(("🥇", "🥈", "🥉"), standings(record), strict=False):
            player = record.player(int(standing.player))
            name = html.escape(player.name if player is not None else standing.player)
            podium.append(f"{medal} {name} <b>{standing.score}</b>")
        if podium:
            lines.append(" · ".join(podium))
        lines.append(tr(lang, "arena.result.games", games=len(record.games)))
        if record.late:
            lines.append(tr(lang, "arena.late", count=len(record.late)))
    return "\n".join(lines)
