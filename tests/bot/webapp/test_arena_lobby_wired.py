"""The Mini App's arena and lobby routes on the real services, as :func:`bot.wiring.webapp_parts` gives them (the
bot's :class:`~bot.services.arena.service.Arenas` and the lobby's :class:`~bot.services.lobby.seeking.Lobby`): an
arena started by ``/arena`` in a group has the Mini App's button on its card and is seen, joined and paused through
the API (the poll's 304 while nothing changes); a seek made in the app is the lobby's (the "seeking…" message comes
in private), shows its rating window and is cancelled; two seekers are paired and both see the game."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.services.arena.membership import chat_member_check
from bot.storage import Store
from bot.webapp.parts import WebAppParts
from tests.bot.webapp.appkit import AppEnv, create_webapp_mounted
from tests.bot.webapp.initdata import TOKEN, signed_init_data


class WiredEnv(AppEnv):
    """:class:`AppEnv` whose Mini App server has the bot's own arenas and lobby."""

    def __init__(self, store: Store, seed: str) -> None:
        super().__init__(store, seed)
        services = self.env.service
        lobby = services.lobby.lobby
        parts = WebAppParts(
            token=TOKEN,
            max_age=86400.0,
            views=services.views,
            actions=services.actions,
            live=self.live,
            arenas=services.arenas,
            arena_members=chat_member_check(self.env.bot),
            lobby=lobby,
            rating_window=lobby.window.at,
            clock=lambda: services.config.clock(),
        )
        self.unused = self.client
        self.client = TestClient(TestServer(create_webapp_mounted(parts)))

    async def __aexit__(self, *exc: object) -> None:
        await self.unused.close()
        await super().__aexit__(*exc)

    async def call(self, method: str, path: str, user: Any, **kwargs: Any) -> tuple[int, Any, Any]:
        """Send ``method`` to ``/webapp/api/<path>`` signed in as ``user``. Returns: status, headers, JSON (or None)."""
        init_data = signed_init_data(user.id, user.first_name, language=user.language_code or "en")
        headers = {"Authorization": "tma " + init_data, **kwargs.pop("headers", {})}
        async with self.client.request(method, f"/webapp/api/{path}", headers=headers, **kwargs) as response:
            text = await response.text()
            data = await response.json() if text else None
        await self.env.service.settle()
        return response.status, response.headers, data


async def test_an_arena_through_the_mini_app(sqlite_store: Store) -> None:
    async with WiredEnv(sqlite_store, "wired-arena") as app:
        fake, h = app.env.fake, app.env.h
        alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
        group = fake.group_chat(-4790, admins=[alice.id])
        for user in (alice, bob):
            await h.send_text(user, fake.private_chat(user), "/start")
        await h.send_text(alice, group, "/arena short 30 clock 12+1")
        arena_id = await sqlite_store.chat_tournament(group.id)
        assert arena_id is not None
        card = fake.last_message(group.id)
        live = card.buttons()[-1][0]
        assert live.url == f"https://t.me/nardy_test_bot/play?startapp=arena_{arena_id}", card.buttons()

        status, headers, view = await app.call("GET", f"arenas/{arena_id}", bob)
        assert status == 200, view
        assert view["clock"] == "12+1" and not view["finished"] and view["ends_at"] > view["now"]
        assert view["me"] == {"joined": False, "paused": False, "game": None}
        tag = headers["ETag"]
        status, _, body = await app.call("GET", f"arenas/{arena_id}", bob, headers={"If-None-Match": tag})
        assert (status, body) == (304, None)

        status, headers, view = await app.call("POST", f"arenas/{arena_id}/join", bob)
        assert status == 200 and view["toast"] and view["me"]["joined"], view
        assert headers["ETag"] != tag
        assert [p["id"] for p in view["players"]] == [bob.id]
        status, _, view = await app.call("POST", f"arenas/{arena_id}/pause", bob)
        assert status == 200 and view["me"]["paused"], view
        status, _, view = await app.call("POST", f"arenas/{arena_id}/back", bob)
        assert status == 200 and not view["me"]["paused"], view
        # a tournament's id is no arena's
        status, _, body = await app.call("GET", "arenas/AAAAAAAAAA", bob)
        assert (status, body["error"]) == (404, "not_found")


async def test_only_members_of_the_group_join_through_the_mini_app(sqlite_store: Store) -> None:
    async with WiredEnv(sqlite_store, "wired-members") as app:
        fake, h = app.env.fake, app.env.h
        alice, bob, eve = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Eve", "en")
        group = fake.group_chat(-4791, admins=[alice.id])
        fake.outsiders[group.id] = {eve.id}  # Eve has a forwarded link, but is not in the group
        await h.send_text(alice, group, "/arena short 30")
        arena_id = await sqlite_store.chat_tournament(group.id)
        assert arena_id is not None
        earlier = len(fake.calls)
        status, _, view = await app.call("POST", f"arenas/{arena_id}/join", eve)
        assert status == 200 and not view["me"]["joined"] and view["players"] == [], view
        assert view["toast"] == "Only members of the arena's group can join it: join the group first."
        asked = [c for c in fake.calls[earlier:] if c.name == "getChatMember"]
        assert [(int(c.payload["chat_id"]), int(c.payload["user_id"])) for c in asked] == [(group.id, eve.id)]
        status, _, view = await app.call("POST", f"arenas/{arena_id}/join", bob)
        assert status == 200 and view["me"]["joined"] and [p["id"] for p in view["players"]] == [bob.id], view
        # the card's Join button in the group asks nothing: the presser sees the group
        card = fake.last_message(group.id)
        before = len([c for c in fake.calls if c.name == "getChatMember"])
        await h.press_button(alice, fake.chats[group.id][card.message_id], "Join")
        assert len([c for c in fake.calls if c.name == "getChatMember"]) == before


async def test_a_lobby_seek_through_the_mini_app(sqlite_store: Store) -> None:
    async with WiredEnv(sqlite_store, "wired-lobby") as app:
        fake, h = app.env.fake, app.env.h
        alice, bob = fake.user(11, "Alice", "en"), fake.user(12, "Bob", "en")
        for user in (alice, bob):
            await h.send_text(user, fake.private_chat(user), "/start")

        status, _, idle = await app.call("GET", "lobby", alice)
        assert status == 200 and idle["state"] == "idle" and idle["cooldown_until"] is None, idle
        seek = {"variant": "long", "clock": "12+2"}
        status, _, seeking = await app.call("POST", "lobby/seek", alice, json=seek)
        assert status == 200 and seeking["state"] == "seeking", seeking
        assert (seeking["variant"], seeking["clock"]) == ("long", "12+2") and seeking["window"] >= 100
        assert "toast" not in seeking
        status, _, again = await app.call("POST", "lobby/seek", alice, json=seek)
        assert status == 200 and again["toast"], again  # seeking already: said so
        status, _, cancelled = await app.call("POST", "lobby/cancel", alice)
        assert status == 200 and cancelled["state"] == "idle"

        # two seekers of the same game and clock are paired: both see the game
        await app.call("POST", "lobby/seek", alice, json=seek)
        status, _, paired = await app.call("POST", "lobby/seek", bob, json=seek)
        assert status == 200, paired
        _, _, mine = await app.call("GET", "lobby", alice)
        _, _, theirs = await app.call("GET", "lobby", bob)
        assert mine["state"] == theirs["state"] == "playing", (mine, theirs)
        assert mine["game"] == theirs["game"] is not None
