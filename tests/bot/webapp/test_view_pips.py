"""The app's view carries each side's pip count, the engine's own (``Position.pips``), as the Pillow board's name
strips show it, with the strip's caption from the same catalogue."""

from __future__ import annotations

from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv


async def test_the_view_counts_each_sides_pips_as_the_board_does(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=341)
        chat = app.env.fake.group_chat(-340)
        game_id = await app.group_game(chat, alice, bob)
        people = (alice, bob, carol)
        for who in people:
            _, view = await app.get(game_id, who)
            assert view["pips"] == [167, 167]  # short nardy's starting position: by side, whoever looks
            assert view["texts"]["board.pips"] == tr("en", "board.pips")
        mover = alice if view["turn"] == 0 else bob
        side = 0 if mover is alice else 1
        played = 0
        while True:  # the whole turn through the app's steps (and its confirmation, where one is asked)
            _, mine = await app.get(game_id, mover)
            step = next((x for x in mine["actions"] if x["step"] is not None), None)
            if step is None:
                break
            status, body = await app.act(game_id, mover, {"version": mine["version"], "action": step["action"]})
            assert status == 200, body
            played += step["step"]["die"]
        confirm = next((x for x in mine["actions"] if x["label"] == mine["texts"]["btn.confirm"]), None)
        if confirm is not None:
            status, body = await app.act(game_id, mover, {"version": mine["version"], "action": confirm["action"]})
            assert status == 200, body
        assert played > 0
        expected = [167, 167]
        expected[side] -= played  # nothing can be hit from the starting position
        for who in people:
            _, after = await app.get(game_id, who)
            assert after["pips"] == expected
