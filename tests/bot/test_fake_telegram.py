"""The fake Bot API behaves like Telegram where the bot depends on it."""

from __future__ import annotations

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramRetryAfter
from aiogram.methods import EditMessageMedia, SendMessage
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputMediaPhoto,
    InputTextMessageContent,
)
from fake_telegram import BOT_ID, FakeTelegram, FakeTelegramError
from virtual_time import VirtualClock

from bot.sender import Sender

KB = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="13→7", callback_data="g:x")]])


async def test_photos_are_sent_and_edited_in_place() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    sent = await bot.send_photo(
        -5, BufferedInputFile(b"\xff\xd8jpeg-1", "board.jpg"), caption="<b>Turn 1</b>", reply_markup=KB
    )
    assert sent.message_id == 1 and sent.photo and sent.caption == "Turn 1"
    shown = fake.last_message(-5)
    assert shown.photo == b"\xff\xd8jpeg-1" and shown.button_texts() == ["13→7"] and shown.content == "Turn 1"

    edited = await bot.edit_message_media(
        chat_id=-5,
        message_id=sent.message_id,
        media=InputMediaPhoto(media=BufferedInputFile(b"\xff\xd8jpeg-2", "b.jpg"), caption="Turn 2"),
    )
    assert not isinstance(edited, bool) and edited.message_id == 1
    assert shown.photo == b"\xff\xd8jpeg-2" and shown.caption == "Turn 2" and shown.reply_markup is None
    assert shown.edits == 1 and shown.history[0]["caption"] == "<b>Turn 1</b>"

    # Re-sending by file id shows the same bytes.
    again = await bot.send_photo(-5, shown.photo_file_id or "", caption="copy")
    assert fake.messages(-5)[-1].photo == b"\xff\xd8jpeg-2" and again.message_id == 2


async def test_edit_errors_like_telegram() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    message = await bot.send_message(7, "hello", reply_markup=KB)
    with pytest.raises(TelegramBadRequest, match="not modified"):
        await bot.edit_message_text(text="hello", chat_id=7, message_id=message.message_id, reply_markup=KB)
    await bot.edit_message_reply_markup(chat_id=7, message_id=message.message_id)
    assert fake.last_message(7).reply_markup is None
    with pytest.raises(TelegramBadRequest, match="not found"):
        await bot.edit_message_text(text="x", chat_id=7, message_id=99)
    assert await bot.delete_message(7, message.message_id)
    assert fake.messages(7) == []


async def test_user_messages_share_the_chat_message_ids() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    alice = fake.user(1, "Alice")
    fake.message_update(alice, fake.private_chat(alice), "hi")
    sent = await bot.send_message(1, "hello")
    assert sent.message_id == 2
    assert [m.from_user_id for m in fake.messages(1, from_bot=None)] == [1, BOT_ID]
    with pytest.raises(TelegramBadRequest):
        await bot.edit_message_text(text="x", chat_id=1, message_id=1)  # cannot edit the user's message


async def test_injected_429_is_retried_by_the_sender() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    fake.fail_next("sendMessage", error_code=429, description="Too Many Requests: retry after 5", retry_after=5)
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(3, "direct")
    fake.fail_next("sendMessage", error_code=429, description="Too Many Requests: retry after 5", retry_after=5)
    clock = VirtualClock()
    sender = Sender(bot, clock=clock, sleep=clock.sleep)
    message = await sender.send(SendMessage(chat_id=3, text="through the sender"))
    assert message.text == "through the sender"
    assert 5 in clock.sleeps
    assert [c.name for c in fake.calls] == ["sendMessage"] * 3
    await sender.close()


async def test_edit_media_through_the_sender_coalesces() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    first = await bot.send_photo(-9, BufferedInputFile(b"v0", "b.jpg"))
    clock = VirtualClock()
    sender = Sender(bot, clock=clock, sleep=clock.sleep)
    edits = [
        sender.submit(
            EditMessageMedia(
                chat_id=-9,
                message_id=first.message_id,
                media=InputMediaPhoto(media=BufferedInputFile(f"v{i}".encode(), "b.jpg")),
            )
        )
        for i in range(1, 5)
    ]
    for edit in edits:
        await edit
    assert fake.last_message(-9).photo == b"v4"
    # All four were queued before the chat's worker ran, so only the latest was sent.
    assert len(fake.calls_named("editMessageMedia")) == 1
    assert sender.coalesced == 3
    await sender.close()


async def test_unknown_methods_are_reported() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    with pytest.raises(FakeTelegramError):
        await bot.send_dice(1)


async def test_inline_messages_take_known_files_only_and_never_turn_back_into_text() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    alice = fake.user(1, "Alice", "en")
    update = fake.inline_query_update(alice, "short")
    assert update.inline_query is not None
    article = InlineQueryResultArticle(
        id="a", title="t", input_message_content=InputTextMessageContent(message_text="invite"), reply_markup=KB
    )
    await bot.answer_inline_query(update.inline_query.id, [article])
    shown = fake.choose_inline_result(alice, update.inline_query.id, "a", -7)
    inline = shown.inline_message_id or ""
    assert inline and fake.messages(-7, from_bot=None) == [shown]
    with pytest.raises(TelegramBadRequest, match="can't be uploaded"):
        photo = InputMediaPhoto(media=BufferedInputFile(b"\xff\xd8x", "b.jpg"))
        await bot.edit_message_media(inline_message_id=inline, media=photo)
    sent = await bot.send_photo(5, BufferedInputFile(b"\xff\xd8board", "board.jpg"))
    file_id = sent.photo[-1].file_id if sent.photo else ""
    assert await bot.edit_message_media(inline_message_id=inline, media=InputMediaPhoto(media=file_id)) is True
    assert shown.photo == b"\xff\xd8board" and shown.text is None
    with pytest.raises(TelegramBadRequest, match="no text"):
        await bot.edit_message_text("text again", inline_message_id=inline)
    fake.unreachable.add(9)
    with pytest.raises(TelegramForbiddenError):
        await bot.send_message(9, "hello")
