"""A game's board as text, for a chat that takes no pictures (:mod:`bot.services.media`).

:func:`text_board` is the board message of a game without its picture: the position drawn in a ``<pre>`` block
(:func:`nardy.textboard.draw_position`, as inline mode draws it when nothing takes an upload), with the turn being
built already played out on it, a line saying which side is whose, then the board's usual caption
(:func:`bot.services.captions.caption`). The caption keeps its own limit (1,024, as under a picture), the drawing
and the legend add a few hundred characters, so the message always fits Telegram's 4,096; :func:`text_board` cuts
it there anyway (never inside a tag or an entity). The keyboard is the board's own (the converger's, with the Mini
App's button when the Mini App is configured): a text message carries it as a picture does.
"""

from __future__ import annotations

import html
from typing import Final

from bot.model.game import GameRecord
from bot.services.captions import caption, cut_caption
from bot.services.engine_flow import drawn_position
from bot.texts import tr
from nardy import Match, Phase
from nardy.textboard import draw_position

MAX_MESSAGE: Final = 4096
"""Telegram's limit of a text message, in UTF-16 code units of the visible text."""


def board_drawing(record: GameRecord, match: Match, lang: str) -> str:
    """Return the position as preformatted Telegram HTML (X: the side to move) and the line naming the sides."""
    game = match.game
    dice = (max(game.dice), min(game.dice)) if game.phase is Phase.MOVE and game.dice else None
    drawing = draw_position(drawn_position(record, match), game.variant, dice=dice)
    names = [p.name for p in record.players]
    legend = tr(lang, "board.text.legend", mover=names[game.roller], other=names[1 - game.roller])
    return f"<pre>{html.escape(drawing)}</pre>\n{legend}"


def text_board(record: GameRecord, match: Match, lang: str, game_id: str | None = None) -> str:
    """Return the board message of the game as text in ``lang``: the drawing, the sides, then the board's caption
    (the dice commitment or ``/verify`` when ``game_id`` is given, as under the picture). Telegram HTML of at most
    :data:`MAX_MESSAGE` visible characters."""
    return cut_caption(f"{board_drawing(record, match, lang)}\n\n{caption(record, match, lang, game_id)}", MAX_MESSAGE)
