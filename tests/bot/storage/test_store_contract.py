"""The contract of the whole ``Store`` (every role at once): protocol, reopening a store, purging,
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

import pytest

from bot.storage import (
    ChallengeRecords,
    GameRecords,
    RatingRecords,
    SettingsRecords,
    Stats,
    StatsRecords,
    Store,
    TournamentRecords,
    UpdateClaims,
)
from tests.bot.storage.backends import Backend
from tests.bot.storage.samples import SHORT_TTL


async def test_implements_protocol(store: Store) -> None:
    assert isinstance(store, Store)
    await store.ping()


@pytest.mark.parametrize(
    "role",
    [GameRecords, TournamentRecords, RatingRecords, ChallengeRecords, SettingsRecords, StatsRecords, UpdateClaims],
)
async def test_the_store_plays_every_role(store: Store, role: type) -> None:
    assert isinstance(store, role)


async def test_reopen_keeps_data(backend: Backend, store: Store) -> None:
    game_id = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[1], deadline=5.0)
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    challenge_id = await store.create_challenge({"by": 1}, ttl=3600, chat_id=-1)
    await store.set_user_settings(1, {"lang": "en"})
    await store.add_stats(-1, 1, wins=2)
    await store.close()

    reopened = backend.open()
    game = await reopened.get_game(game_id)
    assert game is not None and game.version == 2 and game.data == {"n": 1}
    assert await reopened.chat_games(-1) == [game_id]
    assert await reopened.user_games(1) == [game_id]
    assert await reopened.due_games(now=10.0) == [game_id]
    assert (await reopened.get_challenge(challenge_id)) is not None
    assert await reopened.get_user_settings(1) == {"lang": "en"}
    assert await reopened.get_stats(-1, 1) == Stats(wins=2)
    assert await reopened.update_game(game_id, 2, {"n": 2}) == 3


async def test_purge_expired_removes_only_expired(backend: Backend, store: Store) -> None:
    kept = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5])
    finished_kept = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5])
    assert await store.finish_game(finished_kept, 1, {"n": 1}, ttl=3600) == 2
    gone = []
    for _ in range(5):
        game_id = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5])
        await store.set_board(game_id, -1, 1, 1)
        assert await store.finish_game(game_id, 1, {"n": 1}, ttl=SHORT_TTL) == 2
        gone.append(game_id)
    await store.create_challenge({"by": 1}, ttl=SHORT_TTL, chat_id=-1)
    await backend.advance(SHORT_TTL * 3)
    removed = await store.purge_expired(batch=2)
    assert removed == (0 if backend.is_redis else 6)  # Redis expires by itself
    assert await store.purge_expired(batch=2) == 0
    for game_id in gone:
        assert await store.get_game(game_id) is None
    assert await store.get_game(kept) is not None
    assert await store.chat_games(-1) == [kept]
    assert await store.chat_history(-1) == [finished_kept]
