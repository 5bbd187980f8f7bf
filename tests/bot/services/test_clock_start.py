"""Starting a clock when its board is seen (bot/services/clock_start.py): only the awaited player's sight counts,
the first sight of an action is recorded once (a second worker gets the first one's moment back), the game's
wake-up is lowered to the clock's deadline and watched, the version is announced again to the live views (once), and
a store that cannot be reached is raised to the caller (whose retry records it)."""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.model.clock import GameClock, TimeControl
from bot.model.game import GameRecord
from bot.services.clock_start import BOTH_SIDES, ClockStarts
from bot.storage import SqliteGameStore
from bot.storage.errors import StoreUnavailableError

FIXTURES = Path(__file__).parents[1] / "model" / "fixtures"


def _waiting(began: float) -> GameRecord:
    record = GameRecord.from_dict(json.loads((FIXTURES / "game_running_match_cube.json").read_text()))
    clock = dataclasses.replace(GameClock.new(TimeControl(10.0, 1.0), 3), first=())
    record.clock = clock.await_board(1, began)
    return record


async def test_the_awaited_player_s_first_sight_starts_the_clock_once(sqlite_store: SqliteGameStore) -> None:
    record = _waiting(1000.0)
    game_id = await sqlite_store.create_game(record.to_dict(), deadline=9000.0)
    now = [1000.0]
    watched: list[tuple[str, float]] = []
    announced: list[tuple[str, int]] = []

    async def announce(game: str, version: int) -> None:
        announced.append((game, version))

    starts = ClockStarts(sqlite_store, lambda: now[0], lambda game, at: watched.append((game, at)), announce)
    now[0] = 1010.0
    assert await starts.seen(game_id, 1, record, (0,)) is None  # the opponent's board: not theirs to see
    assert await starts.seen(game_id, 1, record, BOTH_SIDES) == 1010.0
    assert watched == [(game_id, 1010.0 + 10 + 180)] and announced == [(game_id, 1)]
    stored = await sqlite_store.get_game(game_id)
    assert stored is not None and stored.seen == (1, 1010.0) and stored.version == 1
    assert stored.deadline == 1010.0 + 10 + 180  # the sweeper never wakes it after the flag
    clock = GameRecord.from_stored(stored).clock
    assert clock is not None and clock.started == 1010.0 and clock.deadline() == 1200.0
    now[0] = 1030.0
    assert await starts.seen(game_id, 1, record, (1,)) is None  # remembered: no second store call
    other_worker = ClockStarts(sqlite_store, lambda: now[0], publish=announce)
    assert await other_worker.seen(game_id, 1, record, (1,)) == 1010.0  # the first sight counts
    assert announced == [(game_id, 1)]  # announced by the worker whose mark it is, once
    fresh = ClockStarts(sqlite_store, lambda: now[0])
    assert await fresh.seen(game_id, 1, GameRecord.from_stored(stored), (1,)) is None  # a clock already counting


class _Down:
    async def mark_seen(self, *args: Any, **kwargs: Any) -> float | None:
        raise StoreUnavailableError("down")


async def test_a_store_outage_reaches_the_caller_and_its_retry_records_the_start(
    caplog: pytest.LogCaptureFixture,
) -> None:
    starts = ClockStarts(_Down(), lambda: 1010.0)  # type: ignore[arg-type]
    with pytest.raises(StoreUnavailableError):
        await starts.seen("g", 1, _waiting(1000.0), (1,))
    assert not starts._started  # nothing remembered: the retry calls the store again
    with caplog.at_level(logging.WARNING):  # the Mini App's view goes out all the same
        assert await starts.shown_in_app("g", 1, _waiting(1000.0), 1) is False
    assert "is not recorded" in caplog.text
