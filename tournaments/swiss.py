"""The Swiss system (§8): R rounds, each paired from the standings after the previous one."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from tournaments.errors import InvalidOptionError, NotPlayableError, TournamentOverError, UnknownPlayerError
from tournaments.model import Bye, Match, Player, Result, Round, check_length, check_players, check_result, forfeit
from tournaments.pairing import pair_round
from tournaments.standings import SwissRow, swiss_standings

SWISS_BYE_POINTS = 1.0
"""What a Swiss bye is worth (§8)."""


def default_rounds(players: int) -> int:
    """Return the default number of Swiss rounds, ⌈log2 players⌉ + 1. Raises :class:`InvalidOptionError` below 2."""
    if players < 2:
        raise InvalidOptionError(f"a Swiss tournament needs at least 2 players, got {players}")
    return math.ceil(math.log2(players)) + 1


@dataclass(frozen=True)
class Swiss:
    """A Swiss tournament in progress: the field, the rounds paired so far and the results (immutable).

    A new round is paired as soon as the previous one is complete. Advance it with :meth:`record` and
    :meth:`withdraw`, which return a new value; build it with :func:`swiss`.
    """

    players: tuple[Player, ...]
    rounds: int
    length: int = 1
    paired: tuple[Round, ...] = ()
    results: tuple[Result, ...] = ()
    withdrawn: tuple[str, ...] = ()
    events: tuple[Result | str, ...] = ()
    """What was applied, in order: each recorded :class:`Result` and each withdrawn player's id (forfeits that follow
    from a withdrawal are in ``results`` only). :mod:`tournaments.records` saves and replays it."""

    def __post_init__(self) -> None:
        check_players(self.players)
        check_length(self.length)
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 1:
            raise InvalidOptionError(f"a Swiss tournament needs a positive number of rounds, not {self.rounds!r}")

    @cached_property
    def _matches(self) -> dict[str, Match]:
        return {m.id: m for r in self.paired for m in r.matches}

    @cached_property
    def _decided(self) -> dict[str, Result]:
        return {r.match_id: r for r in self.results}

    def played(self) -> tuple[tuple[Match, Result], ...]:
        """Return the decided matches with their results, in the order they were recorded. Raises nothing."""
        return tuple((self._matches[r.match_id], r) for r in self.results)

    def byes(self) -> tuple[Bye, ...]:
        """Return the byes given so far, round by round. Raises nothing."""
        return tuple(b for r in self.paired for b in r.byes)

    def current_round(self) -> Round | None:
        """Return the last paired round if it still has an undecided match, else None. Raises nothing."""
        if self.paired and any(m.id not in self._decided for m in self.paired[-1].matches):
            return self.paired[-1]
        return None

    def playable(self) -> tuple[Match, ...]:
        """Return the undecided matches of the current round (empty once the tournament is over). Raises nothing."""
        current = self.current_round()
        if current is None:
            return ()
        return tuple(m for m in current.matches if m.id not in self._decided)

    @property
    def is_over(self) -> bool:
        """True once the last round is complete, or fewer than two players are left to pair."""
        return self.current_round() is None and not self._can_pair()

    def _active(self) -> list[str]:
        return [p.id for p in self.players if p.id not in self.withdrawn]

    def _can_pair(self) -> bool:
        return len(self.paired) < self.rounds and len(self._active()) >= 2

    def _advance(self) -> Swiss:
        """Pair the next round if the current one is complete and another is due."""
        if self.current_round() is not None or not self._can_pair():
            return self
        active = set(self._active())
        table = self.standings()
        ranked = [row.player for row in table if row.player in active]
        scores = {row.player: row.points for row in table}
        met: Counter[frozenset[str]] = Counter(frozenset((m.first, m.second)) for m in self._matches.values())
        had = Counter(b.player for b in self.byes())
        pairs, bye = pair_round(ranked, scores, met, had)
        number = len(self.paired) + 1
        matches = tuple(Match(f"S{number}-{i + 1}", number, a, b) for i, (a, b) in enumerate(pairs))
        byes = () if bye is None else (Bye(number, bye, SWISS_BYE_POINTS),)
        return replace(self, paired=(*self.paired, Round(number, matches, byes)))._advance()

    def record(self, result: Result) -> Swiss:
        """Return the tournament with ``result`` recorded (and the next round paired if this one is complete).

        Raises :class:`NotPlayableError` if the match is not in :meth:`playable`, :class:`InvalidResultError` if the
        result does not fit the match (a drawn match only in matches to 1 point, §8),
        :class:`TournamentOverError` once the tournament is over.
        """
        if self.is_over:
            raise TournamentOverError("the Swiss tournament is over; no more results can be recorded")
        match = self._matches.get(result.match_id)
        if match is None or match not in self.playable():
            raise NotPlayableError(f"match {result.match_id!r} is not playable now")
        check_result(match, result, draws=self.length == 1)
        return replace(self, results=(*self.results, result), events=(*self.events, result))._advance()

    def withdraw(self, player: str) -> Swiss:
        """Return the tournament after ``player`` withdraws: an undecided match of the current round is lost by
        forfeit and the player is not paired again (the next round is paired if this one is now complete).

        Raises :class:`UnknownPlayerError` for an id not in the field or already withdrawn, and
        :class:`TournamentOverError` once the tournament is over.
        """
        if self.is_over:
            raise TournamentOverError("the Swiss tournament is over; nobody can withdraw")
        if player not in {p.id for p in self.players} or player in self.withdrawn:
            raise UnknownPlayerError(f"{player!r} is not a player still in the Swiss tournament")
        forfeits = tuple(forfeit(m, player) for m in self.playable() if player in (m.first, m.second))
        events = (*self.events, player)
        withdrawn = (*self.withdrawn, player)
        return replace(self, results=self.results + forfeits, withdrawn=withdrawn, events=events)._advance()

    def standings(self) -> tuple[SwissRow, ...]:
        """Return the standings so far (see :func:`swiss_standings`). Raises nothing."""
        return swiss_standings(self.players, self.played(), self.byes())

    def winners(self) -> tuple[str, ...]:
        """Return the players sharing first place once the tournament is over, else (). Raises nothing."""
        if not self.is_over:
            return ()
        return tuple(row.player for row in self.standings() if row.place == 1)


def swiss(players: Iterable[Player], *, rounds: int | None = None, length: int = 1) -> Swiss:
    """Return a new Swiss tournament with its first round paired (seeds by rating).

    ``rounds`` defaults to ⌈log2 players⌉ + 1. Raises :class:`InvalidPlayersError` for a bad field and
    :class:`InvalidOptionError` for a bad number of rounds or match length.
    """
    field = check_players(players)
    count = default_rounds(len(field)) if rounds is None else rounds
    return Swiss(field, count, length)._advance()
