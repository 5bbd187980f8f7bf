"""Ratings on SQLite (:class:`~bot.storage.ratings.RatingRecords`): ``ratings``, ``rated_matches`` and
``chat_rated_players``."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from ..ratings import StoredRating, check_rating_change, check_variant
from .connection import SqliteConnection


class SqliteRatings(SqliteConnection):
    """The ratings of a :class:`~bot.storage.sqlite.store.SqliteGameStore`."""

    async def get_ratings(self, variant: str, user_ids: Iterable[int]) -> dict[int, StoredRating]:
        """See :meth:`bot.storage.ratings.RatingRecords.get_ratings`."""
        check_variant(variant)
        users = list(dict.fromkeys(int(u) for u in user_ids))
        if not users:
            return {}

        def op(conn: sqlite3.Connection) -> list[Any]:
            marks = ",".join("?" * len(users))
            return conn.execute(
                "SELECT user_id, rating, experience, matches, name FROM ratings"
                f" WHERE variant = ? AND user_id IN ({marks})",
                (variant, *users),
            ).fetchall()

        found = {
            int(user): StoredRating(rating=float(rating), experience=int(exp), matches=int(matches), name=str(name))
            for user, rating, exp, matches, name in await self._run(op)
        }
        return {user: found.get(user, StoredRating()) for user in users}

    async def apply_ratings(
        self,
        variant: str,
        match_key: str,
        expected: Mapping[int, int],
        new: Mapping[int, StoredRating],
        *,
        chat_id: int | None = None,
    ) -> bool | None:
        """See :meth:`bot.storage.ratings.RatingRecords.apply_ratings`."""
        check_variant(variant)
        users = check_rating_change(expected, new)
        wanted = {int(u): int(m) for u, m in expected.items()}
        rows = [
            (variant, int(u), float(r.rating), int(r.experience), int(r.matches), str(r.name)) for u, r in new.items()
        ]
        now = self._clock()

        def op(conn: sqlite3.Connection) -> bool | None:
            applied = conn.execute(
                "SELECT 1 FROM rated_matches WHERE variant = ? AND match_key = ?", (variant, str(match_key))
            ).fetchone()
            if applied:
                result = False
            else:
                for user in users:
                    row = conn.execute(
                        "SELECT matches FROM ratings WHERE variant = ? AND user_id = ?", (variant, user)
                    ).fetchone()
                    if (int(row[0]) if row else 0) != wanted[user]:
                        return None
                conn.executemany(
                    "INSERT OR REPLACE INTO ratings (variant, user_id, rating, experience, matches, name)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
                conn.execute(
                    "INSERT INTO rated_matches (variant, match_key, at) VALUES (?, ?, ?)",
                    (variant, str(match_key), now),
                )
                result = True
            if chat_id is not None:
                conn.executemany(
                    "INSERT OR IGNORE INTO chat_rated_players (chat_id, variant, user_id) VALUES (?, ?, ?)",
                    [(int(chat_id), variant, user) for user in users],
                )
            return result

        return await self._run(op)

    async def chat_rated_players(self, chat_id: int, variant: str) -> list[int]:
        """See :meth:`bot.storage.ratings.RatingRecords.chat_rated_players`."""
        check_variant(variant)
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT user_id FROM chat_rated_players WHERE chat_id = ? AND variant = ?", (int(chat_id), variant)
            ).fetchall()
        )
        return [int(row[0]) for row in rows]
