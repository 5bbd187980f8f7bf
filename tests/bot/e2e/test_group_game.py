"""Two users in a group play a complete short nardy game by buttons."""

from __future__ import annotations

from bot.model.game import GameRecord
from bot.services.engine_flow import load_match
from bot.storage import Store
from bot.texts import tr
from nardy import Phase
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, GAME_OVER, has_entry, shown


async def test_group_short_game_by_buttons(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("group-1"))
    fake, h = env.fake, env.h
    alice = fake.user(1, "Alice", "en")
    bob = fake.user(2, "Bob", "en")
    carol = fake.user(3, "Carol", "en")
    group = fake.group_chat(-100)

    await h.send_text(alice, group, "/new short")
    card = fake.last_message(group.id)
    assert shown(EN, "challenge.card", name="Alice", variant=tr(EN, "variant.short"), match="") in card.content
    await h.press_button(alice, card, shown(EN, "btn.join"))
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.own_challenge")
    await h.press_button(bob, card, shown(EN, "btn.join"))
    started = shown(EN, "challenge.started", a="Alice", b="Bob")
    assert started in fake.last_message(group.id).content or started in card.content

    board = board_message(fake, group.id)
    assert board.photo is not None
    assert "Alice" in board.content and "Bob" in board.content
    (game_id,) = await sqlite_store.chat_games(group.id)
    users = {alice.id: alice, bob.id: bob}

    doubled = refused_checked = False
    presses = 0
    while True:
        stored = await sqlite_store.get_game(game_id)
        assert stored is not None
        match = load_match(GameRecord.from_stored(stored), game_id, env.service.config.dice)
        if stored.finished or match.game.phase is Phase.OVER:
            break
        to_act = users[stored.data["players"][match.game.turn]["id"]]
        waiting = bob if to_act is alice else alice
        board = board_message(fake, group.id)
        assert board.buttons(), board.content
        first = board.buttons()[0][0]
        if not refused_checked:
            before = (stored.version, stored.data)
            await h.press(carol, group.id, board.message_id, first.callback_data or "")
            assert fake.toasts_for(carol.id)[-1] == shown(EN, "toast.not_player")
            await h.press(waiting, group.id, board.message_id, first.callback_data or "")
            assert fake.toasts_for(waiting.id)[-1] == shown(EN, "toast.not_turn")
            after = await sqlite_store.get_game(game_id)
            assert after is not None and (after.version, after.data) == before
            refused_checked = True
        edits_before = board.edits
        if match.game.phase is Phase.ROLL and not doubled:
            await h.press_button(to_act, board, shown(EN, "btn.double", value=2))
            doubled = True
            board = board_message(fake, group.id)
            assert shown(EN, "turn.doubled", name=waiting.first_name, value=2) in board.content.splitlines()
            continue
        await h.press(to_act, group.id, board.message_id, first.callback_data or "")
        presses += 1
        assert presses < 2000
        assert board_message(fake, group.id).edits > edits_before
    final = board_message(fake, group.id)
    assert has_entry(final.content, EN, *GAME_OVER), final.content
    assert shown(EN, "btn.rematch") in final.button_texts()
    assert doubled
    stats = [await sqlite_store.get_stats(group.id, u.id) for u in (alice, bob)]
    assert sorted((s.wins, s.losses) for s in stats) == [(0, 1), (1, 0)]
    await env.close()
