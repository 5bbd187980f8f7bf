"""The language chosen with /lang wins over Telegram's: a user whose Telegram speaks English chooses Russian, and
every answer of the board handlers (/watch, the Watch button, /board, an invalid game button) is in Russian."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.drive import only_game
from tests.bot.e2e.helpers import Env


async def test_game_handlers_answer_in_the_language_chosen_with_lang(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "en")
    group = fake.group_chat(-950)
    for user in (alice, carol):
        await h.send_text(user, group, "/lang")
        await h.press_button(user, fake.last_message(-950), "Русский")
    await h.send_text(carol, group, "/watch")
    assert fake.last_message(-950).content == "Сейчас в этом чате никто не играет."
    await h.send_text(carol, group, "/board")
    assert fake.last_message(-950).content == "У вас нет игры в этом чате."
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(-950), "Играть")
    await only_game(sqlite_store, -950)
    await h.send_text(carol, group, "/watch")
    chooser = fake.last_message(-950)
    assert chooser.content == "Какую партию смотреть? Её доска будет приходить вам в личный чат."
    assert chooser.button_texts() == ["👁 Смотреть: Alice — Bob · короткие нарды"]
    await h.press_button(alice, chooser, "Смотреть")
    assert fake.toasts_for(1)[-1] == "Вы играете в этой партии: её доска здесь."
    await h.press(carol, -950, chooser.message_id, "g:forged")
    assert fake.toasts_for(3)[-1] == "Эта кнопка больше не действует."
    await h.press_button(bob, chooser, "Смотреть")  # Bob kept Telegram's English
    assert fake.toasts_for(2)[-1] == "You are in this game: its board is here."
    await env.close()
