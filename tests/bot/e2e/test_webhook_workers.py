"""Webhook mode end to end: two worker processes (``python -m bot`` with ``BOT_MODE=webhook``) on one Redis, a
fake Telegram over HTTP posting the updates (with and without the secret), the same update delivered twice to
different workers, and a worker killed mid-update with the update redelivered to the other: one challenge card for
one command, one answer per button press, a game that stays consistent and a board that catches up."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from bot.model.game import GameRecord
from bot.services.engine_flow import load_match, system_dice
from bot.services.fairness import export_record
from bot.storage import RedisGameStore
from nardy.fairness import verify_record
from tests.bot.fake_bot_api_server import (
    WORKER_SECRET,
    ChatMessage,
    FakeBotApiServer,
    Worker,
    deliver,
    group,
    start_worker,
    stop_workers,
    user,
    wait_healthy,
)

SECRET = WORKER_SECRET
ALICE = user(501, "Alice")
BOB = user(502, "Bob")
GROUP = group(-100_777)


async def _quiet(api: FakeBotApiServer, seconds: float = 0.4, limit: float = 20.0) -> None:
    """Wait until the workers have made no Bot API call for ``seconds`` (their sends and edits are done)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        last = api.calls[-1].at if api.calls else 0.0
        if time.monotonic() - last >= seconds:
            return
        await asyncio.sleep(0.05)


async def _until_handled(session: aiohttp.ClientSession, url: str, update: dict[str, Any]) -> int:
    """Deliver ``update`` like Telegram does until a worker accepts it (503 means: try again later)."""
    for _ in range(200):
        status, _ = await deliver(session, url, update, SECRET)
        if status == 200:
            return status
        assert status == 503, status
        await asyncio.sleep(0.1)
    raise AssertionError("the update was never accepted")


@pytest.fixture
async def workers(redis_url: str, tmp_path: Path) -> AsyncIterator[tuple[FakeBotApiServer, list[Worker]]]:
    api = FakeBotApiServer()
    server = TestServer(api.app(), host="127.0.0.1")
    await server.start_server()
    settings = {"WEBHOOK_UPDATE_LEASE": "3", "TIMEOUT_SWEEP_INTERVAL": "1", "BOARD_RETRY_AFTER": "1"}
    started = [start_worker(str(server.make_url("")), redis_url, tmp_path, f"w{i}", **settings) for i in range(2)]
    try:
        async with aiohttp.ClientSession() as session:
            for worker in started:
                await wait_healthy(session, worker)
        yield api, started
    finally:
        stop_workers(started)
        await server.close()


def _board(api: FakeBotApiServer) -> ChatMessage:
    boards = [m for m in api.chat(GROUP["id"]) if m.photo and m.keyboard]
    assert boards, [m.text or m.caption for m in api.chat(GROUP["id"])]
    return boards[-1]


def _answers(api: FakeBotApiServer, update: dict[str, Any]) -> int:
    query_id = update["callback_query"]["id"]
    return sum(1 for c in api.methods("answerCallbackQuery") if c.fields.get("callback_query_id") == query_id)


async def _game_state(redis_url: str) -> tuple[str, int, dict[int, int]]:
    """Return the group's game id, its version and the version each chat's board shows, checking that it loads."""
    store = RedisGameStore.from_url(redis_url)
    try:
        games = await store.chat_games(GROUP["id"])
        assert len(games) == 1, games
        stored = await store.get_game(games[0])
        assert stored is not None
        record = GameRecord.from_stored(stored)
        load_match(record, games[0], system_dice)  # the record is consistent
        assert verify_record(export_record(games[0], record, finished=True)).ok  # its dice are the seeds' dice
        return games[0], stored.version, {c: b.shown_version for c, b in stored.boards.items()}
    finally:
        await store.close()


async def test_two_workers_share_one_game_and_never_apply_an_update_twice(
    workers: tuple[FakeBotApiServer, list[Worker]], redis_url: str
) -> None:
    api, (first, second) = workers
    # every worker registered the webhook with the secret and the update types its handlers use
    registrations = api.methods("setWebhook")
    assert len(registrations) == 2
    assert {c.fields["url"] for c in registrations} == {"https://bot.example.org/telegram"}
    assert all(c.fields["secret_token"] == SECRET for c in registrations)
    assert "callback_query" in registrations[0].fields["allowed_updates"]
    async with aiohttp.ClientSession() as session:
        # without the secret, or with a wrong one: refused, nothing changes
        challenge = api.message_update(ALICE, GROUP, "/new short")
        assert (await deliver(session, first.url, challenge, None))[0] == 401
        assert (await deliver(session, second.url, challenge, "wrong"))[0] == 401
        await _quiet(api)
        assert api.methods("sendMessage", "sendPhoto") == []

        # the same command delivered to both workers at once: one challenge card
        results = await asyncio.gather(
            deliver(session, first.url, challenge, SECRET), deliver(session, second.url, challenge, SECRET)
        )
        assert sorted(status for status, _ in results)[0] == 200
        if any(status == 503 for status, _ in results):  # the other was busy with it: Telegram retries
            await _until_handled(session, second.url, challenge)
        await _quiet(api)
        cards = [m for m in api.chat(GROUP["id"]) if m.keyboard]
        assert len(cards) == 1, [m.text for m in cards]
        join = next(data for data in cards[0].callbacks() if data.startswith("c:") and data.endswith(":join"))
        press = api.press_update(BOB, cards[0], join)
        assert (await deliver(session, second.url, press, SECRET))[0] == 200
        assert (await deliver(session, first.url, press, SECRET))[0] == 200  # the redelivery: dropped
        await _quiet(api)
        assert _answers(api, press) == 1
        deadline = time.monotonic() + 60  # the first board of a fresh worker takes a moment (fonts, the first render)
        while True:
            await _quiet(api)
            game_id, version, shown = await _game_state(redis_url)
            if shown.get(GROUP["id"]) == version or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        assert shown.get(GROUP["id"]) == version

        # both players press the first button of the board in turn, each press delivered to both workers
        players = (ALICE, BOB)
        for k in range(16):
            board = _board(api)
            press = api.press_update(players[k % 2], board, board.callbacks()[0])
            one, other = (first, second) if k % 2 else (second, first)
            assert (await deliver(session, one.url, press, SECRET))[0] == 200
            assert (await deliver(session, other.url, press, SECRET))[0] == 200
            await _quiet(api, 0.2)
            assert _answers(api, press) == 1  # answered once: the redelivery was not handled again
        _, before, _ = await _game_state(redis_url)

        # a worker killed mid-update: Telegram redelivers to the other worker, which handles it once the
        # lease of the dead worker's claim lapses (503 until then)
        board = _board(api)
        stuck = [api.press_update(player, board, board.callbacks()[0]) for player in players]
        sends = [asyncio.create_task(deliver(session, first.url, update, SECRET)) for update in stuck]
        await asyncio.sleep(0.02)
        first.process.kill()
        for task in sends:
            with contextlib.suppress(aiohttp.ClientError):
                await task
        for update in stuck:
            await _until_handled(session, second.url, update)
        # the board catches up (the sweeper of the live worker re-sends whatever the dead one left behind)
        deadline = time.monotonic() + 30
        while True:
            await _quiet(api, 0.3)
            same_game, after, shown = await _game_state(redis_url)
            if shown.get(GROUP["id"]) == after or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        assert same_game == game_id
        assert shown.get(GROUP["id"]) == after
        # one board for the game in the group, whichever worker's sweep re-synced it (no second sendPhoto)
        assert len([m for m in api.chat(GROUP["id"]) if m.photo]) == 1
        assert before <= after <= before + 2 * 4  # at most the two presses' saves, never a replay
        # the live worker's metrics count the updates, the duplicates and the Bot API calls
        async with session.get(second.base + "/metrics") as response:
            text = await response.text()
        assert response.status == 200
        assert 'nardy_updates_total{kind="callback_query",outcome="ok"}' in text
        assert 'nardy_updates_total{kind="webhook",outcome="duplicate"}' in text
        assert 'nardy_api_calls_total{method="answerCallbackQuery",outcome="ok"}' in text
        assert "nardy_store_seconds_bucket" in text and "nardy_sender_queue_depth" in text
