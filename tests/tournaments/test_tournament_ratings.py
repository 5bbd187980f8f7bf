"""FIBS ratings (§8): win probability, K = 4·√N, experience boost, rated matches; hand-computed examples."""

from __future__ import annotations

import math

import pytest

from tournaments import InvalidOptionError, Rating, experience_boost, k_factor, rate_match, rating_change
from tournaments import win_probability as p


def test_equal_ratings_one_point() -> None:
    # D = 0: P = 1 / (10^0 + 1) = 1/2; K = 4·√1 = 4; change = 4 × (1 − ½) = 2; experience 0 → boost 5 → 10
    assert p(1500, 1500, 1) == 0.5
    assert k_factor(1) == 4.0
    winner, loser = rate_match(Rating(), Rating(), 1)
    assert winner == Rating(1510.0, 1)
    assert loser == Rating(1490.0, 1)


def test_equal_ratings_experienced_players() -> None:
    assert rating_change(Rating(1500, 400), Rating(1500, 1000), 1) == (2.0, 2.0)


def test_1700_v_1500_to_7() -> None:
    # D·√N/2000 = 200·2.6457513/2000 = 0.26457513; 10^0.26457513 = 1.8389721; underdog P = 1/2.8389721 = 0.3522401
    assert p(1500, 1700, 7) == pytest.approx(0.3522401, abs=1e-7)
    assert p(1700, 1500, 7) == pytest.approx(0.6477599, abs=1e-7)
    # K = 4·√7 = 10.5830052
    assert k_factor(7) == pytest.approx(10.5830052, abs=1e-7)
    # favourite wins: 10.5830052 × 0.3522401 = 3.7277596; underdog wins: 10.5830052 × 0.6477599 = 6.8552457
    fav, dog = Rating(1700, 500), Rating(1500, 500)
    assert rating_change(fav, dog, 7) == pytest.approx((3.7277596, 3.7277596), abs=1e-6)
    assert rating_change(dog, fav, 7) == pytest.approx((6.8552457, 6.8552457), abs=1e-6)
    winner, loser = rate_match(dog, fav, 7)
    assert winner.value == pytest.approx(1506.8552457, abs=1e-6)
    assert loser.value == pytest.approx(1693.1447543, abs=1e-6)
    assert (winner.experience, loser.experience) == (507, 507)


def test_boost_applies_to_each_player_separately() -> None:
    # 1500 v 1500 to 1: base 2. Experience 0 → ×5 = 10; experience 450 → ×1 = 2
    new, veteran = rate_match(Rating(1500, 0), Rating(1500, 450), 1)
    assert new == Rating(1510.0, 1)
    assert veteran == Rating(1498.0, 451)
    veteran2, new2 = rate_match(Rating(1500, 450), Rating(1500, 0), 1)
    assert veteran2 == Rating(1502.0, 451)
    assert new2 == Rating(1490.0, 1)


@pytest.mark.parametrize(
    ("experience", "boost"),
    [(0, 5.0), (50, 4.5), (100, 4.0), (250, 2.5), (399, 1.01), (400, 1.0), (450, 1.0), (10_000, 1.0)],
)
def test_experience_boost(experience: int, boost: float) -> None:
    assert experience_boost(experience) == pytest.approx(boost)


def test_forfeit_does_not_change_ratings() -> None:
    a, b = Rating(1612.5, 33), Rating(1400, 0)
    assert rate_match(a, b, 5, forfeit=True) == (a, b)


def test_win_probabilities_sum_to_one() -> None:
    for ra, rb, n in [(1500, 1800, 1), (2100, 1400, 13), (1500, 1501, 3)]:
        assert p(ra, rb, n) + p(rb, ra, n) == pytest.approx(1.0)
        assert (p(ra, rb, n) < 0.5) == (ra < rb)


def test_longer_matches_favour_the_favourite() -> None:
    assert p(1700, 1500, 1) < p(1700, 1500, 7) < p(1700, 1500, 13)
    assert k_factor(9) == 12.0
    assert math.isclose(k_factor(13), 4 * math.sqrt(13))


@pytest.mark.parametrize("length", [0, -3, 1.5, True])
def test_bad_length(length: object) -> None:
    with pytest.raises(InvalidOptionError, match="match length"):
        k_factor(length)  # type: ignore[arg-type]


def test_bad_rating_values() -> None:
    with pytest.raises(InvalidOptionError, match="experience"):
        Rating(1500, -1)
    with pytest.raises(InvalidOptionError, match="finite"):
        Rating(math.inf, 0)
    with pytest.raises(ValueError, match="experience"):
        experience_boost(-5)
