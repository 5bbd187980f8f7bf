"""The caption under a board photo: players, whose action is awaited, the roll, events, cube and match score.

Captions are Telegram HTML (user strings escaped by :func:`bot.texts.tr`). Telegram limits a caption to
:data:`MAX_CAPTION` characters counted in UTF-16 code units of the text after parsing (tags removed, entities
decoded): :func:`visible_length` measures exactly that and :func:`cut_caption` shortens by it.
"""

from __future__ import annotations

import html
import re

from bot.keyboards.game import step_label
from bot.model.clock import FIRST_MOVE_WINDOW, format_reserve
from bot.model.game import Event, GameRecord
from bot.services.engine_flow import match_finished
from bot.services.series import series_score
from bot.texts import Html, code, dice_name, esc, number, tr
from nardy import Match, Phase

MAX_CAPTION = 1024
"""Telegram's caption limit, in UTF-16 code units of the visible text."""
ELLIPSIS = "…"
_TOKEN = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);|.", re.DOTALL)


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def visible_length(text: str) -> int:
    """Return the length Telegram counts for the HTML ``text``: UTF-16 code units of the text with the tags
    removed and the entities decoded (an emoji outside the BMP counts 2, ``&quot;`` counts 1)."""
    return sum(_units(html.unescape(m.group(0))) for m in _TOKEN.finditer(text) if m.group(2) is None)


def cut_caption(text: str, limit: int = MAX_CAPTION) -> str:
    """Return the HTML ``text`` unchanged when its :func:`visible_length` is at most ``limit``, else cut to fit
    with an ellipsis: never inside a tag, an entity or a surrogate pair, and with the open tags closed."""
    if visible_length(text) <= limit:
        return text
    room = limit - _units(ELLIPSIS)
    kept: list[str] = []
    open_tags: list[str] = []
    used = 0
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if m.group(2) is not None:
            name = m.group(2).lower()
            if m.group(1):
                if open_tags and open_tags[-1] == name:
                    open_tags.pop()
            else:
                open_tags.append(name)
            kept.append(token)
            continue
        size = _units(html.unescape(token))
        if used + size > room:
            break
        used += size
        kept.append(token)
    while kept and kept[-1].isspace():
        kept.pop()
    return "".join(kept) + ELLIPSIS + "".join(f"</{name}>" for name in reversed(open_tags))


def _roll_text(lang: str, name: str, dice: tuple[int, int]) -> Html:
    """The roll line: with the roll's traditional name where the language has one (``шеш-беш``; English says
    ``6-5`` only)."""
    dname = dice_name(lang, dice[0], dice[1])
    if dname:
        return tr(lang, "roll.named", name=name, d1=dice[0], d2=dice[1], dname=dname)
    return tr(lang, "roll", name=name, d1=dice[0], d2=dice[1])


def result_text(lang: str, names: list[str], event: Event) -> Html:
    """Return the one line of a game result event: the winner, how (bear-off kind, resignation, passed double,
    time-out), the points. ``names`` are plain (they are escaped here)."""
    winner = event.get("winner")
    if winner not in (0, 1):
        return tr(lang, "over.draw")
    points = number(lang, float(event.get("points", 0)))
    name, loser = names[winner], names[1 - winner]
    reason = event.get("reason")
    kind = tr(lang, f"kind.{event.get('kind')}")
    if reason == "resign":
        return tr(lang, "over.resign", name=name, loser=loser, kind=kind, points=points)
    if reason == "drop":
        return tr(lang, "over.drop", name=name, loser=loser, points=points)
    first = event.get("first")  # the first-move window missed (docs/rules.md §1 "Time control")
    if first in ("cancelled", "lost"):
        seconds = number(lang, FIRST_MOVE_WINDOW)
        return tr(lang, f"over.first_move.{first}", name=name, loser=loser, seconds=seconds)
    if event.get("time") in (0, 1):  # the match lost on time (docs/rules.md §1 "Time control")
        return tr(lang, "over.time", name=name, loser=loser)
    if reason == "abandon" and event.get("forfeit"):
        return tr(lang, "tour.over.forfeit", name=name, loser=loser)
    if reason == "abandon":
        return tr(lang, "over.abandon", name=name, loser=loser, points=points)
    if reason == "mother":
        return tr(lang, "over.mother", name=name, loser=loser, points=points)
    return tr(lang, "over", name=name, kind=kind, points=points)


def _pools_text(lang: str, match: Match) -> str | None:
    """Return the line of the parts still to come in this turn (Gul bara), or None when there are none."""
    rest = match.game.pools
    if not rest:
        return None
    parts = [f"{p.dice[0]}-{p.dice[1]}" if p.count == 4 else f"{p.dice[0]}×{p.count}" for p in rest]
    return tr(lang, "pools.next", parts=", ".join(parts))


def caption(record: GameRecord, match: Match, lang: str, game_id: str | None = None) -> str:
    """Return the caption of the board in ``lang`` (Telegram HTML, at most :data:`MAX_CAPTION` as Telegram
    counts). A finished game's caption says who won and the score, never whose turn it is. A game with fair dice
    (and its ``game_id`` given) shows the dice commitment until the first move and ``/verify`` once it is over."""
    game = match.game
    names = [p.name for p in record.players]
    variant = tr(lang, f"variant.{game.variant.name}")
    lines: list[str] = [f"⚪ {esc(names[0])} — ⚫ {esc(names[1])} · {variant}"]
    if record.tournament is not None and record.tournament.arena:
        lines[0] = f"⚔️ {tr(lang, 'arena.caption')} · {lines[0]}"
    elif record.tournament is not None:
        lines[0] = f"🏆 {tr(lang, 'tour.caption')} · {lines[0]}"
    if record.clock is not None and record.clock.berserk:
        berserkers = ", ".join(names[side] for side in record.clock.berserk)
        lines.append(tr(lang, "arena.berserk.line", names=berserkers))
    events = list(record.events)
    if game.phase is Phase.OVER and game.result is not None and not any(e.get("t") == "over" for e in events):
        events.append({"t": "over", **game.result.to_dict()})
    for event in events:
        kind = event.get("t")
        if kind == "forfeit":
            d1, d2 = event["dice"]
            lines.append(tr(lang, "forfeit", name=names[event["player"]], d1=d1, d2=d2))
        elif kind in ("auto", "played") and event.get("move"):
            lines.append(tr(lang, "played", name=names[event["player"]], move=event["move"]))
        elif kind == "over":
            lines.append(result_text(lang, names, event))
        elif kind == "next":
            lines.append(tr(lang, "next.game"))
        elif kind == "took":
            lines.append(tr(lang, "computer.took", name=names[event["player"]]))
        elif kind == "declined":
            lines.append(tr(lang, "computer.declined", name=names[event["player"]]))
        elif kind == "chose":
            die = event["die"]
            lines.append(tr(lang, "chose", name=names[event["player"]], d=die))
    thinking = game.phase not in (Phase.OVER, Phase.OPENING) and bool(record.players[game.turn].ai)
    if game.phase is Phase.MOVE and game.dice:
        if game.hand_over:
            lines.append(tr(lang, "pools.handover", name=names[game.roller], other=names[1 - game.roller]))
        pool = game.pool
        if pool is not None and pool.dice[0] == pool.dice[1] and pool.count < 4:
            lines.append(tr(lang, "pools.part", name=names[game.roller], d=pool.dice[0], count=pool.count))
        else:
            lines.append(_roll_text(lang, names[game.roller], game.dice))
        later = _pools_text(lang, match)
        if later:
            lines.append(later)
        pending = record.pending_steps
        if pending and not thinking:
            lines.append(tr(lang, "pending", steps=" ".join(step_label(s) for s in pending)))
        lines.append(tr(lang, "turn.thinking" if thinking else "turn.move", name=names[game.roller]))
    elif thinking:
        lines.append(tr(lang, "turn.thinking", name=names[game.turn]))
    elif game.phase is Phase.CHOOSE:
        lines.append(tr(lang, "turn.choose", name=names[game.roller]))
    elif game.phase is Phase.ROLL:
        lines.append(tr(lang, "turn.roll", name=names[game.roller]))
    elif game.phase is Phase.DOUBLED:
        lines.append(tr(lang, "turn.doubled", name=names[game.turn], value=game.cube_value * 2))
    elif game.phase is Phase.RESIGN and game.resign_offer:
        level = tr(lang, f"kind.{game.resign_offer[1]}")
        lines.append(tr(lang, "resign.offered", name=names[game.resign_offer[0]], level=level))
        lines.append(tr(lang, "turn.resign", name=names[game.turn], level=level))
    if game.cube_enabled and game.phase is not Phase.OVER:
        if game.cube_owner is None:
            lines.append(tr(lang, "cube", value=game.cube_value))
        else:
            lines.append(tr(lang, "cube.owner", value=game.cube_value, name=names[game.cube_owner]))
    if match.rotating:
        lines.append(esc(match.describe("ru" if lang == "ru" else "en")))
    if not match.is_money:
        a, b = match.score_after_game() if game.phase is Phase.OVER else match.score
        if match.length:
            lines.append(tr(lang, "score", length=match.length, a=number(lang, a), b=number(lang, b)))
        else:
            lines.append(tr(lang, "score.games", games=match.games, a=number(lang, a), b=number(lang, b)))
        winner = match.winner if game.phase is Phase.OVER else None
        if winner is not None:
            won, lost = (a, b) if winner == 0 else (b, a)
            lines.append(tr(lang, "match.over", name=names[winner], won=number(lang, won), lost=number(lang, lost)))
        elif game.crawford and game.variant.cube_enabled(game.options):
            lines.append(tr(lang, "crawford"))
    if record.lobby is not None:
        a, b = series_score(record, finished=game.phase is Phase.OVER)
        if a or b:
            lines.append(tr(lang, "lobby.series", a=a, b=b))
    clock = record.clock
    if clock is not None and clock.flag is None and game.phase is not Phase.OVER:
        # the reserves as of the last action: the caption changes with the saved version only (no timer edits)
        lines.append(
            tr(lang, "clock.line", first=format_reserve(clock.reserves[0]), second=format_reserve(clock.reserves[1]))
        )
    fair = _fairness_line(record, match, lang, game_id)
    if fair:
        lines.append(fair)
    return cut_caption("\n".join(lines))


def _fairness_line(record: GameRecord, match: Match, lang: str, game_id: str | None) -> str | None:
    if game_id is None:
        return None
    seeds = record.fairness
    if match_finished(match):
        export = tr(
            lang, "fair.caption.record", command=code(f"/export {game_id}"), analysis=code(f"/analyze {game_id}")
        )
        if seeds is None:
            return export
        return tr(lang, "fair.caption.over", command=code(f"/verify {game_id}")) + "\n" + export
    if seeds is None:
        return None
    return (
        None
        if record.moves_played
        else tr(lang, "fair.caption.start", hash=code(seeds.commitment), command=code(f"/verify {game_id}"))
    )
