"""Provably fair dice end to end: the commitment in the first caption, the secret seed nowhere before the end,
``/verify`` revealing it afterwards with a record that the standalone verifier accepts."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.model.game import GameRecord
from bot.storage import Store
from nardy import Phase
from nardy.fairness import commitment, verify_record
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, RU, has_entry, resign_button, shown


def everything_shown(env: Env) -> str:
    """Every text the bot sent or edited, every caption, toast and button of the whole run, as one string."""
    return "\n".join(json.dumps(call.payload, ensure_ascii=False) for call in env.fake.calls)


async def test_a_game_commits_to_its_dice_and_verify_reveals_them_at_the_end(
    sqlite_store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    env = Env(sqlite_store, None)  # the production wiring: fair dice
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {1: alice, 2: bob}
    group = fake.group_chat(-900)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    stored, match = await state(env, game_id)
    seeds = GameRecord.from_stored(stored).fairness
    assert seeds is not None and seeds.commitment == commitment(seeds.server_seed)
    assert seeds.client_seed == f"{game_id}:1:2"
    first = board_message(fake, group.id)
    assert seeds.commitment in first.content and f"/verify {game_id}" in first.content
    for _ in range(8):  # a few turns, so that there are rolls to check
        stored, match = await state(env, game_id)
        if match.game.phase is Phase.DOUBLED:
            await h.press_button(
                awaited_user(stored, match, users), board_message(fake, group.id), shown(EN, "btn.accept")
            )
            continue
        await press_first(env, awaited_user(stored, match, users), group.id)
    await h.send_text(alice, group, "/verify")  # during the game: the commitment, not the seed
    running = fake.last_message(group.id).content
    assert seeds.commitment in running and has_entry(running, EN, "fair.running", game=game_id, hash=seeds.commitment)
    assert seeds.server_seed not in everything_shown(env)
    stored, match = await state(env, game_id)
    resigning = awaited_user(stored, match, users)
    other = bob if resigning is alice else alice
    await h.send_text(resigning, group, "/resign")
    await h.press_button(resigning, fake.last_message(group.id), resign_button(EN, "single"))
    await h.press_button(other, board_message(fake, group.id), shown(EN, "btn.accept"))
    stored, _ = await state(env, game_id)
    assert stored.finished
    assert f"/verify {game_id}" in board_message(fake, group.id).content
    assert seeds.server_seed not in everything_shown(env)
    assert not [r for r in caplog.records if seeds.server_seed in r.getMessage()]

    await h.send_text(bob, group, f"/verify {game_id}")
    answer, document = fake.messages(group.id)[-2:]
    assert answer.text is not None and has_entry(answer.content, EN, "fair.ok", game=game_id), answer.content
    assert seeds.server_seed in answer.content
    assert document.document is not None and document.document_name == f"nardy-{game_id}.json"
    record = json.loads(document.document)
    assert record["fairness"]["server_seed"] == seeds.server_seed
    result = verify_record(record)
    assert result.ok and len(result.rolls) >= 4
    path = tmp_path / "record.json"
    path.write_bytes(document.document)
    done = subprocess.run(
        [sys.executable, "-m", "nardy.fairness", "verify", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout.splitlines()[-1].endswith("every roll matches")
    await env.close()
    assert env.fair_games == 1


async def test_verify_answers_bad_input_clearly(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("verify"))  # injected dice: such a game has no fairness seeds
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "ru"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-901)
    await h.send_text(bob, group, "/verify")
    assert fake.last_message(group.id).content == shown(EN, "fair.usage")
    await h.send_text(bob, group, "/verify <script>")
    assert fake.last_message(group.id).content == shown(EN, "fair.usage")
    await h.send_text(alice, group, "/verify AAAAAAAAAA")
    assert fake.last_message(group.id).content == shown(RU, "fair.unknown", game="AAAAAAAAAA")
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(RU, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    stored, _ = await state(env, game_id)
    assert GameRecord.from_stored(stored).fairness is None
    assert "/verify" not in board_message(fake, group.id).content
    await h.send_text(bob, group, f"/verify {game_id}")
    assert fake.last_message(group.id).content == shown(EN, "fair.none", game=game_id)
    after, _ = await state(env, game_id)
    assert after.version == stored.version  # nothing changed
    await env.close()
