"""``/analyze`` end to end: refused while the game runs and for strangers; after the end a summary per player (checker
plays and cube decisions) and the worst plays as an album of boards."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env
from tests.bot.e2e.test_export import play_and_resign


async def test_a_finished_game_is_analysed_with_its_worst_plays(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-950)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(-950), "Join")
    running = await only_game(sqlite_store, -950)
    await h.send_text(alice, group, f"/analyze {running}")
    assert fake.last_message(-950).content == f"Game {running} is not over: it is analysed once it has ended."
    for _ in range(2):
        stored, match = await state(env, running)
        await press_first(env, awaited_user(stored, match, {1: alice, 2: bob}), -950)
    finished_chat = -951
    game_id = await play_and_resign(env, finished_chat, "short", presses=24)
    before = len(fake.messages(finished_chat))
    await h.send_text(bob, fake.group_chat(finished_chat), "/analyze")  # alone: the sender's last finished game
    new = [m for m in fake.messages(finished_chat)[before:] if m.from_bot]
    summary = new[0].content
    assert f"Analysis of game {game_id}" in summary
    assert "⚪ Alice — " in summary and "⚫ Bob — " in summary and "error rate" in summary
    # a money game with the cube: every roll that could have followed a double is a rated cube decision
    assert "⚪ Alice — " in summary.split("cube decisions rated")[0].splitlines()[-1]
    assert summary.count("cube decisions rated") == 2 and "Janowski" in summary
    boards = new[1:]
    assert 1 <= len(boards) <= 6 and all(b.photo is not None for b in boards)
    assert all("played" in (b.caption or "") and "better" in (b.caption or "") for b in boards)
    eve = fake.user(5, "Eve", "en")
    await h.send_text(eve, fake.group_chat(-952), f"/analyze {game_id}")
    assert fake.last_message(-952).content == f"Game {game_id} was not played by you or in this chat."
    await h.send_text(eve, fake.group_chat(-952), "/analyze")
    assert "Send /analyze and the id" in fake.last_message(-952).content
    await env.close()
