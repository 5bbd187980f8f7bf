"""The Mini App's arena routes (:mod:`bot.webapp.arenas`) on a fake arena service: the view's JSON as the page
reads it, the poll's ETag (an unchanged arena costs a version read, no view), the buttons (the caller passed as a
player, the toast with the new view), and the refusals: untrusted callers, ids of the wrong shape (no service asked),
unknown arenas, unknown buttons, a caller over their rate, a server without arenas."""

from __future__ import annotations

import time

from aiogram.types import User

from bot.keyboards.webapp import WebAppLinks, arena_button, play_button
from bot.model.game import PlayerInfo
from bot.storage import RateLimit, Store
from tests.bot.webapp.arenakit import ARENA_ID, ArenaAppEnv, FakeArena, Row, sheet
from tests.bot.webapp.initdata import signed_init_data
from tests.bot.webapp.limitkit import Clock, limiter

ALICE = User(id=901, is_bot=False, first_name="Alice", language_code="en")
OLGA = User(id=902, is_bot=False, first_name="Ольга", language_code="ru")
PLAYER_KEYS = {"id", "name", "rank", "score", "fire", "sheet", "games", "paused", "withdrawn", "playing"}


def an_arena(app: ArenaAppEnv) -> FakeArena:
    """Hold an arena of three players (Alice among them, on fire and in a game) in ``app``'s fake."""
    return app.arenas.add(
        ARENA_ID,
        FakeArena(
            title="Arena · short nardy",
            ends_at=time.time() + 3600,
            rows=[
                Row(
                    "901",
                    "Alice",
                    8,
                    True,
                    sheet((2, False, False), (2, False, False), (4, True, False)),
                    playing="g000000001",
                ),
                Row("7", "Boris", 3, False, sheet((0, False, False), (3, False, True))),
                Row("8", "Vera", 0, False, [], paused=True),
            ],
        ),
    )


async def test_the_view_is_the_services_json_tagged_with_the_arenas_version(sqlite_store: Store) -> None:
    async with ArenaAppEnv(sqlite_store) as app:
        an_arena(app)
        status, headers, view = await app.call("GET", f"arenas/{ARENA_ID}", ALICE)
        assert status == 200, view
        assert set(view) == {"id", "title", "variant", "clock", "ends_at", "now", "finished", "players", "me"}
        assert [p["name"] for p in view["players"]] == ["Alice", "Boris", "Vera"]
        assert app.arenas.calls[-1] == ("view", ARENA_ID, (901, "en"))  # in the viewer's language
        assert all(set(p) == PLAYER_KEYS for p in view["players"])
        alice = view["players"][0]
        assert alice["id"] == 901 and alice["playing"] is True
        assert alice["fire"] and alice["rank"] == 1 and [e["fire"] for e in alice["sheet"]] == [False, False, True]
        assert view["me"] == {"joined": True, "paused": False, "game": "g000000001"}
        assert headers["ETag"] == '"a1"' and "no-cache" in headers["Cache-Control"]
        assert abs(view["now"] - time.time()) < 60

        # the poll: unchanged → 304 without a body and without building a view
        views = app.arenas.asked("view")
        status, headers, body = await app.call("GET", f"arenas/{ARENA_ID}", ALICE, headers={"If-None-Match": '"a1"'})
        assert (status, body, headers["ETag"]) == (304, None, '"a1"')
        assert app.arenas.asked("view") == views
        # changed (a game ended in whichever worker): the new view
        app.arenas.change(ARENA_ID, lambda arena: setattr(arena.rows[1], "score", 9))
        status, headers, view = await app.call("GET", f"arenas/{ARENA_ID}", ALICE, headers={"If-None-Match": '"a1"'})
        assert status == 200 and headers["ETag"] == '"a2"'
        assert [p["name"] for p in view["players"]] == ["Boris", "Alice", "Vera"]


async def test_the_buttons_act_for_the_caller_and_answer_the_new_view(sqlite_store: Store) -> None:
    async with ArenaAppEnv(sqlite_store) as app:
        an_arena(app)
        status, headers, view = await app.call("POST", f"arenas/{ARENA_ID}/join", OLGA)
        assert status == 200 and view["toast"] == "Ольга joined" and view["me"]["joined"]
        assert app.arenas.calls[-3][2] == PlayerInfo(id=902, name="Ольга", lang="ru")
        assert headers["ETag"] == '"a2"'
        status, _, view = await app.call("POST", f"arenas/{ARENA_ID}/pause", OLGA)
        assert (status, view["toast"], view["me"]["paused"]) == (200, "paused", True)
        status, _, view = await app.call("POST", f"arenas/{ARENA_ID}/back", OLGA)
        assert (status, view["toast"], view["me"]["paused"]) == (200, "back", False)
        assert [c[0] for c in app.arenas.calls if c[0] not in ("version", "view")] == ["join", "pause", "resume"]
        status, _, view = await app.call("POST", f"arenas/{ARENA_ID}/leave", OLGA, data=b"anything")
        assert (status, view["me"]["joined"]) == (200, False)
        names = [p["name"] for p in view["players"]]
        assert "Ольга" in names  # a withdrawn player's score stays
        # a button that is none of the four: 404, nothing done
        before = len(app.arenas.calls)
        status, _, body = await app.call("POST", f"arenas/{ARENA_ID}/berserk", OLGA)
        assert (status, body["error"]) == (404, "bad_action") and len(app.arenas.calls) == before


async def test_refusals_cost_nothing_of_the_arena_service(sqlite_store: Store) -> None:
    async with ArenaAppEnv(sqlite_store) as app:
        an_arena(app)
        for method, path in (("GET", f"arenas/{ARENA_ID}"), ("POST", f"arenas/{ARENA_ID}/join")):
            status, _, body = await app.call(method, path, None)
            assert (status, body["error"]) == (401, "missing")
            forged = {"Authorization": "tma " + signed_init_data(1, "Alice", token="1:other")}
            status, _, body = await app.call(method, path, None, headers=forged)
            assert (status, body["error"]) == (401, "forged")
        # ids that are no arena id's shape: 404 without asking the service
        for bad in ("short", "a" * 11, "arena0000!", "%D0%B0rena0001"):
            status, _, body = await app.call("GET", f"arenas/{bad}", ALICE)
            assert (status, body["error"]) == (404, "bad_id"), bad
            status, _, body = await app.call("POST", f"arenas/{bad}/join", ALICE)
            assert (status, body["error"]) == (404, "bad_id"), bad
        assert app.arenas.calls == []
        # a well-formed id of no arena: the service says so, in the caller's language
        status, _, body = await app.call("GET", "arenas/AAAAAAAAAA", OLGA)
        assert (status, body) == (404, {"error": "not_found", "reason": "Такой арены нет."})
        status, _, body = await app.call("POST", "arenas/AAAAAAAAAA/join", ALICE)
        assert (status, body["reason"]) == (404, "There is no such arena.")
        assert app.arenas.asked("join") == 0


async def test_a_caller_over_the_read_rate_is_refused_before_the_service(sqlite_store: Store) -> None:
    clock = Clock()
    async with ArenaAppEnv(
        sqlite_store, extra={"limiter": limiter(sqlite_store, clock, reads=RateLimit(0.5, 2))}
    ) as app:
        an_arena(app)
        for _ in range(2):
            assert (await app.call("GET", f"arenas/{ARENA_ID}", ALICE))[0] == 200
        asked = len(app.arenas.calls)
        status, headers, body = await app.call("GET", f"arenas/{ARENA_ID}", ALICE)
        assert (status, body["error"]) == (429, "rate_limited") and int(headers["Retry-After"]) >= 1
        assert len(app.arenas.calls) == asked
        clock.now += 2  # a token more
        assert (await app.call("GET", f"arenas/{ARENA_ID}", ALICE))[0] == 200


async def test_a_server_without_arenas_answers_404(sqlite_store: Store) -> None:
    async with ArenaAppEnv(sqlite_store, extra={"arenas": None, "lobby": None}) as app:
        status, _, body = await app.call("GET", f"arenas/{ARENA_ID}", ALICE)
        assert (status, body["error"]) == (404, "not_found")
        status, _, body = await app.call("GET", "lobby", ALICE)
        assert (status, body["error"]) == (404, "not_found")


def test_the_arena_card_and_the_play_entry_open_the_app() -> None:
    links = WebAppLinks("https://nardy.example.org/webapp/", "play", bot_username="nardy_bot")
    private = arena_button(links, ARENA_ID, "en", private=True)
    assert private is not None and private.web_app is not None
    assert private.web_app.url == f"https://nardy.example.org/webapp/?arena={ARENA_ID}"
    group = arena_button(links, ARENA_ID, "ru", private=False)
    assert group is not None and group.url == f"https://t.me/nardy_bot/play?startapp=arena_{ARENA_ID}"
    assert group.text == "📱 Арена онлайн"
    play = play_button(links, "en", private=True)
    assert play is not None and play.web_app is not None and play.web_app.url.endswith("/webapp/?play=1")
    linked = play_button(links, "en", private=False)
    assert linked is not None and linked.url == "https://t.me/nardy_bot/play?startapp=play"
    assert arena_button(None, ARENA_ID, "en", private=True) is None
    assert arena_button(WebAppLinks("https://x.example/"), ARENA_ID, "en", private=False) is None
