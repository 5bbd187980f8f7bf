"""Self-play training is seeded, reproducible, resumable, and moves the weights."""

from __future__ import annotations

import numpy as np

from nardy.ai.network import Network
from nardy.ai.train import main, train_game
from nardy.variants import get_variant


def test_training_game_is_reproducible_and_learns() -> None:
    a = Network.random("long", 6, seed=1)
    b = Network.random("long", 6, seed=1)
    before = a.w1.copy()
    plies_a = train_game(a, get_variant("long"), seed=9, lam=0.7, alpha=0.1)
    plies_b = train_game(b, get_variant("long"), seed=9, lam=0.7, alpha=0.1)
    assert plies_a == plies_b > 10
    assert np.array_equal(a.w1, b.w1)
    assert not np.array_equal(a.w1, before)


def test_resume_continues_like_an_uninterrupted_run(tmp_path: object, capsys: object) -> None:
    common = ["--variant", "long", "--hidden", "6", "--eval-every", "0", "--checkpoint-every", "1", "--seed", "4"]
    main([*common, "--games", "3", "--workdir", f"{tmp_path}/straight"])
    main([*common, "--games", "3", "--stop-at", "2", "--workdir", f"{tmp_path}/split"])
    # resuming with the same planned total keeps the learning-rate schedule
    main([*common, "--games", "3", "--workdir", f"{tmp_path}/split", "--resume"])
    straight = Network.load(f"{tmp_path}/straight/long-latest.npz")
    split = Network.load(f"{tmp_path}/split/long-latest.npz")
    assert straight.info["games"] == split.info["games"] == 3
    assert [stage["from_game"] for stage in split.info["stages"]] == [0, 2]
    assert np.allclose(straight.w1, split.w1, atol=1e-6)


def test_a_network_started_from_a_started_network_keeps_the_whole_chain(tmp_path: object) -> None:
    common = ["--variant", "long", "--hidden", "6", "--eval-every", "0", "--seed", "4", "--workdir"]
    main([*common, f"{tmp_path}/first", "--games", "2"])
    main([*common, f"{tmp_path}/second", "--games", "3", "--init-from", f"{tmp_path}/first/long-latest.npz"])
    main([*common, f"{tmp_path}/third", "--games", "1", "--init-from", f"{tmp_path}/second/long-latest.npz"])
    third = Network.load(f"{tmp_path}/third/long-latest.npz")
    assert third.info["games"] == 1
    assert third.info["initialised_from"]["games"] == 3
    assert third.info["initialised_from"]["initialised_from"]["games"] == 2
    assert "initialised_from" not in third.info["initialised_from"]["initialised_from"]
