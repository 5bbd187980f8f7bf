"""gym-backgammon (PyPI ``gym-backgammon``, the pure-Python peer) as a yardstick for ``benchmarks/movegen.py``.

Converts our short-nardy positions to its board, lists its plays, and turns each play back into the position after
it, so that its answers can be checked against ours before it is timed. Install it with ``pip install -e '.[bench]'``
(it brings the old ``gym`` package; the bot never imports either).
"""

from __future__ import annotations

from typing import Any

from nardy import Position

WHITE, BLACK = 0, 1


def load() -> Any | None:
    """Return gym-backgammon's ``Backgammon`` class, or None when it is not installed.

    Its rules live in ``gym_backgammon/envs/backgammon.py``, which needs only the standard library; the file is
    loaded alone, because the package itself imports gym and a renderer (pyglet) that the rules do not use.
    """
    import importlib.util
    from pathlib import Path

    package = importlib.util.find_spec("gym_backgammon")
    if package is None or package.origin is None:
        return None
    spec = importlib.util.spec_from_file_location(
        "gym_backgammon_rules", Path(package.origin).parent / "envs" / "backgammon.py"
    )
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Backgammon


def game_at(backgammon_class: Any, position: Position) -> Any:
    """Return a gym-backgammon game set to ``position`` with White (moving 23 → 0) as our mover."""
    game = backgammon_class()
    board: list[tuple[int, int | None]] = [(0, None)] * 24
    for index in range(24):
        if position.me[index]:
            board[index] = (position.me[index], WHITE)
        if position.opp[index]:
            board[23 - index] = (position.opp[index], BLACK)
    game.board = board
    game.bar = [position.me[24], position.opp[24]]
    game.off = [15 - sum(position.me), 15 - sum(position.opp)]
    game.players_positions = game.get_players_positions()
    return game


def plays(game: Any, dice: tuple[int, int]) -> set[tuple[tuple[Any, int], ...]]:
    """Return gym-backgammon's plays for White with ``dice`` (White's dice are negative there: it moves 23 → 0)."""
    result: set[tuple[tuple[Any, int], ...]] = game.get_valid_plays(WHITE, (-dice[0], -dice[1]))
    return result


def positions_after(position: Position, plays: set[tuple[tuple[Any, int], ...]]) -> set[Position]:
    """Return the positions (mover's frame, not swapped) that gym-backgammon's ``plays`` reach from ``position``."""
    out = set()
    for play in plays:
        me, opp = list(position.me), list(position.opp)
        for src, target in play:
            me[24 if src == "bar" else src] -= 1
            if 0 <= target < 24:
                me[target] += 1
                if opp[23 - target]:
                    opp[23 - target] = 0
                    opp[24] += 1
        out.add(Position(tuple(me), tuple(opp)))
    return out
