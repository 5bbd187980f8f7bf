"""A plain-text drawing of a position with point numbers, for terminals."""

from __future__ import annotations

from nardy.position import Position
from nardy.variants import Variant, get_variant


def _cell(position: Position, variant: Variant, point: int) -> str:
    mine = position.me[point - 1]
    theirs = position.opp[variant.opp_index[point] - 25]
    if mine:
        return f"X{mine}"
    if theirs:
        return f"O{theirs}"
    return " ."


def draw_position(position: Position, variant: Variant | str, *, dice: tuple[int, int] | None = None) -> str:
    """Return a text board of ``position`` from the mover's side (X = mover, O = opponent), points numbered in
    the mover's frame, with bars, borne-off counts, pip counts and the dice."""
    var = get_variant(variant)
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))

    def row(points: list[int], fill: bool) -> str:
        parts = [f"{p:>3}" if not fill else f"{_cell(position, var, p):>3}" for p in points]
        return " ".join(parts[:6]) + " |" + " ".join(parts[6:])

    line = "-" * len(row(top, False))
    pips = position.pips()
    lines = [
        row(top, False),
        row(top, True),
        line,
        row(bottom, True),
        row(bottom, False),
        f"X (to move): pips {pips[0]}, bar {position.me[24]}, off {var.borne_off(position.me)}",
        f"O:           pips {pips[1]}, bar {position.opp[24]}, off {var.borne_off(position.opp)}",
    ]
    if dice:
        lines.append(f"dice: {dice[0]}-{dice[1]}")
    return "\n".join(lines)
