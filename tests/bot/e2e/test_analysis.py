"""``/analyze`` end to end: refused while the game runs and for strangers; after the end a summary per player (checker
plays and cube decisions) and the worst plays as an album of boards."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env
from tests.bot.e2e.test_export import play_and_resign
from tests.bot.e2e.texts import EN, entry_lines, entry_pattern, has_entry, shown


async def test_a_finished_game_is_analysed_with_its_worst_plays(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-950)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(-950), shown(EN, "btn.join"))
    running = await only_game(sqlite_store, -950)
    await h.send_text(alice, group, f"/analyze {running}")
    assert fake.last_message(-950).content == shown(EN, "analysis.running", game=running)
    for _ in range(2):
        stored, match = await state(env, running)
        await press_first(env, awaited_user(stored, match, {1: alice, 2: bob}), -950)
    finished_chat = -951
    game_id = await play_and_resign(env, finished_chat, "short", presses=24)
    before = len(fake.messages(finished_chat))
    await h.send_text(bob, fake.group_chat(finished_chat), "/analyze")  # alone: the sender's last finished game
    new = [m for m in fake.messages(finished_chat)[before:] if m.from_bot]
    summary = new[0].content
    assert summary.splitlines()[0] == shown(EN, "analysis.title", game=game_id), summary
    assert has_entry(summary, EN, "analysis.player", mark="⚪", name="Alice"), summary
    assert has_entry(summary, EN, "analysis.player", mark="⚫", name="Bob"), summary
    # a money game with the cube: every roll that could have followed a double is a rated cube decision
    cube_lines = entry_lines(summary, EN, "analysis.cube")
    assert len(cube_lines) == 2 and entry_pattern(EN, "analysis.cube", mark="⚪", name="Alice").fullmatch(cube_lines[0])
    assert has_entry(summary, EN, "analysis.cube_legend"), summary
    boards = new[1:]
    assert 1 <= len(boards) <= 6 and all(b.photo is not None for b in boards)
    assert all(has_entry(b.content, EN, "analysis.play") for b in boards), [b.content for b in boards]
    eve = fake.user(5, "Eve", "en")
    await h.send_text(eve, fake.group_chat(-952), f"/analyze {game_id}")
    assert fake.last_message(-952).content == shown(EN, "export.not_yours", game=game_id)
    await h.send_text(eve, fake.group_chat(-952), "/analyze")
    assert fake.last_message(-952).content == shown(EN, "analysis.usage")
    await env.close()
