"""One shared view per version: a save is read once and each distinct view (the spectators of a language, a player in
a language) built and serialized once, whatever the number of sockets, and every socket that sees it is sent the same
text; a socket that does not read holds nobody up and is dropped."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

import bot.services.game_view as game_view
import bot.webapp.live as live_socket
from bot.services.live import LocalLive
from bot.storage import Store
from bot.webapp.parts import SOCKETS
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.livekit import counting_loads, first_message, open_socket, state_text


def server_sockets(app: AppEnv) -> set[Any]:
    """Return the Mini App's open live sockets as the server holds them."""
    mounted: list[Any] = list(app.client.app._subapps)
    sockets: set[Any] = mounted[0][SOCKETS]
    return sockets


async def test_a_save_is_read_once_and_each_distinct_view_built_once_for_every_socket(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        alice, bob, carol, dave, erin, frank, gina = users(
            fake, "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gina", base=701
        )
        chat = fake.group_chat(-700)
        game_id = await app.group_game(chat, alice, bob)
        alices = [await open_socket(app, game_id, alice) for _ in range(2)]  # a phone and a desktop
        bobs = [await open_socket(app, game_id, bob)]
        english = [await open_socket(app, game_id, who) for who in (carol, dave, erin)]
        russian = [await open_socket(app, game_id, who, language="ru") for who in (frank, gina)]
        every = [*alices, *bobs, *english, *russian]
        for ws in every:
            assert (await first_message(ws))["type"] == "state"

        builds: Counter[tuple[int | None, str]] = Counter()
        build = game_view._build_view

        def counted(stored: Any, record: Any, match: Any, you: int | None, lang: str, now: float) -> Any:
            builds[you, lang] += 1
            return build(stored, record, match, you, lang, now)

        monkeypatch.setattr(game_view, "_build_view", counted)
        loads = counting_loads(app)

        stored, match = await state(app.env, game_id)
        await press_first(app.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        saved = await sqlite_store.get_game(game_id)
        assert saved is not None and saved.version > stored.version
        texts = {id(ws): await state_text(ws, saved.version) for ws in every}

        assert loads == [game_id]  # one read of the save for all eight sockets
        alice_side = 0 if stored.data["players"][0]["id"] == alice.id else 1
        players = {k for k in builds if k[0] is not None}
        assert {k[0] for k in players} == {alice_side, 1 - alice_side}
        assert {k for k in builds if k[0] is None} == {(None, "en"), (None, "ru")}
        assert set(builds.values()) == {1}  # each distinct view built once
        # the same text for every socket that sees the same view
        assert texts[id(alices[0])] == texts[id(alices[1])]
        assert len({texts[id(ws)] for ws in english}) == 1 and len({texts[id(ws)] for ws in russian}) == 1
        assert texts[id(english[0])] != texts[id(russian[0])] != texts[id(alices[0])] != texts[id(bobs[0])]
        for ws in every:
            await ws.close()


async def test_a_socket_that_does_not_read_holds_nobody_up_and_is_dropped(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = LocalLive()
    async with AppEnv(sqlite_store, live=live) as app:
        fake = app.env.fake
        alice, bob, carol, dave = users(fake, "Alice", "Bob", "Carol", "Dave", base=711)
        chat = fake.group_chat(-710)
        game_id = await app.group_game(chat, alice, bob)
        slow_client = await open_socket(app, game_id, carol)
        assert (await first_message(slow_client))["type"] == "state"
        (slow,) = server_sockets(app)
        others = [await open_socket(app, game_id, who) for who in (alice, dave)]
        for ws in others:
            assert (await first_message(ws))["type"] == "state"

        # Carol's socket stops taking messages: a send to it waits until the test lets it go
        stuck = asyncio.Event()
        let_go = asyncio.Event()

        async def stalled(_text: str) -> None:
            stuck.set()
            await let_go.wait()

        monkeypatch.setattr(slow, "send_str", stalled)
        stored, match = await state(app.env, game_id)
        await press_first(app.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        saved = await sqlite_store.get_game(game_id)
        assert saved is not None
        for ws in others:  # the others get the new version while the send to Carol still waits
            await state_text(ws, saved.version)
        await stuck.wait()
        assert not let_go.is_set()
        let_go.set()

        # it does not read for longer than the bound: it is dropped, and its place given back
        monkeypatch.setattr(live_socket, "SEND_TIMEOUT", 0.05)
        monkeypatch.setattr(slow, "send_str", lambda _text: asyncio.Event().wait())
        stored, match = await state(app.env, game_id)
        await press_first(app.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        saved = await sqlite_store.get_game(game_id)
        assert saved is not None
        for ws in others:
            await state_text(ws, saved.version)
        while not slow_client.closed:
            await slow_client.receive()
        while live.fanout.followers != 2:
            await asyncio.sleep(0.01)
        assert slow not in server_sockets(app)
        for ws in others:
            await ws.close()


async def test_a_socket_whose_buffer_is_full_is_dropped_before_anything_more_is_written(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = LocalLive()
    async with AppEnv(sqlite_store, live=live) as app:
        fake = app.env.fake
        alice, bob, carol = users(fake, "Alice", "Bob", "Carol", base=721)
        chat = fake.group_chat(-720)
        game_id = await app.group_game(chat, alice, bob)
        slow_client = await open_socket(app, game_id, carol)
        assert (await first_message(slow_client))["type"] == "state"
        (slow,) = server_sockets(app)
        other = await open_socket(app, game_id, alice)
        assert (await first_message(other))["type"] == "state"
        writes: list[str] = []
        monkeypatch.setattr(slow, "send_str", lambda text: writes.append(text))  # never called: it is dropped
        transport = slow._req.transport
        monkeypatch.setattr(transport, "get_write_buffer_size", lambda: live_socket.SEND_BUFFER_LIMIT + 1)

        stored, match = await state(app.env, game_id)
        await press_first(app.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        saved = await sqlite_store.get_game(game_id)
        assert saved is not None
        await state_text(other, saved.version)
        while not slow_client.closed:
            await slow_client.receive()
        while live.fanout.followers != 1:
            await asyncio.sleep(0.01)
        assert writes == []
        await other.close()


async def test_sockets_opening_at_once_on_a_game_share_one_read(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        people = users(fake, *(f"S{i}" for i in range(12)), base=751)
        game_id = await app.group_game(fake.group_chat(-750), people[0], people[1])
        loads = counting_loads(app)
        sockets = await asyncio.gather(*(open_socket(app, game_id, who) for who in people[2:]))
        firsts = [await first_message(ws) for ws in sockets]
        assert {(m["type"], m["state"]["version"]) for m in firsts} == {("state", firsts[0]["state"]["version"])}
        assert 1 <= len(loads) <= 3, loads  # ten spectators opening at once: a read or two, not ten
        for ws in sockets:
            await ws.close()
