"""The fake Telegram over HTTP keeps what soak runs read: every message change in the order it took effect, who made
each call, albums, and keyboards taken away as Telegram takes them away."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from tests.bot.fake_bot_api_server import TOKEN, FakeBotApiServer

KEYBOARD = {"inline_keyboard": [[{"text": "Roll", "callback_data": "g:abcdefghij:3:roll"}]]}


@pytest.fixture
async def server() -> AsyncIterator[tuple[FakeBotApiServer, TestServer]]:
    api = FakeBotApiServer(latency=0.01, jitter=0.02, seed=7)
    test_server = TestServer(api.app(), host="127.0.0.1")
    await test_server.start_server()
    try:
        yield api, test_server
    finally:
        await test_server.close()


async def _call(test_server: TestServer, method: str, fields: dict[str, Any], source: str | None = None) -> Any:
    prefix = f"/{source}" if source else ""
    async with (
        aiohttp.ClientSession() as session,
        session.post(test_server.make_url(f"{prefix}/bot{TOKEN}/{method}"), json=fields) as response,
    ):
        body = await response.json()
    assert body["ok"], body
    return body["result"]


async def test_changes_are_kept_in_the_order_they_took_effect_with_their_caller(
    server: tuple[FakeBotApiServer, TestServer],
) -> None:
    api, test_server = server
    sent = await _call(test_server, "sendMessage", {"chat_id": -5, "text": "board", "reply_markup": KEYBOARD}, "w0.1")
    message_id = sent["message_id"]
    edits = [
        _call(test_server, "editMessageText", {"chat_id": -5, "message_id": message_id, "text": f"v{i}"}, f"w{i}.1")
        for i in range(6)
    ]
    await asyncio.gather(*edits)

    changes = api.changes
    assert [c.method for c in changes] == ["sendMessage"] + ["editMessageText"] * 6
    assert changes[0].callbacks == ("g:abcdefghij:3:roll",) and changes[0].source == "w0.1"
    assert [c.at for c in changes] == sorted(c.at for c in changes)
    assert changes[-1].text == api.messages[-5, message_id].text  # the last change is what the chat shows
    assert {c.source for c in changes[1:]} == {f"w{i}.1" for i in range(6)}
    assert all(c.callbacks == () for c in changes[1:])  # an edit without a keyboard takes it away
    assert sorted(str(c.source) for c in api.calls) == sorted(["w0.1", *(f"w{i}.1" for i in range(6))])


async def test_reply_markup_edit_without_a_keyboard_takes_it_away(server: tuple[FakeBotApiServer, TestServer]) -> None:
    api, test_server = server
    sent = await _call(test_server, "sendMessage", {"chat_id": 9, "text": "board", "reply_markup": KEYBOARD})
    await _call(test_server, "editMessageReplyMarkup", {"chat_id": 9, "message_id": sent["message_id"]})

    assert api.chat(9)[0].keyboard == []
    assert api.changes[-1].method == "editMessageReplyMarkup" and api.changes[-1].callbacks == ()
    assert api.calls[-1].source is None  # called without a name in front of the path


async def test_a_reply_and_an_album_are_recorded(server: tuple[FakeBotApiServer, TestServer]) -> None:
    api, test_server = server
    await _call(test_server, "sendMessage", {"chat_id": -3, "text": "no", "reply_parameters": {"message_id": 41}})
    media = [{"type": "photo", "media": "attach://a", "caption": "one"}, {"type": "photo", "media": "attach://b"}]
    album = await _call(test_server, "sendMediaGroup", {"chat_id": -3, "media": media})

    assert api.changes[0].reply_to == 41
    assert [m["message_id"] for m in album] == [m.message_id for m in api.chat(-3)[1:]]
    assert [(c.method, c.caption, c.photo) for c in api.changes[1:]] == [
        ("sendMediaGroup", "one", True),
        ("sendMediaGroup", None, True),
    ]
