"""The shipped weights load, are small, and evaluate known positions sensibly; the encodings are consistent."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from nardy import Position, get_variant
from nardy.ai.features import encode, input_size, longest_run, positions_array, swap
from nardy.ai.network import Network, equity, flip, output_names, shipped_network
from nardy.position import make_side

SHORT_START = get_variant("short").initial_position()
LONG_START = get_variant("long").initial_position()


@pytest.mark.parametrize("variant", ["short", "long"])
def test_shipped_weights_are_small_and_documented(variant: str) -> None:
    resource = resources.files("nardy.ai").joinpath("weights", f"{variant}.npz")
    assert len(resource.read_bytes()) < 2_000_000
    net = shipped_network(variant)
    assert net is shipped_network(variant)  # loaded once
    assert net.variant == variant
    assert net.w1.shape == (input_size(variant), net.hidden)
    assert net.w2.shape == (net.hidden, len(output_names(variant)))
    assert net.info.get("games", 0) > 0
    assert "TD" in str(net.info.get("method"))
    readme = resources.files("nardy.ai").joinpath("weights", "README.md").read_text(encoding="utf-8")
    assert "python -m nardy.ai.train" in readme


def _probs(variant: str, position: Position) -> np.ndarray:
    return shipped_network(variant).probabilities(positions_array([position]))[0]


def test_short_won_race_is_won() -> None:
    won = Position(make_side({1: 2, 2: 1}), make_side({6: 5, 7: 5, 8: 5}))
    probs = _probs("short", won)
    assert probs[0] > 0.95
    lost = Position(make_side({6: 5, 7: 5, 8: 5}), make_side({1: 2, 2: 1}))
    assert _probs("short", lost)[0] < 0.05


def test_short_gammon_is_seen() -> None:
    # the mover has 2 checkers left, the opponent has not started bearing off and has checkers far back
    gammonish = Position(make_side({1: 2}), make_side({24: 3, 13: 6, 8: 6}))
    probs = _probs("short", gammonish)
    assert probs[0] > 0.95 and probs[1] > 0.5
    assert np.all((probs >= 0) & (probs <= 1))


def test_short_start_is_about_even() -> None:
    assert 0.35 < _probs("short", SHORT_START)[0] < 0.65


def test_long_won_race_is_won() -> None:
    won = Position(make_side({1: 3, 2: 2}), make_side({6: 5, 4: 5, 3: 5}))
    assert _probs("long", won)[0] > 0.9
    assert _probs("long", Position(won.opp, won.me))[0] < 0.1
    assert 0.3 < _probs("long", LONG_START)[0] < 0.75


@pytest.mark.parametrize("variant", ["short", "long"])
def test_flip_and_equity_are_consistent(variant: str) -> None:
    k = len(output_names(variant))
    probs = np.random.default_rng(1).uniform(0, 1, (7, k))
    assert np.allclose(flip(variant, flip(variant, probs)), probs)
    assert np.allclose(equity(variant, flip(variant, probs)), -equity(variant, probs))


def test_save_and_load_round_trip(tmp_path: object) -> None:
    net = Network.random("long", 8, seed=3)
    net.info = {"games": 1}
    path = f"{tmp_path}/n.npz"
    net.save(path)
    back = Network.load(path)
    batch = positions_array([LONG_START])
    assert np.allclose(back.probabilities(batch), net.probabilities(batch), atol=1e-5)
    assert back.info == {"games": 1}


def test_encoding_shapes_and_swap() -> None:
    batch = positions_array([SHORT_START, Position(make_side({25: 1, 6: 14}), make_side({1: 15}))])
    x = encode("short", batch)
    assert x.shape == (2, input_size("short"))
    assert np.array_equal(swap(swap(batch)), batch)
    half = x.shape[1] // 2
    assert np.allclose(encode("short", swap(batch))[:, :half], x[:, half:])
    with pytest.raises(ValueError):
        encode("chess", batch)


def test_longest_run() -> None:
    held = np.array([[1, 1, 0, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1]], dtype=bool)
    assert longest_run(held).tolist() == [3, 0, 7]
