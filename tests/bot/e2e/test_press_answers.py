"""A press is answered at once even when the chat has used Telegram's budget: the board edit it causes waits for
the pacer, a press on the board that is behind is refused with a toast, and once time moves on the paced edits show
the newest version.

The test drives the real Dispatcher over the fake Bot API on an event-driven clock and records every Bot API call.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiogram.methods import TelegramMethod

from bot.keyboards.callbacks import GameCb
from bot.model.actions import StepAction
from bot.storage import Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import board_of, start_game, users
from tests.bot.e2e.helpers import Env, game_buttons, seeded
from tests.bot.e2e.texts import EN, shown
from tests.bot.event_clock import EventClock


async def _no_settle() -> None:
    return None


async def test_presses_are_answered_before_the_paced_board_edit(sqlite_store: Store) -> None:
    clock = EventClock()
    clock.start()
    env = Env(sqlite_store, seeded("pace-8"), sender_clock=clock)
    fake, h = env.fake, env.h
    calls: list[tuple[float, str, Any]] = []  # (virtual time, method, chat) of every Bot API call
    make_request = fake.make_request

    async def timed(bot: Any, method: TelegramMethod[Any], timeout: int | None = None) -> Any:
        calls.append((clock.now, method.__api_method__, getattr(method, "chat_id", None)))
        return await make_request(bot, method, timeout)

    fake.make_request = timed  # type: ignore[method-assign]
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-840)
    game_id = await start_game(env, group, alice, bob)
    assert game_id

    def group_calls_in_last_window() -> int:
        return sum(1 for t, name, chat in calls if chat == group.id and t > clock.now - 61.0)

    # play quickly until the group has used Telegram's budget (19 calls in the last minute)
    while group_calls_in_last_window() < env.sender.limits.group_per_minute:
        stored, match = await state(env, game_id)
        assert not stored.finished
        await press_first(env, awaited_user(stored, match, people), group.id)

    # time stands still from here: a board edit now waits for the pacer until the clock moves on
    await clock.stop()
    env.h.settle = _no_settle
    frozen, mark = clock.now, len(calls)
    stored, match = await state(env, game_id)
    mover = awaited_user(stored, match, people)
    other = bob if mover is alice else alice
    board = board_of(fake, stored, group.id)
    data = game_buttons(board)[0][1]
    await h.press(mover, group.id, board.message_id, data)  # applied: its board edit is queued
    for _ in range(2000):
        if env.sender.pending():
            break
        await asyncio.sleep(0.005)
    assert env.sender.pending() == 1
    await h.press(other, group.id, board.message_id, data)  # the board is behind: refused with a toast
    stored, match = await state(env, game_id)
    assert stored.version == stored.boards[group.id].shown_version + 1
    game = match.game
    action = "roll" if game.phase is Phase.ROLL else StepAction.of(game.plan().next_steps([])[0]).pack()
    nxt = awaited_user(stored, match, people)
    await h.press(
        nxt, group.id, board.message_id, GameCb(game_id=game_id, version=stored.version, action=action).pack()
    )
    after = await sqlite_store.get_game(game_id)
    assert after is not None and after.version == stored.version + 1  # the third press was applied too
    # every press was answered at once; nothing else reached Telegram meanwhile
    assert [(t, name) for t, name, _ in calls[mark:]] == [(frozen, "answerCallbackQuery")] * 3
    assert [(t.user_id, t.text) for t in fake.toasts[-3:]] == [
        (mover.id, None),
        (other.id, shown(EN, "toast.synced")),
        (nxt.id, None),
    ]

    # when the clock moves on, the paced edits follow and the board shows the newest version
    shown_before = board.edits
    clock.start()
    await env.service.settle()
    edits = [(t, name) for t, name, chat in calls[mark:] if chat == group.id]
    assert edits and all(name == "editMessageMedia" for _, name in edits)
    assert edits[0][0] > frozen + 1.0  # the edit waited for the group's budget, the answers did not
    assert board.edits > shown_before
    assert all(f":{after.version}:" in d for _, d in game_buttons(board))
    final = await sqlite_store.get_game(game_id)
    assert final is not None and final.boards[group.id].shown_version == final.version
    await clock.stop()
    await env.close()
