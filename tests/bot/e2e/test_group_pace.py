"""A game in a group is nearly as fast as in private chats, within Telegram's group limit.

Two players who press one second after their board shows their turn play the same 60 turns of short nardy (the
same dice, the same moves: each turn the one the medium computer would choose, never doubling) in a group and in
their private chats. Everything runs through the real Dispatcher and the production Sender, on an event-driven
virtual clock, so the pacer's waits overlap as they would in real time. The group game must finish within 1.5× the
private one, cost at most 2 group calls (sends and edits) per turn on average, and never make more than 19 calls in
any 60 seconds of the group.
"""

from __future__ import annotations

import re
from typing import Any

from aiogram.methods import TelegramMethod
from aiogram.types import User

from bot.keyboards.callbacks import GameCb, parse_callback
from bot.model.actions import StepAction
from bot.model.game import GameRecord
from bot.services.engine_flow import load_match
from bot.storage import SqliteGameStore, Store
from nardy import Phase
from nardy.ai import get_player
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.texts import EN, shown
from tests.bot.event_clock import EventClock
from tests.bot.fake_telegram import FakeTelegram

PLAYER = get_player("medium", "short", seed=5)
"""Both people choose their turns as the medium computer would (a sensible player, whatever the keyboard offers)."""

TURNS = 60
SEED = "pace-2"
"""Dice with which the game between the two medium-like players lasts at least TURNS turns."""
REACTION = 1.0
GROUP = -900


class CallLog:
    """The sender's Bot API caller, logging (virtual time, method, chat) of every call."""

    def __init__(self, bot: Any, clock: EventClock) -> None:
        """Wrap ``bot``."""
        self.bot = bot
        self.clock = clock
        self.calls: list[tuple[float, str, Any]] = []

    async def __call__(self, method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        self.calls.append((self.clock.now, method.__api_method__, getattr(method, "chat_id", None)))
        return await self.bot(method, request_timeout)


async def _wait_board(env: Env, clock: EventClock, game_id: str, chat_id: int) -> None:
    """Wait (virtual time) until the chat's board shows the saved version."""
    for _ in range(100_000):
        stored = await env.store.get_game(game_id)
        assert stored is not None
        state = stored.boards.get(chat_id)
        if state is not None and state.shown_version >= stored.version:
            return
        await clock.sleep(0.05)
    raise AssertionError("the board never caught up")


def _actions(env: Env, chat_id: int, message_id: int) -> dict[str, str]:
    message = next(m for m in env.fake.messages(chat_id) if m.message_id == message_id)
    found: dict[str, str] = {}
    for row in message.buttons():
        for button in row:
            parsed = parse_callback(button.callback_data)
            if isinstance(parsed, GameCb):
                found[parsed.action] = button.callback_data or ""
                found[f"label:{button.text}"] = button.callback_data or ""
    return found


async def _play(env: Env, clock: EventClock, game_id: str, users: dict[int, User]) -> int:
    """Play TURNS turns (each: roll if asked, then the first legal move). Returns: turns played."""
    turns = 0
    while turns < TURNS:
        stored = await env.store.get_game(game_id)
        assert stored is not None and not stored.finished, f"the game ended after {turns} turns"
        match = load_match(GameRecord.from_stored(stored), game_id, env.service.config.dice)
        game = match.game
        index = game.turn
        chat = next(c for c in stored.data["chats"] if c.get("viewer") in (None, index))
        chat_id = int(chat["chat_id"])
        await _wait_board(env, clock, game_id, chat_id)
        stored = await env.store.get_game(game_id)
        assert stored is not None
        match = load_match(GameRecord.from_stored(stored), game_id, env.service.config.dice)
        game = match.game
        if game.turn != index:
            continue
        state = stored.boards[chat_id]
        assert state.message_id is not None
        actions = _actions(env, chat_id, state.message_id)
        await clock.sleep(REACTION)
        user = users[stored.data["players"][index]["id"]]
        if game.phase is Phase.ROLL:
            data = actions["roll"]
        elif game.phase is Phase.MOVE:
            target = PLAYER.choose_move(game)
            data = actions.get(f"label:{target.notation}", "")
            if not data:
                pending = len(stored.data.get("pending_steps", []))
                data = actions[StepAction.of(target.steps[pending]).pack()]
        else:
            raise AssertionError(f"unexpected phase {game.phase}")
        await env.h.press(user, chat_id, state.message_id, data)
        after = await env.store.get_game(game_id)
        assert after is not None and after.version == stored.version + 1
        turns += sum(1 for e in after.data.get("events", []) if e.get("t") in ("played", "auto", "forfeit"))
    return turns


async def _run(store: Store, mode: str) -> tuple[float, list[tuple[float, str, Any]]]:
    clock = EventClock()
    clock.start()
    fake = FakeTelegram()
    env = Env(store, seeded(SEED), fake=fake, sender_clock=clock, sleep=clock.sleep, computer_delay=0.0)
    log = CallLog(env.sender._bot, clock)
    env.sender._bot = log
    env.h.settle = _no_settle
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {1: alice, 2: bob}
    if mode == "group":
        group = fake.group_chat(GROUP)
        await env.h.send_text(alice, group, "/new short")
        await env.h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
        game_id = (await store.chat_games(GROUP))[0]
    else:
        await env.h.send_text(alice, fake.private_chat(alice), "/new short")
        found = re.search(r"\?start=(c_[A-Za-z0-9_-]{10})", fake.last_message(alice.id).content)
        assert found is not None
        await env.h.send_text(bob, fake.private_chat(bob), f"/start {found.group(1)}")
        game_id = (await store.user_games(1))[0]
    stored = await store.get_game(game_id)
    assert stored is not None
    for chat in stored.data["chats"]:
        await _wait_board(env, clock, game_id, int(chat["chat_id"]))
    start = clock.now
    assert await _play(env, clock, game_id, users) == TURNS
    stored = await store.get_game(game_id)
    assert stored is not None
    for chat in stored.data["chats"]:
        await _wait_board(env, clock, game_id, int(chat["chat_id"]))
    duration = clock.now - start
    await env.service.settle()
    await clock.stop()
    await env.close()
    return duration, [c for c in log.calls if c[0] >= start]


async def _no_settle() -> None:
    return None


async def test_group_game_is_nearly_as_fast_as_private(tmp_path: Any) -> None:
    group_store = SqliteGameStore(tmp_path / "group.sqlite3")
    private_store = SqliteGameStore(tmp_path / "private.sqlite3")
    try:
        group_time, group_calls = await _run(group_store, "group")
        private_time, _ = await _run(private_store, "private")
    finally:
        await group_store.close()
        await private_store.close()
    in_group = sorted(t for t, name, chat in group_calls if chat == GROUP)
    per_turn = len(in_group) / TURNS
    window = max(sum(1 for u in in_group if t <= u < t + 60.0) for t in in_group)
    print(
        f"group {group_time:.1f} s, private {private_time:.1f} s, ratio {group_time / private_time:.2f}; "
        f"{per_turn:.2f} group calls per turn; at most {window} in 60 s"
    )
    assert window <= 19
    assert per_turn <= 2.0
    assert group_time <= 1.5 * private_time
