"""Provably fair dice (nardy.fairness): the derivation, its uniformity, the verifier and its command line."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import FairDice, Match, Phase
from nardy.ai import get_player
from nardy.fairness import (
    FairnessError,
    commitment,
    derive_dice,
    derive_die,
    dice_rolled,
    match_rolls,
    verify_record,
    verify_rolls,
)

SEED = "00" * 31 + "2a"
CLIENT = "game:1:2"


def reference_die(server_seed: str, client_seed: str, index: int) -> int:
    """The scheme of the module docstring, written again from its text."""
    key = bytes.fromhex(server_seed)
    for counter in range(1000):
        block = hmac.new(key, f"{client_seed}:{index}:{counter}".encode(), hashlib.sha256).digest()
        accepted = [b for b in block if b < 252]
        if accepted:
            return accepted[0] % 6 + 1
    raise AssertionError("no die")


def test_the_derivation_is_the_documented_one() -> None:
    assert [derive_die(SEED, CLIENT, i) for i in range(500)] == [reference_die(SEED, CLIENT, i) for i in range(500)]
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert derive_dice(SEED, CLIENT, 10, 3) == [derive_die(SEED, CLIENT, i) for i in (10, 11, 12)]


def test_a_byte_of_252_or_more_is_skipped() -> None:
    key = bytes.fromhex(SEED)
    found = 0
    for index in range(5000):
        block = hmac.new(key, f"{CLIENT}:{index}:0".encode(), hashlib.sha256).digest()
        if block[0] >= 252:
            assert derive_die(SEED, CLIENT, index) == next(b for b in block if b < 252) % 6 + 1
            found += 1
    assert found > 20  # 4/256 of 5,000 indices: about 78


def test_a_million_dice_are_uniform_and_consecutive_dice_independent() -> None:
    dice = derive_dice(SEED, CLIENT, 0, 1_000_000)
    counts = Counter(dice)
    expected = len(dice) / 6
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(1, 7))
    assert chi2 < 20.52  # chi-square, 5 degrees of freedom, p = 0.001
    pairs = Counter(zip(dice[::2], dice[1::2], strict=True))
    expected_pair = len(dice) / 2 / 36
    chi2_pairs = sum((pairs[a, b] - expected_pair) ** 2 / expected_pair for a in range(1, 7) for b in range(1, 7))
    assert chi2_pairs < 66.62  # 35 degrees of freedom, p = 0.001


def test_bad_seeds_are_refused() -> None:
    with pytest.raises(FairnessError, match="not hexadecimal"):
        commitment("xyz")
    with pytest.raises(FairnessError, match="31 bytes"):
        FairDice("00" * 31, CLIENT)
    with pytest.raises(FairnessError, match="negative"):
        derive_die(SEED, CLIENT, -1)


def test_fair_dice_never_show_the_seed() -> None:
    dice = FairDice(SEED, CLIENT)
    assert SEED not in repr(dice) and SEED not in str(dice)


def fair_match(seed: int, variant: str = "short", length: int = 5) -> Match:
    """A computer-vs-computer match on fair dice, rebuilt from its saved dict before every action (as the bot
    does), each rebuild continuing the dice at ``dice_rolled``."""
    server_seed = f"{seed:064x}"
    players = [get_player("easy", variant, seed=seed), get_player("easy", variant, seed=seed + 1)]
    match = Match(variant, length, dice=FairDice(server_seed, CLIENT))
    for _ in range(5000):
        data = match.to_dict()
        match = Match.from_dict(data, dice=FairDice(server_seed, CLIENT, dice_rolled(data)))
        game = match.game
        if game.phase is Phase.OVER:
            if match.over:
                return match
            match.next_game()
        elif game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        elif game.phase is Phase.MOVE:
            game.play(players[game.roller].choose_move(game))
        elif game.phase is Phase.CHOOSE:
            game.choose_double(6)
        else:
            raise AssertionError(f"unexpected phase {game.phase}")
    raise AssertionError("the match did not end")


def exported(match: Match, server_seed: str) -> dict[str, Any]:
    data = match.to_dict()
    fairness = {"scheme": "nardy-fair-v1", "commitment": commitment(server_seed), "server_seed": server_seed}
    return {"fairness": {**fairness, "client_seed": CLIENT}, "rolls": match_rolls(data), "match": data}


@pytest.mark.parametrize("variant", ["short", "long", "acey_deucey"])
def test_a_reloaded_match_rolls_the_derived_dice_and_the_verifier_accepts_it(variant: str) -> None:
    match = fair_match(7, variant)
    record = exported(match, f"{7:064x}")
    result = verify_record(record)
    assert result.ok, result.lines()
    assert len(result.rolls) == len(record["rolls"]) > 20
    assert len(match.to_dict()["finished_games"]) >= 1  # the dice run on across the games of the match


def test_the_verifier_finds_a_single_altered_roll() -> None:
    record = exported(fair_match(3), f"{3:064x}")
    for where in ("rolls", "match"):
        altered = copy.deepcopy(record)
        if where == "rolls":
            roll = altered["rolls"][5]
        else:
            roll = next(r for r in altered["match"]["game"]["history"] if r["t"] == "roll")["dice"]
        roll[0] = roll[0] % 6 + 1
        result = verify_record(altered)
        assert not result.ok
        if where == "rolls":
            assert [c.number for c in result.rolls if not c.ok] == [6]
        else:
            assert result.problems == ("the rolls of the record's match differ from its 'rolls' list",)
    wrong = copy.deepcopy(record)
    wrong["fairness"]["commitment"] = commitment("11" * 32)
    assert not verify_record(wrong).ok and not verify_record(wrong).commitment_ok


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64), st.integers(0, 39), st.integers(0, 1))
def test_any_change_of_a_derived_roll_is_caught(seed: int, position: int, die: int) -> None:
    server_seed = f"{seed:064x}"
    rolls = [derive_dice(server_seed, CLIENT, 2 * i, 2) for i in range(40)]
    assert verify_rolls(server_seed, CLIENT, commitment(server_seed), rolls).ok
    rolls[position][die] = rolls[position][die] % 6 + 1
    result = verify_rolls(server_seed, CLIENT, commitment(server_seed), rolls)
    assert [c.number for c in result.rolls if not c.ok] == [position + 1]


def test_a_record_without_the_revealed_seed_cannot_be_verified() -> None:
    record = exported(fair_match(4), f"{4:064x}")
    del record["fairness"]["server_seed"]
    with pytest.raises(FairnessError, match="server_seed is missing"):
        verify_record(record)
    with pytest.raises(FairnessError, match="unknown fairness scheme"):
        verify_record({"fairness": {"scheme": "other"}, "rolls": []})


def run_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nardy.fairness", "verify", str(path)], capture_output=True, text=True, check=False
    )


def test_the_command_line_verifier(tmp_path: Path) -> None:
    record = exported(fair_match(5), f"{5:064x}")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    done = run_cli(good)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "commitment: ok"
    assert done.stdout.splitlines()[-1] == f"{len(record['rolls'])} rolls: every roll matches"
    record["rolls"][0][0] = record["rolls"][0][0] % 6 + 1
    record["match"] = None
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    done = run_cli(bad)
    assert done.returncode == 1
    assert "roll 1: recorded" in done.stdout and "MISMATCH" in done.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert run_cli(broken).returncode == 2
    assert run_cli(tmp_path / "missing.json").returncode == 2


def test_the_verifier_is_standalone() -> None:
    """The module imports the standard library only, so it can be copied and run without the engine."""
    source = (Path(__file__).resolve().parents[2] / "nardy" / "fairness.py").read_text()
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imports and not [line for line in imports if "nardy" in line]
