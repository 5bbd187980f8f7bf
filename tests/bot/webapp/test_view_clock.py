"""The app's view carries the game's clock as the record keeps it (docs/rules.md §1 "Time control"): each side's
reserve at the server's time, the delay, whose clock runs since when and until when, the server's time; no clock in
the view of a game without one. On virtual time (the services' clock moved by hand)."""

from __future__ import annotations

from bot.model.clock import GameClock
from bot.model.game import GameRecord
from bot.storage import Store
from tests.bot.e2e.group_play import users
from tests.bot.e2e.test_clock import START, Now
from tests.bot.webapp.appkit import AppEnv


async def _clock(app: AppEnv, game_id: str) -> GameClock:
    stored = await app.env.store.get_game(game_id)
    assert stored is not None
    clock = GameRecord.from_stored(stored).clock
    assert clock is not None
    return clock


async def test_the_views_clock_follows_the_record(sqlite_store: Store) -> None:
    now = Now()
    async with AppEnv(sqlite_store, clock=now) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=3451)
        chat = app.env.fake.group_chat(-3450)
        game_id = await app.group_game(chat, alice, bob, "short clock 12+1")
        clock = await _clock(app, game_id)
        assert clock.running is not None and clock.started == START
        side = clock.running
        now.now = START + 30  # 12 s free, then 18 s of the reserve
        for who in (alice, bob, carol):  # players and a spectator see the same clock
            status, view = await app.get(game_id, who)
            assert status == 200, view
            shown = view["clock"]
            assert shown["control"] == "12+1" and shown["delay"] == 12.0
            assert shown["running"] == side and shown["started"] == START and shown["now"] == START + 30
            assert shown["deadline"] == clock.deadline() == START + 12 + 60
            assert shown["left"][side] == 42.0 and shown["left"][1 - side] == 60.0
            assert shown["flag"] is None
            assert view["texts"]["webapp.clock.delay"] and view["texts"]["webapp.clock.flag"]

        # the flag falls: the view shows the clock stopped, the loser's reserve 0 and the flag
        deadline = clock.deadline()
        assert deadline is not None
        await now.advance(deadline + 1)
        await app.env.service.sweep(now.now)
        await app.env.service.settle()
        after = await _clock(app, game_id)
        assert after.flag == side
        _, view = await app.get(game_id, carol)
        shown = view["clock"]
        assert shown["flag"] == side and shown["running"] is None and shown["started"] is None
        assert shown["deadline"] is None and shown["left"][side] == 0.0 and shown["left"][1 - side] == 60.0
        assert view["finished"] is True


async def test_a_game_without_a_clock_has_none_in_its_view(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=3461)
        game_id = await app.group_game(app.env.fake.group_chat(-3460), alice, bob)
        _, view = await app.get(game_id, alice)
        assert view["clock"] is None
