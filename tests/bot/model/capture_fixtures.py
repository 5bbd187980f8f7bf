"""Capture the JSON documents the bot writes to its store, as fixtures of the typed model's tests.

The fixtures were captured from the code before the typed model (commit a4eeea7), so they show that records written
by that code still load: run ``python tests/bot/model/capture_fixtures.py`` from the root of a copy of that commit
(``git archive a4eeea7 | tar -x -C DIR``, ``PYTHONPATH=DIR``; it wraps that commit's ``SqliteGameStore``). It runs a
few end-to-end tests with the store's writing methods wrapped, keeps every document written (games, tournaments,
challenges, chat and user settings) and saves one of each kind the tests need under ``fixtures/``. The running match
with a turned cube is made directly through the engine and the record (:func:`running_match_with_a_cube`; at
a4eeea7 its imports were ``bot.services.record`` and ``bot.services.players``, and both versions write the same
document).
"""

from __future__ import annotations

import copy
import functools
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.storage import SqliteGameStore

OUT = Path(__file__).parent / "fixtures"
WRITES: list[tuple[str, Any]] = []

_WRAPPED = {
    "create_game": ("game", 0),
    "update_game": ("game", 2),
    "finish_game": ("game", 2),
    "create_tournament": ("tournament", 1),
    "update_tournament": ("tournament", 2),
    "create_challenge": ("challenge", 0),
    "set_chat_settings": ("chat_settings", 1),
    "set_user_settings": ("user_settings", 1),
}


def _wrap(name: str, kind: str, position: int) -> None:
    original = getattr(SqliteGameStore, name)

    @functools.wraps(original)
    async def wrapper(self: SqliteGameStore, *args: Any, **kwargs: Any) -> Any:
        data = args[position] if len(args) > position else kwargs.get("data", kwargs.get("settings"))
        WRITES.append((kind, json.loads(json.dumps(copy.deepcopy(dict(data))))))
        return await original(self, *args, **kwargs)

    setattr(SqliteGameStore, name, wrapper)


TESTS = [
    "tests/bot/e2e/test_private_game.py",
    "tests/bot/e2e/test_vs_computer.py",
    "tests/bot/e2e/test_ratings_flow.py",
    "tests/bot/e2e/test_tournaments.py",
    "tests/bot/e2e/test_challenges.py",
    "tests/bot/e2e/test_settings_match.py",
    "tests/bot/e2e/test_board_theme.py",
    "tests/bot/e2e/test_chosen_language.py",
    "tests/bot/e2e/test_tournament_recovery.py",
    "tests/bot/e2e/test_group_game.py",
]


def _pick(kind: str, test: Any) -> dict[str, Any] | None:
    return next((data for k, data in reversed(WRITES) if k == kind and test(data)), None)


def running_match_with_a_cube() -> dict[str, Any]:
    """Return the record of a match to 3 whose cube stands at 2 (doubled and taken), made through the engine and
    the record (the e2e tests above leave no running match with a turned cube)."""
    from bot.model.game import ChatLink, GameRecord, PlayerInfo
    from bot.services.engine_flow import advance
    from bot.variants import new_match
    from nardy import Phase, SeededDice

    match = new_match("short", 3, dice=SeededDice(7))
    players = [PlayerInfo(101, "Alice", "en"), PlayerInfo(202, "Борис", "ru")]
    record = GameRecord.new(match.to_dict(), players, [ChatLink(-100123, None, None, "ru")], kind="group")
    events: list[dict[str, Any]] = []
    advance(match, record, events)
    game = match.game
    while game.phase is not Phase.ROLL:
        steps: list[Any] = []
        while not game.plan().is_complete(steps):
            steps.append(game.next_steps(steps)[0])
        game.play(steps)
        advance(match, record, events)
    game.double()
    game.take()
    advance(match, record, events)
    record.events = events[-3:]
    record.match = match.to_dict()
    record.last_action = 1765000000.25
    record.turn_deadline = 1765021600.25
    return record.to_dict()


def main() -> int:
    for name, (kind, position) in _WRAPPED.items():
        _wrap(name, kind, position)
    code = pytest.main([*TESTS, "-q", "-p", "no:cacheprovider", "-k", "not redis and not worker_process"])
    wanted: dict[str, Any] = {
        "game_finished": lambda d: d["match"]["game"].get("state", {}).get("result") is not None and "stats_plan" in d,
        "game_computer": lambda d: any(p.get("ai") for p in d["players"]),
        "game_rating_plan": lambda d: isinstance(d.get("rating_plan"), dict),
        "game_forfeit": lambda d: "forfeit" in d,
        "game_tournament": lambda d: "tournament" in d,
        "game_fairness": lambda d: "fairness" in d,
    }
    counts: dict[str, int] = {}
    for kind, _ in WRITES:
        counts[kind] = counts.get(kind, 0) + 1
    print("documents written:", counts, file=sys.stderr)
    OUT.mkdir(exist_ok=True)
    cube = json.dumps(running_match_with_a_cube(), indent=1, sort_keys=True, ensure_ascii=True)
    (OUT / "game_running_match_cube.json").write_text(cube + "\n")
    for name, test in wanted.items():
        found = _pick("game", test)
        if found is None:
            print("no document for", name, file=sys.stderr)
            continue
        (OUT / f"{name}.json").write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    tournaments = {
        "tournament_registration": lambda d: d["status"] == "registration",
        "tournament_running": lambda d: (
            d["status"] == "running"
            and bool(d.get("games"))
            and any(e.get("type") == "result" or "result" in json.dumps(e) for e in d["core"].get("events", []))
            and len(d["games"]) < 6
        ),
        "tournament_finished": lambda d: d["status"] == "finished",
    }
    for name, test in tournaments.items():
        found = _pick("tournament", test)
        if found is not None:
            (OUT / f"{name}.json").write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    for kind in ("challenge", "chat_settings", "user_settings"):
        seen: set[str] = set()
        number = 0
        for k, data in WRITES:
            key = json.dumps(data, sort_keys=True)
            if k != kind or key in seen or number >= 4:
                continue
            seen.add(key)
            number += 1
            (OUT / f"{kind}_{number}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
