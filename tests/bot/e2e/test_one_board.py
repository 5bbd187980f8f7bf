"""One board per game per chat, whatever the timing: two workers on one store, the first one's board held back in
its sender's queue beyond ``BOARD_RETRY_AFTER``, while the second one's sweep finds the board behind.

The first worker handles the Join (the game is created and its board is queued: it waits for the group's budget,
here a gate); the second worker's sweep runs while it waits. Before the fix the sweep saw no board message and
posted one, then the first worker's queued ``sendPhoto`` posted a second (the older one keeping live buttons).
Now posting a new board is an exclusive lease in the store (``fence_board``) taken again right before the call
(the sender's guard): exactly one ``sendPhoto`` whether the first worker's lease is still live when the sweep runs
or has expired (then the sweep posts and the first worker's queued photo is withdrawn)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.storage import Store
from tests.bot.e2e.drive import only_game
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.texts import EN, shown
from tests.bot.fake_telegram import FakeTelegram
from tests.bot.virtual_time import VirtualClock

GROUP = -960


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


def _worker(store: Store, fake: FakeTelegram, clock: VirtualClock) -> Env:
    return Env(store, seeded("one-board"), fake=fake, clock=clock, sleep=_no_wait, board_retry_after=2.0)


@pytest.mark.parametrize("lease_expired", [False, True], ids=["claim-live", "claim-expired"])
async def test_a_sweep_never_posts_a_second_board_while_the_first_waits(
    clocked_store: tuple[Store, VirtualClock], lease_expired: bool
) -> None:
    store, clock = clocked_store
    fake = FakeTelegram()
    first, second = _worker(store, fake, clock), _worker(store, fake, clock)
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(GROUP)
    await first.h.send_text(alice, group, "/new short")
    card = fake.last_message(GROUP)

    gate = asyncio.Event()  # the group's budget, as the first worker's sender sees it: closed
    waiting = first.sender._wait_turn

    async def held(chat_id: Any, queue: Any, count: int = 1) -> str | None:
        if chat_id == GROUP:
            await gate.wait()
        return await waiting(chat_id, queue, count)

    first.sender._wait_turn = held  # type: ignore[method-assign]

    async def no_settle() -> None:
        return None

    first.h.settle = no_settle  # the first worker's boards are stuck in its queue: do not wait for them
    press = asyncio.create_task(first.h.press_button(bob, card, shown(EN, "btn.join")))
    for _ in range(1000):
        await asyncio.sleep(0)
        if await store.chat_games(GROUP) and first.sender.pending() and first.service.boards.busy_any():
            break
    game_id = await only_game(store, GROUP)
    assert fake.calls_named("sendPhoto") == []  # the board waits in the first worker's queue

    clock.now += 1000.0 if lease_expired else 5.0  # beyond BOARD_RETRY_AFTER (and, or not, beyond the lease)
    await second.service.sweep(clock.now)  # the second worker's sweep finds the board behind
    await second.service.settle()
    gate.set()
    await press
    await first.service.settle()
    for env in (first, second):  # whoever did not finish converges on the next sweep
        clock.now += 100.0
        await env.service.sweep(clock.now)
        await env.service.settle()
    await first.sender.drain()
    await second.sender.drain()

    photos = [c for c in fake.calls_named("sendPhoto") if c.method.chat_id == GROUP]  # type: ignore[attr-defined]
    assert len(photos) == 1, f"{len(photos)} boards were posted for game {game_id}"
    stored = await store.get_game(game_id)
    assert stored is not None
    board = stored.boards[GROUP]
    assert board.shown_version == stored.version
    boards = [m for m in fake.messages(GROUP) if m.photo is not None]
    assert [m.message_id for m in boards] == [board.message_id]
    await first.close()
    await second.close()
