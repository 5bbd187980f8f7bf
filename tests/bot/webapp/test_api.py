"""The Mini App's JSON API over a real bot: the state a viewer sees, actions through the button's service call,
and every refusal answered clearly with nothing changed."""

from __future__ import annotations

import gzip
from pathlib import Path

from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.group_play import users
from tests.bot.e2e.helpers import board_message
from tests.bot.e2e.texts import EN, shown
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import forged, signed_init_data


async def test_state_for_players_and_spectators(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=301)
        chat = app.env.fake.group_chat(-300)
        game_id = await app.group_game(chat, alice, bob)
        stored = await sqlite_store.get_game(game_id)
        assert stored is not None
        states = {}
        for who in (alice, bob, carol):
            status, states[who.id] = await app.get(game_id, who)
            assert status == 200
        a, b, c = states[alice.id], states[bob.id], states[carol.id]
        assert (a["you"], b["you"], c["you"]) == (0, 1, None)
        assert a["version"] == b["version"] == c["version"] == stored.version
        assert a["variant"] == "short" and a["title"] == shown(EN, "variant.short")
        assert [p["name"] for p in a["players"]] == ["Alice", "Bob"]
        assert sum(p["count"] for p in a["points"] if p["owner"] == 0) + a["off"][0] + a["bar"][0] == 15
        mover = a["turn"]
        movers, other = (a, b) if mover == 0 else (b, a)
        steps = [x for x in movers["actions"] if x["step"] is not None]
        assert steps and movers["awaited"] == "move" and movers["dice"] is not None
        # the legal steps are the buttons' own: the group's board offers them too (as steps or whole turns)
        assert all(x["action"].startswith("s") for x in steps)
        assert not [x for x in other["actions"] if not x["action"].startswith("rs")]  # only resigning
        assert c["actions"] == [] and c["you"] is None
        assert c["points"] == movers["points"]  # a spectator sees the board from the side to move, as the group
        assert c["texts"]["btn.roll"] == shown(EN, "btn.roll")
        # the view is drawn from the viewer's side: both see 15 checkers of each colour
        for view in (a, b, c):
            for side in (0, 1):
                on_board = sum(p["count"] for p in view["points"] if p["owner"] == side)
                assert on_board + view["off"][side] + view["bar"][side] == 15


async def test_refusals_change_nothing(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=311)
        chat = app.env.fake.group_chat(-310)
        game_id = await app.group_game(chat, alice, bob)
        before = await sqlite_store.get_game(game_id)
        assert before is not None
        _, view = await app.get(game_id, alice)
        mover, waiter = (alice, bob) if view["turn"] == 0 else (bob, alice)
        _, mine = await app.get(game_id, mover)
        step = next(x for x in mine["actions"] if x["step"] is not None)
        version = mine["version"]
        dice = mine["dice"]

        # untrusted: 401 with a reason, in English when the data cannot be read
        status, body = await app.get(game_id, None)
        assert status == 401 and body == {"error": "missing", "reason": shown(EN, "webapp.auth.missing")}
        status, body = await app.get(game_id, None, Authorization="tma " + forged(signed_init_data(alice.id)))
        assert (status, body["error"]) == (401, "forged")
        stale = signed_init_data(alice.id, auth_date=1_000_000)
        status, body = await app.get(game_id, None, Authorization="tma " + stale)
        assert (status, body["error"], body["reason"]) == (401, "stale", shown(EN, "webapp.auth.stale"))
        status, body = await app.get("nosuchgame", alice)
        assert (status, body["error"]) == (404, "not_found")

        refusals = [
            (carol, {"version": version, "action": step["action"]}, 403, "not_player"),
            (waiter, {"version": version, "action": step["action"]}, 403, "not_turn"),
            (mover, {"version": version - 1, "action": step["action"]}, 409, "stale"),
            (mover, {"version": version, "action": f"s{step['step']['src']}-0-{dice[0]}"}, 422, "illegal"),
            (mover, {"version": version, "action": "roll"}, 422, "illegal"),
            (mover, {"version": version, "action": "nonsense"}, 400, "bad_request"),
            (mover, {"version": version, "action": "s1-0-6", "extra": 1}, 400, "bad_request"),
            (mover, {"version": "1", "action": step["action"]}, 400, "bad_request"),
            (mover, [version, step["action"]], 400, "bad_request"),
        ]
        for user, body_sent, want_status, want_error in refusals:
            status, body = await app.act(game_id, user, body_sent)
            assert (status, body["error"]) == (want_status, want_error), (body_sent, body)
            assert body["reason"], body
            after = await sqlite_store.get_game(game_id)
            assert after is not None and (after.version, after.data) == (before.version, before.data), body_sent
        status, body = await app.act(game_id, mover, None, raw="{not json")
        assert (status, body["error"]) == (400, "bad_request")
        # a stale version gets the current state with its refusal
        status, body = await app.act(game_id, mover, {"version": version - 1, "action": step["action"]})
        assert status == 409 and body["state"]["version"] == version
        # an illegal drop gets the engine's reason (the rule), in the player's language
        off = f"s{step['step']['src']}-0-{dice[0]}"
        status, body = await app.act(game_id, mover, {"version": version, "action": off})
        assert status == 422 and body["reason"] == shown(EN, "illegal.bear_off_early"), body
        assert body["reason"] != shown(EN, "toast.bad")


async def test_an_action_is_the_button_press(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        fake = app.env.fake
        alice, bob = users(fake, "Alice", "Bob", base=321)
        chat = fake.group_chat(-320)
        game_id = await app.group_game(chat, alice, bob)
        _, view = await app.get(game_id, alice)
        mover = alice if view["turn"] == 0 else bob
        for _ in range(6):  # a few steps through the app
            _, mine = await app.get(game_id, mover)
            if mine["turn"] != (0 if mover is alice else 1) or mine["awaited"] != "move":
                break
            step = next(x for x in mine["actions"] if x["step"] is not None)
            status, body = await app.act(game_id, mover, {"version": mine["version"], "action": step["action"]})
            assert status == 200, body
            assert body["version"] > mine["version"]
            stored = await sqlite_store.get_game(game_id)
            assert stored is not None and stored.version == body["version"]
        # the chat board converged to the same version: its buttons carry it
        stored = await sqlite_store.get_game(game_id)
        assert stored is not None
        board = board_message(fake, chat.id)
        data = [b.callback_data for row in board.buttons() for b in row if b.callback_data]
        assert data and all(f":{stored.version}:" in d for d in data if d.startswith("g:")), data
        # the Mini App's link rides on the board's own keyboard, as a URL in a group
        urls = [b.url for row in board.buttons() for b in row if b.url]
        assert urls == [f"https://t.me/nardy_test_bot/play?startapp={game_id}"]


async def test_the_front_end_is_served_when_built(sqlite_store: Store, tmp_path: Path) -> None:
    async with AppEnv(sqlite_store, static_dir=tmp_path / "missing") as app, app.client.get("/webapp/") as response:
        assert response.status == 404
        assert "not built" in await response.text()
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.html").write_text("<!doctype html><title>nardy</title>")
    (tmp_path / "dist" / "app.js").write_text("console.log('nardy')")
    async with AppEnv(sqlite_store, static_dir=tmp_path / "dist") as app:
        async with app.client.get("/webapp/") as response:
            assert response.status == 200 and "nardy" in await response.text()
        async with app.client.get("/webapp/app.js") as response:
            assert response.status == 200
        async with app.client.get("/webapp/../pyproject.toml") as response:
            assert response.status in (403, 404)
        async with app.client.get("/webapp/missing.js") as response:
            assert response.status == 404


async def test_the_front_end_is_gzipped_and_revalidated(sqlite_store: Store, tmp_path: Path) -> None:
    script = "const board = 'nardy';\n" * 200
    (tmp_path / "index.html").write_text("<!doctype html><title>нарды 🎲</title>")
    (tmp_path / "app.js").write_text(script)
    async with AppEnv(sqlite_store, static_dir=tmp_path) as app:
        plain = {"Accept-Encoding": "identity"}
        async with app.client.get("/webapp/app.js", headers=plain, auto_decompress=False) as response:
            assert response.status == 200 and "Content-Encoding" not in response.headers
            assert await response.read() == script.encode()
            assert response.headers["Content-Type"] == "text/javascript; charset=utf-8"
            etag = response.headers["ETag"]
        zipped = {"Accept-Encoding": "gzip, deflate, br"}
        async with app.client.get("/webapp/app.js", headers=zipped, auto_decompress=False) as response:
            assert response.headers["Content-Encoding"] == "gzip" and response.headers["Vary"] == "Accept-Encoding"
            body = await response.read()
            assert gzip.decompress(body) == script.encode() and len(body) < len(script) / 10
        refused = {"Accept-Encoding": "gzip;q=0"}
        async with app.client.get("/webapp/app.js", headers=refused, auto_decompress=False) as response:
            assert "Content-Encoding" not in response.headers
        async with app.client.get("/webapp/app.js", headers={"If-None-Match": etag}) as response:
            assert response.status == 304 and not await response.read()
        async with app.client.get("/webapp/", headers={"If-None-Match": '"stale"'}) as response:
            assert response.status == 200 and "нарды 🎲" in await response.text()
            assert response.headers["Cache-Control"] == "no-cache"


def test_texts_exist() -> None:
    assert tr("ru", "webapp.open") != tr("en", "webapp.open")
