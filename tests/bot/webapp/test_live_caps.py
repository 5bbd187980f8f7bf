"""The caps on live sockets: per user, per game and per process, checked before the socket follows, reads or builds
anything; a socket over one is told why and closed with 4429, and a socket that leaves gives its place back."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.config import Settings
from bot.services.live import FollowLimits, LocalLive
from bot.storage import Store
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.livekit import counting_loads, first_message, open_socket, refused


async def test_a_user_over_the_cap_is_refused_before_anything_is_read_and_a_closed_socket_frees_its_place(
    sqlite_store: Store,
) -> None:
    live = LocalLive(FollowLimits(per_user=2, per_game=50, per_process=50))
    async with AppEnv(sqlite_store, live=live) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=601)
        game_id = await app.group_game(app.env.fake.group_chat(-600), alice, bob)
        other_id = await app.group_game(app.env.fake.group_chat(-601), alice, bob)
        loads = counting_loads(app)
        phone = await open_socket(app, game_id, alice)
        desktop = await open_socket(app, other_id, alice)  # the cap counts a user's sockets on every game
        assert (await first_message(phone))["type"] == (await first_message(desktop))["type"] == "state"
        assert loads == [game_id, other_id]

        third = await open_socket(app, game_id, alice)
        error, code = await refused(third)
        assert code == 4429
        assert (error["type"], error["status"], error["error"], error["scope"], error["limit"]) == (
            "error",
            429,
            "too_many_sockets",
            "user",
            2,
        )
        assert error["reason"]
        assert loads == [game_id, other_id]  # refused before the game was read or a view built
        assert live.fanout.users[alice.id] == 2 and live.fanout.followers == 2
        assert {game: len(listeners) for game, listeners in live.fanout.listeners.items()} == {game_id: 1, other_id: 1}

        # another user is not affected, and a socket that closes gives its place back
        assert (await first_message(await open_socket(app, game_id, bob)))["type"] == "state"
        await desktop.close()
        reload = await open_socket(app, game_id, alice)
        assert (await first_message(reload))["type"] == "state"
        for ws in (phone, reload):
            await ws.close()


async def test_a_game_and_a_process_over_their_caps_refuse_with_their_scope(sqlite_store: Store) -> None:
    live = LocalLive(FollowLimits(per_user=5, per_game=3, per_process=4))
    async with AppEnv(sqlite_store, live=live) as app:
        alice, bob, carol, dave, erin = users(app.env.fake, "Alice", "Bob", "Carol", "Dave", "Erin", base=611)
        game_id = await app.group_game(app.env.fake.group_chat(-610), alice, bob)
        other_id = await app.group_game(app.env.fake.group_chat(-611), carol, dave)
        opened = [await open_socket(app, game_id, who) for who in (alice, bob, carol)]
        for ws in opened:
            assert (await first_message(ws))["type"] == "state"
        error, code = await refused(await open_socket(app, game_id, dave))
        assert (error["scope"], error["limit"], code) == ("game", 3, 4429)

        opened.append(await open_socket(app, other_id, dave))  # another game still has room: the fourth socket
        assert (await first_message(opened[-1]))["type"] == "state"
        error, code = await refused(await open_socket(app, other_id, erin))
        assert (error["scope"], error["limit"], code) == ("process", 4, 4429)
        for ws in opened:
            await ws.close()


async def test_refusals_are_logged_once_then_counted(sqlite_store: Store, caplog: pytest.LogCaptureFixture) -> None:
    live = LocalLive(FollowLimits(per_user=1, per_game=50, per_process=50))
    async with AppEnv(sqlite_store, live=live) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=621)
        game_id = await app.group_game(app.env.fake.group_chat(-620), alice, bob)
        kept = await open_socket(app, game_id, alice)
        assert (await first_message(kept))["type"] == "state"
        with caplog.at_level(logging.INFO, logger="bot.services.live"):
            for _ in range(5):
                _, code = await refused(await open_socket(app, game_id, alice))
                assert code == 4429
        lines = [r for r in caplog.records if r.name == "bot.services.live"]
        assert len(lines) == 1 and lines[0].levelno == logging.WARNING
        assert f"user {alice.id}" in lines[0].getMessage() and "cap of 1 per user" in lines[0].getMessage()
        assert live.fanout.refusals.unlogged["user"] == 4
        await kept.close()


def test_the_caps_come_from_the_settings_and_their_defaults_agree() -> None:
    defaults = Settings(bot_token="42:TEST", _env_file=None)  # type: ignore[call-arg]
    assert FollowLimits.of(defaults) == FollowLimits()
    assert FollowLimits().per_process < defaults.http_max_connections  # sockets leave room for the other requests
    assert FollowLimits().per_user <= FollowLimits().per_game <= FollowLimits().per_process
    chosen = Settings(
        bot_token="42:TEST",
        webapp_live_per_user=3,
        webapp_live_per_game=40,
        webapp_live_per_process=90,
        _env_file=None,  # type: ignore[call-arg]
    )
    assert FollowLimits.of(chosen) == FollowLimits(per_user=3, per_game=40, per_process=90)


async def test_a_refused_socket_waits_for_its_answer_while_the_others_are_served(sqlite_store: Store) -> None:
    live = LocalLive(FollowLimits(per_user=1, per_game=50, per_process=50))
    async with AppEnv(sqlite_store, live=live, socket_refusal_delay=0.5) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=631)
        game_id = await app.group_game(app.env.fake.group_chat(-630), alice, bob)
        kept = await open_socket(app, game_id, alice)
        assert (await first_message(kept))["type"] == "state"
        loop = asyncio.get_running_loop()
        started = loop.time()
        over = [await open_socket(app, game_id, alice) for _ in range(3)]
        bobs = await open_socket(app, game_id, bob)  # served meanwhile
        assert (await first_message(bobs))["type"] == "state"
        bob_served = loop.time()
        for ws in over:
            error, code = await refused(ws)
            assert (error["error"], code) == ("too_many_sockets", 4429)
        refusals_came = loop.time()
        assert refusals_came - started >= 0.5  # the refusals waited the delay
        assert bob_served < refusals_came
        for ws in (kept, bobs):
            await ws.close()
