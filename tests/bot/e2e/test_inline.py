"""Inline mode end to end: ``@bot`` in a group offers games, the chosen invitation is joined, and the game is played
to the end on that inline message by buttons only — boards as uploaded file ids (or text when nothing takes an
upload), resignation on the message, a forged or stale press refused, two joins starting one game."""

from __future__ import annotations

import asyncio

from aiogram.types import User

from bot.keyboards.callbacks import InviteCb
from bot.model.game import GameRecord
from bot.services.engine_flow import load_match
from bot.services.inline import inline_chat_id, inline_game_id
from bot.storage import Store
from bot.texts import tr
from nardy import Match, Phase
from tests.bot.e2e.helpers import Env, seeded, verify_fair_games
from tests.bot.fake_telegram import ShownMessage

GROUP = -960
MAX_PRESSES = 2000


async def invite(env: Env, host: User, text: str = "", result: str = "short-0") -> ShownMessage:
    """Have ``host`` type ``@bot text`` in the group and choose ``result``. Returns: the inline message."""
    query_id = await env.h.inline_query(host, text)
    answer = env.fake.inline_answers[query_id]
    assert answer, "the inline query got no results"
    return env.fake.choose_inline_result(host, query_id, result, GROUP)


async def game_of(env: Env, message: ShownMessage) -> tuple[str, GameRecord, Match]:
    """Return the id, record and match of the game on an inline message."""
    assert message.inline_message_id is not None
    game_id = inline_game_id(message.inline_message_id)
    stored = await env.store.get_game(game_id)
    assert stored is not None, "no game on the inline message"
    record = GameRecord.from_stored(stored)
    return game_id, record, load_match(record, game_id, env.service.config.dice)


async def play_out(env: Env, message: ShownMessage, users: dict[int, User]) -> int:
    """Press the first game button of the awaited player until the game is over. Returns: the presses made."""
    for presses in range(MAX_PRESSES):
        _, record, match = await game_of(env, message)
        if match.game.phase is Phase.OVER:
            return presses
        user = users[record.players[match.game.turn].id]
        button = message.buttons()[0][0]
        assert button.callback_data and "Resign" not in button.text, message.button_texts()
        await env.h.press_button(user, message, button.text)
        assert env.fake.toasts_for(user.id)[-1] is None, env.fake.toasts_for(user.id)[-1]
    raise AssertionError("the game did not end")


async def test_an_inline_game_is_played_to_the_end_by_buttons(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)  # the production wiring: fair dice
    fake, h = env.fake, env.h
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "en")
    for user in (alice, bob):  # both have started the bot: their private chats take the uploads
        await h.send_text(user, fake.private_chat(user), "/start")
    query_id = await h.inline_query(alice, "")
    titles = [r["title"] for r in fake.inline_answers[query_id]]
    assert titles[:4] == ["short nardy", "long nardy", "short nardy, match to 5", "long nardy, match to 3"]
    message = fake.choose_inline_result(alice, query_id, "short-0", GROUP)
    assert message.content == "🎲 Alice invites you to play short nardy. Press Join to play."
    assert message.button_texts() == ["Join", "Withdraw"]
    join = message.button("Join").callback_data or ""
    await h.press_button(alice, message, "Join")
    assert fake.toasts_for(1)[-1] == "This is your invitation: wait for someone to join."
    await h.press_button(bob, message, "Join")
    assert fake.toasts_for(2)[-1] is None
    _, record, match = await game_of(env, message)
    assert [p.name for p in record.players] == ["Alice", "Bob"]
    assert record.chats[0].chat_id == inline_chat_id(message.inline_message_id or "")
    # the invitation became the board: a photo by file id, a caption, whole-turn buttons and Resign
    assert message.text is None and message.photo_file_id is not None
    assert "Alice" in message.content and "Bob" in message.content
    assert message.button_texts()[-1] == "🏳 Resign"
    inline_edits = [c for c in fake.calls_named("editMessageMedia") if "inline_message_id" in c.payload]
    assert inline_edits and not any(c.files for c in inline_edits)  # never an upload on an inline message
    for user in (alice, bob):  # the uploads were deleted from the private chats at once
        assert [m for m in fake.messages(user.id) if m.photo is not None] == []
    await h.feed(fake.inline_callback_update(bob, message.inline_message_id or "", join))  # replayed
    assert fake.toasts_for(2)[-1] == "The game has already started."
    await h.press_button(carol, message, message.buttons()[0][0].text)
    assert fake.toasts_for(3)[-1] == "You are not playing this game."
    presses = await play_out(env, message, {1: alice, 2: bob})
    assert presses > 10
    _, record, match = await game_of(env, message)
    assert match.game.phase is Phase.OVER
    rematch, new = message.buttons()[0]
    assert rematch.text == "Rematch" and new.switch_inline_query_current_chat == ""
    winner = record.players[match.game.result.winner if match.game.result else 0]
    await h.send_text(winner_user := {1: alice, 2: bob}[winner.id], fake.private_chat(winner_user), "/stats")
    assert tr("en", "stats.inline", wins=1, losses=0, draws=0) in fake.last_message(winner.id).content
    chat = inline_chat_id(message.inline_message_id or "")
    assert await verify_fair_games(sqlite_store, [chat]) == 1
    await h.press_button(bob, message, "Rematch")  # the rematch takes over the same message
    rematch_id = (await game_of(env, message))[1].rematch
    assert rematch_id is not None
    stored = await sqlite_store.get_game(rematch_id)
    assert stored is not None and not stored.finished
    assert [p["name"] for p in stored.data["players"]] == ["Bob", "Alice"]
    assert "Bob" in message.content and message.button_texts()[-1] == "🏳 Resign"
    await env.close()


async def test_two_joins_at_once_start_one_game(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("inline-race"))
    fake = env.fake
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "en")
    message = await invite(env, alice, "long", result="long-0")
    join = message.button("Join").callback_data or ""
    assert message.inline_message_id is not None
    updates = [fake.inline_callback_update(u, message.inline_message_id, join) for u in (bob, carol)]
    await asyncio.gather(*(env.h.feed(u) for u in updates))
    _, record, match = await game_of(env, message)
    assert match.variant.name == "long"
    joined = record.players[1].id
    other = 3 if joined == 2 else 2
    assert joined in (2, 3) and fake.toasts_for(joined)[-1] is None
    assert fake.toasts_for(other)[-1] == "The game has already started."
    assert len(await sqlite_store.user_games(other)) == 0
    await env.close()


async def test_without_any_upload_chat_the_board_is_text(redis_store: Store) -> None:
    env = Env(redis_store, seeded("inline-text"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "ru"), fake.user(2, "Bob", "ru")
    fake.unreachable.update({1, 2})  # neither has started the bot, and no storage chat is set
    message = await invite(env, alice, "гипер 3", result="hypergammon-3")
    assert message.content.startswith("🎲 Alice приглашает сыграть: гипергаммон, матч до 3")
    await h.press_button(bob, message, "Играть")
    assert message.photo is None and message.text is not None and message.text.startswith("<pre>")
    for _ in range(6):
        _, record, match = await game_of(env, message)
        if match.game.phase is Phase.OVER:
            break
        user = {1: alice, 2: bob}[record.players[match.game.turn].id]
        await h.press_button(user, message, message.buttons()[0][0].text)
        assert fake.toasts_for(user.id)[-1] is None
    assert message.text is not None and "<pre>" in message.text and message.edits >= 3
    await env.close()


async def test_a_storage_chat_takes_the_uploads(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("inline-storage"), inline_storage_chat=-100777)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    message = await invite(env, alice)
    await h.press_button(bob, message, "Join")
    stored = [m for m in fake.messages(-100777) if m.photo is not None]
    assert stored and message.photo_file_id == stored[-1].photo_file_id
    assert fake.messages(1) == [] and fake.messages(2) == []  # nothing was sent to the players
    await env.close()


async def test_forged_and_foreign_presses_change_nothing(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("inline-forged"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    message = await invite(env, alice)
    assert message.inline_message_id is not None
    join = InviteCb.unpack(message.button("Join").callback_data or "")
    for forged in (join.model_copy(update={"host": 2}), join.model_copy(update={"length": 7})):
        await h.feed(fake.inline_callback_update(bob, message.inline_message_id, forged.pack()))
        assert fake.toasts_for(2)[-1] == "This button is not valid any more."
    await h.feed(fake.inline_callback_update(bob, message.inline_message_id, "il:j:short:0:1:en:1:bad"))
    assert fake.toasts_for(2)[-1] == "This button is not valid any more."
    await h.press_button(bob, message, "Withdraw")
    assert fake.toasts_for(2)[-1] == "This button is not for you."
    assert await sqlite_store.get_game(inline_game_id(message.inline_message_id)) is None
    assert message.button_texts() == ["Join", "Withdraw"]
    await h.press_button(alice, message, "Withdraw")
    assert message.content == "The invitation was withdrawn." and message.buttons() == []
    await env.close()


async def test_resigning_on_the_inline_message(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("inline-resign"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    message = await invite(env, alice)
    await h.press_button(bob, message, "Join")
    board = message.button_texts()
    await h.press_button(alice, message, "Resign")
    assert fake.toasts_for(1)[-1] is None
    assert message.button_texts()[-1] == "↩ Back" and any("Resign:" in t for t in message.button_texts())
    await h.press_button(alice, message, "Back")
    assert message.button_texts() == board
    await h.press_button(alice, message, "Resign")
    await h.press_button(bob, message, "Resign: a single")  # the menu is Alice's
    assert fake.toasts_for(2)[-1] == "This button is not for you."
    await h.press_button(alice, message, "Resign: a single")
    assert "Accept" in " ".join(message.button_texts())
    await h.press_button(bob, message, "Accept")
    match = (await game_of(env, message))[2]
    assert match.game.phase is Phase.OVER and match.game.result is not None and match.game.result.winner == 1
    assert message.button_texts() == ["Rematch", "New game"]
    await env.close()
