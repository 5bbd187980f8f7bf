"""The contract of the ratings role (``RatingRecords``),
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Store, StoredRating
from tests.bot.storage.backends import Backend


async def test_ratings_default(store: Store) -> None:
    assert await store.get_ratings("long", [5, 6, 5]) == {5: StoredRating(), 6: StoredRating()}
    assert StoredRating() == StoredRating(1500.0, 0, 0, "")
    assert await store.get_ratings("short", []) == {}
    assert await store.chat_rated_players(-1, "long") == []


async def test_apply_ratings_once_per_match_key(store: Store) -> None:
    new = {5: StoredRating(1508.5, 1, 1, "Алиса"), 6: StoredRating(1491.5, 1, 1, "Борис 🎲")}
    assert await store.apply_ratings("long", "t1:r1:m1", {5: 0, 6: 0}, new, chat_id=-1) is True
    assert await store.get_ratings("long", [5, 6, 7]) == {**new, 7: StoredRating()}
    # The same key again changes nothing, whatever it carries.
    other = {5: StoredRating(1, 9, 2, "x"), 6: StoredRating(1, 9, 2, "y")}
    assert await store.apply_ratings("long", "t1:r1:m1", {5: 1, 6: 1}, other, chat_id=-2) is False
    assert await store.get_ratings("long", [5, 6]) == new
    # ...but the leaderboard membership is (re)done for a result that is not None.
    assert sorted(await store.chat_rated_players(-2, "long")) == [5, 6]
    # Variants are independent.
    assert await store.get_ratings("short", [5]) == {5: StoredRating()}
    assert await store.apply_ratings("short", "t1:r1:m1", {5: 0}, {5: StoredRating(1490.0, 1, 1, "Алиса")}) is True
    assert await store.get_ratings("long", [5]) == {5: new[5]}


async def test_apply_ratings_conflict(store: Store) -> None:
    first = {5: StoredRating(1510.0, 1, 1, "a"), 6: StoredRating(1490.0, 1, 1, "b")}
    assert await store.apply_ratings("long", "m1", {5: 0, 6: 0}, first) is True
    # Computed from a stale read (user 5 has 1 match now): refused, nothing written, key not remembered.
    stale = {5: StoredRating(1520.0, 2, 1, "a"), 7: StoredRating(1480.0, 1, 1, "c")}
    assert await store.apply_ratings("long", "m2", {5: 0, 7: 0}, stale, chat_id=-1) is None
    assert await store.get_ratings("long", [5, 7]) == {5: first[5], 7: StoredRating()}
    assert await store.chat_rated_players(-1, "long") == []
    fresh = {5: StoredRating(1520.0, 2, 2, "a"), 7: StoredRating(1480.0, 1, 1, "c")}
    assert await store.apply_ratings("long", "m2", {5: 1, 7: 0}, fresh, chat_id=-1) is True
    assert await store.get_ratings("long", [5, 7]) == fresh


async def test_apply_ratings_refuses_malformed_arguments(store: Store) -> None:
    for variant in ("", "Long", "long-game", "x" * 17, "длинные", "long "):
        with pytest.raises(ValueError, match="variant"):
            await store.get_ratings(variant, [5])
        with pytest.raises(ValueError, match="variant"):
            await store.apply_ratings(variant, "m", {5: 0}, {5: StoredRating()})
        with pytest.raises(ValueError, match="variant"):
            await store.chat_rated_players(-1, variant)
    with pytest.raises(ValueError, match="same users"):
        await store.apply_ratings("long", "m", {5: 0}, {6: StoredRating()})
    with pytest.raises(ValueError, match="same users"):
        await store.apply_ratings("long", "m", {5: 0, 6: 0}, {5: StoredRating()})
    with pytest.raises(ValueError, match="finite"):
        await store.apply_ratings("long", "m", {5: 0}, {5: StoredRating(rating=float("nan"))})
    assert await store.get_ratings("long_game", [5]) == {5: StoredRating()}
    assert await store.apply_ratings("long", "m", {5: 0}, {5: StoredRating(1501.0, 1, 1, "")}) is True


async def test_concurrent_matches_of_one_user_are_all_applied(backend: Backend, store: Store) -> None:
    stores = [store, backend.open(), backend.open()]

    async def rate(index: int, winner: int, loser: int) -> tuple[bool, int]:
        target = stores[index % len(stores)]
        tries = 0
        while True:
            tries += 1
            cur = await target.get_ratings("long", [winner, loser])
            new = {
                user: StoredRating(
                    rating=cur[user].rating + (8.0 if user == winner else -8.0),
                    experience=cur[user].experience + 3,
                    matches=cur[user].matches + 1,
                    name=f"Игрок №{user}",
                )
                for user in (winner, loser)
            }
            expected = {user: cur[user].matches for user in (winner, loser)}
            result = await target.apply_ratings("long", f"match-{index}", expected, new, chat_id=-1)
            if result is not None:
                return result, tries

    # Two matches touching user 5, then many at once.
    results = await asyncio.gather(rate(0, 5, 6), rate(1, 7, 5))
    assert [r for r, _ in results] == [True, True]
    ratings = await store.get_ratings("long", [5, 6, 7])
    assert ratings[5].matches == 2 and ratings[5].rating == 1500.0 and ratings[5].experience == 6
    assert ratings[6] == StoredRating(1492.0, 3, 1, "Игрок №6")
    assert ratings[7] == StoredRating(1508.0, 3, 1, "Игрок №7")
    many = await asyncio.gather(*(rate(10 + i, 5, 100 + i) for i in range(12)))
    assert all(r for r, _ in many)
    assert any(tries > 1 for _, tries in many)  # the conflicts really happened and were retried
    assert (await store.get_ratings("long", [5]))[5].matches == 14
    assert (await store.get_ratings("long", [5]))[5].rating == 1500.0 + 12 * 8.0
    assert sorted(await store.chat_rated_players(-1, "long")) == [5, 6, 7, *range(100, 112)]
    # Retrying an applied match changes nothing.
    assert (await rate(10, 5, 100))[0] is False
    assert (await store.get_ratings("long", [5]))[5].matches == 14


async def test_leaderboard_sets_are_per_chat_and_variant(store: Store) -> None:
    one = {5: StoredRating(1510.0, 1, 1, "a"), 6: StoredRating(1490.0, 1, 1, "b")}
    assert await store.apply_ratings("long", "m1", {5: 0, 6: 0}, one, chat_id=-1) is True
    assert await store.apply_ratings("short", "m1", {7: 0}, {7: StoredRating(1501.0, 1, 1, "c")}, chat_id=-1)
    assert await store.apply_ratings("long", "m2", {8: 0}, {8: StoredRating(1501.0, 1, 1, "d")})
    assert sorted(await store.chat_rated_players(-1, "long")) == [5, 6]
    assert await store.chat_rated_players(-1, "short") == [7]
    assert await store.chat_rated_players(-2, "long") == []
    # A retried call with another chat adds the users there too.
    assert await store.apply_ratings("long", "m1", {5: 0, 6: 0}, one, chat_id=-2) is False
    assert sorted(await store.chat_rated_players(-2, "long")) == [5, 6]
