"""The fake Bot API's Telegram-HTML checker: it must refuse what Telegram refuses, or the e2e tests prove nothing."""

from __future__ import annotations

import html

import pytest
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import EditMessageMedia
from aiogram.types import BufferedInputFile, InputMediaPhoto
from hypothesis import given
from hypothesis import strategies as st

from tests.bot.fake_telegram import REJECTED, FakeTelegram, check_formatted, telegram_html_error

VALID = [
    "plain text",
    "<b>bold</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u> <ins>i</ins> <s>s</s> <strike>s</strike> <del>d</del>",
    '<span class="tg-spoiler">x</span> <tg-spoiler>y</tg-spoiler>',
    '<a href="https://t.me/x?start=c_1&amp;a=2">link</a>',
    '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>',
    '<code>13/7</code> <pre>x</pre> <pre><code class="language-python">x</code></pre>',
    "<blockquote>q</blockquote> <blockquote expandable>q</blockquote>",
    "&lt;3 &gt; &amp; &quot; &#60; &#x3C; &#128512;",
    "<b>nested <i>fine</i></b>",
    "quotes \" and ' are fine in text",
]
INVALID = [
    "Eve <3",
    "a < b",
    "a > b",
    "Tom & Jerry",
    "&nbsp;",
    "&#x27",
    "&#55296;",
    "<b>unclosed",
    "closed</b>",
    "<b><i>crossed</b></i>",
    "<div>x</div>",
    "<span>no class</span>",
    '<span class="other">x</span>',
    "<a>no href</a>",
    '<b class="x">x</b>',
    "<pre><b>x</b></pre>",
]


@pytest.mark.parametrize("text", VALID)
def test_accepts_what_telegram_accepts(text: str) -> None:
    assert telegram_html_error(text) is None


@pytest.mark.parametrize("text", INVALID)
def test_refuses_what_telegram_refuses(text: str) -> None:
    assert telegram_html_error(text) is not None


@given(st.text(max_size=200))
def test_escaped_text_is_always_accepted(text: str) -> None:
    assert telegram_html_error(html.escape(text, quote=False)) is None


def test_length_is_counted_in_utf16_units_after_parsing() -> None:
    assert check_formatted("&quot;" * 1024, "HTML", 1024) is None  # 1024 visible characters
    assert check_formatted("😀" * 512, "HTML", 1024) is None  # 512 surrogate pairs
    assert check_formatted("😀" * 513, "HTML", 1024) == "Bad Request: message caption is too long"
    assert check_formatted("<b>x</b>" * 1024, "HTML", 1024) is None
    assert check_formatted("a < b", None, 1024) is None  # no parse mode: no HTML rules


async def test_the_fake_refuses_bad_html_like_telegram() -> None:
    fake = FakeTelegram()
    bot = fake.make_bot()
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message(chat_id=1, text="Eve <3")
    assert REJECTED and "Eve <3" in REJECTED[-1]
    REJECTED.clear()  # the test provoked it on purpose
    sent = await bot.send_message(chat_id=1, text="Eve &lt;3")
    assert sent.text == "Eve <3"
    photo = await bot.send_photo(chat_id=1, photo=BufferedInputFile(b"jpeg", filename="board.jpg"), caption="ok")
    media = InputMediaPhoto(media=BufferedInputFile(b"jpeg2", filename="board.jpg"), caption="😀" * 513)
    with pytest.raises(TelegramBadRequest, match="caption is too long"):
        await bot(EditMessageMedia(chat_id=1, message_id=photo.message_id, media=media))
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.edit_message_caption(chat_id=1, message_id=photo.message_id, caption="<b>x")
    assert len(REJECTED) == 2
    REJECTED.clear()
