"""Every board draws the turn being built: in every game of the rule book, after each step played through the Mini
App, the position the app's view carries and the position the Pillow board (the group's board) is asked to draw are
the engine's position after the steps played so far — a moved checker on its target, a hit one on the bar, a
borne-off one in the tray, the pips counted after the steps — never the position the turn started from."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.model.game import GameRecord
from bot.storage import Store
from nardy import Phase, Position
from nardy.variants import variant_names
from rendering.frames import other_frame, variant_info
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv

STEPS = 12
"""Steps checked per game of the rule book (each one in the middle of a turn, with steps still to play)."""
MAX_ACTIONS = 400


def view_sides(view: dict[str, Any], variant: str) -> tuple[list[int], list[int]]:
    """Return each player's checkers on the 24 points and the bar, in the player's own frame, as the view shows
    them (its points are in the viewer's frame: ``bottom`` is the side whose frame it is)."""
    board = variant_info(variant).board
    sides = ([0] * 25, [0] * 25)
    for point in view["points"]:
        owner = point["owner"]
        own = point["point"] if owner == view["bottom"] else other_frame(point["point"], board)
        sides[owner][own - 1] += point["count"]
    for owner in (0, 1):
        sides[owner][24] = view["bar"][owner]
    return sides


def position_sides(position: Position, mover: int) -> tuple[list[int], list[int]]:
    """Return each player's first 25 counters (the 24 points and the bar) of ``position`` (``mover``'s frame)."""
    me, opp = list(position.me[:25]), list(position.opp[:25])
    return (me, opp) if mover == 0 else (opp, me)


@pytest.mark.parametrize("variant", variant_names())
async def test_every_board_draws_the_position_after_the_steps_of_the_turn(sqlite_store: Store, variant: str) -> None:
    asked: list[tuple[Position, dict[str, Any]]] = []
    async with AppEnv(sqlite_store, seed=f"steps-{variant}") as app:
        config = app.env.service.config
        render = config.renderer

        def spy(position: Position, variant_name: str, **kwargs: Any) -> bytes:
            asked.append((position, kwargs))
            return render(position, variant_name, **kwargs)

        config.renderer = spy
        alice, bob = users(app.env.fake, "Alice", "Bob", base=901)
        players = {alice.id: alice, bob.id: bob}
        game_id = await app.group_game(app.env.fake.group_chat(-900), alice, bob, args=variant)
        rng = random.Random(variant)
        checked = 0
        for _ in range(MAX_ACTIONS):
            stored, match = await state(app.env, game_id)
            if checked >= STEPS or stored.finished:
                break
            mover = awaited_user(stored, match, players)
            status, view = await app.get(game_id, mover)
            assert status == 200, view
            status, body = await app.act(game_id, mover, {"version": view["version"], "action": choose(view, rng)})
            assert status == 200, body
            stored, match = await state(app.env, game_id)
            record = GameRecord.from_stored(stored)
            pending = list(record.pending_steps)
            game = match.game
            if not pending or game.phase is not Phase.MOVE:
                continue  # the step ended the turn (or it was not a step): nothing is pending
            after = game.plan().position_after(pending)  # the engine's position after the steps so far
            assert after != game.position  # a step moved a checker: the test would see the turn-start position
            roller = game.roller
            expected = position_sides(after, roller)

            for viewer in (mover, None):  # the player's view and a spectator's
                status, shown = await app.get(game_id, viewer) if viewer else await _spectator(app, game_id)
                assert status == 200 and shown["version"] == stored.version
                assert view_sides(shown, variant) == expected, (variant, pending)
                assert tuple(shown["pips"]) == Position(*expected_pair(after, roller)).pips()
                assert len(shown["pending"]) == len(pending)

            drawn = [p for p, kwargs in asked if list(kwargs.get("pending_steps") or ()) == pending]
            assert drawn, "the group's board was not drawn for this step"
            assert drawn[-1] == after  # the Pillow board was asked for the position after the steps
            checked += 1
        assert checked >= STEPS, f"{variant}: only {checked} steps in the middle of a turn"


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """Return the action to play: a step at random when there are steps, else the game's plain way on (take a
    double, roll, confirm a turn, name a double), never a double, a pass, an undo or a resignation."""
    actions = [a["action"] for a in view["actions"]]
    steps = [a["action"] for a in view["actions"] if a["step"] is not None]
    if steps:
        return rng.choice(steps)
    for preferred in ("take", "roll", "ok"):
        if preferred in actions:
            return preferred
    return next(a for a in actions if a not in ("double", "pass", "undo") and not a.startswith("rs"))


def expected_pair(after: Position, roller: int) -> tuple[Any, Any]:
    """Return player 0's and player 1's sides of ``after`` (the roller's frame)."""
    return (after.me, after.opp) if roller == 0 else (after.opp, after.me)


async def _spectator(app: AppEnv, game_id: str) -> tuple[int, dict[str, Any]]:
    """GET the game as a spectator (a third user)."""
    watcher = app.env.fake.user(999, "Watcher", "en")
    return await app.get(game_id, watcher)
