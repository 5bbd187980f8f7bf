"""Replaying a saved game record (:meth:`Game.to_dict <nardy.game.Game.to_dict>`, :mod:`nardy.game_codec`) record by
record: the game as it stands before each record, for analysis, history views and exports.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nardy.errors import GameStateError
from nardy.events import event_from_dict
from nardy.game import Game
from nardy.records import read_record


def replay_records(data: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Game]]:
    """Yield each record of a saved game's history (compact records decoded) with the game as it stands just
    before that record. It is one Game object, advanced after each yield: read what you need from it before
    taking the next item; once the iteration ends it holds the final state. Linear, unlike :func:`replay`.

    Raises:
        GameStateError: the saved game cannot be replayed.
    """
    fresh = {key: value for key, value in data.items() if key != "state"}
    fresh["history"] = []
    game = Game.from_dict(fresh)
    for saved in data.get("history", []):
        record = read_record(saved)
        yield record, game
        try:
            game._apply(event_from_dict(record))
        except GameStateError:
            raise
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise GameStateError(f"saved game cannot be replayed: {error}") from error
        game.history.append(record)


def replay(data: dict[str, Any]) -> list[Game]:
    """Return the game after each record of a saved game's history (the first entry is the fresh game).

    Raises:
        GameStateError: the saved game cannot be replayed.
    """
    final = Game.from_dict(data, verify=True)
    states: list[Game] = []
    for count in range(len(final.history) + 1):
        partial = {**data, "history": final.history[:count]}
        partial.pop("state", None)
        states.append(Game.from_dict(partial))
    return states
