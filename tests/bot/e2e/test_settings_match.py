"""Chat settings (admins only), /rules, confirm-turn mode with Undo, and a match to 3 points."""

from __future__ import annotations

from bot.storage import Store
from bot.texts import tr
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, RU, has_entry, shown


async def test_settings_admins_only_and_rules(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("settings"))
    fake, h = env.fake, env.h
    admin, member = fake.user(1, "Admin", "en"), fake.user(2, "Member", "ru")
    group = fake.group_chat(-500, admins=[admin.id])
    await h.send_text(member, group, "/settings")
    assert fake.last_message(group.id).content == shown(RU, "settings.admins_only")
    await h.send_text(admin, group, "/settings")
    panel = fake.last_message(group.id)
    assert panel.content.splitlines()[0] == shown(EN, "settings.title")
    await h.press_button(member, panel, shown(EN, "settings.confirm", value=tr(EN, "on")))
    assert fake.toasts_for(member.id)[-1] == shown(RU, "settings.admins_only")
    assert await sqlite_store.get_chat_settings(group.id) == {}
    await h.press_button(admin, panel, shown(EN, "settings.confirm", value=tr(EN, "on")))
    await h.press_button(
        admin, fake.last_message(group.id), shown(EN, "settings.variant", variant=tr(EN, "variant.long"))
    )
    assert await sqlite_store.get_chat_settings(group.id) == {"confirm": True, "variant": "long"}
    await h.send_text(member, group, "/rules long")
    assert fake.last_message(group.id).content.startswith(shown(RU, "rules.long"))
    await h.send_text(admin, group, "/rules")
    assert shown(EN, "rules.short") in fake.last_message(group.id).content
    # the default variant now applies to /new
    await h.send_text(admin, group, "/new")
    card = shown(EN, "challenge.card", name="Admin", variant=tr(EN, "variant.long"), match="")
    assert card in fake.last_message(group.id).content
    await env.close()


async def test_confirm_mode_with_undo(sqlite_store: Store) -> None:
    await sqlite_store.set_chat_settings(-501, {"confirm": True})
    env = Env(sqlite_store, seeded("confirm-3"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-501)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    users = {alice.id: alice, bob.id: bob}
    checked_undo = False
    for _ in range(30):
        stored, match = await state(env, game_id)
        user = awaited_user(stored, match, users)
        board = board_message(fake, group.id)
        texts = board.button_texts()
        if shown(EN, "btn.confirm") in texts:
            if not checked_undo:
                await h.press_button(user, board, shown(EN, "btn.undo"))
                after, _ = await state(env, game_id)
                assert len(after.data["pending_steps"]) < len(stored.data["pending_steps"])
                checked_undo = True
                continue
            turns = match.game.turns_taken[:]
            await h.press_button(user, board, shown(EN, "btn.confirm"))
            _, after_match = await state(env, game_id)
            assert after_match.game.turns_taken != turns or after_match.game.phase is Phase.OVER
            break
        await press_first(env, user, group.id)
    assert checked_undo
    await env.close()


async def test_match_to_three_continues_to_the_end(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("match-3"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-502)
    await h.send_text(alice, group, "/new short match 3")
    match_to_3 = tr(EN, "challenge.match", length=3)
    card = shown(EN, "challenge.card", name="Alice", variant=tr(EN, "variant.short"), match=match_to_3)
    assert card in fake.last_message(group.id).content
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    users = {alice.id: alice, bob.id: bob}
    games_seen = set()
    for _ in range(3000):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        games_seen.add(len(match.finished_games))
        user = awaited_user(stored, match, users)
        board = board_message(fake, group.id)
        if match.game.phase is Phase.DOUBLED:
            await h.press_button(user, board, shown(EN, "btn.take"))
        else:
            await press_first(env, user, group.id)
    stored, match = await state(env, game_id)
    assert stored.finished
    final = board_message(fake, group.id).content
    assert has_entry(final, EN, "match.over") and has_entry(final, EN, "score", length=3), final
    assert max(match.score_after_game()) >= 3
    assert len(games_seen) >= 1
    stats = [await sqlite_store.get_stats(group.id, uid) for uid in users]
    assert sorted((s.wins, s.losses) for s in stats) == [(0, 1), (1, 0)]
    await env.close()
