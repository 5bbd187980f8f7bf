"""Board images for nardy: pure functions from engine values to encoded images.

Floor 2 of the project: imports :mod:`nardy` and Pillow only (never aiogram or redis). Nothing here keeps state
beyond caches of fonts, sprites and board backgrounds.

``render_board(position, variant, *, ...) -> bytes``
    ``position`` is a :class:`nardy.position.Position` (``me`` = the side to move, each side in its own frame,
    index 24 = bar); ``variant`` is the name or alias of a registered variant (``"short"``, ``"long"``, or one of
    docs/rules.md §6) or any object whose ``.name`` is one. The opposite-geometry variants are drawn on the short-nardy
    board, the parallel ones (Fevga, Gul bara) on the long-nardy board; each side must have the variant's layout
    (:mod:`nardy.position`):

    - 25 entries: points and bar. Hypergammon's 3 checkers a side count its borne-off checkers.
    - 26 entries (Acey-deucey, Dutch): index 25 is the reserve, the checkers not yet entered. The board gets a
      second column of trays at the left, the reserve trays (the top player's above, the bottom player's below),
      where each reserve is a pile of face-on checkers with its count, apart from the bear-off trays at the right.
    - 49 entries (Plakoto): indices 25 + i flag a checker of the side pinned on its point i + 1. A pinned checker
      lies at the base of its point with the pinner's checkers on top of it, covering part of it, and a padlock
      badge on it; a point may then hold both colours (at most one pinned checker, under at least one pinner).

    Every variant but short and long nardy has its title (``title``, the caller's words; the engine's English
    title by default) printed on the felt in the middle of the half on the mover's left (the dice lie in the other
    half). Keyword-only options:

    - ``mover`` (0 or 1, default 0): which player ``position.me`` belongs to. Player 0 has the light checkers,
      player 1 the dark (or, in the ``dark`` theme, red) ones.
    - ``viewer`` (0, 1 or None): the player drawn at the bottom, whose frame gives the point numbers (1 at the bottom
      right, 1..12 right to left along the bottom, 13..24 left to right along the top). None (a spectator) draws
      from the side to move.
    - ``dice`` ((d1, d2) or None) and ``used_dice`` (die values already played this turn, faded and struck through;
      a double shows four dice). The dice, in the mover's checker colour, lie in the mover's right-hand half (as the
      mover sits). ``dice_count`` (1..4, default 4) is
      how many moves a double gives, as many dice are drawn (a Gul bara hand-over may pass fewer than four).
    - ``show_cube``, ``cube_value`` (1 = centred cube showing 64), ``cube_owner`` (player or None = centred): the
      centred cube sits in the middle of the tray column; an owned cube moves to its owner's side of it (by the
      owner's edge of the board), so the owner shows at a glance.
    - ``last_move`` (steps of the last turn, in the frame of ``last_move_player``, default the opponent of the
      mover) and ``pending_steps`` (steps already played in the turn being built, in the mover's frame): each
      touched point's number gets a coloured badge, a dashed outline shows where a checker left, an arrow runs from
      there to the checker that arrived, which is ringed; a hit is ringed in the hit colour and carries a white cross
      badge, on the point and on the bar (in Plakoto a pin, a step with ``hit``, marks the pinner; the pinned
      checker has its padlock). Every marker has its own shape, and the colours stay apart under protanopia,
      deuteranopia and tritanopia (:mod:`rendering.colour_vision`). A step from ``src`` 26
      (:data:`nardy.move.RESERVE_POINT`) enters from the reserve, which is then outlined.
    - ``names`` (player 0, player 1), ``match_score`` (player 0, player 1), ``match_length`` and ``crawford``: the
      strip above the board belongs to the top player, the one below to the bottom player; each shows the colour,
      the name (any Unicode: control, format and separator characters are dropped, line breaks become spaces, and a
      long name is shortened with an ellipsis), the pip count and the player's match score; the side to move is lit,
      with a filled "to move" badge, unless ``finished`` (default False: a finished game's board marks nobody "to
      move"). With a score and a length the felt carries the match line in the caller's words ("Match to 5 · 2:1 ·
      Crawford", player 0's score first, as in the bot's caption; ``labels.match`` and ``labels.crawford``).
    - ``winner`` (0, 1 or None) and ``winner_label`` (text, default empty): a finished game's winner. The winner's
      strip is lit, with a crown after the name and then ``winner_label`` as the caller words it (for instance
      "Победа +2"; cleaned and shortened like a name). A winner marks nobody "to move"; a label without a winner is
      a ``ValueError``.
    - ``theme`` (``"classic"`` wood or ``"dark"`` high contrast), ``width`` (320..4096, default 1280; the height
      follows), ``labels`` (:class:`rendering.board.BoardLabels`: the two captions in the caller's language,
      neutral English by default),
      ``fmt`` (``"jpeg"`` default or ``"png"``), ``quality`` (None, the default: the board's own JPEG tables,
      about 90 KB at 1280 px; or libjpeg's quality 1..95).

    Raises ``ValueError`` for any out-of-range option.

``render_board_image(...) -> PIL.Image.Image``
    The same, before encoding (no ``fmt``/``quality``).

``render_cross_table(table, names, *, standings=None, theme, labels, title, fmt, quality) -> bytes``
    The round-robin cross-table ("сводная таблица"): a row and a column per player, each cell that pairing's result
    (1 / 0 / ½, + / − for a forfeit, blank if unplayed, a filled diagonal), then points, Sonneborn–Berger, game-point
    difference and place. ``render_swiss_standings(rows, names, ...)`` (place, name, rating, points, Buchholz Cut 1,
    Buchholz, Sonneborn–Berger) and ``render_elimination(rows, names, ...)`` (place, name, rating, round reached)
    draw the other formats' standings; ``names`` maps player ids to display names, cleaned as on the board. Each has
    an ``..._image`` twin returning the image; ``labels`` (:class:`rendering.standings.TableLabels`) are the
    caller's words for the headers. See :mod:`rendering.standings`.

``render_arena_standings(rows, names, *, theme, labels, title, minutes_left, paused, left, max_rows, fmt, quality)``
    An arena's standings (:func:`tournaments.arena.arena_standings`, best first): rank, name (cleaned as on the
    board), a flame while on fire, a mark for a paused player and for one who left, arena score, games, and the score
    sheet of the last games (a win in a square, a win on fire in an orange flame, a berserk game with a bolt: a shape
    each, never colour alone), under a header line with the minutes left or "finished"; at most 20 players and a
    "+N more" line. ``labels`` (:class:`rendering.arena.ArenaLabels`) are the caller's words.
    ``render_arena_standings_image`` returns the image. See :mod:`rendering.arena`.

``render_bracket(tournament, names, *, ratings=None, theme, labels, title, fmt, quality) -> bytes``
    A single or double elimination (a :class:`tournaments.Elimination`): its whole bracket with results on one
    picture, rounds as columns (seed, name, rating if given, score; winners highlighted, byes, empty slots still
    to come, matches in play outlined, connector lines, the champion at the right); double elimination adds the
    losers' bracket below and the grand final. ``labels`` (:class:`rendering.bracket.BracketLabels`) are the caller's
    words. JPEG quality 70 by default. ``render_bracket_image`` returns the image. Too wide for a chat from 8 players
    on: ``rendering.bracket.render_bracket_pages`` returns the pictures a chat gets (an album for a large bracket,
    each at most 830 px wide). See :mod:`rendering.bracket`.

``render_leaderboard(rows, *, title, labels, theme, fmt, quality) -> bytes``
    A chat's rating leaderboard: ``rows`` are :class:`rendering.leaderboard.LeaderboardRow` (place, name, rating,
    experience, matches), drawn as place, player, rating (one decimal) and matches, at most 50 rows, in the same
    table style; ``render_leaderboard_image`` returns the image. See :mod:`rendering.leaderboard`.

Review images: ``python -m rendering.gallery OUTDIR [--png]``. See ``rendering/README.md``.
"""

from rendering.arena import ArenaLabels, render_arena_standings, render_arena_standings_image
from rendering.board import render_board, render_board_image
from rendering.bracket import render_bracket, render_bracket_image
from rendering.leaderboard import LeaderboardRow, render_leaderboard, render_leaderboard_image
from rendering.standings import (
    render_cross_table,
    render_cross_table_image,
    render_elimination,
    render_elimination_image,
    render_swiss_standings,
    render_swiss_standings_image,
)
from rendering.theme import theme_names

__all__ = [
    "ArenaLabels",
    "LeaderboardRow",
    "render_arena_standings",
    "render_arena_standings_image",
    "render_board",
    "render_board_image",
    "render_bracket",
    "render_bracket_image",
    "render_cross_table",
    "render_cross_table_image",
    "render_elimination",
    "render_elimination_image",
    "render_leaderboard",
    "render_leaderboard_image",
    "render_swiss_standings",
    "render_swiss_standings_image",
    "theme_names",
]
