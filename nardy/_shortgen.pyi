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

def moves(
    me: tuple[int, ...],
    opp: tuple[int, ...],
    d1: int,
    d2: int,
    count: int,
    steps: list[Step | None],
    new_step: Callable[[int, int, int, int, bool], Step],
    /,
) -> tuple[list[tuple[Step, ...]], list[tuple[int, ...]], list[tuple[int, ...]]] | None:
    """Return the end states of :func:`turns` from a :class:`~nardy.position.Position`'s sides, in its order, as
    three parallel lists: their step paths, the mover's sides and the opponent's sides (tuples of 25 counts, as a
    Position holds them; an end state that leaves the opponent's side as it was shares ``opp``); empty when the roll
    is forfeited. None when a side is not a tuple of 25 ints 0..15 (the Python generator then lists the position).

    Raises:
        ValueError: the roll or the step table is malformed.
    """

def states(me: tuple[int, ...], opp: tuple[int, ...], d1: int, d2: int, count: int, /) -> list[bytes] | None:
    """Return the end states of :func:`turns` from a Position's sides, in its order, as 50-byte states (empty when
    the roll is forfeited); None as :func:`moves`.

    Raises:
        ValueError: the roll is malformed.
    """

def count(me: tuple[int, ...], opp: tuple[int, ...], d1: int, d2: int, count: int, /) -> int | None:
    """Return how many end states :func:`turns` lists from a Position's sides (0 when the roll is forfeited); None
    as :func:`moves`.

    Raises:
        ValueError: the roll is malformed.
    """

def sides(state: bytes, /) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the two sides of a 50-byte state as tuples of 25 counts (as :class:`~nardy.position.Position` holds
    them).

    Raises:
        ValueError: the state is not 50 bytes of counts 0..15.
    """
