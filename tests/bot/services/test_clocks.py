"""The clock between saved actions (bot/services/clocks.py, docs/rules.md §1 "Time control"): a step of a turn being
built keeps the clock running, an action charges it and starts the next awaited side's, and the computer has no
clock; the wake-ups at the clocks' deadlines (:class:`bot.services.tasks.Alarms`) keep one per game."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

from bot.model.clock import GameClock, TimeControl
from bot.model.game import GameRecord
from bot.services.clocks import awaited_side, tick
from bot.services.tasks import Alarms
from nardy import Match, Phase, SeededDice

FIXTURES = Path(__file__).parents[1] / "model" / "fixtures"


def _game(name: str) -> tuple[GameRecord, Match]:
    record = GameRecord.from_dict(json.loads((FIXTURES / name).read_text()))
    return record, Match.from_dict(record.match, dice=SeededDice("clocks"))


def test_an_action_charges_the_mover_and_starts_the_other_side_and_a_step_does_not() -> None:
    record, match = _game("game_running_match_cube.json")
    side = awaited_side(record, match)
    assert side is not None
    record.clock = dataclasses.replace(GameClock.new(TimeControl(10.0, 1.0), 3), first=()).start(side, 1000.0)
    before = dict(record.match)
    tick(record, before, match, 1030.0)  # nothing changed in the match: a step of the turn being built
    assert record.clock.running == side and record.clock.started == 1000.0
    game = match.game
    if game.phase is Phase.ROLL:
        game.roll()
    else:
        game.play(game.legal_moves()[0])
    tick(record, before, match, 1030.0)
    assert record.clock.reserves[side] == 160.0  # 30 s used, 20 beyond the delay
    assert record.clock.running == awaited_side(record, match) and record.clock.began == 1030.0
    assert record.clock.waiting  # the next action's clock waits for its board to reach its player


def test_the_computer_has_no_clock() -> None:
    record, match = _game("game_computer.json")
    computer = next(i for i, p in enumerate(record.players) if p.ai)
    game = match.game
    if game.phase not in (Phase.OVER, Phase.OPENING):
        assert awaited_side(record, match) == (None if game.turn == computer else game.turn)
    record.clock = GameClock.new(TimeControl(10.0, 1.0), 1).start(1 - computer, 1000.0)
    game.turn = computer  # the computer is awaited: no clock runs
    tick(record, dict(record.match), match, 1005.0)
    assert record.clock.running is None and record.clock.deadline() is None


async def test_a_game_s_wake_up_is_replaced_by_a_later_request_and_stopped_with_the_process() -> None:
    woken: list[str] = []

    async def work(key: str) -> None:
        woken.append(key)

    alarms = Alarms("test")
    alarms.set("g", work, delay=0.2)
    alarms.set("g", work, delay=0.05)  # a save after the first: only its wake-up stays
    alarms.set("h", work, delay=30)
    await alarms.settle()  # the waits are not work: nothing to wait for yet
    assert woken == [] and alarms.pending("g") and alarms.pending("h")
    await asyncio.sleep(0.3)
    await alarms.settle()
    assert woken == ["g"] and not alarms.pending("g")
    alarms.set("g", work, delay=0)  # due at once: work under way, waited for by settle
    assert not alarms.pending("g") and alarms.working
    await alarms.settle()
    assert woken == ["g", "g"]
    await alarms.stop()
    assert not alarms.pending("h") and woken == ["g", "g"]
