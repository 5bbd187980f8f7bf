"""The typed game record (schema versions, round trips, malformed records refused) and the typed button actions
(every action a keyboard makes packs and parses back; forged strings are refused)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.keyboards.callbacks import GameCb, game_button_data, parse_callback
from bot.keyboards.game import game_keyboard, over_keyboard, resign_keyboard
from bot.keyboards.turns import turn_buttons, turn_choices
from bot.model.actions import (
    ChooseDoubleAction,
    GameAction,
    GameCommand,
    ResignAction,
    StepAction,
    TurnAction,
    pack_action,
    parse_action,
)
from bot.model.game import SCHEMA, ChatLink, GameRecord, PlayerInfo, RecordError, StatsEntry, TournamentLink
from bot.services.engine_flow import advance, load_match, system_dice
from bot.storage import StoredGame
from nardy import FixedDice, Match, Options, Phase, SeededDice, Step
from nardy.cube import next_cube_value

GAME_ID = "Ab3_-Ab3_-"


def _schema1(match: Match) -> dict[str, Any]:
    """A record exactly as the first releases wrote it (no "schema" key)."""
    return {
        "match": match.to_dict(),
        "players": [
            {"id": 11, "name": "Alice", "lang": "en"},
            {"id": 0, "name": "Computer", "lang": "en", "ai": "hard"},
        ],
        "chats": [{"chat_id": 11, "message_id": 5, "viewer": 0}],
        "pending_steps": [[13, 7, 6, False], [8, 7, 1, True]],
        "chosen": 2,
        "turn_base": 0,
        "kind": "private",
        "confirm": True,
        "events": [{"t": "played", "player": 0, "move": "13/7 8/7*"}],
        "reminded": True,
        "last_action": 1700000000.5,
        "turn_deadline": 1700021600.5,
        "op": "abc",
        "stats_plan": [{"chat": 0, "deltas": {"11": [1, 0, 0]}}],
        "rematch": "Zz9_-Zz9_-",
    }


def test_schema_1_records_load_unchanged() -> None:
    match = Match("short", dice=SeededDice(1))
    data = _schema1(match)
    record = GameRecord.from_dict(copy.deepcopy(data))
    assert record.schema == 1
    assert record.players == [PlayerInfo(11, "Alice", "en"), PlayerInfo(0, "Computer", "en", "hard")]
    assert record.chats == [ChatLink(11, viewer=0, message_id=5)]
    assert record.pending_steps == [Step(13, 7, 6, False), Step(8, 7, 1, True)]
    assert (record.chosen, record.turn_base, record.kind, record.confirm) == (2, 0, "private", True)
    assert (record.reminded, record.last_action, record.turn_deadline) == (True, 1700000000.5, 1700021600.5)
    assert record.op == "abc" and record.rematch == "Zz9_-Zz9_-" and record.tournament is None
    assert record.stats_plan == [StatsEntry(0, {11: (1, 0, 0)})]
    assert record.against_computer and record.player_index(11) == 0 and record.player_index(0) is None
    written = record.to_dict()
    assert written == {**data, "schema": SCHEMA}  # the same layout, now versioned
    assert load_match(record, GAME_ID, system_dice).to_dict() == match.to_dict()


def test_a_minimal_schema_1_record_gets_the_defaults() -> None:
    match = Match("long", dice=SeededDice(2))
    data = {"match": match.to_dict(), "players": _schema1(match)["players"], "chats": [{"chat_id": -5}]}
    record = GameRecord.from_dict(data)
    assert record.kind == "group" and record.pending_steps == [] and record.chosen == 0 and record.events == []
    assert record.chats == [ChatLink(-5)] and record.last_action is None and record.stats_plan is None
    assert GameRecord.from_dict(record.to_dict()) == GameRecord(**{**_fields(record), "schema": SCHEMA})


def _fields(record: GameRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in GameRecord.__slots__}


def test_round_trip_of_a_new_game_with_a_tournament_link() -> None:
    match = Match("short", 5, options=Options(cube=True), dice=SeededDice(3))
    link = TournamentLink("T0123456789", "r1-m2")
    record = GameRecord.new(
        match.to_dict(),
        [PlayerInfo(1, "A"), PlayerInfo(2, "B", "en")],
        [ChatLink(1, viewer=0, lang="en"), ChatLink(2, viewer=1)],
        kind="private",
        tournament=link,
    )
    events: list[dict[str, Any]] = []
    advance(match, record, events)
    record.events, record.match = events, match.to_dict()
    data = record.to_dict()
    assert data["schema"] == SCHEMA and data["tournament"] == {"tournament_id": "T0123456789", "match_id": "r1-m2"}
    assert data["chats"] == [
        {"chat_id": 1, "message_id": None, "viewer": 0, "lang": "en"},
        {"chat_id": 2, "message_id": None, "viewer": 1},
    ]
    assert "stats_plan" not in data and "op" not in data and "turn_base" not in data and "rematch" not in data
    again = GameRecord.from_stored(StoredGame(GAME_ID, 1, data))
    assert again == record and again.to_dict() == data
    assert GameRecord.from_dict(again.to_dict()).tournament == link


def test_unknown_keys_survive_a_save() -> None:
    match = Match("short", dice=SeededDice(4))
    data = {**_schema1(match), "schema": 2, "future_key": {"x": [1, 2]}}
    record = GameRecord.from_dict(data)
    assert record.extra == {"future_key": {"x": [1, 2]}}
    assert record.to_dict() == data


def _broken(change: dict[str, Any], drop: tuple[str, ...] = ()) -> dict[str, Any]:
    data = _schema1(Match("short", dice=FixedDice([6, 5])))
    for key in drop:
        del data[key]
    data.update(change)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "record: Input should be a dictionary"),
        (_broken({}, drop=("match",)), "lacks match"),
        (_broken({}, drop=("players", "chats")), "lacks players, chats"),
        (_broken({"schema": 3}), "schema 3"),
        (_broken({"schema": 0}), "schema 0"),
        (_broken({"schema": "2"}), "schema '2'"),
        (_broken({"match": "x"}), "match: Input should be a valid dictionary"),
        (_broken({"players": [{"id": 1, "name": "A"}]}), "must hold two players"),
        (_broken({"players": [{"id": "1", "name": "A"}, {"id": 2, "name": "B"}]}), "players[0].id"),
        (_broken({"players": [{"id": 1, "name": None}, {"id": 2, "name": "B"}]}), "players[0].name"),
        (_broken({"chats": []}), "at least one chat"),
        (_broken({"chats": [{"viewer": 0}]}), "chats[0].chat_id"),
        (_broken({"chats": [{"chat_id": 1, "viewer": 2}]}), "chats[0].viewer"),
        (_broken({"chats": [{"chat_id": 1, "message_id": 1.5}]}), "chats[0].message_id"),
        (_broken({"kind": "channel"}), "kind: Input should be 'group' or 'private'"),
        (_broken({"pending_steps": [[13, 7, 6]]}), "pending_steps[0]"),
        (_broken({"pending_steps": [[13, 7, "6", False]]}), "pending_steps[0]"),
        (_broken({"pending_steps": {"a": 1}}), "pending_steps: Input should be a valid list"),
        (_broken({"chosen": True}), "chosen: Input should be a valid integer"),
        (_broken({"events": ["played"]}), "events[0]"),
        (_broken({"last_action": "yesterday"}), "last_action: Value error, must be a finite number"),
        (_broken({"turn_deadline": float("nan")}), "turn_deadline: Value error, must be a finite number"),
        (_broken({"op": 5}), "op: Input should be a valid string"),
        (_broken({"rematch": 5}), "rematch: Input should be a valid string"),
        (_broken({"stats_plan": [{"chat": 1, "deltas": {"x": [1, 0, 0]}}]}), "stats_plan[0].deltas.x"),
        (_broken({"stats_plan": [{"chat": 1, "deltas": {"1": [1, 0]}}]}), "stats_plan[0].deltas.1"),
        (_broken({"stats_plan": [{"deltas": {}}]}), "stats_plan[0].chat"),
        (_broken({"tournament": {"tournament_id": "T"}}), "tournament.match_id"),
        (_broken({"tournament": "T:1"}), "tournament: Input should be a dictionary"),
    ],
)
def test_malformed_records_are_refused(data: object, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_dict(data)
    assert isinstance(caught.value, ValueError)  # callers treat it like a match that cannot be replayed
    assert message in str(caught.value)


# ---------------------------------------------------------------------------------------------------------- actions

EVERY_KIND: list[tuple[GameAction, str]] = [
    (StepAction(13, 7, 6), "s13-7-6"),
    (StepAction(25, 22, 3), "s25-22-3"),
    (StepAction(6, 0, 6), "s6-0-6"),
    (StepAction(1, 0, 1), "s1-0-1"),
    (StepAction(26, 20, 5), "s26-20-5"),
    (ChooseDoubleAction(1), "cd1"),
    (ChooseDoubleAction(6), "cd6"),
    (TurnAction(0), "t0"),
    (TurnAction(29), "t29"),
    (ResignAction(0, "single"), "rs0-single"),
    (ResignAction(1, "backgammon"), "rs1-backgammon"),
    (ResignAction(1, "mars"), "rs1-mars"),
    *((command, command.value) for command in GameCommand),
]


@pytest.mark.parametrize(("action", "wire"), EVERY_KIND, ids=[wire for _, wire in EVERY_KIND])
def test_actions_pack_to_the_old_wire_form_and_back(action: GameAction, wire: str) -> None:
    assert pack_action(action) == action.pack() == wire
    assert parse_action(wire) == action
    data = game_button_data("Z" * 10, 999_999_999, action)
    assert len(data.encode()) <= 64
    parsed = parse_callback(data)
    assert isinstance(parsed, GameCb) and parsed.action == wire and parsed.parsed_action() == action


def test_the_commands_keep_their_wire_words() -> None:
    assert {c.value for c in GameCommand} == {
        "undo", "ok", "roll", "double", "take", "pass", "beaver", "raccoon", "r-yes", "r-no", "rematch", "board",
        "rsmenu", "berserk",
    }  # fmt: skip


@pytest.mark.parametrize(
    "forged",
    [
        "", "s01-7-6", "s13-07-6", "s27-1-1", "s0-1-1", "s1-25-1", "s13-7-0", "s13-7-7", "s13-7", "s13/7",
        "s-1-7-6", "t", "t05", "t100", "t-1", "rs2-single", "rs0-", "rs0single", "rs0-Single", "rs00-single",
        "ROLL", "roll ", " roll", "roll\n", "s13-7-6\n", "undo2", "13/7", "bar/22", "resign2", "confirm",
        "rs0-abcdefghijklm", "cd0", "cd7", "cd", "cd01", "cd1 ",
    ],
)  # fmt: skip
def test_forged_actions_are_refused(forged: str) -> None:
    assert parse_action(forged) is None


def _keyboard_actions(markup: InlineKeyboardMarkup | None) -> list[str]:
    found = []
    for row in markup.inline_keyboard if markup is not None else []:
        for button in row:
            data = button.callback_data or ""
            if data.startswith("g:"):
                cb = parse_callback(data)
                assert isinstance(cb, GameCb), data
                found.append(cb.action)
    return found


def test_every_button_the_keyboards_make_parses_back() -> None:
    """Play games to the end building every keyboard on the way: each game button's action parses, and packs back
    to the same bytes."""
    seen: set[type] = set()
    commands: set[GameCommand] = set()
    for seed, variant in ((1, "short"), (2, "long"), (3, "short")):
        match = Match(variant, options=Options(cube=variant == "short"), dice=SeededDice(seed))
        game = match.game
        for _ in range(600):
            if game.phase is Phase.OPENING:
                game.roll()
                continue
            wires: list[str] = []
            if game.phase is Phase.OVER:
                wires += _keyboard_actions(over_keyboard(GAME_ID, 7, variant, "en"))
            plan = game.plan() if game.phase is Phase.MOVE else None
            options = plan.next_steps([]) if plan is not None else []
            wires += _keyboard_actions(
                game_keyboard(
                    game,
                    GAME_ID,
                    7,
                    "en",
                    options=options,
                    pending=[],
                    complete=False,
                    next_cube=next_cube_value(game.cube_value, game.options),
                )
            )
            if plan is not None:
                choices = turn_choices(plan, [])
                if choices:
                    wires += _keyboard_actions(InlineKeyboardMarkup(inline_keyboard=turn_buttons(choices, GAME_ID, 7)))
                if options:
                    first = options[0]
                    after = game_keyboard(
                        game,
                        GAME_ID,
                        7,
                        "en",
                        options=plan.next_steps([first]),
                        pending=[first],
                        complete=plan.is_complete([first]),
                        next_cube=2,
                    )
                    wires += _keyboard_actions(after)
            if game.phase in (Phase.ROLL, Phase.MOVE):
                wires += _keyboard_actions(resign_keyboard(game, GAME_ID, 7, "en", game.turn))
            for wire in wires:
                action = parse_action(wire)
                assert action is not None, wire
                assert action.pack() == wire
                seen.add(type(action))
                if isinstance(action, GameCommand):
                    commands.add(action)
            if game.phase is Phase.OVER:
                break
            if game.phase is Phase.ROLL:
                if game.can_double() and seed == 3 and game.cube_value < 4:
                    game.double()
                else:
                    game.roll()
            elif game.phase is Phase.DOUBLED:
                game.take()
            elif game.phase is Phase.MOVE:
                game.play(game.legal_moves()[0])
    assert seen == {StepAction, TurnAction, ResignAction, GameCommand}
    assert {GameCommand.UNDO, GameCommand.ROLL, GameCommand.DOUBLE, GameCommand.TAKE, GameCommand.REMATCH} <= commands
