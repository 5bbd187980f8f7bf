"""Pure helpers between the stored game record and the engine: rebuild the match, advance automatic actions.

The record is a :class:`~bot.model.game.GameRecord`; its ``events`` describe what happened in the last action
(forfeits, automatic moves, game results) for the caption.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.model.game import Event, FairSeeds, GameRecord
from bot.model.settings import ChatSettings
from nardy import DiceSource, FairDice, Game, GameStateError, Match, NardyError, Options, Phase, Position, SystemDice
from nardy.fairness import FairnessError, commitment, dice_rolled, new_server_seed

DiceFactory = Callable[[str, int], DiceSource]
"""Makes the dice source for a game: ``(game_id, number of records played so far)``. The production factory is
:func:`system_dice`: with it a game gets provably fair dice (:func:`new_fair_seeds`, :func:`dice_for`); any other
factory (tests, tools) gives the game its own dice and no fairness seeds."""


def system_dice(_game_id: str, _count: int) -> DiceSource:
    """Return the production dice source for a game without fairness seeds (one saved before them): a CSPRNG."""
    return SystemDice()


def new_fair_seeds(dice: DiceFactory, game_id: str, player_ids: list[int]) -> FairSeeds | None:
    """Return fresh fairness seeds for a new game when ``dice`` is the production factory (else None): a secret
    server seed, its commitment and the public client seed ``<game id>:<player ids>``."""
    if dice is not system_dice:
        return None
    server_seed = new_server_seed()
    client_seed = ":".join([game_id, *map(str, player_ids)])
    return FairSeeds(server_seed, client_seed, commitment(server_seed))


def dice_for(record: GameRecord, game_id: str, dice: DiceFactory) -> DiceSource:
    """Return the dice source that continues the record's match: its fair dice from the next die on when the
    record has seeds and ``dice`` is the production factory, else ``dice``'s source.

    Raises: GameStateError (a ValueError) when the record's seeds or rolls are malformed.
    """
    seeds = record.fairness
    if seeds is not None and dice is system_dice:
        try:
            return FairDice(seeds.server_seed, seeds.client_seed, dice_rolled(record.match))
        except FairnessError as error:
            raise GameStateError(f"the saved game's fair dice cannot go on: {error}") from error
    return dice(game_id, record_count(record.match))


def record_count(match_data: dict[str, Any]) -> int:
    """Return how many engine records the saved match holds (finished games and the current game)."""
    finished = sum(len(g.get("history", [])) for g in match_data.get("finished_games", []))
    return finished + len(match_data.get("game", {}).get("history", []))


def load_match(record: GameRecord, game_id: str, dice: DiceFactory) -> Match:
    """Return the match of a record, with a dice source from ``dice``.

    Raises: GameStateError (a ValueError) when the saved match cannot be replayed.
    """
    return Match.from_dict(record.match, dice=dice_for(record, game_id, dice))


def match_finished(match: Match) -> bool:
    """Return whether the current game is over and ends the session (money game, or the match was won)."""
    game = match.game
    if game.phase is not Phase.OVER:
        return False
    if match.is_money:
        return True
    return match.over  # a draw that leaves both players level at the length or more goes on (Match.winner)


def _phase(game: Game) -> Phase:
    """Return the game's phase (a call, so type checkers do not keep a narrowing across engine actions)."""
    return game.phase


def advance(match: Match, record: GameRecord, events: list[Event]) -> None:
    """Play every automatic action: the opening roll, rolls when no double is possible, forfeits, forced turns,
    single-option steps, a complete turn (unless the chat confirms turns), and the next game of a match.

    Mutates ``match`` and the record's turn being built; appends to ``events``. Stops when a player must decide.
    """
    for _ in range(1000):  # a game is far shorter; the bound only guards against an engine bug
        game = match.game
        if game.phase is Phase.OPENING:
            game.roll()
            events.append({"t": "opening", "player": game.roller, "dice": list(game.dice or ())})
            continue
        if game.phase is Phase.ROLL:
            if game.can_double():
                return
            roller = game.roller
            dice = game.roll()
            if _phase(game) is not Phase.MOVE or game.roller != roller:
                events.append({"t": "forfeit", "player": roller, "dice": list(dice)})
            continue
        if game.phase is Phase.MOVE:
            plan = game.plan()
            pending = list(record.pending_steps)
            if not pending:
                moves = plan.moves()
                if len(moves) == 1:
                    mover = game.roller
                    move = game.play(moves[0])
                    events.append({"t": "auto", "player": mover, "move": move.notation})
                    continue
            if pending and plan.is_complete(pending):
                if record.confirm:
                    return
                mover = game.roller
                move = game.play(pending)
                record.clear_turn()
                events.append({"t": "played", "player": mover, "move": move.notation})
                continue
            options = plan.next_steps(pending)
            if len(options) == 1:
                record.pending_steps = [*pending, options[0]]
                continue
            return
        if game.phase is Phase.OVER:
            result = game.result
            assert result is not None
            events.append({"t": "over", **result.to_dict(), "score": list(match.score_after_game())})
            if match_finished(match):
                return
            match.next_game()
            events.append({"t": "next"})
            continue
        return  # DOUBLED or RESIGN: a player answers


def options_for(variant: str, chat_settings: ChatSettings | None = None) -> Options:
    """Return the rule options of a new game of ``variant`` from the chat's settings (``cube_long``: the cube in
    long nardy); None: a chat without settings (a private or an inline game), the default options."""
    if variant == "long" and chat_settings and chat_settings.cube_long:
        return Options(cube=True)
    return Options()


def drawn_position(record: GameRecord, match: Match) -> Position:
    """Return the position every board draws, in the roller's frame: the turn being built (``record.pending_steps``)
    played out — a moved checker on its target, a hit one on the bar, a borne-off one in the tray — as the Pillow
    board, the text board and the Mini App show it (the turn-start position when no step is pending)."""
    game = match.game
    pending = list(record.pending_steps)
    if game.phase is Phase.MOVE and pending:
        try:
            return game.plan().position_after(pending)
        except NardyError:  # a turn the engine no longer takes: the position before it is still true
            pass
    return game.position
