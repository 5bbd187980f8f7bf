"""The command line: ``moves`` (JSON lines), ``show`` (a text board) and ``play`` (a terminal game)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TextIO

from nardy.dice import SeededDice, SystemDice, dice_name
from nardy.errors import NardyError
from nardy.game import Game, Phase
from nardy.ids import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    RESIGN_BACKGAMMON,
    RESIGN_GAMMON,
    RESIGN_SINGLE,
    MatchState,
    match_state_from_id,
    position_from_any_id,
)
from nardy.move import Move
from nardy.movegen import turn_plan
from nardy.options import Options
from nardy.position import (
    CHECKERS,
    PINNED_OFFSET,
    PINNED_SIDE_LENGTH,
    RESERVE_INDEX,
    RESERVE_SIDE_LENGTH,
    SIDE_LENGTH,
    Position,
)
from nardy.textboard import draw_position
from nardy.variants import Variant, get_variant, variant_names
from nardy.variants.base import Pool


class RequestError(ValueError):
    """A ``moves`` request that cannot be answered."""


def _side(value: Any, name: str, lengths: tuple[int, ...] = (SIDE_LENGTH,)) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) not in lengths:
        sizes = " or ".join(map(str, lengths))
        raise RequestError(f"{name} must be a list of {sizes} integers")
    if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= CHECKERS for c in value):
        raise RequestError(f"{name} must hold integers 0..15")
    return tuple(value)


def _request_side(request: dict[str, Any], name: str, variant: Variant) -> tuple[int, ...]:
    """Return one side of a request in the variant's layout: 25 counters plus, where the variant has them, the
    documented extra fields (``reserve``: ``[mine, theirs]``; ``pinned``: ``{"me": [points], "opp": [points]}``),
    or the whole extended side given directly."""
    lengths = (SIDE_LENGTH,) if variant.side_length == SIDE_LENGTH else (SIDE_LENGTH, variant.side_length)
    side = _side(request.get(name), name, lengths)
    if len(side) == variant.side_length:
        return side
    index = 0 if name == "me" else 1
    if variant.side_length == RESERVE_SIDE_LENGTH:
        reserve = request.get("reserve", [0, 0])
        if not isinstance(reserve, list) or len(reserve) != 2:
            raise RequestError("reserve must be a list of two integers: the mover's and the opponent's")
        count = reserve[index]
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= CHECKERS:
            raise RequestError("reserve must hold integers 0..15")
        return (*side, count)
    pinned = request.get("pinned", {})
    points = pinned.get(name, []) if isinstance(pinned, dict) else None
    if not isinstance(points, list) or not all(isinstance(p, int) and 1 <= p <= 24 for p in points):
        raise RequestError('pinned must be {"me": [points 1..24], "opp": [points 1..24]}, each in its own frame')
    flags = [0] * (variant.side_length - SIDE_LENGTH)
    for point in points:
        flags[point - 1] = 1
    return (*side, *flags)


def _answer_side(variant: Variant, position: Position) -> dict[str, Any]:
    """Return the sides of an answer: 25 counters each, and the variant's extra fields."""
    out: dict[str, Any] = {"me": list(position.me[:SIDE_LENGTH]), "opp": list(position.opp[:SIDE_LENGTH])}
    if variant.side_length == RESERVE_SIDE_LENGTH:
        out["reserve"] = [position.me[RESERVE_INDEX], position.opp[RESERVE_INDEX]]
    elif variant.side_length == PINNED_SIDE_LENGTH:
        out["pinned"] = {
            name: [i + 1 for i, flag in enumerate(side[PINNED_OFFSET:]) if flag]
            for name, side in (("me", position.me), ("opp", position.opp))
        }
    return out


@dataclass(frozen=True, slots=True)
class WholeTurn:
    """One legal outcome of a whole turn as the engine plays it (:class:`nardy.game.Game`): the parts played in
    order, each a pool of dice and the legal play of it (a forfeited part has no steps), and the moves that pass to
    the opponent when the turn ends in a Gul bara hand-over (``(die, count)`` per number, in order)."""

    parts: tuple[tuple[Pool, Move], ...]
    position: Position
    hand_over: tuple[tuple[int, int], ...] = ()

    @property
    def notation(self) -> str:
        """Return the notations of the parts played joined by `` | `` (one part: its notation; a forfeited part
        is left out)."""
        return " | ".join(move.notation for _, move in self.parts if move.steps)


def whole_turns(
    variant: Variant,
    position: Position,
    dice: tuple[int, int],
    *,
    first_turn: bool = False,
    options: Options | None = None,
    turns_taken: int | None = None,
    count: int = 4,
    hand_over: bool = False,
) -> list[WholeTurn]:
    """Return the distinct outcomes of the mover's whole turn of ``dice``, part after part as the engine plays it.

    Most rolls are one part (the result is the roll's legal moves). A Gul bara double after the plain turns
    (``turns_taken``: the mover's turns so far, by default 0 on its first turn and past the plain turns otherwise)
    escalates: four d, four d+1, … four 6, the head rule counted from the start of the turn; the first number that
    cannot be played in full ends the turn, its unplayed moves and those of the later numbers passing to the
    opponent (``gulbara_pass_unplayed``; never to an opponent with no checker left) or being lost. ``hand_over``:
    the mover plays moves handed over to it — ``count`` of d, then four of each higher number, as many of each as
    it can. Outcomes are told apart by the position they end in and what they hand over; of several ways to one
    outcome the first found is kept. Empty when the whole roll is forfeited.

    Raises:
        NardyError: bad dice, count or options for the variant and position.
    """
    options = options or Options()
    if hand_over:
        pools = [Pool(dice, count), *(Pool((n, n), 4) for n in range(dice[0] + 1, 7))]
        first_turn = False
    elif count != 4:
        pools = [Pool(dice, count)]
    else:
        taken = turns_taken if turns_taken is not None else (0 if first_turn else options.gulbara_plain_turns)
        pools = list(variant.roll_pools(dice, taken, options))
    start = position
    frontier: dict[Position, tuple[tuple[Pool, Move], ...]] = {position: ()}
    outcomes: dict[tuple[Position, tuple[tuple[int, int], ...]], WholeTurn] = {}
    for k, pool in enumerate(pools):
        later: dict[Position, tuple[tuple[Pool, Move], ...]] = {}
        for here, parts in frontier.items():
            turn_start = start if here.me != start.me else None
            plan = turn_plan(variant, here, pool.dice, first_turn, options, pool.count, turn_start)
            for move in plan.moves() or [Move((), here)]:
                path = (*parts, (pool, move))
                played = len(move.steps)
                after = move.position
                rest: tuple[tuple[int, int], ...] = ()
                if sum(after.me) and k + 1 < len(pools) and (played == pool.count or hand_over):
                    later.setdefault(after, path)
                    continue
                if sum(after.me) and played < pool.count and pool.hand_over and sum(after.opp):
                    rest = ((pool.dice[0], pool.count - played), *((p.dice[0], p.count) for p in pools[k + 1 :]))
                outcomes.setdefault((after, rest), WholeTurn(path, after, rest))
        frontier = later
    turns = list(outcomes.values())
    if len(turns) == 1 and not turns[0].hand_over and not any(move.steps for _, move in turns[0].parts):
        return []  # the roll is forfeited
    return turns


def answer_request(request: Any) -> dict[str, Any]:
    """Return the answer to one ``moves`` request (see docs/engine.md); a bad request gives ``{"error": ...}``."""
    try:
        if not isinstance(request, dict):
            raise RequestError("a request must be a JSON object")
        variant = get_variant(str(request.get("variant", "")))
        if "position_id" in request:
            name, position = position_from_any_id(str(request["position_id"]))
            if get_variant(name).id_prefix != variant.id_prefix:
                raise RequestError(f"position_id {request['position_id']!r} is not an id of a {variant.name} position")
        else:
            position = Position(_request_side(request, "me", variant), _request_side(request, "opp", variant))
        variant.validate(position)
        dice = request.get("dice")
        if not isinstance(dice, list) or len(dice) != 2:
            raise RequestError("dice must be a list of two integers 1..6")
        options = Options.from_dict(request.get("options"))
        first_turn = request.get("first_turn", False)
        if not isinstance(first_turn, bool):
            raise RequestError("first_turn must be true or false")
        count = request.get("count", 4)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 4:
            raise RequestError("count (the moves of a double, fewer in a Gul bara hand-over) must be 1..4")
        if count != 4 and dice[0] != dice[1]:
            raise RequestError("count is given only with a double")
        hand_over = request.get("hand_over", variant.name == "gulbara" and count != 4)
        if not isinstance(hand_over, bool) or (hand_over and (variant.name != "gulbara" or dice[0] != dice[1])):
            raise RequestError("hand_over is true or false, and true only with a Gul bara double")
        turns_taken = request.get("turns_taken")
        if turns_taken is not None and (isinstance(turns_taken, bool) or not isinstance(turns_taken, int)):
            raise RequestError("turns_taken must be a whole number")
        if turns_taken is not None and (turns_taken < 0 or (first_turn and turns_taken)):
            raise RequestError("turns_taken must be 0 or more, and 0 on the first turn")
        turns = whole_turns(
            variant,
            position,
            (dice[0], dice[1]),
            first_turn=first_turn and not hand_over,
            options=options,
            turns_taken=turns_taken,
            count=count,
            hand_over=hand_over,
        )
    except (NardyError, RequestError) as error:
        return {"error": str(error)}
    return {"count": len(turns), "moves": [_answer_turn(variant, turn) for turn in sorted(turns, key=_turn_key)]}


def _turn_key(turn: WholeTurn) -> tuple[str, tuple[tuple[int, int], ...]]:
    return turn.notation, turn.hand_over


def _answer_turn(variant: Variant, turn: WholeTurn) -> dict[str, Any]:
    """Return one whole turn of a ``moves`` answer: its notation and the sides after it, and for a turn of several
    parts (a Gul bara escalation or hand-over) each part's dice and play and the moves handed over."""
    answer: dict[str, Any] = {"move": turn.notation, **_answer_side(variant, turn.position)}
    if len(turn.parts) > 1 or turn.hand_over or turn.parts[0][0].hand_over:
        answer["parts"] = [{"dice": list(pool.dice), "move": move.notation} for pool, move in turn.parts]
        answer["hand_over"] = [list(pair) for pair in turn.hand_over]
    return answer


def run_moves(lines: Iterable[str], out: TextIO) -> int:
    """Answer each JSON line of ``lines`` with one JSON line on ``out``; return the number of errors."""
    errors = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            answer: dict[str, Any] = {"error": f"not JSON: {error.msg} at column {error.colno}"}
        else:
            answer = answer_request(request)
        errors += "error" in answer
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
    return errors


def show(text: str, variant_name: str | None) -> str:
    """Return the text board of a position given as an id or as JSON ``{"variant", "me", "opp"}``.

    An id may be a gnubg Position ID, an ``L1`` long nardy id, or GNU Backgammon's combined
    ``POSITIONID:MATCHID`` (optionally after ``GNUBGID``): the board then shows the Match ID's dice and is
    followed by the match and cube state it carries. XGID is not read.

    Raises:
        NardyError, RequestError: the position or match id cannot be read (InvalidIdError for a bad id).
    """
    text = text.strip()
    state: MatchState | None = None
    if text.startswith("{"):
        data = json.loads(text)
        variant = get_variant(str(data.get("variant", variant_name or "short")))
        position = Position(_request_side(data, "me", variant), _request_side(data, "opp", variant))
    else:
        if text[:7].casefold() == "gnubgid":
            text = text[7:].strip()
        position_text, colon, match_text = text.partition(":")
        name, position = position_from_any_id(position_text)
        if colon:
            if name != "short":
                raise RequestError("a Match ID goes with a GNU Backgammon Position ID (short nardy) only")
            state = match_state_from_id(match_text)
        variant = get_variant(variant_name or name)
    variant.validate(position)
    if state is None:
        return draw_position(position, variant)
    dice = (max(state.dice), min(state.dice)) if state.dice != (0, 0) else None
    return draw_position(position, variant, dice=dice) + "\n" + describe_match_state(state)


_GAME_STATES = {
    GAME_NONE: "not started",
    GAME_PLAYING: "being played",
    GAME_OVER: "over",
    GAME_RESIGNED: "over (resigned)",
    GAME_DROPPED: "over (cube dropped)",
}
_RESIGNATIONS = {RESIGN_SINGLE: "a single game", RESIGN_GAMMON: "a gammon", RESIGN_BACKGAMMON: "a backgammon"}


def describe_match_state(state: MatchState) -> str:
    """Return a few plain-text lines describing a Match ID's state (X, the side to move, is the player on roll)."""
    if state.match_length:
        crawford = ", Crawford game" if state.crawford else ""
        lines = [
            f"{state.match_length}-point match, score {state.score[0]}-{state.score[1]} (player 0 - player 1){crawford}"
        ]
    else:
        lines = [f"money game, Jacoby {'on' if state.jacoby else 'off'}"]
    owner = "centred" if state.cube_owner is None else f"owned by player {state.cube_owner}"
    lines.append(f"cube {state.cube_value}, {owner}")
    lines.append(f"X is player {state.player_on_roll}; the game is {_GAME_STATES[state.game_state]}")
    if state.double_offered:
        lines.append(f"player {state.turn} to answer a double")
    elif state.resignation:
        lines.append(f"player {state.turn} to answer the resignation of {_RESIGNATIONS[state.resignation]}")
    elif state.game_state == GAME_PLAYING:
        lines.append(f"player {state.turn} to {'move' if state.dice != (0, 0) else 'roll or double'}")
    return "\n".join(lines)


def simple_mover(game: Game) -> Move:
    """Return a plausible move for the computer in ``play``: hit, make points, avoid blots, race."""
    variant = game.variant

    def score(move: Move) -> float:
        me = move.position.me
        blots = sum(1 for i in range(24) if me[i] == 1)
        made = sum(1 for i in range(24) if me[i] >= 2)
        race = 0.05 * move.position.pips()[0]
        return (3 * move.hits if variant.has_bar else 0) + made - 1.5 * blots - race

    return max(game.legal_moves(), key=score)


def play(
    variant_name: str,
    computer: int | None,
    seed: int | None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Game:
    """Play a terminal game; ``computer`` is the player index the built-in mover plays (None: two humans).

    Returns the finished (or abandoned) game.
    """
    game = Game(variant_name, dice=SeededDice(seed) if seed is not None else SystemDice())
    names = ["Player 1 (X at start)", "Player 2"]
    if computer is not None:
        names[computer] = "Computer"
    write(f"{game.variant.titles['en']} — type moves like '13/7 8/7', 'moves' to list, 'quit' to stop")
    while game.phase is not Phase.OVER:
        if game.phase in (Phase.OPENING, Phase.ROLL):
            before = len(game.history)
            game.roll()
            for record in game.history[before:]:
                if record["t"] == "open":
                    a, b = record["dice"]
                    write(f"Opening roll: {names[0]} {a}, {names[1]} {b}")
                if record["t"] == "pass":
                    write(f"{names[1 - game.roller]} cannot move and passes.")
            continue
        if game.phase is Phase.CHOOSE:
            write("\n" + draw_position(game.position, game.variant))
            if game.roller == computer:
                game.choose_double(6)
                write("Computer names the double 6-6")
                continue
            answer = read("name a double (1-6)> ").strip()
            if answer in ("quit", "exit", "q"):
                game.abandon(game.roller)
                break
            if answer in ("1", "2", "3", "4", "5", "6"):  # not str.isdigit: "²" would pass it and int() fail
                game.choose_double(int(answer))
            else:
                write("Type a number 1..6: the double you play after the 1-2")
            continue
        if game.phase is not Phase.MOVE or game.dice is None:
            break
        player = game.roller
        if game.hand_over:
            write(f"{names[player]} plays the moves {names[1 - player]} could not play")
        name = dice_name(*game.dice) or ""
        write("\n" + draw_position(game.position, game.variant, dice=game.dice))
        write(f"{names[player]} to move, dice {game.dice[0]}-{game.dice[1]} {name}".rstrip())
        if player == computer:
            move = simple_mover(game)
            game.play(move)
            write(f"Computer plays {move.notation}")
            continue
        text = read("move> ").strip()
        if text in ("quit", "exit", "q"):
            game.abandon(player)
            break
        if text in ("moves", "?", "help"):
            write("Legal: " + ", ".join(sorted(m.notation for m in game.legal_moves())))
            continue
        try:
            played = game.play(text)
            write(f"{names[player]} plays {played.notation}")
        except NardyError as error:
            write(f"Not played: {error}")
    if game.result:
        winner = "nobody (draw)" if game.result.winner is None else names[game.result.winner]
        write(f"Game over: {winner} wins {game.result.kind}, {game.result.points:g} point(s)")
    return game


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m nardy", description="The nardy rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("moves", help="answer JSON-line move requests from stdin")
    show_parser = sub.add_parser("show", help="draw a position given as an id or JSON")
    show_parser.add_argument(
        "position", help="gnubg Position ID or POSITIONID:MATCHID, L1 id, or JSON {variant, me, opp}"
    )
    show_parser.add_argument("--variant", help=f"any variant name or alias ({', '.join(variant_names())})")
    play_parser = sub.add_parser("play", help="play a game in the terminal")
    play_parser.add_argument(
        "variant", nargs="?", default="short", help=f"any variant name or alias ({', '.join(variant_names())})"
    )
    play_parser.add_argument("--computer", type=int, choices=[1, 2], help="the player the computer plays")
    play_parser.add_argument("--seed", type=int, help="seed the dice")
    args = parser.parse_args(argv)
    if args.command == "moves":
        run_moves(sys.stdin, sys.stdout)
        return 0
    if args.command == "show":
        try:
            print(show(args.position, args.variant))
        except (NardyError, RequestError, json.JSONDecodeError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        return 0
    try:
        get_variant(args.variant)
        play(args.variant, None if args.computer is None else args.computer - 1, args.seed)
    except NardyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print()
    return 0
