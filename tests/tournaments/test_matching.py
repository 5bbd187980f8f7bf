"""Pairing of the arena and the lobby (tournaments/matching.py): examples, hypothesis properties of the rules, and
agreement with plain O(n²) greedy references written straight from the rules."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.errors import InvalidOptionError, InvalidPlayersError
from tournaments.matching import RatingWindow, Seeker, arena_pairs, lobby_pairs

NOW = 100.0
IDS = [f"p{i}" for i in range(12)]


def waited(seeker: Seeker, now: float = NOW) -> float:
    return max(0.0, now - seeker.since)


def rematch(a: Seeker, b: Seeker) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def can_meet(a: Seeker, b: Seeker) -> bool:
    return a.id != b.id and a.key == b.key and b.id not in a.blocked and a.id not in b.blocked


def in_window(a: Seeker, b: Seeker, window: RatingWindow, now: float = NOW) -> bool:
    return abs(a.rating - b.rating) <= max(window.at(waited(a, now)), window.at(waited(b, now)))


def check_pairs(seekers: list[Seeker], pairs: list[tuple[str, str]]) -> tuple[dict[str, Seeker], set[str]]:
    """Check what both pairings guarantee (known ids, nobody twice, never self, same key, no block); return the
    seekers by id and the ids left over."""
    by_id = {s.id: s for s in seekers}
    paired = [p for pair in pairs for p in pair]
    assert len(paired) == len(set(paired)), "nobody is paired twice"
    for a, b in pairs:
        assert a != b
        assert a in by_id and b in by_id
        assert by_id[a].key == by_id[b].key
        assert b not in by_id[a].blocked and a not in by_id[b].blocked
    return by_id, set(by_id) - set(paired)


@st.composite
def seekers(draw: st.DrawFn, *, arena: bool) -> list[Seeker]:
    ids = draw(st.lists(st.sampled_from(IDS), unique=True, max_size=len(IDS)))
    others = st.sampled_from(IDS)
    ratings = st.sampled_from([1400.0, 1450.0, 1500.0, 1520.0, 1600.0, 1750.0, 2000.0]) | st.floats(1000, 2200)
    return [
        Seeker(
            id=i,
            rating=draw(ratings),
            since=draw(st.sampled_from([0.0, 40.0, 70.0, 80.0, 85.0, 95.0, 100.0, 105.0]) | st.floats(0, 110)),
            score=draw(st.integers(0, 6)) if arena else 0.0,
            last_opponent=draw(st.none() | others) if arena else None,
            blocked=draw(st.frozensets(others, max_size=2)),
            key=draw(st.sampled_from(["", "short 12+2"])),
        )
        for i in ids
    ]


windows = st.builds(
    RatingWindow,
    base=st.sampled_from([0.0, 50.0, 100.0]),
    per_second=st.sampled_from([0.0, 5.0, 10.0]),
    unlimited_after=st.sampled_from([10.0, 60.0, math.inf]),
)


def reference_lobby(seekers: list[Seeker], window: RatingWindow, now: float = NOW) -> list[tuple[str, str]]:
    """The lobby's rule, by brute force: longest waiter first takes the closest rating it may meet."""
    free = {s.id for s in seekers}
    pairs = []
    for a in sorted(seekers, key=lambda s: (s.since, s.id)):
        if a.id not in free:
            continue
        free.discard(a.id)
        options = [b for b in seekers if b.id in free and can_meet(a, b) and in_window(a, b, window, now)]
        if options:
            b = min(options, key=lambda b: (abs(a.rating - b.rating), b.since, b.id))
            free.discard(b.id)
            pairs.append((a.id, b.id))
    return pairs


def reference_arena(seekers: list[Seeker], alone_after: float) -> list[tuple[str, str]]:
    """The arena's rule, by brute force: fresh opponents first, then last opponents for those who waited enough."""
    ranked = sorted(seekers, key=lambda s: (-s.score, -s.rating, s.since, s.id))
    free = {s.id for s in seekers}
    pairs = []
    for fresh in (True, False):
        for a in ranked:
            if a.id not in free:
                continue
            options = [
                b
                for b in seekers
                if b.id in free
                and can_meet(a, b)
                and (not rematch(a, b) if fresh else rematch(a, b) and max(waited(a), waited(b)) >= alone_after)
            ]
            if options:
                b = min(options, key=lambda b: (abs(a.score - b.score), abs(a.rating - b.rating), b.since, b.id))
                free -= {a.id, b.id}
                pairs.append((a.id, b.id))
    return pairs


# --- the lobby ---


def test_the_rating_window_widens_with_the_wait_and_opens_at_unlimited_after() -> None:
    window = RatingWindow()
    assert window.at(0) == 100.0 and window.at(10) == 200.0 and window.at(59.5) == 695.0
    assert window.at(60) == math.inf and window.at(-5) == 100.0
    with pytest.raises(InvalidOptionError, match="per_second"):
        RatingWindow(per_second=-1)
    with pytest.raises(InvalidOptionError, match="base"):
        RatingWindow(base=math.nan)


def test_the_longest_waiter_takes_the_closest_rating_in_its_window() -> None:
    seekers = [
        Seeker("new", 1500, since=NOW),
        Seeker("old", 1500, since=NOW - 30),  # window 400
        Seeker("near", 1560, since=NOW),
        Seeker("far", 1850, since=NOW),
        Seeker("farther", 2300, since=NOW - 70),  # no limit any more
    ]
    # old takes the closest (new, 0 apart); near and far are 290 apart: neither's window (100) reaches;
    # farther, who waited 70 s, takes anyone: far is the closest
    assert lobby_pairs(seekers, NOW) == [("farther", "far"), ("old", "new")]


def test_the_lobby_keeps_keys_apart_and_honours_blocks_either_way() -> None:
    seekers = [
        Seeker("a", 1500, 0, key="short 12+2"),
        Seeker("b", 1500, 0, key="long 12+2"),
        Seeker("c", 1500, 1, key="short 12+2", blocked=frozenset({"a"})),
        Seeker("d", 1600, 2, key="short 12+2"),
        Seeker("e", 1500, 3, key="long 12+2"),
    ]
    assert lobby_pairs(seekers, 10.0) == [("a", "d"), ("b", "e")]


def test_bad_seekers_are_refused() -> None:
    with pytest.raises(InvalidPlayersError, match="twice"):
        lobby_pairs([Seeker("a", 1500, 0), Seeker("a", 1600, 0)], NOW)
    with pytest.raises(InvalidPlayersError, match="rating"):
        Seeker("a", math.inf, 0)
    with pytest.raises(InvalidPlayersError, match="id"):
        Seeker("", 1500, 0)
    with pytest.raises(InvalidOptionError, match="now"):
        lobby_pairs([], math.nan)
    with pytest.raises(InvalidOptionError, match="alone_after"):
        arena_pairs([], NOW, alone_after=-1)


@given(seekers(arena=False), windows)
def test_lobby_pairs_keep_every_rule(pool: list[Seeker], window: RatingWindow) -> None:
    pairs = lobby_pairs(pool, NOW, window)
    by_id, left = check_pairs(pool, pairs)
    for a, b in pairs:
        assert in_window(by_id[a], by_id[b], window)
        # the chooser is the longer waiter
        assert (by_id[a].since, a) < (by_id[b].since, b)
    # nobody left over could have met anyone else left over
    for a in left:
        for b in left:
            assert not (can_meet(by_id[a], by_id[b]) and in_window(by_id[a], by_id[b], window))


@given(seekers(arena=False), windows, st.randoms(use_true_random=False))
def test_lobby_pairs_are_the_greedy_rule_whatever_the_input_order(
    pool: list[Seeker], window: RatingWindow, rnd: random.Random
) -> None:
    expected = reference_lobby(pool, window)
    rnd.shuffle(pool)
    assert lobby_pairs(pool, NOW, window) == expected


# --- the arena ---


def test_the_arena_pairs_closest_score_then_closest_rating() -> None:
    seekers = [
        Seeker("top", 1500, NOW, score=10),
        Seeker("strong", 1900, NOW, score=8),
        Seeker("weak", 1300, NOW, score=8),
        Seeker("close", 1510, NOW, score=4),
    ]
    # top: scores 8 are closest; ratings 1900 (400 away) and 1300 (200 away): weak
    assert arena_pairs(seekers, NOW) == [("top", "weak"), ("strong", "close")]


def test_no_immediate_rematch_while_another_is_free_or_before_alone_after() -> None:
    a = Seeker("a", 1500, NOW - 5, score=4, last_opponent="b")
    b = Seeker("b", 1500, NOW - 5, score=4, last_opponent="a")
    c = Seeker("c", 1200, NOW - 1, score=0)
    # a and b just played each other: a takes c although b is closer in score and rating
    assert arena_pairs([a, b, c], NOW) == [("a", "c")]
    # alone together, they wait for someone else ...
    assert arena_pairs([a, b], NOW) == []
    assert arena_pairs([a, b], NOW + 14.9) == []
    # ... until one has waited alone_after
    assert arena_pairs([a, b], NOW + 15) == [("a", "b")]
    assert arena_pairs([a, b], NOW + 5, alone_after=10) == [("a", "b")]
    # even then a free newcomer comes first
    assert arena_pairs([a, b, c], NOW + 60) == [("a", "c")]


def test_a_player_alone_for_alone_after_takes_whoever_comes_next() -> None:
    patient = Seeker("patient", 1500, NOW - 25, score=0, last_opponent="back")
    back = Seeker("back", 2100, NOW, score=20, last_opponent="patient")
    assert arena_pairs([patient, back], NOW) == [("back", "patient")]


@given(seekers(arena=True), st.sampled_from([0.0, 10.0, 20.0, 60.0]))
@settings(max_examples=300)
def test_arena_pairs_keep_every_rule(pool: list[Seeker], alone_after: float) -> None:
    pairs = arena_pairs(pool, NOW, alone_after=alone_after)
    by_id, left = check_pairs(pool, pairs)

    def may_meet(a: Seeker, b: Seeker) -> bool:
        return can_meet(a, b) and (not rematch(a, b) or max(waited(a), waited(b)) >= alone_after)

    for a_id, b_id in pairs:
        a, b = by_id[a_id], by_id[b_id]
        if rematch(a, b):
            # a rematch only once one of them has waited alone_after ...
            assert max(waited(a), waited(b)) >= alone_after
            # ... and only when no player left over could have met either of them afresh
            for c in left:
                for x in (a, b):
                    assert not (can_meet(x, by_id[c]) and not rematch(x, by_id[c]))
    # everyone is paired at once when a partner is allowed: no two players left over may meet ...
    leftover = [by_id[i] for i in left]
    for x in leftover:
        for y in leftover:
            assert not may_meet(x, y)
    # ... so a player who has waited alone_after is paired unless nobody left over can meet it at all
    for x in leftover:
        if waited(x) >= alone_after:
            assert not any(can_meet(x, y) for y in leftover)


@given(seekers(arena=True), st.sampled_from([0.0, 20.0]), st.randoms(use_true_random=False))
@settings(max_examples=300)
def test_arena_pairs_are_the_greedy_rule_whatever_the_input_order(
    pool: list[Seeker], alone_after: float, rnd: random.Random
) -> None:
    expected = reference_arena(pool, alone_after)
    rnd.shuffle(pool)
    assert arena_pairs(pool, NOW, alone_after=alone_after) == expected


def test_ten_thousand_lobby_seekers_pair_by_the_rules() -> None:
    """A large input goes through the same code paths (checked on the rules, not timed: no wall-clock limits)."""
    rnd = random.Random(47)
    keys = ["short 12+2", "long 12+2", "short 5+1"]
    pool = [Seeker(f"u{i}", rnd.gauss(1500, 250), rnd.uniform(0, 120), key=rnd.choice(keys)) for i in range(10_000)]
    pairs = lobby_pairs(pool, 120.0)
    by_id, _ = check_pairs(pool, pairs)
    assert len(pairs) >= 4990
    assert all(in_window(by_id[a], by_id[b], RatingWindow(), 120.0) for a, b in pairs)
    assert lobby_pairs(pool[:500], 120.0) == reference_lobby(pool[:500], RatingWindow(), 120.0)
