"""Gul bara (гюльбара, «бешеный гюльбар»), docs/rules.md §6.4: long nardy whose doubles escalate."""

from __future__ import annotations

from typing import ClassVar

from nardy.options import Options
from nardy.variants.base import Pool
from nardy.variants.long import LongNardy


class GulBara(LongNardy):
    """Gul bara (гюльбара, «бешеный гюльбар», seed 002): long nardy in every respect (setup on the head, parallel
    movement, no hitting, the head rule with its first-turn exception, the block rule, bear-off, оин/марс and the
    options ``head_exception``, ``block_check``, ``long_scoring``, ``last_roll_draw``, ``cube``) except doubles.

    - **Escalating doubles**: a double d-d is played as four d, then four d+1, … up to four 6 (4-4: four 4s, four
      5s, four 6s), one part per number (:meth:`roll_pools`); must-play applies inside each number. The first
      number of which the mover cannot play all four ends the mover's part of the turn.
    - **Hand-over** (``gulbara_pass_unplayed``, default on): the unplayed moves of that number and the later
      numbers pass to the opponent, who plays them in the same order, as many of each number as its own position
      and rules allow (the rest is lost), and then rolls for its own turn. Off: they are lost.
    - **Plain turns** (``gulbara_plain_turns``, default 3): each player's first that many turns play doubles
      normally (four moves, no hand-over); 0 escalates from the first turn.
    - **Head rule**: at most one checker leaves the head in a whole turn, counted from the start of the turn across
      every number of an escalation. The first-turn exception is decided number by number: on the mover's first
      turn, a number that cannot be played in full with the head departures allowed so far lets a second head
      checker leave (``head_exception=classic``: when that number is 3, 4 or 6). Never more than two in a turn.

    Where docs/rules.md is silent:

    - The handed-over moves are a part of their own for the receiver: its head rule allows one head departure
      across them (counted from the start of the hand-over), with no first-turn exception; its own turn that
      follows counts afresh and, if it has not yet taken a turn, is still its first turn.
    - A hand-over does not count as a turn of the receiver (for the plain turns); the escalating turn counts as
      one turn of the player who rolled it.
    - Under ``last_roll_draw``, a hand-over never goes to a player who has already borne off all its checkers:
      the last chance ends there.
    - Long nardy's option ``misere`` is not read (docs/rules.md §6.4 fixes оин/марс scoring; ``misere`` is an option
      of long nardy alone).
    """

    name: ClassVar[str] = "gulbara"
    aliases: ClassVar[tuple[str, ...]] = (
        "gulbara",
        "gul bara",
        "gul-bara",
        "гюльбара",
        "гюльбар",
        "бешеный гюльбар",
        "бешеный гюльбара",
    )
    titles: ClassVar[dict[str, str]] = {"en": "Gul bara", "ru": "гюльбара"}
    id_prefix: ClassVar[str | None] = "G1"
    reads_misere: ClassVar[bool] = False

    def roll_pools(self, dice: tuple[int, int], turns_taken: int, options: Options) -> tuple[Pool, ...]:
        """Return the parts of a roll: one pool, or for a double once the player has taken
        ``gulbara_plain_turns`` turns, four d, four d+1, … four 6 (each handing over its unplayed moves when
        ``gulbara_pass_unplayed`` is on)."""
        die, other = dice
        if die != other or turns_taken < options.gulbara_plain_turns:
            return (Pool.of_roll(dice),)
        return tuple(Pool((n, n), 4, options.gulbara_pass_unplayed) for n in range(die, 7))
