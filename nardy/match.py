"""Match play to N points with the Crawford rule (and money sessions, N = 0), in one variant or rotating variants.

A plain match (``Match("short", 5)``) plays every game in one variant. A *rotating* match (docs/rules.md §6.2 "Tavli
match", §6.7 "Mixed matches") names a rotation of variants: game *i* (counted from 0, drawn games included) is
played in ``rotation[i % len(rotation)]``. The score is kept across variants; each game is a :class:`Game` of its
own variant under the match's options, so its value follows that variant's scoring, and its cube that variant's
cube setting (option ``cube`` left at None gives each variant its own default: Portes, Plakoto, Fevga and long nardy
without the cube, Hypergammon and short nardy with it).

Decisions where docs/rules.md is silent:

- **Crawford** (§3): the Crawford game is the first game after a player first reaches N-1, whatever its variant.
  When that game's variant plays without the cube the rule has nothing to forbid there, and it is *not* moved on to
  a later game that has a cube: the leader has had its one game free of doubles (the rule's purpose). The game is
  still flagged ``crawford`` (as a plain long-nardy match's Crawford game always was).
- **Drawn games** count as games of the rotation (the next game is the next variant) and score what their result
  says: nothing for Plakoto's double-pinned mothers, half the cube to each for a last-roll draw.
- **A match of a fixed number of games** (``games``; 000's "one game each of Hypergammon, long and short, and a
  Hypergammon decider when the score is level after three"): it is not a match to N points, so ``length`` is 0 and
  its games are scored as money games (no Crawford; the Match ID shows a money game). After ``games`` games the
  higher score wins; while the score is level one more game is played in ``decider`` (None: the rotation goes on),
  and again after each decider that leaves it level.
- ``opening=winner_starts`` works across variants: the previous game's winner rolls first, whatever the variants;
  after a draw (no winner) the next game starts with an opening roll. Tavli fixes this option (nardy.matchkinds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nardy.dice import DiceSource
from nardy.errors import GameStateError, MatchOverError, NardyError
from nardy.game import Game, Phase
from nardy.matchkinds import MatchKind, UnknownMatchKindError, get_match_kind, rotation_kind
from nardy.options import Options
from nardy.variants import Variant, get_variant

MATCH_SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class RotationStatus:
    """Where a match stands in its rotation, for a UI.

    ``number`` is the current game's number in the match (from 1); ``variant`` its variant; ``place`` its place in
    the rotation (from 1; 0 for a decider); ``rotation`` the rotation's variants; ``next_variant`` the variant of the
    following game (None when the match is over); ``next_if_level``: the following game is a decider, played only if
    the score is then level; ``kind`` the match's kind (an ad-hoc one for an unnamed rotation, None for a plain
    match); ``over``: the match has been won.
    """

    number: int
    variant: Variant
    place: int
    rotation: tuple[Variant, ...]
    next_variant: Variant | None
    next_if_level: bool
    kind: MatchKind | None
    over: bool

    @property
    def decider(self) -> bool:
        """Return whether the current game is a decider (a game after the fixed number of games)."""
        return self.place == 0

    def describe(self, lang: str = "en") -> str:
        """Return one line for a UI in ``lang`` (``ru`` or ``en``), e.g. "Tavli, game 2: Plakoto; next: Fevga" /
        "Тавли, партия 2: плакото; следующая: февга" (a plain match: "Game 2: short nardy")."""
        ru = lang == "ru"
        game = f"партия {self.number}" if ru else f"game {self.number}"
        text = game if self.kind is None else f"{self.kind.title(lang)}, {game}"
        text = f"{text[0].upper()}{text[1:]}: {_title(self.variant, lang)}"
        if self.decider:
            text += ", решающая партия" if ru else ", the decider"
        if self.next_variant is not None:
            following = _title(self.next_variant, lang)
            if self.next_if_level:
                following += " (решающая, если счёт будет равным)" if ru else " (a decider, if the score is level)"
            text += f"; следующая: {following}" if ru else f"; next: {following}"
        return text


def _registered(kind: MatchKind) -> bool:
    try:
        return bool(kind.name) and get_match_kind(kind.name) == kind
    except UnknownMatchKindError:
        return False


def _title(variant: Variant, lang: str) -> str:
    return variant.titles.get(lang, variant.titles.get("en", variant.name))


class Match:
    """A sequence of games in one variant or in a rotation of variants; the match ends when a player reaches
    ``length`` points (or, with ``games``, after that many games and any deciders).

    ``length`` 0 (without ``games``) is a money session that never ends by itself.
    """

    def __init__(
        self,
        variant: str | Variant | None = None,
        length: int | None = None,
        *,
        options: Options | None = None,
        dice: DiceSource | None = None,
        rotation: Sequence[str | Variant] | None = None,
        games: int | None = None,
        decider: str | Variant | None = None,
        kind: str | MatchKind | None = None,
    ) -> None:
        """Start a match with its first game.

        ``variant`` (default ``short``) makes a plain match; ``rotation`` instead names the variants the games rotate
        (``Match(rotation=("portes", "plakoto", "fevga"), length=7)``). ``kind`` names a registered match kind
        (:mod:`nardy.matchkinds`, e.g. ``tavli``): its rotation, ``games``, ``decider`` and default length are used
        where these arguments are not given, and the option values it fixes are applied over ``options``.
        ``length`` None is the kind's default length, else 0. ``games`` > 0 (with ``length`` 0) makes a match of
        that many games, then deciders in ``decider`` (None: the rotation goes on) while the score is level.

        Raises:
            UnknownVariantError: no such variant.
            UnknownMatchKindError: no such match kind.
            GameStateError: a negative length or game count, both a variant and a rotation, an empty rotation,
                both a length and a game count, or a decider without a game count.
        """
        found = None if kind is None else get_match_kind(kind)
        if found is not None and not _registered(found):
            raise GameStateError(f"match kind {found.title()!r} is not registered: use Match.of_kind or a rotation")
        if variant is not None and (rotation is not None or found is not None):
            raise GameStateError("give a match one of a variant, a rotation or a kind, not a variant and another")
        if rotation is None:
            if found is not None and variant is None:
                rotation = found.rotation
            else:
                rotation = (variant if variant is not None else "short",)
        if not rotation:
            raise GameStateError("a match rotation needs at least one variant")
        if found is not None:
            games = found.games if games is None else games
            decider = found.decider if decider is None else decider
            length = found.default_length if length is None else length
            options = found.match_options(options)
        length = 0 if length is None else length
        games = 0 if games is None else games
        if length < 0 or games < 0:
            raise GameStateError(f"match length {length} or game count {games} is negative")
        if length and games:
            raise GameStateError(f"a match is played to {length} points or over {games} games, not both")
        if decider is not None and not games:
            raise GameStateError("a decider needs a match of a fixed number of games (games > 0)")
        self.rotation: tuple[Variant, ...] = tuple(get_variant(v) for v in rotation)
        self.kind_name: str | None = None if found is None else found.name
        self.games = games
        self.decider: Variant | None = None if decider is None else get_variant(decider)
        self.length = length
        self.options = options or Options()
        self.dice = dice
        self.score: tuple[float, float] = (0, 0)
        self.finished_games: list[dict[str, Any]] = []
        self.crawford_done = False
        self.game = self._new_game(crawford=False, first_player=None)

    @classmethod
    def of_kind(
        cls,
        kind: str | MatchKind,
        length: int | None = None,
        *,
        options: Options | None = None,
        dice: DiceSource | None = None,
    ) -> Match:
        """Return a new match of ``kind``: a registered kind's name or alias (``tavli``, ``тавли``, ``mixed``), or a
        :class:`MatchKind` (one made by :func:`nardy.matchkinds.rotation_kind` is played as a plain rotation).
        ``length`` None is the kind's default length.

        Raises:
            UnknownMatchKindError: no such match kind.
            UnknownVariantError: a variant of the kind is not registered.
            GameStateError: as :class:`Match`.
        """
        found = get_match_kind(kind)
        if found.name:
            return cls(length=length, options=options, dice=dice, kind=found)
        return cls(
            length=found.default_length if length is None else length,
            options=found.match_options(options),
            dice=dice,
            rotation=found.rotation,
            games=found.games,
            decider=found.decider,
        )

    # ----------------------------------------------------------------- the rotation

    @property
    def rotating(self) -> bool:
        """Return whether the match is more than a plain match of one variant (a rotation, a kind, a fixed number of
        games): only such a match writes the rotation keys in :meth:`to_dict`."""
        return len(self.rotation) > 1 or self.kind_name is not None or bool(self.games) or self.decider is not None

    @property
    def variant(self) -> Variant:
        """Return the variant of the current game (a plain match's one variant)."""
        return self.game.variant

    @property
    def current_variant(self) -> Variant:
        """Return the variant of the current game (the same as :attr:`variant`)."""
        return self.game.variant

    @property
    def game_index(self) -> int:
        """Return the number of the current game counted from 0 (the games finished before it, draws included)."""
        return len(self.finished_games)

    @property
    def is_money(self) -> bool:
        """Return whether the match is a money session (no length and no fixed number of games): each game stands
        alone and the session never ends by itself."""
        return not self.length and not self.games

    @property
    def kind(self) -> MatchKind | None:
        """Return the match's kind: the registered one it was made of, an ad-hoc kind for an unnamed rotation
        (:func:`~nardy.matchkinds.rotation_kind`), or None for a plain match."""
        if self.kind_name is not None:
            return get_match_kind(self.kind_name)
        if not self.rotating:
            return None
        return rotation_kind(self.rotation, games=self.games, decider=self.decider, default_length=self.length)

    def variant_of_game(self, index: int) -> Variant:
        """Return the variant game ``index`` (from 0) is played in: ``rotation[index % len(rotation)]``, or the
        decider for a game after the fixed number of games.

        Raises:
            GameStateError: a negative index.
        """
        if index < 0:
            raise GameStateError(f"game index {index} is negative")
        if self.games and index >= self.games and self.decider is not None:
            return self.decider
        return self.rotation[index % len(self.rotation)]

    def rotation_place(self, index: int) -> int:
        """Return the place (from 1) of game ``index`` (from 0) in the rotation, 0 for a decider (a game after the
        fixed number of games).

        Raises:
            GameStateError: a negative index.
        """
        if index < 0:
            raise GameStateError(f"game index {index} is negative")
        if self.games and index >= self.games:
            return 0
        return index % len(self.rotation) + 1

    def status(self) -> RotationStatus:
        """Return what a UI shows of the rotation: the current game's number, variant and place in the rotation,
        and the next game's variant (see :class:`RotationStatus`; ``status().describe(lang)`` is one line)."""
        index = self.game_index
        over = self.over
        following = index + 1
        return RotationStatus(
            number=index + 1,
            variant=self.current_variant,
            place=self.rotation_place(index),
            rotation=self.rotation,
            next_variant=None if over else self.variant_of_game(following),
            next_if_level=bool(self.games) and following >= self.games,
            kind=self.kind,
            over=over,
        )

    def describe(self, lang: str = "en") -> str:
        """Return the one-line rotation status of :meth:`status` in ``lang`` (``ru`` or ``en``)."""
        return self.status().describe(lang)

    def _new_game(self, *, crawford: bool, first_player: int | None) -> Game:
        return Game(
            self.variant_of_game(len(self.finished_games)),
            options=self.options,
            dice=self.dice,
            match_length=self.length,
            score=self.score,
            crawford=crawford,
            first_player=first_player,
        )

    # ----------------------------------------------------------------- score

    @property
    def winner(self) -> int | None:
        """Return the player who has won the match, or None while it goes on (always None for money play).

        The current game counts as soon as it is over, so the deciding game makes the match won at once, before
        (and without) :meth:`next_game`. A player wins by reaching ``length`` with more points than the other.
        A drawn game (option ``last_roll_draw``, half the cube to each) that leaves both players at ``length`` or
        more with equal scores does not end the match: one more game is played, and its winner wins the match
        (again after each further such draw). A match of ``games`` games is won by the higher score once that many
        games are over; while the scores are level it goes on (deciders).
        """
        if self.is_money:
            return None
        over = self.game.result is not None
        a, b = self.score_after_game() if over else self.score
        if self.games:
            if self.game_index + int(over) < self.games or a == b:
                return None
            return 0 if a > b else 1
        # docs/rules.md §3 (match play) ends the match "when a player reaches N" and says nothing of both reaching N
        # at once, which only a last_roll_draw draw (§2) can do: then the scores are level and a further game decides.
        if max(a, b) < self.length or a == b:
            return None
        return 0 if a > b else 1

    @property
    def over(self) -> bool:
        """Return whether the match has been won (the current game counted as soon as it is over)."""
        return self.winner is not None

    def score_after_game(self) -> tuple[float, float]:
        """Return the match score counting the current game if it is over.

        Raises:
            GameStateError: the current game is not over.
        """
        result = self.game.result
        if result is None:
            raise GameStateError("the current game is not over")
        a, b = self.score
        if result.winner is None:
            return a + result.points, b + result.points
        return (a + result.points, b) if result.winner == 0 else (a, b + result.points)

    def next_game(self) -> Game:
        """Score the finished game and start the next one (in the next variant of the rotation); return it.

        The first game after a player reaches ``length - 1`` is the Crawford game (no cube) when the option
        ``crawford`` is on, whatever its variant (in a variant without the cube it changes nothing). With
        ``opening=winner_starts`` the previous winner moves first; after a draw the next game has an opening roll.

        Raises:
            GameStateError: the current game is not over.
            MatchOverError: the match has been won (:attr:`over`); nothing changes, so calling again is harmless.
        """
        if self.game.phase is not Phase.OVER or self.game.result is None:
            raise GameStateError("the current game is not over")
        if self.over:
            a, b = self.score_after_game()
            raise MatchOverError(f"the match is over: player {self.winner} has won {a:g}-{b:g}")
        before = self.score
        self.score = self.score_after_game()
        self.finished_games.append(self.game.to_dict(compact=True))
        crawford = False
        if self.length and self.options.crawford and not self.crawford_done:
            reached = [s >= self.length - 1 for s in self.score]
            was = [s >= self.length - 1 for s in before]
            if any(reached) and not any(was):
                crawford = True
                self.crawford_done = True
        winner = self.game.result.winner
        first = winner if self.options.opening == "winner_starts" and winner is not None else None
        self.game = self._new_game(crawford=crawford, first_player=first)
        return self.game

    # ----------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """Return the match as a JSON-compatible dict (finished games, current game, score).

        A plain match writes exactly the keys it always did; a rotating one adds ``rotation`` (variant names),
        ``games``, ``decider`` and ``kind``, and its ``variant`` is the current game's variant.
        """
        data: dict[str, Any] = {
            "schema": MATCH_SCHEMA_VERSION,
            "variant": self.variant.name,
            "length": self.length,
            "options": self.options.to_dict(),
            "score": list(self.score),
            "crawford_done": self.crawford_done,
            "finished_games": list(self.finished_games),
            "game": self.game.to_dict(),
        }
        if self.rotating:
            data["rotation"] = [v.name for v in self.rotation]
            data["games"] = self.games
            data["decider"] = None if self.decider is None else self.decider.name
            data["kind"] = self.kind_name
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, dice: DiceSource | None = None, verify: bool = False) -> Match:
        """Return the match saved by :meth:`to_dict`. With ``verify`` every finished game is replayed from its
        history, and each game's variant and the score are checked against the rotation and the games' results.

        Raises:
            GameStateError: an unknown schema, a game that cannot be replayed, a game in another variant than the
                rotation gives it, or (``verify``) a score that is not the sum of the games' results.
        """
        if data.get("schema") != MATCH_SCHEMA_VERSION:
            raise GameStateError(f"unknown match schema {data.get('schema')!r}")
        try:
            options = Options.from_dict(data["options"])
            length = int(data["length"])
            if "rotation" in data:
                match = cls(
                    length=length,
                    options=options,
                    dice=dice,
                    rotation=[str(name) for name in data["rotation"]],
                    games=int(data.get("games") or 0),
                    decider=data.get("decider"),
                    kind=data.get("kind"),
                )
            else:
                match = cls(data["variant"], length, options=options, dice=dice)
            match.score = (data["score"][0], data["score"][1])
            match.crawford_done = bool(data["crawford_done"])
            match.finished_games = list(data["finished_games"])
        except GameStateError:
            raise
        except (NardyError, KeyError, TypeError, IndexError, ValueError) as error:
            raise GameStateError(f"saved match cannot be read: {error}") from error
        match.game = Game.from_dict(data["game"], dice=dice, verify=verify)
        for index, saved in enumerate([*match.finished_games, data["game"]]):
            expected = match.variant_of_game(index).name
            if not isinstance(saved, dict) or saved.get("variant") != expected:
                found = saved.get("variant") if isinstance(saved, dict) else saved
                raise GameStateError(
                    f"saved match: game {index + 1} is in {found!r}, but its rotation gives {expected}"
                )
        if verify:
            match._verify_score()
        return match

    def replay_games(self) -> list[Game]:
        """Return every game of the match rebuilt by replaying its history: the finished games, then the current
        one (each in its own variant).

        Raises:
            GameStateError: a saved game cannot be replayed, or its replayed result differs from the saved one.
        """
        games = [Game.from_dict(saved) for saved in self.finished_games]
        games.append(Game.from_dict(self.game.to_dict(), verify=True))
        return games

    def _verify_score(self) -> None:
        a: float = 0
        b: float = 0
        for index, game in enumerate(self.replay_games()[:-1]):
            result = game.result
            if result is None:
                raise GameStateError(f"saved match: finished game {index + 1} has no result")
            if tuple(game.score) != (a, b):
                raise GameStateError(f"saved match: game {index + 1} starts at {game.score}, not at {(a, b)}")
            if result.winner is None:
                a, b = a + result.points, b + result.points
            elif result.winner == 0:
                a += result.points
            else:
                b += result.points
        if (a, b) != tuple(self.score) or tuple(self.game.score) != (a, b):
            raise GameStateError(f"saved match: the score {self.score} is not the games' total {(a, b)}")
