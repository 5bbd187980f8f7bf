"""Fast candidate generation for search and training: legal turns as generator states, batched as arrays."""

from __future__ import annotations

import numpy as np

from nardy.ai.features import SIDE, U8
from nardy.movegen import turn_context_and_turns
from nardy.options import Options
from nardy.position import Position
from nardy.variants import Variant
from nardy.variants.base import State, from_state

DEFAULT_OPTIONS = Options()


def candidate_states(
    variant: Variant, position: Position, dice: tuple[int, int], first_turn: bool, options: Options = DEFAULT_OPTIONS
) -> list[State]:
    """Return the generator states (mover's frame) after every legal turn; empty when the roll is forfeited."""
    _, level, used = turn_context_and_turns(variant, position, dice, first_turn, options)
    return list(level) if used else []


def candidate_states_of(
    variant: Variant, state: State, dice: tuple[int, int], first_turn: bool, options: Options = DEFAULT_OPTIONS
) -> list[State]:
    """Return :func:`candidate_states` of a generator state."""
    return candidate_states(variant, from_state(state), dice, first_turn, options)


def states_array(states: list[State]) -> U8:
    """Return generator states as a ``(n, 2 * L)`` batch, ``L`` the side length of the states (half the length of
    the first one; 25 for an empty list)."""
    width = len(states[0]) if states else 2 * SIDE
    return np.frombuffer(b"".join(states), dtype=np.uint8).reshape(len(states), width)
