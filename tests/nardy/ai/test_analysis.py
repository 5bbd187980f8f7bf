"""Post-game analysis (nardy.ai.analysis): losses, summaries and worst plays, and the figures on 50 games against
GNU Backgammon's 0-ply evaluation (gnubg-nn, test-only) of the same plays and against its own analysis of the same
games exported as ``.mat`` (PyPI gnubg, test-only)."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from pathlib import Path

import pytest

from nardy import Game, Match, Options, Phase, SeededDice
from nardy.ai import get_player
from nardy.ai.analysis import BLUNDER, INACCURACY, Analysis, PlayRating, analyze_match, hard_evaluator
from nardy.mat import match_to_mat
from nardy.move import Move
from nardy.position import Position
from nardy.variants import get_variant


def played_game(seed: int, variant: str = "short", worst: bool = False, length: int = 0) -> dict[str, object]:
    """A cubeless money game (or a match to ``length``) between two medium players; with ``worst`` player 0 always
    picks the play the hard network likes least."""
    match = Match(variant, length, options=Options(cube=False), dice=SeededDice(seed))
    players = [get_player("medium", variant, seed=seed), get_player("medium", variant, seed=seed + 1)]
    rate = hard_evaluator(variant)
    for _ in range(10_000):
        game = match.game
        if game.phase is Phase.OVER:
            if length == 0 or match.over:
                return match.to_dict()
            match.next_game()
        elif game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
        elif game.phase is Phase.CHOOSE:  # Acey-deucey's 1-2
            game.choose_double(6)
        elif worst and game.roller == 0:
            moves = game.plan().moves()
            values = rate(moves, game)
            game.play(moves[min(range(len(moves)), key=list(values).__getitem__)])
        else:
            game.play(players[game.roller].choose_move(game))
    raise AssertionError("the game did not end")


def test_losses_are_never_negative_and_the_summary_adds_up() -> None:
    analysis = analyze_match(played_game(1))
    assert analysis.plays
    for player in (0, 1):
        mine = [p for p in analysis.plays if p.player == player]
        figures = analysis.summary(player)
        assert figures.plays == len(mine) and all(p.loss >= 0 for p in mine)
        assert math.isclose(figures.lost, sum(p.loss for p in mine))
        assert figures.inaccuracies == sum(INACCURACY <= p.loss < BLUNDER for p in mine)
        assert figures.blunders == sum(p.loss >= BLUNDER for p in mine)
        assert math.isclose(figures.error_rate, 1000 * figures.lost / figures.plays)
        worst = analysis.worst(player)
        assert len(worst) <= 3 and [p.loss for p in worst] == sorted((p.loss for p in worst), reverse=True)
        assert all(p.played != p.best for p in worst)


def test_the_worst_plays_are_found_and_a_best_play_loses_nothing() -> None:
    analysis = analyze_match(played_game(2, worst=True))
    bad, good = analysis.summary(0), analysis.summary(1)
    assert bad.error_rate > 3 * good.error_rate and bad.blunders > good.blunders
    best_only = Analysis(tuple(p for p in analysis.plays if p.played == p.best))
    assert best_only.summary(0).lost == 0 and best_only.worst(0) == []


def test_forced_plays_are_not_rated() -> None:
    data = played_game(3)
    analysis = analyze_match(data)
    history = data["game"]["history"]  # type: ignore[index]
    moves = [r for r in history if r["t"] == "move"]
    assert 0 < len(analysis.plays) < len(moves)  # medium players' games have forced plays too


def test_every_variant_with_a_network_can_be_analysed() -> None:
    for variant in ("long", "plakoto", "acey_deucey"):
        analysis = analyze_match(played_game(4, variant))
        assert analysis.plays and all(isinstance(p, PlayRating) for p in analysis.plays)


gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn, a test extra")
SHORT = get_variant("short")
CUBELESS = Options(cube=False)


def gnubg_evaluator(moves: Sequence[Move], _game: Game) -> list[float]:
    """GNU Backgammon's 0-ply cubeless equity of each play for the mover (its own analysis at 0-ply)."""
    values = []
    for move in moves:
        if sum(move.position.me) == 0:
            values.append(float(SHORT.game_value(move.position, CUBELESS).points))
            continue
        them: Position = move.position.swapped()
        w, wg, wbg, lg, lbg = gnubg_nn.probabilities([list(them.opp), list(them.me)], 0)
        values.append(-float(2 * w - 1 + (wg - lg) + (wbg - lbg)))
    return values


def test_the_figures_agree_with_gnubg_on_50_matches() -> None:
    """Medium-vs-medium money games, seeds 100-149 (measured: mean error rate 31.0 against gnubg's 32.2, r = 0.754
    over the 100 player-games, the same better player in 38 of 50 games, the same best play in 67.7 % of 2,154
    rated plays). Tolerance: the mean within 15 % of gnubg's, r ≥ 0.65, the same better player in ≥ 33 games,
    the same best play in ≥ 60 % of the plays (two different networks at 0-ply)."""
    ours: list[float] = []
    theirs: list[float] = []
    same_winner = same_best = rated = 0
    for seed in range(50):
        data = played_game(100 + seed)
        a, b = analyze_match(data), analyze_match(data, gnubg_evaluator)
        assert [p.played for p in a.plays] == [p.played for p in b.plays]
        rates = [(a.summary(p).error_rate, b.summary(p).error_rate) for p in (0, 1)]
        ours.extend(r[0] for r in rates)
        theirs.extend(r[1] for r in rates)
        same_winner += (rates[0][0] < rates[1][0]) == (rates[0][1] < rates[1][1])
        same_best += sum(x.best == y.best for x, y in zip(a.plays, b.plays, strict=True))
        rated += len(a.plays)
    assert abs(statistics.mean(ours) - statistics.mean(theirs)) <= 0.15 * statistics.mean(theirs)
    assert statistics.correlation(ours, theirs) >= 0.65
    assert same_winner >= 33
    assert same_best >= 0.60 * rated


gnubg = pytest.importorskip("gnubg", reason="GNU Backgammon's Python module (PyPI gnubg, a test extra)")
_UNFORCED = re.compile(r"Unforced moves\s+(\d+)\s+(\d+)")
# money: "EMG (Points)  -0.491 ( -0.491)  ..."; a match: "EMG (MWC)  -11.090 (-206.328%)  ..."
_ERROR_TOTAL = re.compile(
    r"Error total EMG \((?:Points|MWC)\)\s+([+-]?\d+\.\d+) \(\s*[+-]?\d+\.\d+%?\)\s+([+-]?\d+\.\d+)"
)


def gnubg_chequer_statistics(data: dict[str, object], path: Path) -> list[tuple[int, float]]:
    """GNU Backgammon's own 0-ply cubeless analysis of a game or match exported as ``.mat``: per player (ours 0 and
    1), the unforced moves and the equity lost in all, from its chequerplay statistics."""
    path.write_text(match_to_mat(data, ["Alice", "Bob"]))
    gnubg.command("set threads 1")  # gnubg's worker threads never finish under the Python module
    gnubg.command("set jacoby off")
    gnubg.command("set analysis chequerplay evaluation plies 0")
    gnubg.command("set analysis chequerplay evaluation cubeful off")
    gnubg.command(f"import mat {path}")
    gnubg.command("analyse match")
    gnubg.command(f"export match text {path.with_suffix('.txt')}")
    games = len(data["finished_games"]) + 1  # type: ignore[arg-type]
    last = path.with_suffix(".txt") if games == 1 else path.with_name(f"{path.stem}_{games:03d}.txt")
    text = last.read_text()  # the last game's file ends with the whole match's statistics
    chequer = text[text.rindex("Chequerplay statistics") : text.rindex("Luck statistics")]
    unforced, lost = _UNFORCED.findall(chequer)[-1], _ERROR_TOTAL.findall(chequer)[-1]
    return [(int(unforced[p]), -float(lost[p])) for p in (0, 1)]


def own_analysis_figures(length: int, tmp_path: Path) -> tuple[list[float], list[float]]:
    """Our equity lost and gnubg's per player-game, on the 50 games (or matches) of seeds 100-149; the counts of
    unforced plays are checked equal on the way."""
    ours: list[float] = []
    theirs: list[float] = []
    for seed in range(100, 150):
        data = played_game(seed, length=length)
        analysis = analyze_match(data)
        for player, (unforced, lost) in enumerate(gnubg_chequer_statistics(data, tmp_path / f"{seed}.mat")):
            figures = analysis.summary(player)
            assert figures.plays == unforced, f"seed {seed}, player {player}"
            ours.append(figures.lost)
            theirs.append(lost)
    return ours, theirs


def test_the_figures_agree_with_gnubgs_own_analysis_of_the_same_mat(tmp_path: Path) -> None:
    """The same 50 games exported as ``.mat`` and analysed by GNU Backgammon itself ("analyse match", 0-ply,
    cubeless). Measured: the same unforced plays counted for all 100 player-games; equity lost 68.9 against
    gnubg's 70.6 in all, r = 0.794 per player-game. Tolerance: the counts equal, the total within 10 %, r ≥ 0.7."""
    ours, theirs = own_analysis_figures(0, tmp_path)
    assert abs(sum(ours) - sum(theirs)) <= 0.10 * sum(theirs)
    assert statistics.correlation(ours, theirs) >= 0.7


def test_the_figures_agree_with_gnubgs_own_analysis_of_50_matches(tmp_path: Path) -> None:
    """50 cubeless matches to 3 (seeds 100-149), the same way. gnubg values a match's plays by the match equity at
    the score (EMG from MWC), ours by cubeless money equity. Measured: the same unforced plays for all 100
    player-matches; equity lost 201.7 against gnubg's 227.8, r = 0.762. Tolerance: the counts equal, the total
    within 20 %, r ≥ 0.7."""
    ours, theirs = own_analysis_figures(3, tmp_path)
    assert abs(sum(ours) - sum(theirs)) <= 0.20 * sum(theirs)
    assert statistics.correlation(ours, theirs) >= 0.7
