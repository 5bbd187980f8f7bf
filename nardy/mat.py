"""Match records in the Jellyfish ``.mat`` text format that GNU Backgammon and eXtreme Gammon import, and plain-text
transcripts of every other variant in the same layout (:func:`match_transcript`).

Only the variants on the backgammon board with gnubg's own rules can be written this way (short nardy,
Nackgammon, Hypergammon: :data:`MAT_VARIANTS`). The layout::

    ; [Site "Nardy bot"]
    ; [Player 1 "Alice"]
    ; [Player 2 "Bob"]
    ; [Variation "Backgammon"]
    ; [Crawford "On"]

     5 point match

     Game 1
     Alice : 0                          Bob : 0
      1)                                31: 8/5 6/5
      2) 64: 24/18 13/9                 Doubles => 2
      3)  Takes                         52: 13/8 13/11
      …
                                        Wins 2 points

Player 1 (the left column) is the match's player 0. Moves are written in the mover's own frame, one step per die
(``bar`` for the bar, ``off`` for borne off, ``*`` after a hit). A roll with no legal move is written as its dice
alone (``66:``). A resignation or an abandoned game shows only its result (``Wins 2 points``): the format has no
notation for the offer. The result of a game goes on a line of its own in the winner's column, except after a drop
in the left column, where it ends the same line (gnubg misreads it on a line of its own there). The Crawford game
is marked by the ``Crawford`` word after its number (``Game 4 (Crawford)``). A money game is a ``0 point match``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from nardy.cube import next_cube_value
from nardy.errors import GameStateError
from nardy.game import Game, Phase
from nardy.game_record import replay_records
from nardy.move import point_name

MAT_VARIANTS: Final = {"short": "Backgammon", "nackgammon": "NackGammon", "hypergammon": "HyperGammon"}
"""The variants a ``.mat`` file can hold, with the name of its ``Variation`` header."""

_LEFT_WIDTH: Final = 31


def _points(value: float) -> str:
    points = int(value) if float(value).is_integer() else value
    return f"Wins {points} point{'' if points == 1 else 's'}"


def _entries(data: dict[str, Any], match_over: bool) -> list[tuple[int, str]]:
    """Return the (player, text) entries of one saved game, in play order, its result last."""
    entries: list[tuple[int, str]] = []
    game: Game | None = None
    for record, game in replay_records(data):
        kind = record["t"]
        if kind in ("move", "pass"):
            dice = game.dice
            assert dice is not None
            steps = " ".join(
                f"{point_name(src)}/{point_name(dst)}{'*' if hit else ''}"
                for src, dst, _die, hit in record.get("steps", [])
            )
            entries.append((game.roller, f"{dice[0]}{dice[1]}: {steps}".rstrip()))
        elif kind == "double":
            entries.append((game.roller, f" Doubles => {next_cube_value(game.cube_value, game.options)}"))
        elif kind == "beaver":
            offered = next_cube_value(game.cube_value, game.options)
            entries.append((game.turn, f" Beavers => {next_cube_value(offered, game.options)}"))
        elif kind in ("take", "drop"):
            entries.append((game.turn, " Takes" if kind == "take" else " Drops"))
        elif kind == "choose":
            entries.append((game.roller, f" Names {record['die']}-{record['die']}"))
    if game is not None and game.phase is Phase.OVER and game.result is not None and game.result.winner is not None:
        entries.append((game.result.winner, _points(game.result.points) + (" and the match" if match_over else "")))
    return entries


def _lines(entries: list[tuple[int, str]]) -> list[str]:
    rows: list[list[str | None]] = []
    for player, text in entries:
        if text.startswith("Wins"):
            if rows and player == 1 and rows[-1][1] is None:
                rows[-1][1] = text  # after a drop in the left column: on its row, as gnubg writes it
            else:
                rows.append([text, None] if player == 0 else [None, text])
            continue
        if not rows or rows[-1][player] is not None or (player == 0 and rows[-1][1] is not None):
            rows.append([None, None])
        rows[-1][player] = text
    out: list[str] = []
    number = 0
    for left, right in rows:
        if left is None and right is not None and right.startswith("Wins"):
            out.append(" " * (_LEFT_WIDTH + 5) + right)
            continue
        if left is not None and left.startswith("Wins"):
            out.append(f"      {left}")
            continue
        number += 1
        cell = (left or "").ljust(_LEFT_WIDTH - 1) + " "
        out.append(f"{number:3d}) {cell}{right or ''}".rstrip())
    return out


def match_to_mat(match_data: dict[str, Any], names: Sequence[str], *, site: str = "Nardy bot") -> str:
    """Return the ``.mat`` text of a saved match (``Match.to_dict``) between players ``names``: every finished
    game, then the current game as far as it went.

    Raises:
        GameStateError: the match is of a variant :data:`MAT_VARIANTS` does not hold, or cannot be replayed.
    """
    variant = str(match_data.get("variant"))
    if variant not in MAT_VARIANTS or match_data.get("rotation"):
        raise GameStateError(f"a .mat file cannot hold a match of {variant}: only {', '.join(MAT_VARIANTS)}")
    return _text(match_data, names, site, MAT_VARIANTS[variant])


def match_transcript(match_data: dict[str, Any], names: Sequence[str], *, site: str = "Nardy bot") -> str:
    """Return a plain-text transcript of a saved match of any variant, in the layout of a ``.mat`` file (the
    ``Variation`` header names the variant; each game of a rotating match is headed by its own variant; an
    Acey-deucey named double is written ``Names 3-3``; the steps of a turn are written as the bot shows them,
    ``in/20`` entering from the reserve).

    Raises:
        GameStateError: the match cannot be replayed.
    """
    return _text(match_data, names, site, str(match_data.get("variant")), per_game_variant=True)


def _text(match_data: dict[str, Any], names: Sequence[str], site: str, variation: str, **flags: bool) -> str:
    clean = [" ".join(str(n).replace('"', "'").split()) or f"Player {i + 1}" for i, n in enumerate(names[:2])]
    length = int(match_data.get("length") or 0)
    options = match_data.get("options", {})
    head = [
        f'; [Site "{site}"]',
        f'; [Player 1 "{clean[0]}"]',
        f'; [Player 2 "{clean[1]}"]',
        f'; [Variation "{variation}"]',
        f'; [Crawford "{"On" if options.get("crawford", True) and length else "Off"}"]',
        f'; [Jacoby "{"On" if options.get("jacoby") else "Off"}"]',
        "",
        f" {length} point match",
        "",
    ]
    games = [*match_data.get("finished_games", []), match_data["game"]]
    over_index = len(games) - 1 if _session_over(match_data, length) else -1
    for number, game in enumerate(games, start=1):
        if number == len(games) and not game.get("history"):
            break  # the next game of a match, not started
        score = game.get("score", [0, 0])
        crawford = " (Crawford)" if game.get("crawford") else ""
        own = f" ({game.get('variant')})" if flags.get("per_game_variant") and match_data.get("rotation") else ""
        left = f" {clean[0]} : {_num(score[0])}"
        head.append(f" Game {number}{crawford}{own}")
        head.append(f"{left.ljust(_LEFT_WIDTH + 5)}{clean[1]} : {_num(score[1])}")
        head.extend(_lines(_entries(game, number - 1 == over_index)))
        head.append("")
    return "\n".join(head) + "\n"


def _session_over(match_data: dict[str, Any], length: int) -> bool:
    game = match_data["game"]
    result = (game.get("state") or {}).get("result")
    if not result or length == 0:
        return False
    score = list(game.get("score", [0, 0]))
    if result.get("winner") is not None:
        score[result["winner"]] += result["points"]
    return bool(max(score) >= length)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
