"""End to end: /start, /help, /lang and leftover presses, for two users in private chats and a group,
in Russian and English, through the real Dispatcher and a fake Bot API."""

from __future__ import annotations

from bot_testkit import BotApp
from fake_telegram import BOT_ID

from bot.keyboards.callbacks import GameCb, LangCb, MenuCb


def _choices(settings: dict[str, object]) -> dict[str, object]:
    """Return the user's settings without the "has written to the bot in private" flag."""
    return {key: value for key, value in settings.items() if key != "dm"}


async def test_start_greets_each_user_in_their_language(app: BotApp) -> None:
    fake, h = app.fake, app.h
    alice = fake.user(101, "Alice", "en")
    boris = fake.user(102, "Борис", "ru")
    await h.send_text(alice, fake.private_chat(alice), "/start")
    await h.send_text(boris, fake.private_chat(boris), "/start")

    to_alice = fake.last_message(alice.id)
    assert "Hi, Alice!" in to_alice.content
    assert to_alice.button_texts() == [
        "🎲 New long nardy game",
        "🎲 New short nardy game",
        "🎲 More games…",
        "🤖 Play against the computer",
        "📖 Rules",
        "🌐 Language",
    ]
    to_boris = fake.last_message(boris.id)
    assert "Привет, Борис!" in to_boris.content
    assert to_boris.button_texts() == [
        "🎲 Новая партия в длинные нарды",
        "🎲 Новая партия в короткие нарды",
        "🎲 Другие игры…",
        "🤖 Игра с компьютером",
        "📖 Правила",
        "🌐 Язык",
    ]
    # Each saw exactly one message from the bot, in their own chat, sent as HTML.
    assert len(fake.messages(alice.id)) == 1 and len(fake.messages(boris.id)) == 1
    sends = fake.calls_named("sendMessage")
    assert [int(c.payload["chat_id"]) for c in sends] == [alice.id, boris.id]
    assert all(c.payload["parse_mode"] == "HTML" for c in sends)


async def test_language_rule_and_default(app: BotApp) -> None:
    carla = app.fake.user(103, "Carla", "it")
    await app.h.send_text(carla, app.fake.private_chat(carla), "/start")
    assert "Hi, Carla!" in app.fake.last_message(carla.id).content  # a known code, not Russian-reading: English
    aziz = app.fake.user(105, "Aziz", "uz")
    await app.h.send_text(aziz, app.fake.private_chat(aziz), "/start")
    assert "Привет, Aziz!" in app.fake.last_message(aziz.id).content
    dana = app.fake.user(104, "Dana", None)
    await app.h.send_text(dana, app.fake.private_chat(dana), "/help")
    assert "Бот для игры в нарды" in app.fake.last_message(dana.id).content  # no code: DEFAULT_LANGUAGE=ru


async def test_start_with_unknown_invitation(app: BotApp) -> None:
    alice = app.fake.user(101, "Alice", "en-GB")
    await app.h.send_text(alice, app.fake.private_chat(alice), "/start AbCdEfGhIj")
    text = app.fake.last_message(alice.id).content
    assert text.startswith("This invitation link is invalid or has expired.")
    assert "Hi, Alice!" in text


async def test_help_in_a_group_has_no_menu(app: BotApp) -> None:
    fake = app.fake
    group = fake.group_chat(-1001, "Club")
    alice = fake.user(101, "Alice", "en")
    boris = fake.user(102, "Борис", "ru")
    await app.h.send_text(alice, group, "/help")
    await app.h.send_text(boris, group, f"/start@{fake.bot_user.username}")
    first, second = fake.messages(group.id)
    assert "Nardy bot" in first.content and first.reply_markup is None
    assert "Бот для игры в нарды" in second.content and second.reply_markup is None
    # Nothing went to the private chats.
    assert fake.messages(alice.id) == [] and fake.messages(boris.id) == []


async def test_lang_switch_is_stored_and_used(app: BotApp) -> None:
    fake, h = app.fake, app.h
    boris = fake.user(102, "Борис", "ru")
    alice = fake.user(101, "Alice", "en")
    chat = fake.private_chat(boris)
    await h.send_text(boris, chat, "/lang")
    picker = fake.last_message(boris.id)
    assert picker.content == "Выберите язык:"
    assert picker.button_texts() == ["✓ Русский", "English"]

    await h.press_button(boris, picker, "English")
    assert fake.toasts_for(boris.id) == ["Language: English"]
    assert picker.content == "Language: English"  # edited in place
    assert picker.button_texts() == ["Русский", "✓ English"]
    assert picker.edits == 1
    assert _choices(await app.store.get_user_settings(boris.id)) == {"lang": "en"}

    await h.send_text(boris, chat, "/start")
    assert "Hi, Борис!" in fake.last_message(boris.id).content
    # Alice is not affected by Boris's choice.
    await h.send_text(alice, fake.private_chat(alice), "/start")
    assert "Hi, Alice!" in fake.last_message(alice.id).content

    # Pressing the same language again changes nothing visible (no "not modified" error reaches anyone).
    await h.press_button(boris, picker, "English")
    assert fake.toasts_for(boris.id)[-1] == "Language: English"
    assert picker.edits == 1


async def test_lang_from_the_menu_and_in_a_group(app: BotApp) -> None:
    fake, h = app.fake, app.h
    alice = fake.user(101, "Alice", "en")
    await h.send_text(alice, fake.private_chat(alice), "/start")
    await h.press_button(alice, fake.last_message(alice.id), "Language")
    assert fake.toasts_for(alice.id) == [None]
    picker = fake.last_message(alice.id)
    assert picker.button_texts() == ["Русский", "✓ English"]

    group = fake.group_chat(-1002)
    boris = fake.user(102, "Борис", "ru")
    await h.send_text(boris, group, "/lang")
    group_picker = fake.last_message(group.id)
    # Alice presses Русский on Boris's group keyboard: her language changes; the group message stays.
    await h.press(alice, group.id, group_picker.message_id, LangCb(code="ru").pack())
    assert fake.toasts_for(alice.id)[-1] == "Язык: Русский"
    assert group_picker.edits == 0
    assert _choices(await app.store.get_user_settings(alice.id)) == {"lang": "ru"}
    assert _choices(await app.store.get_user_settings(boris.id)) == {}


async def test_welcome_and_help_mention_new_and_new_bot(app: BotApp) -> None:
    alice = app.fake.user(101, "Alice", "en")
    await app.h.send_text(alice, app.fake.private_chat(alice), "/start")
    await app.h.send_text(alice, app.fake.private_chat(alice), "/help")
    welcome, help_message = app.fake.messages(alice.id)
    for text in (welcome.content, help_message.content):
        assert "/new —" in text or "/new [game]" in text
        assert "/new bot" in text
    assert "Coming soon" not in welcome.content + help_message.content


async def test_stale_forged_and_garbled_presses_get_a_toast(app: BotApp) -> None:
    fake, h = app.fake, app.h
    alice = fake.user(101, "Alice", "en")
    boris = fake.user(102, "Борис", "ru")
    await h.send_text(alice, fake.private_chat(alice), "/start")
    menu = fake.last_message(alice.id)
    calls_before = len(fake.calls)
    for data in [
        "garbage",
        "g:short:1:13/7",
        GameCb(game_id="AAAAAAAAAA", version=3, action="13/7").pack(),  # no flow handles games yet
        "m:" + "x" * 100,
        "lang:de",
        MenuCb(action="unknown").pack(),
    ]:
        await h.press(alice, alice.id, menu.message_id, data)
    await h.press(boris, alice.id, menu.message_id, "zzz")
    assert fake.toasts_for(alice.id) == ["This button is no longer active."] * 6
    assert fake.toasts_for(boris.id) == ["Эта кнопка больше не действует."]
    # Only toasts were sent: no message was sent or edited.
    assert {c.name for c in fake.calls[calls_before:]} == {"answerCallbackQuery"}
    assert menu.edits == 0
    assert _choices(await app.store.get_user_settings(alice.id)) == {}


async def test_messages_come_from_the_bot(app: BotApp) -> None:
    alice = app.fake.user(101, "Alice", "en")
    await app.h.send_text(alice, app.fake.private_chat(alice), "/start")
    everything = app.fake.messages(alice.id, from_bot=None)
    assert [m.from_user_id for m in everything] == [alice.id, BOT_ID]
