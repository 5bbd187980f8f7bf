"""The Mini App's refusals cost as little as they can: no (or malformed) sign-in data is refused before any
signature is computed or the store asked, a forged one after the HMAC alone, a caller over the rate before the body
is read, a malformed body without a traceback, and a refused action builds no view unless its answer carries one."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

import bot.webapp.auth
from bot.services.game_view import GameViews
from bot.services.live import LocalLive
from bot.services.tournaments.view_model import TournamentViews
from bot.storage import RateLimit, Store
from bot.webapp.auth import AuthError, AuthFailure, verify_init_data
from bot.webapp.parts import WebAppParts
from bot.webapp.server import REFUSALS
from tests.bot.e2e.group_play import users
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import TOKEN, forged, signed_init_data
from tests.bot.webapp.limitkit import Clock, UntouchableStore, Worker, auth, limiter, parts_of, spy

SIGNED = signed_init_data(41, "Alice")
UNSIGNED_HEADERS: list[dict[str, str]] = [
    {},
    {"Authorization": ""},
    {"Authorization": "Bearer " + SIGNED},
    {"Authorization": "tma"},
    {"Authorization": "tma    "},
]
"""Requests without init data: refused at once."""
MALFORMED_HEADERS: list[dict[str, str]] = [
    {"Authorization": "tma garbage"},
    {"Authorization": "tma user=%7B%7D&hash=00"},
    {"Authorization": "tma " + SIGNED.replace("hash=", "hush=")},
    {"Authorization": "tma " + "x=1&" * 2000},  # long, and no hash
    {"Authorization": "tma user=" + "[" * 3000 + "&hash=" + "0" * 64},  # nested beyond Python's recursion limit
]
"""Init data that is not Telegram's shape: refused without computing a signature."""
FORGED_HEADERS: list[dict[str, str]] = [
    {"Authorization": "tma " + forged(SIGNED)},
    {"Authorization": "tma " + signed_init_data(41, "Alice", token="43:OTHER")},
]
"""Init data of Telegram's shape whose signature does not verify: refused after the HMAC."""


def count_signatures(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every signature computed while checking init data. Returns: the list they go to."""
    computed: list[str] = []
    real = bot.webapp.auth._signature

    def counted(fields: dict[str, str], token: str) -> str | None:
        computed.append(token)
        return real(fields, token)

    monkeypatch.setattr(bot.webapp.auth, "_signature", counted)
    return computed


async def test_untrusted_requests_never_reach_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    store = UntouchableStore()
    env = Env(store, seeded("untouchable"))  # every part on the double: any store call of a request is seen
    live = LocalLive()
    try:
        parts = WebAppParts(
            token=TOKEN,
            max_age=86400.0,
            views=GameViews(store, seeded("untouchable")),
            actions=env.service.actions,
            live=live,
            tournaments=TournamentViews(store),  # type: ignore[arg-type]
            limiter=limiter(store, Clock()),
        )
        signatures = count_signatures(monkeypatch)
        body = {"version": 1, "action": "r"}
        async with Worker(parts) as worker:

            async def refused(headers: dict[str, str]) -> list[tuple[int, str]]:
                answers = [
                    await worker.call("GET", "api/games/g0000001", headers=headers),
                    await worker.call("POST", "api/games/g0000001/actions", headers=headers, json=body),
                    await worker.call("GET", "api/tournaments/t0000001", headers=headers),
                ]
                return [(status, payload["error"]) for status, _, payload in answers]

            for headers in UNSIGNED_HEADERS:
                assert await refused(headers) == [(401, "missing")] * 3, headers
            for headers in MALFORMED_HEADERS:
                assert await refused(headers) == [(401, "forged")] * 3, headers
            assert signatures == []  # no HMAC for any of them
            for headers in FORGED_HEADERS:
                assert await refused(headers) == [(401, "forged")] * 3, headers
            assert len(signatures) == 3 * len(FORGED_HEADERS)  # one HMAC each, nothing more
        assert store.calls == []
    finally:
        await env.sender.close()
        await live.close()


async def test_an_over_rate_caller_is_refused_before_the_body_is_read(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=611)
        game_id = await app.group_game(app.env.fake.group_chat(-610), alice, bob)
        one_action = limiter(sqlite_store, Clock(), actions=RateLimit(rate=0.5, burst=1))
        async with Worker(parts_of(app, limiter=one_action)) as worker:
            url = f"api/games/{game_id}/actions"
            status, _, body = await worker.call("POST", url, headers=auth(alice), data=b"{not json")
            assert (status, body["error"]) == (400, "bad_request")  # malformed bodies take their token too
            status, _, body = await worker.call("POST", url, headers=auth(alice), data=b"{not json")
            assert (status, body["error"]) == (429, "rate_limited")


MALFORMED_BODIES: list[bytes] = [
    b"{not json",
    b"",
    b'{"version": 1, "action": "\xff\xfe"}',  # not UTF-8
    b"\xff\xfe\x00\x00",
    b"[" * 3000 + b"]" * 3000,  # nested beyond Python's recursion limit
    b'{"version": ' + b"[" * 2000 + b"]" * 2000 + b', "action": "r"}',
    b'{"version": "1", "action": "r"}',
    b'{"version": true, "action": "r"}',
    b'{"version": -1, "action": "r"}',
    b'{"version": 1, "action": 5}',
    b'{"version": 1, "action": "no such action"}',
    b'{"version": 1, "action": "r", "more": 1}',
    b'["version", "action"]',
    b"null",
    json.dumps({"version": 1, "action": "r" * 5000}).encode(),  # over the limit of a body
]


async def test_malformed_bodies_are_refused_without_a_traceback(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=621)
        game_id = await app.group_game(app.env.fake.group_chat(-620), alice, bob)
        loads = spy(monkeypatch, app.env.service.actions, "press_outcome")
        async with Worker(parts_of(app)) as worker:
            with caplog.at_level(logging.DEBUG):
                for raw in MALFORMED_BODIES:
                    status, _, body = await worker.call(
                        "POST", f"api/games/{game_id}/actions", headers=auth(alice), data=raw
                    )
                    assert (status, body["error"]) == (400, "bad_request"), raw[:40]
                status, _, _ = await worker.call("GET", "api/tournaments/t1?version=²", headers=auth(alice))
                assert status == 404  # a digit that is no number is no version
            assert loads == []
            assert worker.webapp[REFUSALS].reasons == {"bad_request": len(MALFORMED_BODIES)}
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info], caplog.text


async def test_a_refused_action_builds_no_view_unless_its_answer_has_one(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=631)
        game_id = await app.group_game(app.env.fake.group_chat(-630), alice, bob)
        async with Worker(parts_of(app)) as worker:
            _, _, view = await worker.get(game_id, alice)
            mover, waiter = (alice, bob) if view["turn"] == 0 else (bob, alice)
            _, _, mine = await worker.get(game_id, mover)
            step = next(x for x in mine["actions"] if x["step"] is not None)
            version = mine["version"]
            views = spy(monkeypatch, app.env.service.views, "read")
            refusals: list[tuple[Any, int, str, int]] = [
                (carol, version, step["action"], 403),
                (waiter, version, step["action"], 403),
                (mover, version, "roll", 422),
            ]
            for user, sent_version, action, want in refusals:
                status, _, body = await worker.act(game_id, user, sent_version, action)
                assert status == want, body
                assert "state" not in body
            assert views == []
            status, _, body = await worker.act("g0000404", mover, version, step["action"])
            assert status == 404 and views == []
            status, _, body = await worker.act(game_id, mover, version - 1, step["action"])
            assert status == 409 and body["state"]["version"] == version  # the catch-up keeps its state
            assert len(views) == 1
            status, _, body = await worker.act(game_id, mover, version, step["action"])
            assert status == 200 and body["version"] > version
            assert len(views) == 2


def test_signed_init_data_is_checked_once_and_its_age_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    signatures = count_signatures(monkeypatch)
    init_data = signed_init_data(42, "Alice", auth_date=1_000_000, language="ru", start_param="g1")
    for _ in range(5):
        who = verify_init_data(init_data, TOKEN, max_age=3600.0, now=1_000_100.0)
        assert (who.user_id, who.name, who.language, who.start_param) == (42, "Alice", "ru", "g1")
    assert len(signatures) == 1  # the page's next requests cost no HMAC
    with pytest.raises(AuthError) as caught:  # kept, but not past its age
        verify_init_data(init_data, TOKEN, max_age=3600.0, now=1_003_601.0)
    assert (caught.value.failure, caught.value.lang) == (AuthFailure.STALE, "ru")
    with pytest.raises(AuthError) as caught:  # kept for this bot's token only
        verify_init_data(init_data, "43:OTHER", max_age=3600.0, now=1_000_100.0)
    assert caught.value.failure is AuthFailure.FORGED
    for _ in range(3):  # a refusal is not kept: each forged string costs its HMAC again, and fills no memory
        with pytest.raises(AuthError):
            verify_init_data(forged(init_data), TOKEN, max_age=3600.0, now=1_000_100.0)
    assert len(signatures) == 1 + 1 + 3
