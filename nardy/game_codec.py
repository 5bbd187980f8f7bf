"""A game's saved record and back: the JSON-compatible dict of a :class:`~nardy.game.Game` (schema version,
settings, history, snapshot of the derived state) and reading it back (from the snapshot, or by replaying the
history).

:meth:`Game.to_dict <nardy.game.Game.to_dict>`, :meth:`Game.from_dict <nardy.game.Game.from_dict>` and
:meth:`Game.snapshot <nardy.game.Game.snapshot>` are this module's :func:`dump`, :func:`load` and :func:`snapshot`.
It sits below ``nardy.game`` and knows a game only as what it reads and writes of one (:class:`RecordedGame`) and
how one is made (:class:`GameFactory`); replaying a saved game record by record is :mod:`nardy.game_record`'s.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from nardy.cube import Cube
from nardy.dice import DiceSource
from nardy.errors import GameStateError
from nardy.events import GameEvent, dice_pair, event_from_dict
from nardy.game_status import GameResult, Phase
from nardy.move import Move, Step
from nardy.options import Options
from nardy.position import Position, Side
from nardy.records import encode_record, read_record
from nardy.variants import Variant
from nardy.variants.base import Pool

SCHEMA_VERSION = 1


class RecordedGame(Protocol):
    """What the record reads and writes of a game (:class:`nardy.game.Game` is one): its settings, history and
    derived state, and the replay of one event."""

    variant: Variant
    options: Options
    match_length: int
    score: tuple[float, float]
    crawford: bool
    initial_first_player: int | None
    history: list[dict[str, Any]]
    sides: list[Side]
    phase: Phase
    roller: int
    turn: int
    dice: tuple[int, int] | None
    cube: Cube
    first_player: int | None
    turns_taken: list[int]
    moves_played: int
    result: GameResult | None
    last_move: Move | None
    last_mover: int | None
    resign_offer: tuple[int, str] | None
    _before_resign: tuple[Phase, int] | None
    _last_chance: bool
    pool: Pool | None
    pools: list[Pool]
    hand_over: bool
    bonus: str | None
    _turn_start: Side | None

    def _apply(self, event: GameEvent) -> None: ...


G = TypeVar("G", bound=RecordedGame)
G_co = TypeVar("G_co", bound=RecordedGame, covariant=True)


class GameFactory(Protocol[G_co]):
    """How :func:`load` makes the fresh game it restores or replays into (the class :class:`nardy.game.Game`)."""

    def __call__(
        self,
        variant: str,
        *,
        options: Options,
        dice: DiceSource | None,
        match_length: int,
        score: tuple[float, float],
        crawford: bool,
        first_player: int | None,
    ) -> G_co: ...


def snapshot(game: RecordedGame) -> dict[str, Any]:
    """Return the whole derived state of ``game``, from which :func:`load` restores it without replaying its history
    (JSON-compatible)."""
    cube = game.cube
    return {
        "phase": game.phase.value,
        "roller": game.roller,
        "turn": game.turn,
        "dice": list(game.dice) if game.dice else None,
        "cube": [cube.value, cube.owner],
        "sides": [list(game.sides[0]), list(game.sides[1])],
        "result": game.result.to_dict() if game.result else None,
        "first_player": game.first_player,
        "turns_taken": list(game.turns_taken),
        "moves_played": game.moves_played,
        "last_move": ([[st.src, st.dst, st.die, st.hit] for st in game.last_move.steps] if game.last_move else None),
        "last_mover": game.last_mover,
        "resign_offer": list(game.resign_offer) if game.resign_offer else None,
        "offer": list(cube.offer) if cube.offer else None,
        "before_resign": [game._before_resign[0].value, game._before_resign[1]] if game._before_resign else None,
        "last_chance": game._last_chance,
        "auto_doubles": cube.auto_doubles,
        "pools": [p.to_list() for p in ([game.pool] if game.pool else []) + game.pools],
        "hand_over": game.hand_over,
        "bonus": game.bonus,
        "turn_start": list(game._turn_start) if game._turn_start is not None else None,
    }


def restore(game: RecordedGame, state: dict[str, Any]) -> None:
    """Set the derived state of ``game`` from a :func:`snapshot`.

    Raises:
        KeyError, TypeError, ValueError: the snapshot is malformed.
        GameStateError: it is not a possible state.
    """
    sides = [tuple(int(n) for n in state["sides"][i]) for i in (0, 1)]
    game.variant.validate(Position(sides[0], sides[1]))  # InvalidPositionError is a ValueError
    game.sides = sides
    game.phase = Phase(state["phase"])
    game.roller = _player(state["roller"])
    game.turn = _player(state["turn"])
    game.dice = dice_pair(state["dice"]) if state["dice"] is not None else None
    cube_value, cube_owner = state["cube"]
    cube_offer = state["offer"]
    game.cube = Cube(
        int(cube_value),
        None if cube_owner is None else _player(cube_owner),
        (_player(cube_offer[0]), str(cube_offer[1])) if cube_offer else None,
        int(state["auto_doubles"]),
    )
    game.result = GameResult.from_dict(state["result"]) if state["result"] is not None else None
    first = state["first_player"]
    game.first_player = None if first is None else _player(first)
    game.turns_taken = [int(state["turns_taken"][0]), int(state["turns_taken"][1])]
    game.moves_played = int(state["moves_played"])
    last = state["last_move"]
    mover = state["last_mover"]
    if last is not None and mover is not None:
        game.last_mover = _player(mover)
        steps = tuple(Step(int(a), int(b), int(die), bool(h)) for a, b, die, h in last)
        game.last_move = Move(steps, Position(game.sides[game.last_mover], game.sides[1 - game.last_mover]))
    offer = state["resign_offer"]
    game.resign_offer = (_player(offer[0]), str(offer[1])) if offer else None
    before = state["before_resign"]
    game._before_resign = (Phase(before[0]), _player(before[1])) if before else None
    game._last_chance = bool(state["last_chance"])
    pools = [Pool.from_list(p) for p in state.get("pools") or ()]
    if not pools and game.dice is not None:  # a save from before the pools were kept
        pools = [Pool.of_roll(game.dice)]
    game.pool, game.pools = (pools[0], pools[1:]) if pools else (None, [])
    game.hand_over = bool(state.get("hand_over", False))
    bonus = state.get("bonus")
    if bonus not in (None, "choose", "double", "extra"):
        raise GameStateError(f"saved state has an unknown bonus stage {bonus!r}")
    game.bonus = bonus
    start = state.get("turn_start")
    if start is not None:
        game._turn_start = tuple(int(n) for n in start)
    elif "turn_start" not in state and game.dice is not None:  # a save from before it was kept
        game._turn_start = game.sides[game.roller]
    else:
        game._turn_start = None
    if game.pool is not None and game.dice is not None and game.pool.dice != game.dice:
        raise GameStateError(f"saved state {state!r} is not consistent (dice and the part being played)")
    moving = game.phase is Phase.MOVE or (  # a resignation offered mid-turn keeps the turn's dice
        game.phase is Phase.RESIGN and game._before_resign is not None and game._before_resign[0] is Phase.MOVE
    )
    if moving != (game.dice is not None) or (game.phase is Phase.OVER) != bool(game.result):
        raise GameStateError(f"saved state {state!r} is not consistent (phase, dice and result)")


def dump(game: RecordedGame, *, compact: bool = False) -> dict[str, Any]:
    """Return ``game`` as a JSON-compatible dict (schema version, settings, history, snapshot); ``compact`` writes
    the history records in their short text form (:mod:`nardy.records`) and of the snapshot only the result, as a
    match keeps its finished games (:func:`load` then replays the history)."""
    return {
        "schema": SCHEMA_VERSION,
        "variant": game.variant.name,
        "options": game.options.to_dict(),
        "match_length": game.match_length,
        "score": list(game.score),
        "crawford": game.crawford,
        "first_player": game.initial_first_player,
        "history": [encode_record(r) for r in game.history] if compact else [dict(r) for r in game.history],
        "state": {"result": game.result.to_dict() if game.result else None} if compact else snapshot(game),
    }


def load(cls: GameFactory[G], data: dict[str, Any], *, dice: DiceSource | None = None, verify: bool = False) -> G:
    """Return the game (of class ``cls``) saved by :func:`dump`: restored from its snapshot (the history is kept as
    it is, for replay and export), or rebuilt by replaying the history when the saved dict has no full snapshot (an
    older save) or ``verify`` asks for it (the replayed state must then equal the snapshot).

    Raises:
        GameStateError: an unknown schema, a malformed snapshot, a history that cannot be replayed, or a
            snapshot that disagrees with the replayed history.
    """
    if data.get("schema") != SCHEMA_VERSION:
        raise GameStateError(f"unknown game schema {data.get('schema')!r} (expected {SCHEMA_VERSION})")
    try:
        game = cls(
            data["variant"],
            options=Options.from_dict(data["options"]),
            dice=dice,
            match_length=int(data["match_length"]),
            score=(data["score"][0], data["score"][1]),
            crawford=bool(data["crawford"]),
            first_player=data["first_player"],
        )
        state = data.get("state")
        if not verify and isinstance(state, dict) and "moves_played" in state:
            try:
                restore(game, state)
            except GameStateError:
                raise
            except (KeyError, TypeError, IndexError, ValueError) as error:  # a malformed or impossible state
                raise GameStateError(f"saved game snapshot cannot be read: {error!r}") from error
            game.history = [read_record(record) for record in data["history"]]  # kept unread: the snapshot is the state
            return game
        for saved in data["history"]:
            record = read_record(saved)
            game._apply(event_from_dict(record))
            game.history.append(record)
    except GameStateError:
        raise
    except (KeyError, TypeError, IndexError, ValueError) as error:
        raise GameStateError(f"saved game cannot be replayed: {error}") from error
    if "state" in data and not _same_state(data["state"], snapshot(game)):
        raise GameStateError("saved game snapshot disagrees with its replayed history")
    return game


def _same_state(saved: Any, replayed: dict[str, Any]) -> bool:
    """Return whether a saved snapshot equals the replayed one (an older, shorter snapshot on its own keys)."""
    if not isinstance(saved, dict):
        return False
    return all(replayed.get(key) == value for key, value in saved.items()) and set(saved) <= set(replayed)


def _player(value: Any) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise GameStateError(f"{value!r} is not a player (0 or 1)")
    return int(value)
