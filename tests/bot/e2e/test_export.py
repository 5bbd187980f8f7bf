"""``/export`` end to end: a short nardy game's ``.mat`` (read back by GNU Backgammon when it is installed) and JSON
record, a long nardy game's text transcript, and refusals for strangers and bad ids."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Store
from nardy import Phase
from nardy.fairness import verify_record
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message
from tests.bot.e2e.texts import EN, resign_button, shown
from tests.bot.fake_telegram import ShownMessage


def documents(messages: list[ShownMessage]) -> dict[str, bytes]:
    return {m.document_name or "": m.document for m in messages if m.document is not None}


async def play_and_resign(env: Env, chat_id: int, variant: str, presses: int = 6) -> str:
    """Start a game of ``variant`` in the group between Alice and Bob, play a few presses, and resign it."""
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {1: alice, 2: bob}
    group = fake.group_chat(chat_id)
    await h.send_text(alice, group, f"/new {variant}")
    await h.press_button(bob, fake.last_message(chat_id), shown(EN, "btn.join"))
    game_id = await only_game(env.store, chat_id)
    for _ in range(presses):
        stored, match = await state(env, game_id)
        if match.game.phase is Phase.DOUBLED:
            await h.press_button(
                awaited_user(stored, match, users), board_message(fake, chat_id), shown(EN, "btn.accept")
            )
            continue
        await press_first(env, awaited_user(stored, match, users), chat_id)
    stored, match = await state(env, game_id)
    resigning = awaited_user(stored, match, users)
    await h.send_text(resigning, group, "/resign")
    kind = "oin" if variant == "long" else "single"  # a single game is called an oin in long nardy
    await h.press_button(resigning, fake.last_message(chat_id), resign_button(EN, kind))
    await h.press_button(bob if resigning is alice else alice, board_message(fake, chat_id), shown(EN, "btn.accept"))
    stored, _ = await state(env, game_id)
    assert stored.finished
    return game_id


async def test_export_of_a_short_game_is_a_mat_file_and_a_verifiable_record(
    sqlite_store: Store, tmp_path: Path
) -> None:
    env = Env(sqlite_store, None)
    game_id = await play_and_resign(env, -910, "short")
    final = board_message(env.fake, -910).content
    assert f"/export {game_id}" in final and f"/verify {game_id}" in final
    before = len(env.fake.messages(-910))
    await env.h.send_text(env.fake.user(2, "Bob", "en"), env.fake.group_chat(-910), f"/export {game_id}")
    new = env.fake.messages(-910)[before:]
    assert new[0].content == shown(EN, "export.done", game=game_id)
    files = documents(new)
    assert set(files) == {f"nardy-{game_id}.mat", f"nardy-{game_id}.json"}
    mat = files[f"nardy-{game_id}.mat"].decode()
    assert "Game 1" in mat and "Alice" in mat and "Wins" in mat
    record = json.loads(files[f"nardy-{game_id}.json"])
    assert verify_record(record).ok
    gnubg = pytest.importorskip("gnubg")
    path = tmp_path / "game.mat"
    path.write_text(mat)
    gnubg.command(f"import mat {path}")
    imported = gnubg.match()
    moves = sum(1 for a in imported["games"][0]["game"] if a["action"] == "move")
    assert moves == sum(1 for r in record["match"]["game"]["history"] if r["t"] in ("move", "pass"))
    await env.close()


async def test_export_of_a_long_game_is_a_transcript_and_strangers_are_refused(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    game_id = await play_and_resign(env, -911, "long")
    fake, h = env.fake, env.h
    before = len(fake.messages(-911))
    await h.send_text(fake.user(1, "Alice", "en"), fake.group_chat(-911), f"/export {game_id}")
    files = documents(fake.messages(-911)[before:])
    assert set(files) == {f"nardy-{game_id}.txt", f"nardy-{game_id}.json"}
    transcript = files[f"nardy-{game_id}.txt"].decode()
    assert '; [Variation "long"]' in transcript and "  1) " in transcript
    eve = fake.user(5, "Eve", "en")
    other = fake.group_chat(-912)
    await h.send_text(eve, other, f"/export {game_id}")
    assert fake.last_message(-912).content == shown(EN, "export.not_yours", game=game_id)
    await h.send_text(eve, other, "/export")
    assert fake.last_message(-912).content == shown(EN, "export.usage")
    await h.send_text(eve, other, "/export ../../etc/passwd")
    assert fake.last_message(-912).content == shown(EN, "export.usage")
    assert documents(fake.messages(-912)) == {}
    await env.close()


async def test_bare_export_after_a_game_sends_the_last_finished_game(sqlite_store: Store) -> None:
    """Regression: ``/export`` alone after the game answered with its usage text; it sends the game the sender
    finished last in this chat (a running game of theirs comes first), and the usage only to someone without any."""
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    game_id = await play_and_resign(env, -913, "short")
    group = fake.group_chat(-913)
    before = len(fake.messages(-913))
    await h.send_text(fake.user(1, "Alice", "en"), group, "/export")
    new = fake.messages(-913)[before:]
    assert new[0].content == shown(EN, "export.done", game=game_id)
    assert set(documents(new)) == {f"nardy-{game_id}.mat", f"nardy-{game_id}.json"}
    await h.send_text(fake.user(1, "Alice", "en"), group, "/new long")  # a running game comes first
    await h.press_button(fake.user(2, "Bob", "en"), fake.last_message(-913), shown(EN, "btn.join"))
    running = next(g for g in await env.store.chat_games(-913) if g != game_id)
    before = len(fake.messages(-913))
    await h.send_text(fake.user(2, "Bob", "en"), group, "/export")
    new = fake.messages(-913)[before:]
    assert new[0].content == shown(EN, "export.running", game=running)
    assert set(documents(new)) == {f"nardy-{running}.txt", f"nardy-{running}.json"}
    await h.send_text(fake.user(5, "Eve", "en"), group, "/export")  # Eve played nothing here
    assert fake.last_message(-913).content == shown(EN, "export.usage")
    await env.close()


async def test_the_finished_board_offers_the_record(sqlite_store: Store) -> None:
    """The final board has a 📄 Record button that sends the same files as /export (the /history 📄 press)."""
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    game_id = await play_and_resign(env, -914, "long")
    board = board_message(fake, -914)
    assert shown(EN, "btn.record") in board.button_texts()
    before = len(fake.messages(-914))
    await h.press_button(fake.user(3, "Carol", "en"), board, shown(EN, "btn.record"))  # anyone in the chat may take it
    new = fake.messages(-914)[before:]
    assert new[0].content == shown(EN, "export.done", game=game_id)
    assert set(documents(new)) == {f"nardy-{game_id}.txt", f"nardy-{game_id}.json"}
    await env.close()


async def test_an_export_cut_off_by_a_shutdown_is_answered_with_try_again(sqlite_store: Store) -> None:
    """Regression: at shutdown a queued document (the export's .json) was dropped without a word ("1 queued
    messages or edits were not sent"). The answer and the files are queued together with a notice; the shutdown
    sends what its deadline allows and, in place of the files it drops, a clear "send /export again"."""
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    game_id = await play_and_resign(env, -915, "short")
    bob, group = fake.user(2, "Bob", "en"), fake.group_chat(-915)
    gate = asyncio.Event()  # the group's pacing is held until the shutdown begins
    waiting = env.sender._wait_turn

    async def held(chat_id: Any, queue: Any, count: int = 1) -> str | None:
        if chat_id == -915:
            await gate.wait()
        return await waiting(chat_id, queue, count)

    async def no_settle() -> None:
        return None

    env.sender._wait_turn = held  # type: ignore[method-assign]
    env.h.settle = no_settle
    before = len(fake.messages(-915))
    request = asyncio.create_task(h.send_text(bob, group, "/export"))
    for _ in range(500):
        if env.sender.pending() >= 3:
            break
        await asyncio.sleep(0.01)
    assert env.sender.pending() == 3  # the answer and both files are queued before any is sent
    env.clock.now += 100.0  # the group's pace and minute are free again
    stopping = asyncio.create_task(env.sender.shutdown(1.0))  # one call a second: time for two calls
    await asyncio.sleep(0)
    gate.set()
    dropped = await stopping
    await request
    new = fake.messages(-915)[before:]
    assert [m.content for m in new] == [
        shown(EN, "export.done", game=game_id),
        shown(EN, "export.restarting", game=game_id),
    ]
    assert dropped == 2 and env.sender.noticed == 1
    await env.close()
