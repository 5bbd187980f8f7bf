"""A plain-text drawing of a position with point numbers, for terminals."""

from __future__ import annotations

from nardy.position import PINNED_OFFSET, PINNED_SIDE_LENGTH, RESERVE_INDEX, RESERVE_SIDE_LENGTH, Position
from nardy.variants import Variant, get_variant


def _cell(position: Position, variant: Variant, point: int) -> str:
    mine = position.me[point - 1]
    opp_at = variant.opp_index[point] - variant.side_length  # the opponent's index of this point
    theirs = position.opp[opp_at]
    if variant.side_length == PINNED_SIDE_LENGTH:  # plakoto: a pinned checker is shown after its pinners, in lower case
        if mine:
            return f"X{mine}" + ("o" if position.opp[PINNED_OFFSET + opp_at] else "")
        if theirs:
            return f"O{theirs}" + ("x" if position.me[PINNED_OFFSET + point - 1] else "")
    if mine:
        return f"X{mine}"
    if theirs:
        return f"O{theirs}"
    return " ."


def draw_position(position: Position, variant: Variant | str, *, dice: tuple[int, int] | None = None) -> str:
    """Return a text board of ``position`` from the mover's side (X = mover, O = opponent), points numbered in
    the mover's frame, with bars, borne-off counts, pip counts and the dice (Plakoto: ``X2o`` is two of the mover's
    checkers pinning one of the opponent's, ``O1x`` the other way round; Acey-deucey and Dutch backgammon: the
    checkers still in the reserve, ``in``)."""
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
    if var.side_length == RESERVE_SIDE_LENGTH:  # the checkers not yet entered
        lines[-2] += f", in {position.me[RESERVE_INDEX]}"
        lines[-1] += f", in {position.opp[RESERVE_INDEX]}"
    if dice:
        lines.append(f"dice: {dice[0]}-{dice[1]}")
    return "\n".join(lines)
