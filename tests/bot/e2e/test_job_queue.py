"""Background work as jobs of the Redis queue (bot.jobs), not tasks of the process: the computer's replies in a game
against it, and the look at a game whose clock's deadline came."""

from __future__ import annotations

import asyncio
import time

from bot.jobs import TaskiqJobs
from bot.metrics import Metrics
from bot.model.game import GameRecord
from bot.services.computer import computer_to_act as computer_awaited
from bot.storage import RedisGameStore, StoredGame
from nardy import Match
from nardy.ai import ComputerPlayer, get_player
from tests.bot.e2e.drive import only_game, press_first, state
from tests.bot.e2e.group_play import start_game, users
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_clock import Now

PRESSES = 40


def fixed_seed(level: str, variant: str, _seed: int) -> ComputerPlayer:
    return get_player(level, variant, seed=7)


def job_outcomes(metrics: Metrics) -> dict[str, float | None]:
    """The computer_turn jobs counted so far by outcome (to say why a reply did not come)."""
    return {
        outcome: metrics.registry.get_sample_value("nardy_jobs_total", {"kind": "computer_turn", "outcome": outcome})
        for outcome in ("ok", "error")
    }


def clock_jobs(metrics: Metrics) -> float | None:
    """The clock_deadline jobs run to the end so far."""
    return metrics.registry.get_sample_value("nardy_jobs_total", {"kind": "clock_deadline", "outcome": "ok"})


def shows_saved_version(stored: StoredGame, chat_id: int) -> bool:
    """Whether the chat's board shows the game's saved version."""
    board = stored.boards.get(chat_id)
    return board is not None and board.shown_version >= stored.version


def computer_to_act(env: Env, stored: StoredGame, match: Match) -> bool:
    return computer_awaited(GameRecord.from_stored(stored), match) is not None


async def test_the_computer_replies_through_the_queue(redis_store: RedisGameStore, redis_url: str) -> None:
    env = Env(redis_store, seeded("jobs-computer"), computer=fixed_seed)
    env.service.config.computer_delay = 0.0
    metrics = Metrics()
    jobs = TaskiqJobs(redis_url, metrics=metrics, sweep_interval=3600)
    await jobs.start(env.service)
    env.service.jobs = jobs
    try:
        alice = env.fake.user(61, "Alice", "en")
        await env.h.send_text(alice, env.fake.private_chat(alice), "/new bot short easy")
        game_id = await only_game(redis_store, alice.id)
        presses = 0
        deadline = time.monotonic() + 120  # generous: the whole suite may load the machine meanwhile
        while presses < PRESSES:  # Alice's part by the board's first button; the computer's comes from the queue
            stored, match = await state(env, game_id)
            if stored.finished:
                break
            # the computer to act (its job may play several replies in a row when Alice's roll is forfeited), or
            # the board not yet showing the saved state (the job's board sync starts just after its save): wait
            if computer_to_act(env, stored, match) or not shows_saved_version(stored, alice.id):
                assert time.monotonic() < deadline, f"the computer's reply never showed ({job_outcomes(metrics)})"
                await jobs.settle()
                await asyncio.sleep(0.05)
                continue
            await env.service.settle()
            await press_first(env, alice, alice.id)  # Alice's decision: nothing else changes the game meanwhile
            presses += 1
        replies = metrics.registry.get_sample_value("nardy_jobs_total", {"kind": "computer_turn", "outcome": "ok"})
        assert replies is not None and replies >= 3  # 14 in this seeded game
        assert env.service.computer_turns.tasks.tasks() == []  # nothing ran as a task of the process
    finally:
        await jobs.close()
        await env.service.settle()
        await env.close()


async def test_a_clock_s_deadline_is_a_job_of_the_queue_that_ends_the_match(
    redis_store: RedisGameStore, redis_url: str
) -> None:
    """The wake-up at the clock's deadline (on virtual time) queues a ``clock_deadline`` job; the worker that takes
    it ends the match on time, with no sweep; a second job for the same game changes nothing."""
    now = Now()
    env = Env(redis_store, seeded("jobs-clock"), clock=now, sleep=now.sleep)
    metrics = Metrics()
    jobs = TaskiqJobs(redis_url, metrics=metrics, sweep_interval=3600)
    await jobs.start(env.service)
    env.service.jobs = jobs
    try:
        alice, bob = users(env.fake, "Alice", "Bob")
        group = env.fake.group_chat(-3409)
        game_id = await start_game(env, group, alice, bob, "short clock 0+0.25")
        assert game_id
        stored, _ = await state(env, game_id)
        clock = GameRecord.from_stored(stored).clock
        assert clock is not None and clock.running is not None
        deadline = clock.deadline()
        assert deadline is not None
        await asyncio.sleep(0.3)  # the worker's consumer joins the group
        await now.advance(deadline)
        await jobs.settle()
        limit = time.monotonic() + 60  # generous: the whole suite may load the machine meanwhile
        while clock_jobs(metrics) != 1:
            assert time.monotonic() < limit, "the clock_deadline job never ran"
            await asyncio.sleep(0.05)
        stored, _ = await state(env, game_id)
        record = GameRecord.from_stored(stored)
        assert stored.finished and record.clock is not None and record.clock.flag == clock.running
        version = stored.version
        jobs.clock_deadline(game_id, 0.0)  # a second job (a stale timer of another worker) finds the game over
        await jobs.settle()
        while clock_jobs(metrics) != 2:
            assert time.monotonic() < limit, "the second clock_deadline job never ran"
            await asyncio.sleep(0.05)
        assert (await state(env, game_id))[0].version == version
    finally:
        await jobs.close()
        # cancel first: a board sync re-requested meanwhile sleeps on the virtual clock, which no longer moves
        await env.service.stop_computer()
        await env.service.settle()
        await env.close()
