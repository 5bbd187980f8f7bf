"""The language chosen with /lang wins over Telegram's: a user whose Telegram speaks English chooses Russian, and
every answer of the board handlers (/watch, the Watch button, /board, an invalid game button) is in Russian."""

from __future__ import annotations

from bot.i18n import LANGUAGE_NAMES
from bot.storage import Store
from tests.bot.e2e.drive import only_game
from tests.bot.e2e.helpers import Env
from tests.bot.e2e.texts import EN, RU, shown


async def test_game_handlers_answer_in_the_language_chosen_with_lang(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "en")
    group = fake.group_chat(-950)
    for user in (alice, carol):
        await h.send_text(user, group, "/lang")
        await h.press_button(user, fake.last_message(-950), LANGUAGE_NAMES[RU])
    await h.send_text(carol, group, "/watch")
    assert fake.last_message(-950).content == shown(RU, "watch.none")
    await h.send_text(carol, group, "/board")
    assert fake.last_message(-950).content == shown(RU, "no_game")
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(-950), shown(RU, "btn.join"))
    await only_game(sqlite_store, -950)
    await h.send_text(carol, group, "/watch")
    chooser = fake.last_message(-950)
    assert chooser.content == shown(RU, "watch.choose")
    assert chooser.button_texts() == [f"{shown(RU, 'btn.watch')}: Alice — Bob · {shown(RU, 'variant.short')}"]
    await h.press_button(alice, chooser, shown(RU, "btn.watch"))
    assert fake.toasts_for(1)[-1] == shown(RU, "toast.watch_player")
    await h.press(carol, -950, chooser.message_id, "g:forged")
    assert fake.toasts_for(3)[-1] == shown(RU, "toast.bad")
    await h.press_button(bob, chooser, shown(RU, "btn.watch"))  # Bob kept Telegram's English
    assert fake.toasts_for(2)[-1] == shown(EN, "toast.watch_player")
    await env.close()
