"""Refused requests of the Mini App are counted, not logged one line each: at most one INFO line an interval sums
them up by reason, with the users refused most; the last counts are logged when the server stops."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import Counter

import pytest

from bot.storage import RateLimit, Store
from bot.webapp.refusals import RefusalSummary
from bot.webapp.server import REFUSALS
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import forged, signed_init_data
from tests.bot.webapp.limitkit import Clock, Worker, auth, limiter, parts_of

LOGGER = "bot.webapp.refusals"


def test_one_line_sums_up_an_interval(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    summary = RefusalSummary(interval=60.0, clock=clock, max_users=2)
    with caplog.at_level(logging.INFO, logger=LOGGER):
        assert not summary.flush()  # nothing refused: nothing said
        for _ in range(40):
            summary.count("missing")
        summary.count("forged")
        for user in (7, 7, 7, 8, 9):  # the third user is counted by reason, not told apart
            summary.count("rate_limited_action", user)
        assert caplog.records == []  # counting logs nothing
        clock.now += 60.0
        assert summary.flush()
        assert not summary.flush()  # counts start afresh
    (line,) = [r.getMessage() for r in caplog.records]
    assert line == (
        "Mini App: 46 requests refused in the last 60 s (forged 1, missing 40, rate_limited_action 5);"
        " signed-in users refused: 2+, most often user 7 (3)"
    )
    assert caplog.records[0].levelname == "INFO" and caplog.records[0].exc_info is None


def counts_in(lines: list[str]) -> Counter[str]:
    """Return the counts by reason that summary ``lines`` give, added up."""
    total: Counter[str] = Counter()
    for line in lines:
        by_reason = re.search(r"\(([^)]*)\)", line)
        assert by_reason is not None, line
        for reason, count in re.findall(r"(\w+) (\d+)", by_reason.group(1)):
            total[reason] += int(count)
    return total


async def test_a_flood_of_refusals_is_summed_up(sqlite_store: Store, caplog: pytest.LogCaptureFixture) -> None:
    interval = 0.3
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=801)
        game_id = await app.group_game(app.env.fake.group_chat(-800), alice, bob)
        one_read = limiter(sqlite_store, Clock(), reads=RateLimit(rate=0.01, burst=1))
        worker = Worker(parts_of(app, limiter=one_read, refusal_log_interval=interval))
        with caplog.at_level(logging.DEBUG):
            async with worker:
                started = time.monotonic()
                bad = {"Authorization": "tma " + forged(signed_init_data(alice.id, "Alice"))}
                for _ in range(30):
                    assert (await worker.call("GET", f"api/games/{game_id}"))[0] == 401
                for _ in range(10):
                    assert (await worker.call("GET", f"api/games/{game_id}", headers=bad))[0] == 401
                assert (await worker.get(game_id, bob))[0] == 200
                for _ in range(5):
                    assert (await worker.get(game_id, bob))[0] == 429
                for _ in range(3):
                    status, _, _ = await worker.call(
                        "POST", f"api/games/{game_id}/actions", headers=auth(alice), data=b"\xff"
                    )
                    assert status == 400
                while not [r for r in caplog.records if r.name == LOGGER]:  # the next summary comes on its own
                    await asyncio.sleep(interval / 3)
                elapsed = time.monotonic() - started
                worker.webapp[REFUSALS].count("missing")  # refused after the last line: logged at the stop
        lines = [r.getMessage() for r in caplog.records if r.name == LOGGER]
        assert counts_in(lines) == {
            "missing": 31,
            "forged": 10,
            "rate_limited_read": 5,
            "bad_request": 3,
        }
        assert len(lines) <= elapsed / interval + 2  # one line an interval at most (and one at the stop)
        assert "most often user 802 (5)" in "".join(lines)  # Bob, over his rate
        mine = [r for r in caplog.records if r.name.startswith("bot.")]
        assert all(r.name == LOGGER and r.levelname == "INFO" and r.exc_info is None for r in mine), caplog.text
