"""The production wiring: the composition root builds the game services once and hands the handlers the parts
they use as Dispatcher data, and the Dispatcher's startup hook runs the timeout sweeper until shutdown."""

from __future__ import annotations

import asyncio

from bot.storage import Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message


async def test_production_wiring_plays_with_system_dice(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    assert env.dp["store"] is sqlite_store and env.service.store is sqlite_store
    parts = {
        "replies": env.service.replies,
        "actions": env.service.actions,
        "boards": env.service.boards,
        "inline_games": env.service.inline,
        "tournaments": env.service.tournaments,
        "game_config": env.service.config,
    }
    assert all(env.dp[name] is part for name, part in parts.items())
    assert "game_service" not in env.dp.workflow_data
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "ru"), fake.user(2, "Bob", "ru")
    group = fake.group_chat(-700)
    await h.send_text(alice, group, "/new")
    await h.press_button(bob, fake.last_message(group.id), "Играть")
    game_id = await only_game(sqlite_store, group.id)
    for _ in range(6):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        if match.game.phase is Phase.DOUBLED:
            await h.press_button(awaited_user(stored, match, {1: alice, 2: bob}), board_message(fake, -700), "Принять")
            continue
        await press_first(env, awaited_user(stored, match, {1: alice, 2: bob}), group.id)
        after, _ = await state(env, game_id)
        assert after.version == stored.version + 1
    await env.dp.emit_startup(dispatcher=env.dp, bot=env.bot, bots=[env.bot], **env.dp.workflow_data)
    assert any(t.get_name() == "nardy-timeout-sweeper" for t in asyncio.all_tasks())
    await env.dp.emit_shutdown(dispatcher=env.dp, bot=env.bot, bots=[env.bot], **env.dp.workflow_data)
    await asyncio.sleep(0)
    assert not any(t.get_name() == "nardy-timeout-sweeper" and not t.done() for t in asyncio.all_tasks())
    await env.close()
