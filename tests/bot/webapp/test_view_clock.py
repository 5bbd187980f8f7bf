"""The app's view carries the game's clock as the record keeps it (docs/rules.md §1 "Time control"): each side's
reserve at the server's time, the delay, whose clock runs since when and until when (a first move's window), the
server's time; no clock in the view of a game without one. The app showing the awaited player the board of their
action starts their clock when no board in a chat has yet. On virtual time (the services' clock moved by hand)."""

from __future__ import annotations

import dataclasses

from bot.model.clock import FIRST_MOVE_WINDOW, GameClock
from bot.model.game import GameRecord
from bot.storage import Store
from tests.bot.e2e.group_play import users
from tests.bot.e2e.test_clock import START, Now, open_both
from tests.bot.webapp.appkit import AppEnv, open_live
from tests.bot.webapp.livekit import first_message


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
        people = {alice.id: alice, bob.id: bob}
        chat = app.env.fake.group_chat(-3450)
        game_id = await app.group_game(chat, alice, bob, "short clock 12+1")
        clock = await _clock(app, game_id)
        assert clock.running is not None and clock.started == START  # the group's board came at once
        side = clock.running
        now.now = START + 30  # a first move: its window runs, not the delay and the reserve
        for who in (alice, bob, carol):  # players and a spectator see the same clock
            status, view = await app.get(game_id, who)
            assert status == 200, view
            shown = view["clock"]
            assert shown["control"] == "12+1" and shown["delay"] == 12.0 and shown["first"] is True
            assert shown["running"] == side and shown["started"] == START and shown["now"] == START + 30
            assert shown["deadline"] == clock.deadline() == START + FIRST_MOVE_WINDOW
            assert shown["left"] == [60.0, 60.0] and shown["flag"] is None
            assert view["texts"]["webapp.clock.delay"] and view["texts"]["webapp.clock.first"]

        # both first moves made at once: then the delay and the reserve (12 s free, then 18 s of the reserve)
        await open_both(app.env, game_id, people, chat.id)
        clock = await _clock(app, game_id)
        side, begun = clock.running, clock.started
        assert side is not None and begun is not None and clock.first == ()
        now.now = begun + 30
        status, view = await app.get(game_id, carol)
        shown = view["clock"]
        assert shown["first"] is False and shown["running"] == side and shown["started"] == begun
        assert shown["deadline"] == clock.deadline() == begun + 12 + 60
        assert shown["left"][side] == 42.0 and shown["left"][1 - side] == 60.0

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
        assert view["finished"] is True and view["texts"]["webapp.clock.flag"]


async def test_the_app_showing_the_awaited_player_their_board_starts_their_clock(sqlite_store: Store) -> None:
    now = Now()
    async with AppEnv(sqlite_store, clock=now) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=3471)
        game_id = await app.group_game(app.env.fake.group_chat(-3470), alice, bob, "short clock 12+1")
        stored = await app.env.store.get_game(game_id)
        assert stored is not None
        record = GameRecord.from_stored(stored)
        assert record.clock is not None and record.clock.running is not None
        side = record.clock.running
        # an action whose chat board has not gone out yet: its clock waits (saved straight to the store, no board)
        record.clock = dataclasses.replace(record.clock, first=()).await_board(side, START + 5)
        record.turn_deadline = START + 6 * 3600
        version = await app.env.store.update_game(game_id, stored.version, record.to_dict(), deadline=START + 6 * 3600)
        assert version is not None
        awaited, other = (alice, bob) if record.players[side].id == alice.id else (bob, alice)
        watching = await open_live(app, game_id, other, version)  # the opponent's page, up to date
        assert (await first_message(watching))["type"] == "current"
        now.now = START + 20
        for who in (carol, other):  # a spectator's or the opponent's view starts nobody's clock
            _, view = await app.get(game_id, who)
            assert view["clock"]["running"] is None and (await _clock(app, game_id)).waiting
        now.now = START + 25
        _, view = await app.get(game_id, awaited)
        shown = view["clock"]  # the view they get shows their clock running from now
        assert shown["running"] == side and shown["started"] == START + 25
        assert shown["deadline"] == START + 25 + 12 + 60
        clock = await _clock(app, game_id)
        assert not clock.waiting and clock.began == START + 5 and clock.started == START + 25
        stored = await app.env.store.get_game(game_id)
        assert stored is not None and stored.version == version and stored.deadline == START + 25 + 12 + 60
        # the opponent's page gets the same version again, its clock running
        again = await first_message(watching)
        assert again["type"] == "state" and again["state"]["version"] == version
        assert again["state"]["clock"]["running"] == side and again["state"]["clock"]["started"] == START + 25
        now.now = START + 40  # a second view changes nothing: the first sight counts
        await app.get(game_id, awaited)
        assert (await _clock(app, game_id)).started == START + 25
        await watching.close()


async def test_a_game_without_a_clock_has_none_in_its_view(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=3461)
        game_id = await app.group_game(app.env.fake.group_chat(-3460), alice, bob)
        _, view = await app.get(game_id, alice)
        assert view["clock"] is None
