"""Challenge cards: Join, Accept/Decline for the replied-to user only, Cancel for the challenger only."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.helpers import Env, board_message, seeded


async def test_reply_challenge_accept_decline_cancel(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("challenge"))
    fake, h = env.fake, env.h
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "en")
    group = fake.group_chat(-600)
    hello = await h.send_text(alice, group, "anyone for nardy?")
    assert hello.message is not None
    await h.send_text(bob, group, "/new long", reply_to=hello.message.message_id)
    card = fake.last_message(group.id)
    assert "Bob challenges Alice to long nardy" in card.content
    assert card.button_texts() == ["Accept", "Decline", "Cancel"]
    await h.press_button(carol, card, "Accept")
    assert fake.toasts_for(carol.id)[-1] == "This challenge is not for you."
    await h.press_button(alice, card, "Cancel")
    assert fake.toasts_for(alice.id)[-1] == "Only the challenger can cancel."
    await h.press_button(alice, card, "Decline")
    assert "Alice declined the challenge." in card.content and card.buttons() == []
    await h.press(alice, group.id, card.message_id, "c:" + "A" * 10 + ":accept")
    assert fake.toasts_for(alice.id)[-1] == "This challenge is no longer open."
    assert await sqlite_store.chat_games(group.id) == []

    await h.send_text(bob, group, "/new short match 2", reply_to=hello.message.message_id)
    card = fake.last_message(group.id)
    await h.press_button(alice, card, "Accept")
    assert "The game has started: Bob vs Alice." in card.content
    assert len(await sqlite_store.chat_games(group.id)) == 1
    assert board_message(fake, group.id).photo is not None

    await h.send_text(carol, group, "/new")
    card = fake.last_message(group.id)
    await h.press_button(bob, card, "Cancel")
    assert fake.toasts_for(bob.id)[-1] == "Only the challenger can cancel."
    await h.press_button(carol, card, "Cancel")
    assert card.content == "The challenge was cancelled."
    assert len(await sqlite_store.chat_games(group.id)) == 1
    await env.close()
