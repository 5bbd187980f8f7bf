"""Challenge cards: Join, Accept/Decline for the replied-to user only, Cancel for the challenger only."""

from __future__ import annotations

from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, shown


async def test_reply_challenge_accept_decline_cancel(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("challenge"))
    fake, h = env.fake, env.h
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "en")
    group = fake.group_chat(-600)
    hello = await h.send_text(alice, group, "anyone for nardy?")
    assert hello.message is not None
    await h.send_text(bob, group, "/new long", reply_to=hello.message.message_id)
    card = fake.last_message(group.id)
    assert shown(EN, "challenge.card.to", name="Bob", opponent="Alice", variant=tr(EN, "variant.long"), match="") in (
        card.content
    )
    assert card.button_texts() == [shown(EN, "btn.accept"), shown(EN, "btn.decline"), shown(EN, "btn.cancel")]
    await h.press_button(carol, card, shown(EN, "btn.accept"))
    assert fake.toasts_for(carol.id)[-1] == shown(EN, "toast.not_for_you")
    await h.press_button(alice, card, shown(EN, "btn.cancel"))
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.not_challenger")
    await h.press_button(alice, card, shown(EN, "btn.decline"))
    assert shown(EN, "challenge.declined", name="Alice") in card.content and card.buttons() == []
    await h.press(alice, group.id, card.message_id, "c:" + "A" * 10 + ":accept")
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.challenge_gone")
    assert await sqlite_store.chat_games(group.id) == []

    await h.send_text(bob, group, "/new short match 2", reply_to=hello.message.message_id)
    card = fake.last_message(group.id)
    await h.press_button(alice, card, shown(EN, "btn.accept"))
    assert shown(EN, "challenge.started", a="Bob", b="Alice") in card.content
    assert len(await sqlite_store.chat_games(group.id)) == 1
    assert board_message(fake, group.id).photo is not None

    await h.send_text(carol, group, "/new")
    card = fake.last_message(group.id)
    await h.press_button(bob, card, shown(EN, "btn.cancel"))
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "toast.not_challenger")
    await h.press_button(carol, card, shown(EN, "btn.cancel"))
    assert card.content == shown(EN, "challenge.cancelled")
    assert len(await sqlite_store.chat_games(group.id)) == 1
    await env.close()
