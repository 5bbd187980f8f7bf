"""Matches whose games rotate variants (docs/rules.md §6.2 "Tavli match", §6.7 "Mixed matches"): rotation order, the
score across variants, each game's own scoring and cube, Crawford, winner starts, draws, matches of a fixed number of
games with deciders, save/load/replay mid-game, the named kinds, and that plain matches are unchanged."""

from __future__ import annotations

import json
import random

import pytest

from nardy import Game, GameStateError, Match, Options, Phase, SeededDice, get_variant
from nardy.errors import MatchOverError
from nardy.matchkinds import (
    MatchKind,
    UnknownMatchKindError,
    get_match_kind,
    match_kinds,
    rotation_kind,
    rotation_title,
)
from nardy.variants import UnknownVariantError


def _registered(*names: str) -> bool:
    try:
        for name in names:
            get_variant(name)
    except UnknownVariantError:
        return False
    return True


needs_tavli = pytest.mark.skipif(
    not _registered("plakoto", "fevga"), reason="Plakoto and Fevga are not registered variants yet (nardy.variants)"
)

PLAIN_KEYS = {"schema", "variant", "length", "options", "score", "crawford_done", "finished_games", "game"}


def _resign(match: Match, loser: int, level: str = "") -> None:
    """End the current game by ``loser`` resigning at ``level`` (default: the lowest level), accepted."""
    game = match.game
    if game.phase is Phase.OPENING:
        game.roll()
    game.resign(loser, level or game.resign_levels()[0])
    game.accept_resignation()


def _act(game: Game, rng: random.Random) -> None:
    """Make one action of a simple random driver: roll, a random legal move, a random named double, take."""
    if game.phase in (Phase.OPENING, Phase.ROLL):
        game.roll()
    elif game.phase is Phase.MOVE:
        game.play(rng.choice(game.legal_moves()))
    elif game.phase is Phase.CHOOSE:
        game.choose_double(rng.randint(1, 6))
    elif game.phase is Phase.DOUBLED:
        game.take()
    else:
        raise AssertionError(f"the driver cannot act in phase {game.phase.value}")


def _play_out(game: Game, rng: random.Random) -> None:
    for _ in range(20000):
        if game.phase is Phase.OVER:
            return
        _act(game, rng)
    raise AssertionError("the game did not end")


def _variants(match: Match) -> list[str]:
    """Return the variant of every game of the match so far (finished ones, then the current one)."""
    return [g["variant"] for g in match.finished_games] + [match.game.variant.name]


def _round_trip(match: Match) -> Match:
    data = json.loads(json.dumps(match.to_dict()))
    loaded = Match.from_dict(data, verify=True)
    assert loaded.to_dict() == match.to_dict()
    return loaded


# ------------------------------------------------------------------------------------------- plain matches


def test_a_plain_match_is_unchanged() -> None:
    match = Match("short", 5, dice=SeededDice(1))
    assert not match.rotating and match.kind is None and match.variant.name == "short"
    assert match.rotation == (get_variant("short"),) and match.games == 0 and match.decider is None
    assert set(match.to_dict()) == PLAIN_KEYS
    _resign(match, 1)
    match.next_game()
    assert match.variant.name == "short" and _variants(match) == ["short", "short"]
    data = json.loads(json.dumps(match.to_dict()))
    assert set(data) == PLAIN_KEYS and data["variant"] == "short"
    loaded = Match.from_dict(data)
    assert not loaded.rotating and loaded.to_dict() == data
    assert Match("long").length == 0 and Match("long").is_money and Match().variant.name == "short"


def test_a_one_variant_rotation_is_a_plain_match() -> None:
    match = Match(rotation=("long",), length=3)
    assert not match.rotating and set(match.to_dict()) == PLAIN_KEYS
    assert Match.from_dict(match.to_dict()).variant.name == "long"


# ------------------------------------------------------------------------------------------- rotation order


def test_games_rotate_in_order_and_drawn_or_not_each_counts() -> None:
    match = Match(rotation=("portes", "short", "long"), length=25, dice=SeededDice(2))
    assert match.rotating and match.variant.name == "portes" and match.current_variant.name == "portes"
    for index in range(7):
        assert match.game_index == index
        assert match.game.variant is match.variant_of_game(index) is match.rotation[index % 3]
        assert match.rotation_place(index) == index % 3 + 1
        _resign(match, index % 2)
        match.next_game()
    assert _variants(match) == ["portes", "short", "long"] * 2 + ["portes", "short"]
    assert [match.variant_of_game(i).name for i in (9, 10, 11)] == ["portes", "short", "long"]
    with pytest.raises(GameStateError, match="negative"):
        match.variant_of_game(-1)


def test_the_score_is_kept_across_variants_and_each_game_scores_by_its_own_variant() -> None:
    match = Match(rotation=("hypergammon", "long", "short"), length=11, dice=SeededDice(3))
    assert match.game.resign_levels() == ("single",)  # Hypergammon counts no gammons by default
    _resign(match, 1, "single")
    match.next_game()
    assert match.game.resign_levels() == ("oin", "mars")
    _resign(match, 0, "mars")
    match.next_game()
    assert match.game.resign_levels() == ("single", "gammon", "backgammon")
    _resign(match, 1, "backgammon")
    assert match.score_after_game() == (4, 2)
    match.next_game()
    assert match.score == (4, 2) and match.game.score == (4, 2) and match.game.match_length == 11
    assert match.variant.name == "hypergammon"


def test_games_played_out_score_their_results_across_variants() -> None:
    rng = random.Random(7)
    match = Match(rotation=("hypergammon", "long", "short"), length=5, dice=SeededDice(7))
    total = [0.0, 0.0]
    for _ in range(30):
        _play_out(match.game, rng)
        result = match.game.result
        assert result is not None
        for player in (0, 1):
            if result.winner in (None, player):
                total[player] += result.points
        if match.over:
            break
        match.next_game()
    assert match.over and match.score_after_game() == tuple(total)
    assert max(match.score_after_game()) >= 5
    assert _variants(match) == [match.rotation[i % 3].name for i in range(match.game_index + 1)]
    _round_trip(match)


def test_each_game_has_its_own_variants_cube_unless_the_options_set_it() -> None:
    match = Match(rotation=("portes", "short", "long"), length=9, dice=SeededDice(4))
    enabled = []
    for loser in (0, 1, 0):
        enabled.append(match.game.cube_enabled)
        _resign(match, loser)
        match.next_game()
    assert enabled == [False, True, False]
    match = Match(rotation=("portes", "short", "long"), length=9, options=Options(cube=True), dice=SeededDice(4))
    enabled = []
    for loser in (0, 1, 0):
        enabled.append(match.game.cube_enabled)
        _resign(match, loser)
        match.next_game()
    assert enabled == [True, True, True]


# ------------------------------------------------------------------------------------------- Crawford


def test_crawford_falls_on_the_first_game_after_match_point_even_without_a_cube() -> None:
    # the Crawford game is a short one: no cube there; the following ones are post-Crawford
    match = Match(rotation=("portes", "short"), length=3, dice=SeededDice(5))
    _resign(match, 1, "gammon")  # player 0: 2 points, match point
    game = match.next_game()
    assert game.variant.name == "short" and game.crawford and not game.cube_enabled
    _resign(match, 0)
    game = match.next_game()
    assert game.variant.name == "portes" and not game.crawford and not game.cube_enabled
    _resign(match, 0)
    game = match.next_game()
    assert game.variant.name == "short" and not game.crawford and game.cube_enabled
    assert match.score == (2, 2)


def test_a_crawford_game_without_a_cube_is_not_moved_to_a_later_game() -> None:
    # the first game after match point is Portes (no cube): it is the Crawford game, and the short game after it
    # is already post-Crawford, with the cube
    match = Match(rotation=("short", "portes"), length=3, dice=SeededDice(5))
    _resign(match, 1, "gammon")
    game = match.next_game()
    assert game.variant.name == "portes" and game.crawford and not game.cube_enabled and match.crawford_done
    _resign(match, 0)
    game = match.next_game()
    assert game.variant.name == "short" and not game.crawford and game.cube_enabled


# ------------------------------------------------------------------------------------------- openings and draws


def test_the_winner_starts_the_next_game_whatever_its_variant() -> None:
    match = Match(
        rotation=("short", "long", "hypergammon"),
        length=9,
        options=Options(opening="winner_starts"),
        dice=SeededDice(6),
    )
    assert match.game.phase is Phase.OPENING  # the first game has the usual opening roll
    for loser in (0, 1, 1, 0):
        _resign(match, loser)
        game = match.next_game()
        assert game.phase is Phase.ROLL and game.roller == 1 - loser and game.initial_first_player == 1 - loser
    without = Match(rotation=("short", "long"), length=9, dice=SeededDice(6))
    _resign(without, 0)
    assert without.next_game().phase is Phase.OPENING


def _drawn_misere_match() -> tuple[Match, int]:
    """Return a Misère → short match whose first game (played by the random driver) ended in a last-roll draw."""
    for seed in range(600):
        match = Match(
            rotation=("misere", "short"), length=3, options=Options(opening="winner_starts"), dice=SeededDice(seed)
        )
        _play_out(match.game, random.Random(seed))
        assert match.game.result is not None
        if match.game.result.winner is None:
            return match, seed
    raise AssertionError("no Misère game of the first 600 seeds ended in a draw")


def test_a_drawn_game_counts_in_the_rotation_and_scores_its_result() -> None:
    match, _ = _drawn_misere_match()
    result = match.game.result
    assert result is not None and result.reason == "draw" and result.points == 0.5
    assert match.score_after_game() == (0.5, 0.5) and not match.over
    game = match.next_game()
    assert match.game_index == 1 and game.variant.name == "short" and match.score == (0.5, 0.5)
    assert game.phase is Phase.OPENING and game.initial_first_player is None  # a draw has no winner to start
    loaded = _round_trip(match)
    assert loaded.variant.name == "short" and loaded.score == (0.5, 0.5)


# ------------------------------------------------------------------------------------------- a fixed number of games


def test_the_mixed_kind_is_three_games_then_hypergammon_deciders_while_level() -> None:
    match = Match.of_kind("mixed", dice=SeededDice(8))
    assert match.kind_name == "mixed" and match.length == 0 and match.games == 3 and not match.is_money
    assert [v.name for v in match.rotation] == ["hypergammon", "long", "short"]
    _resign(match, 1)  # Hypergammon: 1-0
    assert not match.over
    match.next_game()
    _resign(match, 0, "mars")  # long: 1-2
    match.next_game()
    _resign(match, 1, "single")  # short: 2-2, level after three games
    assert match.score_after_game() == (2, 2) and not match.over and match.winner is None
    assert match.status().next_variant is not None and match.status().next_if_level
    game = match.next_game()
    assert game.variant.name == "hypergammon" and match.status().decider and match.rotation_place(3) == 0
    assert match.variant_of_game(4).name == "hypergammon"  # a level decider (a draw) gives another one
    assert game.match_length == 0 and not game.crawford  # the games are scored as money games
    _resign(match, 0)
    assert match.over and match.winner == 1 and match.score_after_game() == (2, 3)
    with pytest.raises(MatchOverError):
        match.next_game()
    _round_trip(match)


def test_a_fixed_number_of_games_ends_after_them_when_the_score_is_not_level() -> None:
    match = Match(rotation=("hypergammon", "long", "short"), games=3, decider="hypergammon", dice=SeededDice(9))
    for loser in (1, 1):
        _resign(match, loser)
        assert not match.over  # a big lead does not end the match before its three games
        match.next_game()
    _resign(match, 0)
    assert match.over and match.winner == 0 and match.score_after_game() == (2, 1)
    assert match.status().next_variant is None
    with pytest.raises(MatchOverError):
        match.next_game()


def test_without_a_decider_the_rotation_goes_on_while_level() -> None:
    match = Match(rotation=("short", "long"), games=2, dice=SeededDice(10))
    _resign(match, 1)
    match.next_game()
    _resign(match, 0, "oin")
    assert not match.over
    assert match.next_game().variant.name == "short" and match.variant_of_game(3).name == "long"


def test_bad_match_settings_are_refused() -> None:
    with pytest.raises(GameStateError, match="not a variant and another"):
        Match("short", 3, rotation=("short", "long"))
    with pytest.raises(GameStateError, match="not both"):
        Match(rotation=("short", "long"), length=3, games=3)
    with pytest.raises(GameStateError, match="decider"):
        Match(rotation=("short", "long"), length=3, decider="short")
    with pytest.raises(GameStateError, match="at least one"):
        Match(rotation=())
    with pytest.raises(GameStateError, match="negative"):
        Match(rotation=("short", "long"), games=-1)
    with pytest.raises(UnknownVariantError):
        Match(rotation=("short", "chess"), length=3)
    with pytest.raises(UnknownMatchKindError, match=r"known: .*tavli"):
        Match.of_kind("marathon")
    with pytest.raises(GameStateError, match="not registered"):
        Match(kind=rotation_kind(("short", "long")))


# ------------------------------------------------------------------------------------------- save, load, replay


def _mid_game(seed: int, rotation: tuple[str, ...], length: int, kind: str | None = None) -> Match:
    """Return a match played by the random driver through two games and into the third."""
    rng = random.Random(seed)
    if kind is not None:
        match = Match.of_kind(kind, length, dice=SeededDice(seed))
    else:
        match = Match(rotation=rotation, length=length, dice=SeededDice(seed))
    for _ in range(2):
        _play_out(match.game, rng)
        assert not match.over
        match.next_game()
    for _ in range(7):
        _act(match.game, rng)
    assert match.game.phase is not Phase.OVER and match.game_index == 2
    return match


def test_a_rotating_match_saves_loads_and_replays_mid_game() -> None:
    match = _mid_game(11, ("hypergammon", "long", "short"), 7)
    data = json.loads(json.dumps(match.to_dict()))
    assert data["rotation"] == ["hypergammon", "long", "short"] and data["games"] == 0 and data["kind"] is None
    assert data["variant"] == "short" and data["decider"] is None
    loaded = Match.from_dict(data, verify=True)
    assert loaded.to_dict() == data and loaded.variant.name == "short" and loaded.game_index == 2
    games = loaded.replay_games()
    assert [g.variant.name for g in games] == ["hypergammon", "long", "short"]
    assert [g.result.to_dict() if g.result else None for g in games[:2]] == [
        g["state"]["result"] for g in data["finished_games"]
    ]
    assert games[2].snapshot() == match.game.snapshot()
    # two loaded copies with the same dice play the rest of the match alike, into the next variants
    copies = [Match.from_dict(data, dice=SeededDice("rest")) for _ in range(2)]
    for copy in copies:
        rng = random.Random(12)
        for _ in range(40):
            _play_out(copy.game, rng)
            if copy.over:
                break
            copy.next_game()
        assert copy.over and copy.game_index >= 2
        assert _variants(copy) == [copy.rotation[i % 3].name for i in range(copy.game_index + 1)]
    assert copies[0].to_dict() == copies[1].to_dict()
    _round_trip(copies[0])


def test_a_saved_rotation_is_checked_on_load() -> None:
    data = json.loads(json.dumps(_mid_game(13, ("hypergammon", "long", "short"), 25).to_dict()))
    swapped = {**data, "rotation": ["long", "hypergammon", "short"]}
    with pytest.raises(GameStateError, match="game 1 is in 'hypergammon', but its rotation gives long"):
        Match.from_dict(swapped)
    shorter = {**data, "rotation": ["hypergammon", "long"]}
    with pytest.raises(GameStateError, match="game 3 is in 'short'"):
        Match.from_dict(shorter)
    wrong_score = {**data, "score": [data["score"][0] + 1, data["score"][1]]}
    Match.from_dict(wrong_score)  # read as saved unless verified
    with pytest.raises(GameStateError, match="score"):
        Match.from_dict(wrong_score, verify=True)
    with pytest.raises(GameStateError, match="cannot be read"):
        Match.from_dict({**data, "kind": "marathon"})


# ------------------------------------------------------------------------------------------- kinds and texts


def test_the_registry_of_match_kinds() -> None:
    names = [k.name for k in match_kinds()]
    assert "tavli" in names and "mixed" in names
    tavli = get_match_kind("Тавли")
    assert tavli is get_match_kind("tavli") and tavli.title("ru") == "тавли" and tavli.title("en") == "Tavli"
    assert tavli.rotation == ("portes", "plakoto", "fevga") and tavli.default_length == 7
    assert tavli.lengths == (3, 5, 7) and tavli.match_options().opening == "winner_starts"
    assert tavli.match_options(Options(cube=True)) == Options(cube=True, opening="winner_starts")
    assert tavli.available() == _registered("plakoto", "fevga")
    mixed = get_match_kind("смешанный матч")
    assert mixed.name == "mixed" and mixed.games == 3 and mixed.decider == "hypergammon" and mixed.available()
    adhoc = rotation_kind(("гипергаммон", "длинные", "short"))
    assert adhoc.name == "" and adhoc.rotation == ("hypergammon", "long", "short")
    assert adhoc.title("en") == "mixed match (Hypergammon → long nardy → short nardy)"
    assert adhoc.title("ru") == "смешанный матч (гипергаммон → длинные нарды → короткие нарды)"
    assert rotation_title(("short", "long"), "ru") == "короткие нарды → длинные нарды"
    assert isinstance(Match(rotation=("short", "long")).kind, MatchKind)
    with pytest.raises(UnknownMatchKindError):
        get_match_kind("nope")
    with pytest.raises(ValueError, match="at least one"):
        rotation_kind(())


def test_an_ad_hoc_kind_builds_a_plain_rotation() -> None:
    match = Match.of_kind(rotation_kind(("hypergammon", "long", "short"), default_length=5))
    assert match.kind_name is None and match.length == 5 and match.rotating
    assert "kind" in match.to_dict() and match.to_dict()["kind"] is None


def test_what_a_ui_shows_of_the_rotation() -> None:
    match = Match(rotation=("hypergammon", "long", "short"), length=7, dice=SeededDice(14))
    _resign(match, 1)
    match.next_game()
    status = match.status()
    assert (status.number, status.place, status.variant.name) == (2, 2, "long")
    assert status.next_variant is not None and status.next_variant.name == "short" and not status.over
    assert match.describe() == (
        "Mixed match (Hypergammon → long nardy → short nardy), game 2: long nardy; next: short nardy"
    )
    assert match.describe("ru") == (
        "Смешанный матч (гипергаммон → длинные нарды → короткие нарды), партия 2: длинные нарды; "
        "следующая: короткие нарды"
    )
    plain = Match("short", 3)
    assert plain.describe() == "Game 1: short nardy; next: short nardy" and plain.status().kind is None
    assert plain.describe("ru") == "Партия 1: короткие нарды; следующая: короткие нарды"
    mixed = Match.of_kind("mixed")
    for loser, level in ((1, "single"), (0, "mars")):
        _resign(mixed, loser, level)
        mixed.next_game()
    _resign(mixed, 1, "single")  # 2-2 after three games
    assert mixed.describe().endswith("game 3: short nardy; next: Hypergammon (a decider, if the score is level)")
    mixed.next_game()
    assert mixed.describe() == (
        "Mixed match (Hypergammon, long, short), game 4: Hypergammon, the decider; "
        "next: Hypergammon (a decider, if the score is level)"
    )
    assert mixed.describe("ru").startswith("Смешанный матч (гипергаммон, длинные, короткие), партия 4: гипергаммон")
    _resign(mixed, 1)
    assert mixed.over and mixed.describe() == "Mixed match (Hypergammon, long, short), game 4: Hypergammon, the decider"


# ------------------------------------------------------------------------------------------- Tavli


@needs_tavli
def test_tavli_defaults() -> None:
    match = Match.of_kind("tavli", dice=SeededDice(15))
    assert match.length == 7 and match.kind_name == "tavli" and match.options.opening == "winner_starts"
    assert [v.name for v in match.rotation] == ["portes", "plakoto", "fevga"]
    assert match.game.variant.name == "portes" and match.game.phase is Phase.OPENING
    assert [Match.of_kind("тавли", n).length for n in (3, 5)] == [3, 5]
    assert Match(kind="tavli", length=5).length == 5 and Match(kind="tavli").length == 7
    assert not any(get_variant(v).cube_enabled(match.options) for v in ("portes", "plakoto", "fevga"))
    assert match.describe() == "Tavli, game 1: Portes; next: Plakoto"
    assert match.describe("ru") == "Тавли, партия 1: портес; следующая: плакото"
    _resign(match, 1, "gammon")
    game = match.next_game()
    assert game.variant.name == "plakoto" and game.phase is Phase.ROLL and game.roller == 0
    assert match.describe() == "Tavli, game 2: Plakoto; next: Fevga"
    data = json.loads(json.dumps(match.to_dict()))
    assert data["kind"] == "tavli" and data["rotation"] == ["portes", "plakoto", "fevga"]
    assert Match.from_dict(data).describe("ru") == "Тавли, партия 2: плакото; следующая: февга"


@needs_tavli
def test_a_drawn_plakoto_game_scores_nothing_and_the_next_tavli_game_opens_with_a_roll() -> None:
    for seed in range(200):
        match = Match.of_kind("tavli", 3, dice=SeededDice(f"tavli-draw-{seed}"))
        _resign(match, 0)  # Portes: 0-1
        match.next_game()
        _play_out(match.game, random.Random(seed))
        result = match.game.result
        assert result is not None
        if result.winner is None:
            break
    else:
        raise AssertionError("no Plakoto game of the first 200 seeds ended in a draw")
    assert match.game.variant.name == "plakoto" and result.points == 0 and result.kind == "draw"
    assert match.score_after_game() == (0, 1) and not match.over
    game = match.next_game()
    assert game.variant.name == "fevga" and game.phase is Phase.OPENING and game.initial_first_player is None
    assert match.game_index == 2 and match.score == (0, 1)
    _round_trip(match)


@needs_tavli
def test_a_tavli_match_saves_and_loads_in_the_middle_of_a_plakoto_game() -> None:
    rng = random.Random(16)
    match = Match.of_kind("tavli", 7, dice=SeededDice(16))
    _resign(match, 1)
    match.next_game()
    while len(match.game.history) < 40 and match.game.phase is not Phase.OVER:
        _act(match.game, rng)
    assert match.game.variant.name == "plakoto"
    loaded = _round_trip(match)
    assert loaded.replay_games()[-1].snapshot() == match.game.snapshot()
    assert loaded.describe() == match.describe()


@needs_tavli
@pytest.mark.parametrize("seed", range(2))
def test_a_whole_seeded_tavli_match(seed: int) -> None:
    rng = random.Random(f"tavli-{seed}")
    match = Match.of_kind("tavli", dice=SeededDice(f"tavli-{seed}"))
    previous_winner: int | None = None
    total = [0.0, 0.0]
    for index in range(60):
        game = match.game
        assert game.variant.name == ("portes", "plakoto", "fevga")[index % 3] and not game.cube_enabled
        if index == 0 or previous_winner is None:
            assert game.phase is Phase.OPENING and game.initial_first_player is None
        else:
            assert game.phase is Phase.ROLL and game.roller == previous_winner == game.initial_first_player
        assert game.score == tuple(total)
        _play_out(game, rng)
        result = game.result
        assert result is not None and result.cube == 1 and result.points in (0, 1, 2)
        previous_winner = result.winner
        for player in (0, 1):
            if result.winner in (None, player):
                total[player] += result.points
        if match.over:
            break
        match.next_game()
    assert match.over and match.score_after_game() == tuple(total)
    winner = match.winner
    assert winner is not None and total[winner] >= 7 > total[1 - winner]
    assert match.status().next_variant is None
    loaded = _round_trip(match)
    assert [g.variant.name for g in loaded.replay_games()] == _variants(match)
