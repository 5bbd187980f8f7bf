"""Short nardy's whole-turn move generator in C (``nardy/_shortgen.c``), built only with the compiled engine."""

from collections.abc import Callable

from nardy.move import Step

def turns(
    state: bytes,
    d1: int,
    d2: int,
    count: int,
    steps: list[Step | None],
    new_step: Callable[[int, int, int, int, bool], Step],
    /,
) -> tuple[dict[bytes, tuple[Step, ...]], int]:
    """Return the legal end states of short nardy's board for the roll ``d1``-``d2`` (a double played as ``count``
    moves), each with the first step path found, in the Python generator's order, and how many dice they use.

    Raises:
        ValueError: the state is not 50 bytes of counts 0..15, or the roll or the step table is malformed.
    """

def sides(state: bytes, /) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the two sides of a 50-byte state as tuples of 25 counts (as :class:`~nardy.position.Position` holds
    them).

    Raises:
        ValueError: the state is not 50 bytes of counts 0..15.
    """
