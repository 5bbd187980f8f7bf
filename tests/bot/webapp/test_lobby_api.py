"""The Mini App's lobby routes (:mod:`bot.webapp.lobby`) on a fake lobby service: the status as the page reads it
(the server's time, the rating window while seeking, the screen's choices), a seek and its cancellation, a
cool-down shown, and the refusals: untrusted callers and malformed seek bodies never reach the lobby."""

from __future__ import annotations

import json

from aiogram.types import User

from bot.model.game import PlayerInfo
from bot.storage import Store
from bot.texts import tr
from bot.webapp.lobby import LOBBY_CLOCKS, LOBBY_VARIANTS, MAX_SEEK_BODY
from tests.bot.webapp.arenakit import ArenaAppEnv
from tests.bot.webapp.initdata import signed_init_data

ALICE = User(id=911, is_bot=False, first_name="Alice", language_code="en")
OLGA = User(id=912, is_bot=False, first_name="Ольга", language_code="ru")
STATUS_KEYS = {"state", "since", "variant", "clock", "game", "cooldown_until", "now", "choices"}


class Clock:
    """A wall clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_seek_wait_and_cancel(sqlite_store: Store) -> None:
    clock = Clock()
    async with ArenaAppEnv(sqlite_store, clock=clock) as app:
        status, _, idle = await app.call("GET", "lobby", OLGA)
        assert status == 200 and set(idle) == STATUS_KEYS, idle
        assert idle["state"] == "idle" and idle["now"] == clock.now
        assert [v["id"] for v in idle["choices"]["variants"]] == list(LOBBY_VARIANTS)
        assert "tavli" not in LOBBY_VARIANTS and "mixed" not in LOBBY_VARIANTS and "long" in LOBBY_VARIANTS
        assert idle["choices"]["variants"][1] == {"id": "long", "name": "длинные нарды"}
        assert idle["choices"]["clocks"] == list(LOBBY_CLOCKS)

        status, _, seeking = await app.call("POST", "lobby/seek", OLGA, json={"variant": "long", "clock": "12+2.0"})
        assert status == 200 and "toast" not in seeking  # taken: nothing to tell
        assert app.lobby.calls[1] == ("seek", (PlayerInfo(id=912, name="Ольга", lang="ru"), "long", "12+2"))
        assert (seeking["state"], seeking["since"], seeking["variant"], seeking["clock"]) == (
            "seeking",
            clock.now,
            "long",
            "12+2",
        )
        assert seeking["window"] == 100  # the window while seeking, widening with the wait
        clock.now += 15
        _, _, later = await app.call("GET", "lobby", OLGA)
        assert later["window"] == 250 and later["now"] - later["since"] == 15
        clock.now += 60
        _, _, later = await app.call("GET", "lobby", OLGA)
        assert later["window"] is None  # any rating

        status, _, cancelled = await app.call("POST", "lobby/cancel", OLGA)
        assert (status, cancelled["state"]) == (200, "idle") and app.lobby.calls[-2] == ("cancel", 912)
        assert "window" not in cancelled

        # paired: the status names the game
        app.lobby.pair(ALICE.id, "g000000042")
        _, _, playing = await app.call("GET", "lobby", ALICE)
        assert (playing["state"], playing["game"]) == ("playing", "g000000042")


async def test_a_cool_down_is_shown_when_a_seek_is_refused(sqlite_store: Store) -> None:
    clock = Clock()
    async with ArenaAppEnv(sqlite_store, clock=clock) as app:
        app.lobby.seat(ALICE.id).cooldown_until = clock.now + 300
        status, _, refused = await app.call("POST", "lobby/seek", ALICE, json={"variant": "short", "clock": "12+2"})
        assert (status, refused["state"], refused["toast"]) == (200, "idle", "cooling down")
        assert refused["cooldown_until"] == clock.now + 300


async def test_a_cancel_too_late_is_told(sqlite_store: Store) -> None:
    async with ArenaAppEnv(sqlite_store) as app:
        app.lobby.seat(ALICE.id).state = "claimed"
        status, _, answer = await app.call("POST", "lobby/cancel", ALICE)
        assert status == 200 and answer["toast"] == tr("en", "lobby.cancel_too_late")
        app.lobby.seat(ALICE.id).state = "seeking"
        status, _, answer = await app.call("POST", "lobby/cancel", ALICE)
        assert status == 200 and answer["state"] == "idle" and "toast" not in answer


async def test_malformed_seeks_never_reach_the_lobby(sqlite_store: Store) -> None:
    async with ArenaAppEnv(sqlite_store) as app:
        bodies: list[bytes] = [
            b"",
            b"{not json",
            b"[]",
            b'{"variant": "short"}',
            b'{"variant": "short", "clock": "12+2", "more": true}',
            b'{"variant": "tavli", "clock": "12+2"}',  # a match kind, not a lobby game
            b'{"variant": "chess", "clock": "12+2"}',
            b'{"variant": 1, "clock": "12+2"}',
            b'{"variant": "short", "clock": "12"}',
            b'{"variant": "short", "clock": "999+1"}',  # out of the clock's limits
            b'{"variant": "short", "clock": 12}',
            b'{"variant": "short", "clock": "\xff\xfe"}',
            b'{"variant": "short", "clock": "' + b"1" * MAX_SEEK_BODY + b'"}',
            b"[" * 5000,
        ]
        for body in bodies:
            status, _, answer = await app.call("POST", "lobby/seek", ALICE, data=body)
            assert (status, answer["error"]) == (400, "bad_request"), body
            assert answer["reason"] == "Choose a game and a clock (D+r) to seek."
        assert app.lobby.calls == []
        status, _, answer = await app.call("POST", "lobby/seek", OLGA, data=b"{}")
        assert status == 400 and answer["reason"] == "Чтобы искать соперника, выберите игру и контроль времени (D+r)."


async def test_untrusted_callers_never_reach_the_lobby(sqlite_store: Store) -> None:
    async with ArenaAppEnv(sqlite_store) as app:
        body = json.dumps({"variant": "short", "clock": "12+2"})
        forged = {"Authorization": "tma " + signed_init_data(1, "Alice", token="1:other")}
        for method, path in (("GET", "lobby"), ("POST", "lobby/seek"), ("POST", "lobby/cancel")):
            status, _, answer = await app.call(method, path, None, data=body)
            assert (status, answer["error"]) == (401, "missing")
            status, _, answer = await app.call(method, path, None, data=body, headers=forged)
            assert (status, answer["error"]) == (401, "forged")
        assert app.lobby.calls == []
