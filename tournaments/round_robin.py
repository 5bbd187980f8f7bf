"""Round robin and double round robin (§8): a fixed schedule by the circle method, played round by round."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property

from tournaments.errors import InvalidOptionError, NotPlayableError, TournamentOverError, UnknownPlayerError
from tournaments.model import (
    Bye,
    Match,
    Player,
    Result,
    Round,
    check_length,
    check_players,
    check_result,
    forfeit,
    seeded,
)
from tournaments.standings import CrossTable, RoundRobinRow, cross_table, round_robin_standings


def circle_rounds(players: Iterable[Player], *, cycles: int = 1) -> tuple[Round, ...]:
    """Return the schedule of a round robin by the circle method, seeds in rating order, ``cycles`` times.

    Each cycle has n − 1 rounds (n rounded up to even); an odd field gives one player a rest (a 0-point bye) each
    round. The first seed alternates first and second by round; in the second cycle every match is replayed with
    first and second swapped. Match ids are ``R<round>-<board>``. Raises :class:`InvalidPlayersError` for a bad field
    and :class:`InvalidOptionError` if ``cycles`` is not 1 or 2.
    """
    if cycles not in (1, 2):
        raise InvalidOptionError(f"a round robin is played once or twice, not {cycles!r} times")
    ids: list[str | None] = [p.id for p in seeded(check_players(players))]
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    pairs_by_round: list[list[tuple[str | None, str | None]]] = []
    circle = ids[1:]
    for r in range(n - 1):
        line = [ids[0], *circle]
        pairs = [(line[i], line[n - 1 - i]) for i in range(n // 2)]
        if r % 2:
            pairs[0] = (pairs[0][1], pairs[0][0])
        pairs_by_round.append(pairs)
        circle = circle[-1:] + circle[:-1]
    rounds: list[Round] = []
    for cycle in range(cycles):
        for pairs in pairs_by_round:
            number = len(rounds) + 1
            matches: list[Match] = []
            byes: list[Bye] = []
            for first, second in pairs:
                if first is None or second is None:
                    rest = first if second is None else second
                    assert rest is not None
                    byes.append(Bye(number, rest, 0.0))
                    continue
                if cycle:
                    first, second = second, first
                matches.append(Match(f"R{number}-{len(matches) + 1}", number, first, second))
            rounds.append(Round(number, tuple(matches), tuple(byes)))
    return tuple(rounds)


@dataclass(frozen=True)
class RoundRobin:
    """A round robin in progress: the field, the fixed schedule, and the results so far (immutable).

    Advance it with :meth:`record` and :meth:`withdraw`, which return a new value.
    """

    players: tuple[Player, ...]
    cycles: int = 1
    length: int = 1
    results: tuple[Result, ...] = ()
    withdrawn: tuple[str, ...] = field(default=())
    events: tuple[Result | str, ...] = ()
    """What was applied, in order: each recorded :class:`Result` and each withdrawn player's id (forfeits that follow
    from a withdrawal are in ``results`` only). :mod:`tournaments.records` saves and replays it."""

    def __post_init__(self) -> None:
        check_length(self.length)
        _ = self.rounds  # checks the field and the number of cycles

    @cached_property
    def rounds(self) -> tuple[Round, ...]:
        """The whole schedule, round by round."""
        return circle_rounds(self.players, cycles=self.cycles)

    @cached_property
    def _matches(self) -> dict[str, Match]:
        return {m.id: m for r in self.rounds for m in r.matches}

    @cached_property
    def _decided(self) -> dict[str, Result]:
        return {r.match_id: r for r in self.results}

    def played(self) -> tuple[tuple[Match, Result], ...]:
        """Return the decided matches with their results, in the order they were recorded. Raises nothing."""
        return tuple((self._matches[r.match_id], r) for r in self.results)

    def current_round(self) -> Round | None:
        """Return the first round with an undecided match, or None once every match is decided. Raises nothing."""
        for r in self.rounds:
            if any(m.id not in self._decided for m in r.matches):
                return r
        return None

    def playable(self) -> tuple[Match, ...]:
        """Return the undecided matches of the current round (empty once the tournament is over). Raises nothing."""
        current = self.current_round()
        if current is None:
            return ()
        return tuple(m for m in current.matches if m.id not in self._decided)

    @property
    def is_over(self) -> bool:
        """True once every scheduled match is decided."""
        return self.current_round() is None

    def record(self, result: Result) -> RoundRobin:
        """Return the tournament with ``result`` recorded.

        Raises :class:`NotPlayableError` if the match is not in :meth:`playable`, :class:`InvalidResultError` if the
        result does not fit the match (a drawn match only in matches to 1 point, §8),
        :class:`TournamentOverError` once the tournament is over.
        """
        if self.is_over:
            raise TournamentOverError("the round robin is over; no more results can be recorded")
        match = self._matches.get(result.match_id)
        if match is None or match not in self.playable():
            raise NotPlayableError(f"match {result.match_id!r} is not playable now")
        check_result(match, result, draws=self.length == 1)
        return replace(self, results=(*self.results, result), events=(*self.events, result))

    def withdraw(self, player: str) -> RoundRobin:
        """Return the tournament after ``player`` withdraws: every undecided match of theirs is lost by forfeit.

        Raises :class:`UnknownPlayerError` for an id not in the field or already withdrawn, and
        :class:`TournamentOverError` once the tournament is over.
        """
        if self.is_over:
            raise TournamentOverError("the round robin is over; nobody can withdraw")
        if player not in {p.id for p in self.players} or player in self.withdrawn:
            raise UnknownPlayerError(f"{player!r} is not a player still in the round robin")
        forfeits = tuple(
            forfeit(m, player)
            for r in self.rounds
            for m in r.matches
            if player in (m.first, m.second) and m.id not in self._decided
        )
        return replace(
            self, results=self.results + forfeits, withdrawn=(*self.withdrawn, player), events=(*self.events, player)
        )

    def standings(self) -> tuple[RoundRobinRow, ...]:
        """Return the standings so far (see :func:`round_robin_standings`). Raises nothing."""
        return round_robin_standings(self.players, self.played())

    def cross_table(self) -> CrossTable:
        """Return the cross-table so far (see :func:`cross_table`). Raises nothing."""
        return cross_table(self.players, self.played())

    def winners(self) -> tuple[str, ...]:
        """Return the players sharing first place once the tournament is over, else (). Raises nothing."""
        if not self.is_over:
            return ()
        return tuple(row.player for row in self.standings() if row.place == 1)


def round_robin(players: Iterable[Player], *, length: int = 1) -> RoundRobin:
    """Return a new single round robin of ``players`` with matches to ``length`` points.

    Raises :class:`InvalidPlayersError` for a bad field and :class:`InvalidOptionError` for a bad length.
    """
    return RoundRobin(check_players(players), 1, length)


def double_round_robin(players: Iterable[Player], *, length: int = 1) -> RoundRobin:
    """Return a new double round robin (everyone meets everyone twice, first and second swapped the second time).

    Raises :class:`InvalidPlayersError` for a bad field and :class:`InvalidOptionError` for a bad length.
    """
    return RoundRobin(check_players(players), 2, length)
