"""Concurrency, bad input and commands from non-players: refused clearly, the stored game unchanged."""

from __future__ import annotations

import asyncio

from aiogram.types import User

from bot.keyboards.callbacks import GameCb
from bot.middlewares.throttle import too_fast_text
from bot.services.boards import placeholder_photo
from bot.storage import Store
from bot.texts import tr
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, only_game, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, has_entry, resign_button, shown


async def _group_game(env: Env, chat_id: int) -> tuple[str, dict[int, User]]:
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(chat_id)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    return await only_game(env.store, group.id), {alice.id: alice, bob.id: bob}


async def test_fifty_identical_presses_apply_once(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("conc-1"))
    game_id, users = await _group_game(env, -300)
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, users)
    board = board_message(env.fake, -300)
    data = board.buttons()[0][0].callback_data or ""
    updates = [env.fake.callback_update(user, -300, board.message_id, data) for _ in range(50)]
    await asyncio.gather(*(env.h.feed(u) for u in updates))
    after = await sqlite_store.get_game(game_id)
    assert after is not None and after.version == stored.version + 1
    toasts = env.fake.toasts_for(user.id)[-50:]
    assert len(toasts) == 50 and toasts.count(None) == 1  # every press answered, one applied
    # the others: "changed" while the user's burst lasts (THROTTLE_BURST), then the throttling notice
    changed = toasts.count(shown(EN, "toast.stale"))
    assert changed == env.settings.throttle_burst - 1
    assert toasts.count(too_fast_text(EN)) == 50 - 1 - changed
    await env.close()


async def test_both_players_pressing_at_once(redis_store: Store) -> None:
    env = Env(redis_store, seeded("conc-2"))
    game_id, users = await _group_game(env, -301)
    stored, match = await state(env, game_id)
    board = board_message(env.fake, -301)
    data = board.buttons()[0][0].callback_data or ""
    updates = [env.fake.callback_update(u, -301, board.message_id, data) for u in users.values() for _ in range(10)]
    await asyncio.gather(*(env.h.feed(u) for u in updates))
    after = await redis_store.get_game(game_id)
    assert after is not None and after.version == stored.version + 1
    waiting = next(u for u in users if u != stored.data["players"][match.game.turn]["id"])
    assert set(env.fake.toasts_for(waiting)[-10:]) <= {
        shown(EN, "toast.not_turn"),
        shown(EN, "toast.stale"),
        shown(EN, "toast.synced"),
    }
    await env.close()


async def test_bad_callback_data_and_non_players(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("bad-1"))
    fake, h = env.fake, env.h
    game_id, users = await _group_game(env, -302)
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, users)
    board = board_message(fake, -302)
    before = (stored.version, stored.data)
    cases = {
        GameCb(game_id=game_id, version=stored.version + 7, action="roll").pack(): shown(EN, "toast.stale"),
        GameCb(game_id="AAAAAAAAAA", version=stored.version, action="roll").pack(): shown(EN, "toast.gone"),
        GameCb(game_id=game_id, version=stored.version, action="s1-99-6").pack(): shown(EN, "toast.bad"),
        GameCb(game_id=game_id, version=stored.version, action="nonsense").pack(): shown(EN, "toast.bad"),
        "g:" + "x" * 300: shown(EN, "toast.bad"),
        "g:AAAAAAAAAA:notanumber:roll": shown(EN, "toast.bad"),
        "g:../../etc:1:roll": shown(EN, "toast.bad"),
    }
    for data, toast in cases.items():
        await h.press(user, -302, board.message_id, data)
        assert fake.toasts_for(user.id)[-1] == toast, data
    carol = fake.user(3, "Carol", "en")
    group = fake.chat_objects[-302]
    for command in ("/board", "/resign"):
        await h.send_text(carol, group, command)
        assert fake.last_message(-302).content == shown(EN, "no_game")
    await h.send_text(carol, group, "13/7 8/7")  # a stranger's move is ignored
    after = await sqlite_store.get_game(game_id)
    assert after is not None and (after.version, after.data) == before
    await env.close()


async def test_resign_and_board_repost(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("resign-1"))
    fake, h = env.fake, env.h
    game_id, users = await _group_game(env, -303)
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, users)
    other = next(u for u in users.values() if u is not user)
    group = fake.chat_objects[-303]
    old_board = board_message(fake, -303)
    await h.send_text(user, group, "/board")
    new_board = board_message(fake, -303)
    assert new_board.message_id != old_board.message_id and new_board.buttons()
    assert fake.chats[-303][old_board.message_id].buttons() == []
    await h.send_text(other, group, "/resign")
    menu = fake.last_message(-303)
    assert menu.content == shown(EN, "resign.choose")
    await h.press_button(user, menu, resign_button(EN, "gammon"))
    assert fake.toasts_for(user.id)[-1] == shown(EN, "toast.not_yours")
    await h.press_button(other, menu, resign_button(EN, "gammon"))
    assert menu.buttons() == []
    board = board_message(fake, -303)
    assert has_entry(board.content, EN, "turn.resign", level=tr(EN, "kind.gammon")), board.content
    await h.press_button(user, board, shown(EN, "btn.accept"))
    stored, match = await state(env, game_id)
    assert stored.finished and match.game.phase is Phase.OVER
    assert has_entry(board_message(fake, -303).content, EN, "over.resign")
    stats = await sqlite_store.get_stats(-303, user.id)
    assert stats.wins == 1
    await h.send_text(user, group, "/stats")
    assert shown(EN, "stats", name=user.full_name, wins=1, losses=0, draws=0) == fake.last_message(-303).content
    # rematch starts a new game in the same chat
    await h.press_button(other, board_message(fake, -303), shown(EN, "btn.rematch"))
    assert len(await sqlite_store.chat_games(-303)) == 1
    await env.close()


async def test_flood_limit_on_a_board_edit_is_retried(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("flood"))
    game_id, users = await _group_game(env, -304)
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, users)
    board = board_message(env.fake, -304)
    edits = board.edits
    env.fake.fail_next("editMessageMedia", error_code=429, description="Too Many Requests", retry_after=7)
    await env.h.press(user, -304, board.message_id, board.buttons()[0][0].callback_data or "")
    assert board_message(env.fake, -304).edits == edits + 1
    assert 7 in env.clock.sleeps
    after = await sqlite_store.get_game(game_id)
    assert after is not None and after.version == stored.version + 1
    await env.close()


async def test_renderer_failure_still_updates_caption_and_keyboard(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("render-fail"))
    game_id, users = await _group_game(env, -305)
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, users)
    board = board_message(env.fake, -305)

    def broken(*_args: object, **_kwargs: object) -> bytes:
        raise ValueError("renderer bug")

    env.service.config.renderer = broken
    content_before = board.content
    await env.h.press(user, -305, board.message_id, board.buttons()[0][0].callback_data or "")
    after = await sqlite_store.get_game(game_id)
    assert after is not None and after.version == stored.version + 1
    # the board message is kept: a plain placeholder picture, the new caption and the new version's buttons
    redrawn = board_message(env.fake, -305)
    assert redrawn.message_id == board.message_id and redrawn.photo == placeholder_photo()
    assert redrawn.content != content_before
    assert all(f":{after.version}:" in (b.callback_data or "") for row in redrawn.buttons() for b in row)
    assert after.boards[-305].shown_version == after.version
    await env.close()
