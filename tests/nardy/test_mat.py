"""The ``.mat`` export (nardy.mat) read back by GNU Backgammon: every move, roll and cube action of 200 seeded
self-play matches of short nardy (and some of Nackgammon and Hypergammon) as gnubg imports them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nardy import Match, Options, SeededDice
from nardy.ai import get_player
from nardy.ai.selfplay import play_match
from nardy.errors import GameStateError
from nardy.game_record import replay_records
from nardy.mat import match_to_mat

gnubg = pytest.importorskip("gnubg", reason="GNU Backgammon's Python module (PyPI gnubg, a test extra)")

Action = tuple[Any, ...]


def self_play(seed: int, variant: str, length: int) -> Match:
    """A match between two computer players that double, take and drop (easy players: fast, and they err).
    Hypergammon is played with its option ``hyper_gammons`` on: gnubg counts gammons there, docs/rules.md §6.1 by
    default does not (the file says what our rules scored; gnubg recounts from the board)."""
    options = Options(hyper_gammons=True) if variant == "hypergammon" else None
    players = [get_player("easy", variant, seed=seed), get_player("easy", variant, seed=seed + 7)]
    return play_match(Match(variant, length, options=options, dice=SeededDice(seed)), players)


def our_actions(saved: dict[str, Any]) -> Iterator[Action]:
    """The actions of one saved game as gnubg records them: (player, "move", sorted dice, sorted steps),
    (player, "double"), (player, "take"), (player, "drop")."""
    for record, before in replay_records(saved):
        kind = record["t"]
        if kind in ("move", "pass"):
            assert before.dice is not None
            steps = tuple(sorted((s, d) for s, d, _die, _hit in record.get("steps", [])))
            yield ("XO"[before.roller], "move", tuple(sorted(before.dice)), steps)
        elif kind == "double":
            yield ("XO"[before.roller], kind)
        elif kind in ("take", "drop"):
            yield ("XO"[before.turn], kind)


def gnubg_actions(game: dict[str, Any]) -> Iterator[Action]:
    for action in game["game"]:
        kind = action["action"]
        if kind == "move":
            steps = tuple(sorted(tuple(step) for step in action.get("move", ())))
            yield (action["player"], "move", tuple(sorted(action["dice"])), steps)
        elif kind in ("double", "take", "drop"):
            yield (action["player"], kind)


def check_round_trip(match: Match, tmp_path: Path) -> int:
    """Export, import into gnubg and compare; return the number of actions compared."""
    data = match.to_dict()
    path = tmp_path / "match.mat"
    path.write_text(match_to_mat(data, ["Alice", "Bob"]))
    gnubg.command(f"import mat {path}")
    imported = gnubg.match()
    assert imported["match-info"]["X"]["name"] == "Alice" and imported["match-info"]["O"]["name"] == "Bob"
    assert imported["match-info"]["match-length"] == match.length
    games = [*data["finished_games"], data["game"]]
    assert len(imported["games"]) == len(games)
    compared = 0
    for number, (saved, theirs) in enumerate(zip(games, imported["games"], strict=True), start=1):
        ours = list(our_actions(saved))
        assert list(gnubg_actions(theirs)) == ours, f"game {number} differs"
        result = (saved.get("state") or {}).get("result") or {}
        info = theirs["info"]
        assert (info["score-X"], info["score-O"]) == tuple(saved["score"])
        assert info["winner"] == "XO"[result["winner"]] and info["points-won"] == result["points"]
        assert bool(info.get("crawford")) == bool(saved.get("crawford"))
        compared += len(ours)
    return compared


def test_200_short_nardy_matches_read_back_by_gnubg(tmp_path: Path) -> None:
    compared = sum(check_round_trip(self_play(seed, "short", 3 + 2 * (seed % 2)), tmp_path) for seed in range(200))
    assert compared > 20_000


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon"])
def test_nackgammon_and_hypergammon_matches_read_back_by_gnubg(variant: str, tmp_path: Path) -> None:
    for seed in range(10):
        assert check_round_trip(self_play(seed, variant, 3), tmp_path) > 0


def test_other_variants_are_refused() -> None:
    with pytest.raises(GameStateError, match="cannot hold a match of long"):
        match_to_mat(Match("long", 1).to_dict(), ["A", "B"])
