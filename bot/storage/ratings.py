"""The ratings role (docs/rules.md §8, FIBS): ratings per variant and user, changed once per match.

``apply_ratings`` changes the ratings of one match's players at once, exactly once per match key, and only when
nobody changed them since the caller read them (each rating's ``matches`` counter is the compare-and-set token).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

RATED_MATCHES_RETENTION = 90 * 24 * 3600.0
"""Seconds for which ``apply_ratings`` remembers (at least) that a match key was applied."""

VARIANT_PATTERN = re.compile(r"[a-z_]{1,16}")
"""A well-formed rating variant name, e.g. ``long`` or ``short`` (use ``fullmatch``)."""


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A user's rating in one variant (docs/rules.md §8 FIBS): start 1500, experience 0.

    Attributes:
        rating: the FIBS rating.
        experience: the experience (sum of the lengths of the rated matches played).
        matches: the number of rated matches applied so far: the compare-and-set token of ``apply_ratings``.
        name: the last display name given with a rating change ("" when never rated).
    """

    rating: float = 1500.0
    experience: int = 0
    matches: int = 0
    name: str = ""


def check_variant(variant: str) -> str:
    """Return ``variant`` when it is a well-formed rating variant name (:data:`VARIANT_PATTERN`).

    Raises: ValueError when it is not.
    """
    if not isinstance(variant, str) or VARIANT_PATTERN.fullmatch(variant) is None:
        raise ValueError(f"malformed variant {variant!r}: expected 1 to 16 characters of [a-z_]")
    return variant


def check_rating_change(expected: Mapping[int, int], new: Mapping[int, StoredRating]) -> list[int]:
    """Return the user ids of an ``apply_ratings`` change (the keys of ``new``, as ints).

    Raises: ValueError when ``expected`` and ``new`` do not name the same users, or a new rating is not finite.
    """
    users = [int(u) for u in new]
    if {int(u) for u in expected} != set(users) or len(set(users)) != len(users):
        raise ValueError("apply_ratings: expected and new must name the same users")
    if not all(math.isfinite(float(r.rating)) for r in new.values()):
        raise ValueError("apply_ratings: a new rating is not a finite number")
    return users


@runtime_checkable
class RatingRecords(Protocol):
    """Ratings per variant and user, and the chats' leaderboards.

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back
    end cannot be reached.
    """

    async def get_ratings(self, variant: str, user_ids: Iterable[int]) -> dict[int, StoredRating]:
        """Return the ratings of the users in ``variant`` (e.g. "long", "short"), keyed by user id.

        Every asked user is in the answer: ``StoredRating()`` for a user never rated in this variant.
        Raises: ValueError when ``variant`` is not 1 to 16 characters of ``[a-z_]``.
        """
        ...

    async def apply_ratings(
        self,
        variant: str,
        match_key: str,
        expected: Mapping[int, int],
        new: Mapping[int, StoredRating],
        *,
        chat_id: int | None = None,
    ) -> bool | None:
        """Atomically write the new ratings of one rated match, exactly once per (variant, match key).

        ``expected``: per user, the ``matches`` counter the new rating was computed from (0 for a user never
            rated); ``new``: the ratings to write (normally with ``matches`` one higher). Same keys.
        ``chat_id``: when given and the result is not None, the users join the chat's leaderboard of this variant
            (``chat_rated_players``; idempotent, so a retried call completes it).
        Returns: True when written now (the match key is remembered for at least
            :data:`RATED_MATCHES_RETENTION`); False when this match key was applied before (nothing changed);
            None when a user's ``matches`` differs from ``expected`` (nothing written: re-read and recompute).
        Raises: ValueError when ``variant`` is malformed or ``expected`` and ``new`` have different keys.
        """
        ...

    async def chat_rated_players(self, chat_id: int, variant: str) -> list[int]:
        """Return the user ids that ``apply_ratings`` added to the chat's leaderboard of ``variant`` (any order).

        Raises: ValueError when ``variant`` is malformed.
        """
        ...
