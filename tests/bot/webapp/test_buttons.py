"""Opening the Mini App: with WEBAPP_URL set, a private board carries a web_app button and a group's board and
/watch a t.me link with the game in ``startapp`` — on the board's own keyboard, no extra message; unset, none."""

from __future__ import annotations

import re

from aiogram.types import InlineKeyboardButton

from bot.services.inline import inline_game_id
from bot.storage import Store
from tests.bot.e2e.group_play import start_game, users
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, shown
from tests.bot.fake_telegram import FakeTelegram, ShownMessage
from tests.bot.webapp.appkit import APP_URL, AppEnv


def flat(message: ShownMessage) -> list[InlineKeyboardButton]:
    """Return the message's buttons, row after row."""
    return [b for row in message.buttons() for b in row]


async def private_game(env: Env, fake: FakeTelegram, base: int) -> tuple[str, list[int]]:
    """Start a game between two private chats by the deep link; return its id and the two users' ids."""
    alice, bob = fake.user(base, "Alice", EN), fake.user(base + 1, "Bob", EN)
    await env.h.send_text(alice, fake.private_chat(alice), "/new short")
    found = re.search(r"\?start=(c_[A-Za-z0-9_-]{10})", fake.last_message(alice.id).content)
    assert found
    await env.h.send_text(bob, fake.private_chat(bob), f"/start {found.group(1)}")
    (game_id,) = await env.store.user_games(alice.id)
    return game_id, [alice.id, bob.id]


async def test_private_boards_get_a_web_app_button(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        game_id, ids = await private_game(app.env, fake, 601)
        for chat_id in ids:
            board = board_message(fake, chat_id)
            apps = [b for b in flat(board) if b.web_app is not None]
            assert [b.web_app.url for b in apps if b.web_app] == [f"{APP_URL}?game={game_id}"]
            assert apps[0].text == shown(EN, "webapp.open")
            assert not [b for b in flat(board) if b.url]
        # one board message per chat: the button rode on the board, no message of its own
        for chat_id in ids:
            assert len([m for m in fake.messages(chat_id) if m.photo is not None or m.photo_file_id]) == 1


async def test_no_button_without_the_setting(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("no-webapp"))
    fake = env.fake
    _, ids = await private_game(env, fake, 611)
    alice, bob = users(fake, "Carol", "Dan", base=613)
    chat = fake.group_chat(-610)
    assert await start_game(env, chat, alice, bob) is not None
    for chat_id in [*ids, chat.id]:
        assert not [b for b in flat(board_message(fake, chat_id)) if b.web_app is not None or b.url]
    await env.h.send_text(alice, chat, "/watch")
    assert not [b for b in flat(fake.last_message(chat.id)) if b.url]
    await env.close()


async def test_watch_links_to_the_mini_app(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        alice, bob, carol = users(fake, "Alice", "Bob", "Carol", base=621)
        chat = fake.group_chat(-620)
        game_id = await app.group_game(chat, alice, bob)
        await app.env.h.send_text(carol, chat, "/watch")
        links = [b.url for b in flat(fake.last_message(chat.id)) if b.url]
        assert links == [f"https://t.me/nardy_test_bot/play?startapp={game_id}"]


async def test_inline_boards_link_to_the_mini_app_while_the_game_runs(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake, h = app.env.fake, app.env.h
        alice, bob = fake.user(631, "Alice", EN), fake.user(632, "Bob", EN)
        query_id = await h.inline_query(alice, "")
        message = fake.choose_inline_result(alice, query_id, "short-0", -630)
        assert not [b for b in flat(message) if b.url]  # an invitation has no game yet
        await h.press_button(bob, message, "Join")
        assert message.inline_message_id is not None
        game_id = inline_game_id(message.inline_message_id)
        link = f"https://t.me/nardy_test_bot/play?startapp={game_id}"
        assert [b.url for b in flat(message) if b.url] == [link]  # a URL: web_app buttons are for private chats
        assert not [b for b in flat(message) if b.web_app is not None]
        board = message.button_texts()
        await h.press_button(alice, message, "Resign")
        assert [b.url for b in flat(message) if b.url] == []  # the resignation menu is the menu alone
        await h.press_button(alice, message, "Back")
        assert message.button_texts() == board
        assert [b.url for b in flat(message) if b.url] == [link]
        await h.press_button(alice, message, "Resign")
        await h.press_button(alice, message, "Resign: a single")
        await h.press_button(bob, message, "Accept")
        assert message.button_texts() == ["Rematch", "New game"]  # over: no link any more
