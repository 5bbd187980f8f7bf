"""The caption under a board photo: players, whose action is awaited, the roll, events, cube and match score."""

from __future__ import annotations

import html
from typing import Any

from bot.keyboards.game import step_label
from bot.services.engine_flow import steps_of
from bot.texts import tr
from nardy import Match, Phase, dice_name

MAX_CAPTION = 1000


def _roll_text(lang: str, name: str, dice: tuple[int, int]) -> str:
    dname = dice_name(dice[0], dice[1])
    if dname:
        return tr(lang, "roll.named", name=name, d1=dice[0], d2=dice[1], dname=dname)
    return tr(lang, "roll", name=name, d1=dice[0], d2=dice[1])


def result_text(lang: str, names: list[str], event: dict[str, Any]) -> str:
    """Return the words of a game result event (winner, kind, points, reason)."""
    if event.get("winner") is None:
        return tr(lang, "over.draw")
    points = event["points"]
    points_text = str(int(points)) if float(points).is_integer() else str(points)
    text = tr(lang, "over", name=names[event["winner"]], kind=tr(lang, f"kind.{event['kind']}"), points=points_text)
    if event.get("reason") in ("resign", "drop", "abandon"):
        text += " " + tr(lang, f"reason.{event['reason']}")
    return text


def caption(record: dict[str, Any], match: Match, lang: str) -> str:
    """Return the caption of the board in ``lang`` (at most 1000 characters)."""
    game = match.game
    names = [html.escape(p["name"]) for p in record["players"]]
    variant = tr(lang, f"variant.{match.variant.name}")
    lines = [f"⚪ {names[0]} — ⚫ {names[1]} · {variant}"]
    for event in record.get("events", []):
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
    thinking = game.phase not in (Phase.OVER, Phase.OPENING) and bool(record["players"][game.turn].get("ai"))
    if game.phase is Phase.MOVE and game.dice:
        lines.append(_roll_text(lang, names[game.roller], game.dice))
        pending = steps_of(record)
        if pending and not thinking:
            lines.append(tr(lang, "pending", steps=" ".join(step_label(s) for s in pending)))
        lines.append(tr(lang, "turn.thinking" if thinking else "turn.move", name=names[game.roller]))
    elif thinking:
        lines.append(tr(lang, "turn.thinking", name=names[game.turn]))
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
    if match.length:
        a, b = match.score_after_game() if game.phase is Phase.OVER else match.score
        lines.append(tr(lang, "score", length=match.length, a=_num(a), b=_num(b)))
        if game.phase is Phase.OVER and max(a, b) >= match.length:
            winner = 0 if a > b else 1
            lines.append(tr(lang, "match.over", name=names[winner], a=_num(a), b=_num(b)))
        elif game.crawford:
            lines.append(tr(lang, "crawford"))
    text = "\n".join(lines)
    return text if len(text) <= MAX_CAPTION else text[: MAX_CAPTION - 1] + "…"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
