"""The doubling cube of one game: its state (value, owner, the offer waiting for an answer, the automatic doubles of
the opening) as an immutable value, and its rules under the game's options: who may double, beaver and raccoon,
what a take, a drop, a beaver or a raccoon makes of the cube, and the Jacoby rule (docs/rules.md, the cube).

The game (:class:`nardy.game.Game`) decides when in a turn the cube may be turned; this module decides what the cube
itself allows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from nardy.options import Options

OfferStage = Literal["double", "beaver"]


def next_cube_value(value: int, options: Options) -> int:
    """Return the cube value after one more double under the option ``cube_progression``."""
    return value * 2 if options.cube_progression == "geometric" or value == 1 else value + 1


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube's state: ``value``, ``owner`` (None: in the middle), ``offer`` = (doubler, stage) while a double
    (stage ``double``) or a beaver (stage ``beaver``, answered by the doubler) waits for its answer, and how many
    automatic doubles the opening rolls have made."""

    value: int = 1
    owner: int | None = None
    offer: tuple[int, str] | None = None
    auto_doubles: int = 0


@dataclass(frozen=True, slots=True)
class CubeRules:
    """The cube's rules in one game: its options, its match length (0: money play) and whether the cube is in play
    at all (the variant's option, and not the Crawford game)."""

    options: Options
    match_length: int
    enabled: bool

    def raised(self, value: int, doubles: int = 1) -> int:
        """Return the cube value ``value`` after ``doubles`` more doubles."""
        for _ in range(doubles):
            value = next_cube_value(value, self.options)
        return value

    def may_double(self, cube: Cube, player: int) -> bool:
        """Return whether the cube lets ``player`` double: in play, in the middle or ``player``'s, and the doubled
        value within ``max_cube`` (when in a turn a double may be offered is the game's to say)."""
        return (
            self.enabled
            and cube.owner in (None, player)
            and next_cube_value(cube.value, self.options) <= self.options.max_cube
        )

    def why_not_double(self, cube: Cube, player: int) -> str:
        """Return why the cube does not let ``player`` double (when :meth:`may_double` is False for a cube in play,
        the owner or the ``max_cube`` limit)."""
        if cube.owner not in (None, player):
            return "the cube belongs to the opponent"
        return f"the cube cannot go above {self.options.max_cube}"

    def may_beaver(self, cube: Cube) -> bool:
        """Return whether the player answering a double may beaver it: option ``beaver``, money play only (as in
        GNU Backgammon), and the beavered cube within ``max_cube``."""
        return (
            cube.offer is not None
            and cube.offer[1] == "double"
            and self.options.beaver
            and self.match_length == 0
            and self.raised(cube.value, 2) <= self.options.max_cube
        )

    def may_raccoon(self, cube: Cube) -> bool:
        """Return whether the doubler, answering a beaver, may raccoon it: option ``raccoon``, money play only,
        and the cube within ``max_cube``."""
        return cube.offer is not None and cube.offer[1] == "beaver" and self._raccoon_allowed(cube)

    def _raccoon_allowed(self, cube: Cube) -> bool:
        return self.options.raccoon and self.match_length == 0 and self.raised(cube.value) <= self.options.max_cube

    def after_tied_opening(self, cube: Cube) -> Cube:
        """Return the cube after a tied opening roll: doubled automatically while option ``auto_doubles`` allows it
        (money play with the cube in play, within ``max_cube``), else as it was."""
        if (
            self.enabled
            and self.match_length == 0
            and cube.auto_doubles < self.options.auto_doubles
            and next_cube_value(cube.value, self.options) <= self.options.max_cube
        ):
            return replace(cube, value=next_cube_value(cube.value, self.options), auto_doubles=cube.auto_doubles + 1)
        return cube

    @staticmethod
    def offered(cube: Cube, doubler: int) -> Cube:
        """Return the cube with ``doubler``'s double on offer."""
        return replace(cube, offer=(doubler, "double"))

    def taken(self, cube: Cube) -> Cube:
        """Return the cube after the answer ``take``: a double on offer turns the cube over to the taker; after a
        beaver the cube stays as the beaver left it. Nothing is on offer any more."""
        assert cube.offer is not None
        doubler, stage = cube.offer
        if stage == "double":
            return Cube(self.raised(cube.value), 1 - doubler, None, cube.auto_doubles)
        return replace(cube, offer=None)

    @staticmethod
    def withdrawn(cube: Cube) -> Cube:
        """Return the cube with nothing on offer (the double was dropped, or the game ended)."""
        return replace(cube, offer=None) if cube.offer is not None else cube

    def beavered(self, cube: Cube) -> Cube:
        """Return the cube after a beaver: raised twice and the taker's; the beaver waits for the doubler's answer
        when a raccoon is allowed, else nothing is left to answer (a beaver cannot be dropped)."""
        assert cube.offer is not None
        doubler = cube.offer[0]
        after = Cube(self.raised(cube.value, 2), 1 - doubler, None, cube.auto_doubles)
        return replace(after, offer=(doubler, "beaver")) if self._raccoon_allowed(after) else after

    def raccooned(self, cube: Cube) -> Cube:
        """Return the cube after a raccoon: raised once more and the doubler's, nothing on offer."""
        assert cube.offer is not None
        return Cube(self.raised(cube.value), cube.offer[0], None, cube.auto_doubles)

    def jacoby(self, points: int, cube: Cube) -> int:
        """Return the points a gammon or backgammon worth ``points`` counts for: 1 under the Jacoby rule (option
        ``jacoby``, money play, the cube in play and never turned), else ``points``."""
        if self.options.jacoby and self.match_length == 0 and cube.owner is None and self.enabled:
            return 1
        return points
