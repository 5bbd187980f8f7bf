"""Train a variant's network by self-play with TD(λ): ``python -m nardy.ai.train --variant short|long|... ...``.

The network plays both sides, choosing each move greedily by its own 0-ply equity. After every ply the weights move
towards the value of the next position (temporal differences, with eligibility traces of decay ``λ``); the final
position is valued by the actual result (win, gammon/mars, backgammon; in Misère a loss for the first finisher, or
when the first player finished first the exact chance that the other side's last roll draws). Traces are kept in the
first player's point of view, so the other player's positions enter through the output flip (win ↔ lose, gammon ↔
lose gammon). With ``--exact-races`` (Hypergammon; short nardy, Nackgammon, Portes, long nardy) a game ends at the first
position of the race table of :mod:`nardy.ai.race` (a race; a bear-off), valued by it.

Reproducible: game ``g`` uses dice seeded by ``(seed, g)``, so a run resumed from a checkpoint continues exactly as an
uninterrupted one would. Checkpoints (``.npz``) are written to ``--workdir`` every ``--checkpoint-every`` games;
``--resume`` continues from the latest one. Progress lines give games per second and, every ``--eval-every`` games,
the score of the network (0-ply) against the medium player.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from nardy.ai.features import F64, SIDE, encode, family, input_size
from nardy.ai.network import OUTPUTS, Network, equity, flip, flip_matrix, output_names
from nardy.ai.race import RaceTable, race_table
from nardy.ai.search import candidate_states_of, states_array
from nardy.movegen import turn_context_and_turns
from nardy.options import Options
from nardy.variants import Variant, get_variant
from nardy.variants.base import State, from_state, to_state

OPTIONS = Options()


def outcome(variant: Variant, state: State, draw_chance: float = 0.0) -> F64:
    """Return the output vector of a game ended by the mover of ``state`` (who has just borne off all), mover's view:
    a win of the game's value, or in Misère (first to finish loses) a single loss; ``draw_chance`` is the chance that
    Misère's last-roll draw turns that loss into a draw (see :func:`last_roll_draw_chance`), which counts half a win
    (equity 0, the draw's value)."""
    if variant.first_off_loses:
        values = np.zeros(len(OUTPUTS[variant.name]))
        values[0] = 0.5 * draw_chance
        return values
    points = variant.game_value(from_state(state), OPTIONS).points
    if len(OUTPUTS[variant.name]) == 5:  # the short-nardy board's outputs (and Acey-deucey's, Dutch's)
        return np.array([1.0, float(points >= 2), float(points >= 3), 0.0, 0.0])
    return np.array([1.0, float(points >= 2), 0.0])


def last_roll_draw_chance(variant: Variant, state: State) -> float:
    """Return the chance of a draw when the first player of a game where the first finisher loses (Misère) has just
    borne off all: ``state`` is in the finisher's frame; the other side gets one more turn (docs/rules.md §6.3), which
    draws only when every legal turn of its roll bears off all its checkers (it avoids finishing when it can, as the
    players do; a forfeited roll finishes nothing). Return 0.0 where that draw is not in force under the default
    options or the other side has borne off all already."""
    if not (variant.first_off_loses and variant.last_roll_draw(OPTIONS)):
        return 0.0
    theirs = state[SIDE:] + state[:SIDE]
    if not any(theirs[:SIDE]):
        return 0.0
    chance = 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            cands = candidate_states_of(variant, theirs, (a, b), False)
            if cands and all(not any(c[:SIDE]) for c in cands):
                chance += (1.0 if a == b else 2.0) / 36.0
    return chance


# the equity of an outcome vector of 3 outputs (win, win gammon, lose gammon), before the constant -1
_OUTCOME_EQUITY = {3: np.array([2.0, 1.0, -1.0])}


def sudden_outcomes(variant: Variant, states: list[State]) -> dict[int, F64]:
    """Return, for each state (mover's frame, after its turn) that the variant ends at once (Plakoto's mother rule),
    the output vector of that end in the mover's view: a win or a loss of a gammon, or a draw (half a win, equity
    0). Empty for the variants without such an end."""
    if type(variant).sudden_result is Variant.sudden_result:
        return {}
    ends: dict[int, F64] = {}
    for i, state in enumerate(states):
        verdict = variant.sudden_result(from_state(state), OPTIONS)
        if verdict is None:
            continue
        who, value, _ = verdict
        gammon = float(value.points >= 2)
        if who is None:
            ends[i] = np.array([0.5, 0.0, 0.0])
        elif who == 0:
            ends[i] = np.array([1.0, gammon, 0.0])
        else:
            ends[i] = np.array([0.0, 0.0, gammon])
    return ends


def roll(rng: random.Random) -> tuple[int, int]:
    """Return a roll of two dice."""
    return rng.randint(1, 6), rng.randint(1, 6)


def roll_candidates(
    net: Network, variant: Variant, state: State, dice: tuple[int, int], first_turn: bool, turns_taken: int
) -> list[State]:
    """Return the states after every legal play of the last part of the mover's roll of ``dice``: the roll's one
    pool (every variant but Gul bara), or for an escalating Gul bara double (docs/rules.md §6.4) the candidates of the
    last number it reaches, the numbers before it played by the network's greedy 0-ply choice. Moves that a real
    game would hand over to the opponent are dropped here (training approximates the hand-over by their loss).
    Empty when the roll is forfeited."""
    pools = variant.roll_pools(dice, turns_taken, OPTIONS)
    if len(pools) == 1:
        return candidate_states_of(variant, state, dice, first_turn)
    start = from_state(state)
    for k, pool in enumerate(pools):
        _, level, used = turn_context_and_turns(
            variant, from_state(state), pool.dice, first_turn, OPTIONS, pool.count, start if k else None
        )
        cands = list(level) if used else []
        if not cands:
            return [state] if k else []
        if k == len(pools) - 1 or used < pool.count:
            return cands
        batch = states_array(cands)
        half = batch.shape[1] // 2
        swapped = np.concatenate((batch[:, half:], batch[:, :half]), axis=1)
        state = cands[int(np.argmin(equity(variant.name, net.probabilities(swapped))))]
    return [state]  # pragma: no cover - the loop returns at the last pool


def bonus_continuation(net: Network, variant: Variant, state: State) -> tuple[State, bool]:
    """Return the state after the double the mover names following a wholly played Acey-deucey 1-2 (docs/rules.md §6.5),
    in the mover's frame, and whether the mover rolls again (the double played in full). Each double is tried with
    the network's greedy 0-ply choice of its play; a double played in full is valued with the mover to roll again,
    one that is not (or not at all) with the opponent to roll."""
    best_state, best_value, again = state, -math.inf, False
    half = len(state) // 2
    for die in range(6, 0, -1):
        _, level, used = turn_context_and_turns(variant, from_state(state), (die, die), False, OPTIONS)
        cands = list(level) if used else [state]
        batch = states_array(cands)
        full = used == 4
        if full:
            values = equity(variant.name, net.probabilities(batch))
        else:
            values = -equity(variant.name, net.probabilities(np.concatenate((batch[:, half:], batch[:, :half]), 1)))
        won = batch[:, :half].sum(axis=1) == 0
        values = np.where(won, 10.0, values)
        i = int(np.argmax(values))
        if values[i] > best_value:
            best_state, best_value, again = cands[i], float(values[i]), full
    return best_state, again


def plays_whole_bonus_roll(variant: Variant, state: State, dice: tuple[int, int], first_turn: bool) -> bool:
    """Return whether ``dice`` earn the mover of ``state`` a named double (Acey-deucey's 1-2, played in full)."""
    if not variant.names_double_after(dice, OPTIONS):
        return False
    return turn_context_and_turns(variant, from_state(state), dice, first_turn, OPTIONS)[2] == 2


@dataclass
class Traces:
    """Eligibility traces, one per output and weight (first player's point of view)."""

    w1: F64
    b1: F64
    w2: F64
    b2: F64

    @classmethod
    def zeros(cls, net: Network) -> Traces:
        """Return zero traces shaped for ``net``."""
        k = net.w2.shape[1]
        return cls(
            np.zeros((k, *net.w1.shape)), np.zeros((k, *net.b1.shape)), np.zeros((k, *net.w2.shape)), np.zeros((k, k))
        )


def _gradients(net: Network, x: F64, h: F64, o: F64) -> tuple[F64, F64, F64, F64]:
    """Return d(output_k)/d(weights) for one position: shapes (k, *weight shape)."""
    k = o.shape[0]
    do = o * (1.0 - o)
    a = do[:, None] * net.w2.T * (h * (1.0 - h))[None, :]  # (k, H)
    g_w1 = x[None, :, None] * a[:, None, :]
    g_w2 = np.zeros((k, *net.w2.shape))
    g_b2 = np.zeros((k, k))
    for i in range(k):
        g_w2[i, :, i] = h * do[i]
        g_b2[i, i] = do[i]
    return g_w1, a, g_w2, g_b2


def train_game(
    net: Network, variant: Variant, seed: int, lam: float, alpha: float, race: RaceTable | None = None
) -> int:
    """Play one self-play game, updating ``net`` in place by TD(λ); return the number of plies.

    With a ``race`` table (:mod:`nardy.ai.race`) the moves into a race (no contact) are valued by the table, and
    the game ends at the first race, valued by the table's win chance."""
    rng = random.Random(seed)
    name = variant.name
    matrix = flip_matrix(name)
    state = to_state(variant.initial_position())
    player = 0  # on roll; values are traced in player 0's view
    first = [True, True]
    turns = [0, 0]  # turns taken by each player (Gul bara's plain turns)
    traces = Traces.zeros(net)

    def view(values: F64, on_roll: int) -> F64:
        return values if on_roll == 0 else flip(name, values[None, :])[0]

    x = encode(name, states_array([state]))[0]
    o_all, h_all = net.forward(x[None, :])
    o, h = o_all[0], h_all[0]
    plies = 0
    while plies < 2000:
        dice = roll(rng)
        if plies == 0 and family(name) in ("short", "reserve") and not variant.opening_rerolls:
            while dice[0] == dice[1]:
                dice = roll(rng)
        cands = roll_candidates(net, variant, state, dice, first[player], turns[player])
        bonus = bool(cands) and plays_whole_bonus_roll(variant, state, dice, first[player])
        again = False
        first[player] = False
        turns[player] += 1
        terminal: F64 | None = None
        next_x: F64 | None = None
        next_o: F64 | None = None
        half = len(state) // 2  # a side's entries (25; 49 in Plakoto)
        if not cands:
            next_state = state[half:] + state[:half]
        else:
            batch = states_array(cands)
            won = batch[:, :half].sum(axis=1) == 0
            if variant.first_off_loses and won.any() and not won.all():
                # Misère: finishing first loses, so a turn that does not finish is always better
                cands = [c for c, w in zip(cands, won, strict=True) if not w]
                batch = states_array(cands)
                won = batch[:, :half].sum(axis=1) == 0
            sudden = sudden_outcomes(variant, cands)
            if sudden and not won.any():
                # Plakoto's mother rule: a turn that ends the game at once is valued by its result
                swapped = np.concatenate((batch[:, half:], batch[:, :half]), axis=1)
                encoded = encode(name, swapped)
                probs, _ = net.forward(encoded)
                theirs = equity(name, probs)
                for i, values in sudden.items():
                    theirs[i] = -float(values @ _OUTCOME_EQUITY[len(values)]) + 1.0
                best = int(np.argmin(theirs))
                if best in sudden:
                    terminal = sudden[best]
                else:
                    next_x = encoded[best]
                    next_o = probs[best]
            elif won.any():
                best = int(np.argmax(won))
                # player 0 moved first: in Misère its finishing first may still be drawn by the other's last roll
                chance = last_roll_draw_chance(variant, cands[best]) if player == 0 else 0.0
                terminal = outcome(variant, cands[best], chance)
            else:
                swapped = np.concatenate((batch[:, half:], batch[:, :half]), axis=1)
                encoded = encode(name, swapped)
                probs, _ = net.forward(encoded)
                values = equity(name, probs)
                exact = (
                    race.chances(swapped, output_names(name))
                    if race is not None
                    else np.full((len(cands), len(output_names(name))), np.nan)
                )
                races = ~np.isnan(exact[:, 0])
                if races.any():
                    values = np.where(races, equity(name, np.nan_to_num(exact)), values)
                best = int(np.argmin(values))
                if races[best]:
                    terminal = flip(name, exact[best][None, :])[0]
                else:
                    next_x = encoded[best]
                    next_o = probs[best]
            chosen = cands[best]
            if bonus and terminal is None:
                # Acey-deucey: the mover names a double, plays it and (when played in full) rolls again
                chosen, again = bonus_continuation(net, variant, chosen)
                next_x = next_o = None
                if not any(chosen[:half]):
                    terminal = outcome(variant, chosen)
            next_state = chosen if again else chosen[half:] + chosen[:half]
        # TD step: U_t (player 0's view of the current position) towards U_{t+1}
        g_w1, g_b1, g_w2, g_b2 = _gradients(net, x, h, o)
        if player == 1:
            g_w1 = np.tensordot(matrix, g_w1, axes=1)
            g_b1 = matrix @ g_b1
            g_w2 = np.tensordot(matrix, g_w2, axes=1)
            g_b2 = matrix @ g_b2
        traces.w1 *= lam
        traces.w1 += g_w1
        traces.b1 *= lam
        traces.b1 += g_b1
        traces.w2 *= lam
        traces.w2 += g_w2
        traces.b2 *= lam
        traces.b2 += g_b2
        current = view(o, player)
        if terminal is not None:
            target = view(terminal, player)
        else:
            if next_x is None or next_o is None:
                next_x = encode(name, states_array([next_state]))[0]
                next_o = net.forward(next_x[None, :])[0][0]
            x = next_x
            target = view(next_o, player if again else 1 - player)
        delta = alpha * (target - current)
        net.w1 += np.tensordot(delta, traces.w1, axes=1)
        net.b1 += delta @ traces.b1
        net.w2 += np.tensordot(delta, traces.w2, axes=1)
        net.b2 += delta @ traces.b2
        plies += 1
        if terminal is not None:
            break
        o_all, h_all = net.forward(x[None, :])
        o, h = o_all[0], h_all[0]
        state = next_state
        if not again:
            player = 1 - player
    return plies


def evaluate_vs_medium(net: Network, games: int, seed: int) -> float:
    """Return the share of cubeless games the network (0-ply) wins against the medium player."""
    from nardy.ai.players import HardPlayer, MediumPlayer
    from nardy.ai.selfplay import play_game

    hard = HardPlayer(net.variant, network=net, lookahead=0)
    medium = MediumPlayer(net.variant)
    wins = 0
    for g in range(games):
        players = (hard, medium) if g % 2 == 0 else (medium, hard)
        result = play_game(net.variant, players, seed=seed * 100_003 + g)
        wins += int(result.winner == g % 2)
    return wins / games


def _alpha(args: argparse.Namespace, game: int) -> float:
    frac = min(1.0, game / max(1, args.games))
    return float(args.alpha * (args.alpha_end / args.alpha) ** frac)


def _checkpoint_path(workdir: str, variant: str) -> str:
    return os.path.join(workdir, f"{variant}-latest.npz")


def main(argv: list[str] | None = None) -> int:
    """Run training from the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m nardy.ai.train", description=__doc__)
    parser.add_argument("--variant", choices=sorted(OUTPUTS), required=True)
    parser.add_argument(
        "--init-from",
        default="",
        help="start from these weights (another variant's network with the same outputs and the same inputs or a "
        "prefix of them)",
    )
    parser.add_argument("--games", type=int, default=20_000, help="total self-play games")
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument("--alpha", type=float, default=0.1, help="learning rate at the start")
    parser.add_argument("--alpha-end", type=float, default=0.02, help="learning rate at the end (geometric decay)")
    parser.add_argument("--lam", type=float, default=0.7, help="TD(λ) trace decay")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default="ai-train")
    parser.add_argument("--resume", action="store_true", help="continue from the latest checkpoint in --workdir")
    parser.add_argument("--checkpoint-every", type=int, default=500)
    parser.add_argument("--eval-every", type=int, default=2000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--max-minutes", type=float, default=0.0, help="stop (with a checkpoint) after this long")
    parser.add_argument("--stop-at", type=int, default=0, help="stop (with a checkpoint) after this game number")
    parser.add_argument("--output", default="", help="also write the final weights here")
    parser.add_argument(
        "--exact-races", action="store_true", help="end games at the first race, valued by the race table"
    )
    args = parser.parse_args(argv)
    os.makedirs(args.workdir, exist_ok=True)
    variant = get_variant(args.variant)
    race = race_table(args.variant) if args.exact_races else None
    if args.exact_races and race is None:
        parser.error(f"no race table ships for {args.variant}")
    path = _checkpoint_path(args.workdir, args.variant)
    if args.resume and os.path.exists(path):
        net = Network.load(path)
        start = int(net.info.get("games", 0))
        print(f"resumed from {path} at game {start}", flush=True)
    elif args.init_from:
        base = Network.load(args.init_from)
        inputs = input_size(args.variant)
        if base.w1.shape[0] > inputs or base.w2.shape[1] != len(OUTPUTS[args.variant]):
            parser.error(f"{args.init_from} does not fit the inputs and outputs of {args.variant}")
        # a variant whose inputs extend the base's (Acey-deucey and Dutch after short nardy's) starts its own ones at 0
        w1 = np.concatenate((base.w1, np.zeros((inputs - base.w1.shape[0], base.w1.shape[1]))))
        origin = {"variant": base.variant, "games": base.info.get("games"), "seconds": base.info.get("seconds")}
        if "initialised_from" in base.info:  # keep the whole chain of networks this one grew from
            origin["initialised_from"] = base.info["initialised_from"]
        net = Network(args.variant, w1, base.b1, base.w2, base.b2, {"initialised_from": origin})
        start = 0
    else:
        net = Network.random(args.variant, args.hidden, args.seed)
        start = 0
    stage = {
        "from_game": start,
        "planned_games": args.games,
        "lam": args.lam,
        "alpha": args.alpha,
        "alpha_end": args.alpha_end,
        "seed": args.seed,
        **({"exact_races": True} if race is not None else {}),
    }
    stages = [*net.info.get("stages", []), stage] if start else [stage]
    settings: dict[str, Any] = {
        "method": "TD(lambda) self-play, 0-ply greedy",
        **({"initialised_from": net.info["initialised_from"]} if "initialised_from" in net.info else {}),
        "hidden": net.hidden,
        "stages": stages,
    }
    began = time.monotonic()
    seconds_before = float(net.info.get("seconds", 0.0))
    window_start, window_games, window_plies = time.monotonic(), 0, 0
    game = start
    while game < args.games:
        plies = train_game(
            net, variant, seed=args.seed * 1_000_003 + game, lam=args.lam, alpha=_alpha(args, game), race=race
        )
        game += 1
        window_games += 1
        window_plies += plies
        elapsed = time.monotonic() - began
        if game % args.checkpoint_every == 0 or game == args.games:
            net.info = {**settings, "games": game, "seconds": round(seconds_before + elapsed, 1)}
            net.save(path)
        if game % 100 == 0:
            rate = window_games / max(1e-9, time.monotonic() - window_start)
            print(
                f"game {game}/{args.games}  {rate:.1f} games/s  {window_plies / window_games:.0f} plies/game  "
                f"alpha {_alpha(args, game):.4f}  {elapsed / 60:.1f} min",
                flush=True,
            )
            window_start, window_games, window_plies = time.monotonic(), 0, 0
        if args.eval_every and game % args.eval_every == 0:
            score = evaluate_vs_medium(net, args.eval_games, seed=game)
            half = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / args.eval_games)
            print(f"eval at game {game}: vs medium {score:.3f} ± {half:.3f} ({args.eval_games} games)", flush=True)
        if args.stop_at and game >= args.stop_at:
            print(f"stopping at game {game} (--stop-at)", flush=True)
            break
        if args.max_minutes and elapsed > args.max_minutes * 60:
            print(f"time limit reached at game {game}", flush=True)
            break
    net.info = {**settings, "games": game, "seconds": round(seconds_before + time.monotonic() - began, 1)}
    net.save(path)
    if args.output:
        net.save(args.output)
    print(f"done: {game} games, weights in {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
