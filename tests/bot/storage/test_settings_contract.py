"""The contract of the settings role (``SettingsRecords``),
run against a real Redis server, a real 3-node Redis Cluster (``redis_cluster_url``, see ``conftest.py``) and the
embedded SQLite store."""

from __future__ import annotations

from bot.storage import Store


async def test_settings(store: Store) -> None:
    assert await store.get_chat_settings(-1) == {}
    assert await store.get_user_settings(1) == {}
    await store.set_chat_settings(-1, {"variant": "short", "confirm": True})
    await store.set_user_settings(1, {"lang": "en"})
    assert await store.get_chat_settings(-1) == {"variant": "short", "confirm": True}
    assert await store.get_user_settings(1) == {"lang": "en"}
    await store.set_user_settings(1, {"lang": "ru"})
    assert await store.get_user_settings(1) == {"lang": "ru"}
    assert await store.get_user_settings(2) == {}
