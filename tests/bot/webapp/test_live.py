"""Live: every saved version of a game reaches every open socket of it — a button press over the fake Bot API, a
move through the app, the computer's reply — each viewer getting its own view; a reconnect catches up; an
untrusted socket is refused."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from aiohttp import WSMsgType

from bot.storage import Store
from bot.webapp import live
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv, open_live


async def next_state(ws: Any) -> dict[str, Any]:
    """Return the next state the socket gets (skipping anything else)."""
    while True:
        message = await ws.receive_json()
        if message["type"] == "state":
            state: dict[str, Any] = message["state"]
            return state


async def test_a_button_press_and_an_app_move_reach_every_socket(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        alice, bob, carol = users(fake, "Alice", "Bob", "Carol", base=401)
        chat = fake.group_chat(-400)
        game_id = await app.group_game(chat, alice, bob)
        sockets = {u.id: await open_live(app, game_id, u) for u in (alice, bob, carol)}
        first = {uid: await next_state(ws) for uid, ws in sockets.items()}
        version = first[alice.id]["version"]
        assert {s["version"] for s in first.values()} == {version}
        # a button press in the group reaches all three sockets, each with its own view
        stored, match = await state(app.env, game_id)
        mover = awaited_user(stored, match, {alice.id: alice, bob.id: bob})
        await press_first(app.env, mover, chat.id)
        pressed = await sqlite_store.get_game(game_id)
        assert pressed is not None and pressed.version > version
        seen = {}
        for uid, ws in sockets.items():
            view = await next_state(ws)
            while view["version"] < pressed.version:
                view = await next_state(ws)
            seen[uid] = view
        assert seen[carol.id]["you"] is None and seen[carol.id]["actions"] == []
        turn = seen[alice.id]["turn"]
        awaited = alice if turn == 0 else bob
        other = bob if awaited is alice else alice
        if seen[awaited.id]["awaited"] == "move":
            assert [a for a in seen[awaited.id]["actions"] if a["step"] is not None]
        assert not [a for a in seen[other.id]["actions"] if not a["action"].startswith("rs")]
        # a move through the app reaches the others' sockets too
        mine = seen[awaited.id]
        action = next(a["action"] for a in mine["actions"] if not a["action"].startswith("rs"))
        status, body = await app.act(game_id, awaited, {"version": mine["version"], "action": action})
        assert status == 200, body
        for uid in (other.id, carol.id):
            view = await next_state(sockets[uid])
            while view["version"] < body["version"]:
                view = await next_state(sockets[uid])
            assert view["version"] == body["version"]
        for ws in sockets.values():
            await ws.close()


async def test_the_computers_reply_reaches_the_socket(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store, "live-computer") as app:
        fake = app.env.fake
        (alice,) = users(fake, "Alice", base=411)
        await app.env.h.send_text(alice, fake.private_chat(alice), "/new bot short easy")
        (game_id,) = await sqlite_store.user_games(alice.id)
        ws = await open_live(app, game_id, alice)
        view = await next_state(ws)
        assert view["players"][1]["computer"] is True
        # Alice plays through the app until the computer has replied at least once
        for _ in range(20):
            if view["finished"]:
                break
            mine = [a for a in view["actions"] if not a["action"].startswith("rs")]
            if view["turn"] != 0 or not mine:
                view = await next_state(ws)
                continue
            status, body = await app.act(game_id, alice, {"version": view["version"], "action": mine[0]["action"]})
            assert status == 200, body
            before = body["version"]
            view = await next_state(ws)
            while view["version"] < before:
                view = await next_state(ws)
            if view["last_mover"] == 1:  # the computer's move reached the socket
                break
        assert view["last_mover"] == 1 or view["finished"]
        await ws.close()


async def test_a_reconnect_catches_up_and_untrusted_sockets_are_refused(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        alice, bob = users(fake, "Alice", "Bob", base=421)
        chat = fake.group_chat(-420)
        game_id = await app.group_game(chat, alice, bob)
        ws = await open_live(app, game_id, alice)
        old = (await next_state(ws))["version"]
        await ws.close()
        # moves are made while Alice's app is away
        stored, match = await state(app.env, game_id)
        await press_first(app.env, awaited_user(stored, match, {alice.id: alice, bob.id: bob}), chat.id)
        now = await sqlite_store.get_game(game_id)
        assert now is not None and now.version > old
        ws = await open_live(app, game_id, alice, version=old)
        assert (await next_state(ws))["version"] == now.version  # behind: the state at once
        await ws.close()
        ws = await open_live(app, game_id, alice, version=now.version)
        assert await ws.receive_json() == {"type": "current", "version": now.version}  # up to date: no state
        await ws.send_json({"type": "ping"})
        assert await ws.receive_json() == {"type": "pong"}
        await ws.close()
        # untrusted: an error with 401 and the socket closed
        for who, extra in ((None, {}), (alice, {"init_data": "user=%7B%7D&hash=00"})):
            ws = await open_live(app, game_id, who, **extra)
            message = await ws.receive_json()
            assert (message["type"], message["status"]) == ("error", 401)
            await ws.receive()
            assert ws.closed and ws.close_code == 4401
        ws = await open_live(app, "nosuchgame", alice)
        assert (await ws.receive_json())["status"] == 404
        await ws.close()


async def test_a_typed_move_reaches_the_socket(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store, "live-typed") as app:
        fake = app.env.fake
        alice, bob = users(fake, "Alice", "Bob", base=431)
        chat = fake.group_chat(-430)
        game_id = await app.group_game(chat, alice, bob)
        ws = await open_live(app, game_id, bob)
        first = await next_state(ws)
        stored, match = await state(app.env, game_id)
        mover = awaited_user(stored, match, {alice.id: alice, bob.id: bob})
        if match.game.phase.value != "move":
            await press_first(app.env, mover, chat.id)
            stored, match = await state(app.env, game_id)
            mover = awaited_user(stored, match, {alice.id: alice, bob.id: bob})
        notation = match.game.legal_moves()[0].notation
        await app.env.h.send_text(mover, chat, notation)
        typed = await sqlite_store.get_game(game_id)
        assert typed is not None and typed.version > stored.version > 0 and typed.version > first["version"]
        assert any(e.get("move") for e in typed.data.get("events", [])) or typed.data["match"] != stored.data["match"]
        view = await next_state(ws)
        while view["version"] < typed.version:
            view = await next_state(ws)
        assert view["version"] == typed.version
        await ws.close()


async def test_a_socket_closed_before_its_first_message_is_let_go_quietly(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=381)
        game_id = await app.group_game(app.env.fake.group_chat(-380), alice, bob)
        for _ in range(3):  # a page closed at once, as a user leaving the app does
            ws = await app.client.ws_connect(f"/webapp/api/games/{game_id}/live")
            await ws.close()
        ws = await open_live(app, game_id, alice)  # the server still serves the next one
        assert (await ws.receive_json())["type"] == "state"
        await ws.close()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_a_socket_that_says_nothing_is_cut_after_the_hello_timeout(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(live, "HELLO_TIMEOUT", 0.2)
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=391)
        game_id = await app.group_game(app.env.fake.group_chat(-390), alice, bob)
        silent = await app.client.ws_connect(f"/webapp/api/games/{game_id}/live")
        message = await silent.receive()  # no error message and no closing handshake: the connection is gone
        assert message.type in (WSMsgType.CLOSED, WSMsgType.ERROR, WSMsgType.CLOSE), message
        assert silent.closed
        ws = await open_live(app, game_id, alice)  # the server still serves the next one
        assert (await ws.receive_json())["type"] == "state"
        await ws.close()
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_following_socket_that_stays_silent_is_cut_and_one_that_pings_stays(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "SILENCE_TIMEOUT", 0.3)
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=395)
        game_id = await app.group_game(app.env.fake.group_chat(-394), alice, bob)
        silent = await open_live(app, game_id, alice)
        pinging = await open_live(app, game_id, bob)
        assert (await silent.receive_json())["type"] == (await pinging.receive_json())["type"] == "state"
        for _ in range(4):  # 0.6 s in all: twice the silence allowed, but a ping every 0.15 s
            await pinging.send_str('{"type": "ping"}')
            assert await pinging.receive_json() == {"type": "pong"}
            await asyncio.sleep(0.15)
        message = await silent.receive()
        assert message.type in (WSMsgType.CLOSED, WSMsgType.ERROR, WSMsgType.CLOSE), message
        assert not pinging.closed
        await pinging.close()
