"""``/export`` end to end: a short nardy game's ``.mat`` (read back by GNU Backgammon when it is installed) and JSON
record, a long nardy game's text transcript, and refusals for strangers and bad ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.storage.base import GameStore
from nardy import Phase
from nardy.fairness import verify_record
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message
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
    await h.press_button(bob, fake.last_message(chat_id), "Join")
    game_id = await only_game(env.store, chat_id)
    for _ in range(presses):
        stored, match = await state(env, game_id)
        if match.game.phase is Phase.DOUBLED:
            await h.press_button(awaited_user(stored, match, users), board_message(fake, chat_id), "Accept")
            continue
        await press_first(env, awaited_user(stored, match, users), chat_id)
    stored, match = await state(env, game_id)
    resigning = awaited_user(stored, match, users)
    await h.send_text(resigning, group, "/resign")
    await h.press_button(resigning, fake.last_message(chat_id), "single game")
    await h.press_button(bob if resigning is alice else alice, board_message(fake, chat_id), "Accept")
    stored, _ = await state(env, game_id)
    assert stored.finished
    return game_id


async def test_export_of_a_short_game_is_a_mat_file_and_a_verifiable_record(
    sqlite_store: GameStore, tmp_path: Path
) -> None:
    env = Env(sqlite_store, None)
    game_id = await play_and_resign(env, -910, "short")
    final = board_message(env.fake, -910).content
    assert f"/export {game_id}" in final and f"/verify {game_id}" in final
    before = len(env.fake.messages(-910))
    await env.h.send_text(env.fake.user(2, "Bob", "en"), env.fake.group_chat(-910), f"/export {game_id}")
    new = env.fake.messages(-910)[before:]
    assert new[0].content == f"The record of game {game_id}:"
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


async def test_export_of_a_long_game_is_a_transcript_and_strangers_are_refused(sqlite_store: GameStore) -> None:
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
    assert fake.last_message(-912).content == f"Game {game_id} was not played by you or in this chat."
    await h.send_text(eve, other, "/export")
    assert "Send /export and a game's id" in fake.last_message(-912).content
    await h.send_text(eve, other, "/export ../../etc/passwd")
    assert "Send /export and a game's id" in fake.last_message(-912).content
    assert documents(fake.messages(-912)) == {}
    await env.close()
