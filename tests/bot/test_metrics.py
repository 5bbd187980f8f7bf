"""The worker's Prometheus metrics: store calls and refused compare-and-set writes, Bot API calls and 429s, updates."""

from __future__ import annotations

from typing import Any, cast

import pytest
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import SendMessage

from bot.metrics import ApiMetricsMiddleware, InstrumentedStore, Metrics, UpdateMetricsMiddleware
from bot.storage import SqliteGameStore, Store


def _value(metrics: Metrics, name: str, **labels: str) -> float:
    value = metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


async def test_store_calls_are_timed_and_refused_writes_counted(sqlite_path: str) -> None:
    metrics = Metrics()
    raw = SqliteGameStore(sqlite_path)
    store = cast(Store, InstrumentedStore(raw, metrics))
    assert isinstance(store, Store)
    game_id = await store.create_game({"n": 0})
    assert await store.update_game(game_id, 1, {"n": 1}) == 2
    assert await store.update_game(game_id, 1, {"n": 2}) is None  # a stale version: refused
    assert _value(metrics, "nardy_store_conflicts_total", operation="update_game") == 1
    assert _value(metrics, "nardy_store_seconds_count", operation="update_game") == 2
    assert _value(metrics, "nardy_store_seconds_count", operation="create_game") == 1
    assert b"nardy_store_seconds_bucket" in metrics.render()
    await store.close()


async def test_api_calls_and_429s_are_counted() -> None:
    metrics = Metrics()
    middleware = ApiMetricsMiddleware(metrics)
    method = SendMessage(chat_id=1, text="hi")

    async def ok(_bot: Any, _method: Any) -> Any:
        return "sent"

    async def flood(_bot: Any, _method: Any) -> Any:
        raise TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=3)

    assert await middleware(ok, cast(Any, None), method) == "sent"
    with pytest.raises(TelegramRetryAfter):
        await middleware(flood, cast(Any, None), method)
    assert _value(metrics, "nardy_api_calls_total", method="sendMessage", outcome="ok") == 1
    assert _value(metrics, "nardy_api_calls_total", method="sendMessage", outcome="429") == 1
    assert _value(metrics, "nardy_api_429_total", method="sendMessage") == 1


async def test_updates_are_counted_with_their_outcome() -> None:
    metrics = Metrics()
    middleware = UpdateMetricsMiddleware(metrics)

    async def fine(_event: Any, _data: dict[str, Any]) -> str:
        return "done"

    async def broken(_event: Any, _data: dict[str, Any]) -> str:
        raise RuntimeError("boom")

    assert await middleware(fine, cast(Any, object()), {}) == "done"
    with pytest.raises(RuntimeError, match="boom"):
        await middleware(broken, cast(Any, object()), {})
    assert _value(metrics, "nardy_updates_total", kind="other", outcome="ok") == 1
    assert _value(metrics, "nardy_updates_total", kind="other", outcome="error") == 1
    metrics.watch_queue(lambda: 7)
    metrics.job("sweep", "ok")
    assert _value(metrics, "nardy_sender_queue_depth") == 7
    assert _value(metrics, "nardy_jobs_total", kind="sweep", outcome="ok") == 1
