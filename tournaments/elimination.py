"""Single and double elimination (§8): brackets seeded by rating, advanced by results.

The bracket has P slots, P the smallest power of two ≥ the field; seeds go to slots in the standard order (1 and 2
can meet only in the final) and the seeds above the field are byes, so the top seeds get the first-round byes. A bye
is not a match. Double elimination: the losers of winners'-bracket round 1 meet in losers' round 1; in each even
losers' round the survivors meet the losers of the next winners' round (entering in reverse order every other time,
to put off rematches); odd losers' rounds pair the survivors. The losers' champion meets the winners' champion in
the grand final (``GF1``); with ``bracket_reset`` a win by the losers' champion forces a deciding ``GF2``.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

from tournaments.errors import InvalidOptionError, NotPlayableError, TournamentOverError, UnknownPlayerError
from tournaments.model import Bye, Match, Player, Result, check_length, check_players, check_result, forfeit, seeded
from tournaments.standings import EliminationRow, elimination_standings


class _Pending(enum.Enum):
    PENDING = 0


_PENDING = _Pending.PENDING
_Slot = str | None | _Pending


def bracket_order(size: int) -> tuple[int, ...]:
    """Return the seed numbers (1-based) in bracket order for ``size`` slots: 8 → 1, 8, 4, 5, 2, 7, 3, 6.

    Adjacent pairs meet in round 1; seeds 1 and 2 are in different halves. Raises :class:`InvalidOptionError` if
    ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise InvalidOptionError(f"a bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return tuple(order)


@dataclass(frozen=True)
class Source:
    """Where a bracket slot's player comes from: ``kind`` ``"seed"`` (``ref`` the seed number, 1-based, as text),
    or the ``"winner"`` or ``"loser"`` of the node whose id is ``ref`` (``"W1-2"``, ``"L3-1"``, ``"GF1"``)."""

    kind: Literal["seed", "winner", "loser"]
    ref: str


@dataclass(frozen=True)
class BracketNode:
    """One node of the whole bracket, known or not: a match, a bye, or a node still waiting for its players.

    ``id``, ``bracket`` and ``round`` are those of the :class:`Match` it is (or will be); ``index`` is its 0-based
    place in its round, top to bottom. ``players`` are the two slots' players, None where a slot is not filled:
    ``empty`` tells whether it never will be (a bye: no seed there, or nobody comes from that side) or the player
    is still to come. ``sources`` say where each slot comes from. ``winner`` is who goes on (the winner of a decided
    match, the player of a bye), else None; ``result`` the decided match's result.
    """

    id: str
    bracket: str
    round: int
    index: int
    players: tuple[str | None, str | None]
    empty: tuple[bool, bool]
    sources: tuple[Source, Source]
    winner: str | None = None
    result: Result | None = None

    @property
    def is_match(self) -> bool:
        """True when both players are known (the node is one of :meth:`Elimination.matches`)."""
        return self.players[0] is not None and self.players[1] is not None

    @property
    def is_bye(self) -> bool:
        """True when exactly one slot stays empty and the other holds a player, who goes on without a match."""
        return self.empty[0] != self.empty[1] and self.winner is not None and not self.is_match

    @property
    def is_playable(self) -> bool:
        """True for a match with both players known and no result yet."""
        return self.is_match and self.result is None


def _seat(value: _Slot) -> str | None:
    return value if isinstance(value, str) else None


@dataclass
class _Run:
    """Scratch state of one walk through the bracket (private; the walk result is frozen into :class:`_Bracket`)."""

    decided: dict[str, Result]
    matches: list[Match] = field(default_factory=list)
    played: list[tuple[Match, Result]] = field(default_factory=list)
    playable: list[Match] = field(default_factory=list)
    reached: dict[str, int] = field(default_factory=dict)
    seats: dict[str, int] = field(default_factory=dict)
    """Each player's furthest stage seated so far (a known slot of a node, decided or not)."""
    nodes: list[BracketNode] = field(default_factory=list)

    def play(
        self,
        match_id: str,
        number: int,
        bracket: str,
        a: _Slot,
        b: _Slot,
        stage: int,
        sources: tuple[Source, Source],
        index: int,
        seat: int,
    ) -> tuple[_Slot, _Slot]:
        """Return (winner, loser) of one bracket node: pending, a bye (loser None) or a decided match; note the node
        and, for each player seated in it, ``seat``: the stage they are sure of once there."""
        for player in (a, b):
            if isinstance(player, str):
                self.seats[player] = max(self.seats.get(player, 0), seat)
        winner, loser = self._play(match_id, number, bracket, a, b, stage)
        result = self.decided.get(match_id) if isinstance(loser, str) else None
        self.nodes.append(
            BracketNode(
                match_id,
                bracket,
                number,
                index,
                (_seat(a), _seat(b)),
                (a is None, b is None),
                sources,
                _seat(winner),
                result,
            )
        )
        return winner, loser

    def _play(self, match_id: str, number: int, bracket: str, a: _Slot, b: _Slot, stage: int) -> tuple[_Slot, _Slot]:
        if a is _PENDING or b is _PENDING:
            return _PENDING, _PENDING
        if a is None or b is None:
            return (b if a is None else a), None
        match = Match(match_id, number, a, b, bracket)
        self.matches.append(match)
        for player in (a, b):
            self.reached[player] = max(self.reached.get(player, 0), stage)
        result = self.decided.get(match_id)
        if result is None:
            self.playable.append(match)
            return _PENDING, _PENDING
        self.played.append((match, result))
        assert result.winner is not None
        return result.winner, match.opponent(result.winner)


@dataclass(frozen=True)
class _Bracket:
    matches: tuple[Match, ...]
    played: tuple[tuple[Match, Result], ...]
    playable: tuple[Match, ...]
    byes: tuple[Bye, ...]
    champion: str | None
    reached: dict[str, int]
    eliminated: frozenset[str]
    unbeaten: frozenset[str]
    nodes: tuple[BracketNode, ...]


def _won(match_id: str) -> Source:
    return Source("winner", match_id)


def _lost(match_id: str) -> Source:
    return Source("loser", match_id)


def _walk(seeds: tuple[str, ...], results: tuple[Result, ...], double: bool, bracket_reset: bool) -> _Bracket:
    size = 1
    while size < len(seeds):
        size *= 2
    rounds = size.bit_length() - 1
    run = _Run({r.match_id: r for r in results})
    order = bracket_order(size)
    slots: list[_Slot] = [seeds[s - 1] if s <= len(seeds) else None for s in order]
    src = [Source("seed", str(s)) for s in order]
    byes = tuple(
        Bye(1, p, 0.0)
        for p in seeds
        if any(p in pair and None in pair for pair in zip(slots[::2], slots[1::2], strict=True))
    )
    losers: list[list[_Slot]] = [[]]
    losers_src: list[list[Source]] = [[]]
    wb_stage = 0 if double else 1
    for r in range(1, rounds + 1):
        ids = [f"W{r}-{i + 1}" for i in range(len(slots) // 2)]
        pairs = [
            run.play(
                ids[i],
                r,
                "winners",
                slots[2 * i],
                slots[2 * i + 1],
                wb_stage * r,
                (src[2 * i], src[2 * i + 1]),
                i,
                max(1, 2 * (r - 1)) if double else r,
            )
            for i in range(len(ids))
        ]
        slots = [w for w, _ in pairs]
        src = [_won(m) for m in ids]
        losers.append([lost for _, lost in pairs])
        losers_src.append([_lost(m) for m in ids])
    champion = slots[0]
    final_stage = rounds
    if double:
        lb: list[_Slot] = losers[1]
        lb_src = losers_src[1]

        def lb_round(r: int, pairs: list[tuple[_Slot, _Slot, Source, Source]]) -> tuple[list[_Slot], list[Source]]:
            ids = [f"L{r}-{i + 1}" for i in range(len(pairs))]
            won = [run.play(ids[i], r, "losers", a, b, r, (sa, sb), i, r)[0] for i, (a, b, sa, sb) in enumerate(pairs)]
            return won, [_won(m) for m in ids]

        def halves(lb: list[_Slot], lb_src: list[Source]) -> list[tuple[_Slot, _Slot, Source, Source]]:
            return [(lb[2 * i], lb[2 * i + 1], lb_src[2 * i], lb_src[2 * i + 1]) for i in range(len(lb) // 2)]

        if rounds > 1:
            lb, lb_src = lb_round(1, halves(lb, lb_src))
            for j in range(1, rounds):
                entrants = losers[j + 1][::-1] if j % 2 else losers[j + 1]
                entrants_src = losers_src[j + 1][::-1] if j % 2 else losers_src[j + 1]
                r = 2 * j
                lb, lb_src = lb_round(r, [(entrants[i], lb[i], entrants_src[i], lb_src[i]) for i in range(len(lb))])
                if j < rounds - 1:
                    lb, lb_src = lb_round(r + 1, halves(lb, lb_src))
        final_stage = 2 * (rounds - 1) + 1
        wb_champion, lb_champion = champion, lb[0]
        champion, _ = run.play(
            "GF1", rounds + 1, "final", wb_champion, lb_champion, final_stage, (src[0], lb_src[0]), 0, final_stage
        )
        if bracket_reset and isinstance(champion, str) and champion == lb_champion:
            champion, _ = run.play(
                "GF2",
                rounds + 2,
                "final",
                lb_champion,
                wb_champion,
                final_stage,
                (_won("GF1"), _lost("GF1")),
                0,
                final_stage,
            )
    winner = champion if isinstance(champion, str) else None
    lost = Counter(m.opponent(r.winner) for m, r in run.played if r.winner is not None)
    # double: a winners'-bracket player is sure of the losers' round a loss would drop them into (round w's losers
    # enter losers' round 2(w − 1), round 1's losers' round 1); a losers'-bracket player of the round they stand in
    stages = run.seats if double else run.reached
    reached = {p: stages.get(p, 1) for p in seeds}
    if winner is not None:
        reached[winner] = final_stage + 1
        eliminated = frozenset(p for p in seeds if p != winner)
    else:
        eliminated = frozenset(p for p in seeds if lost[p] >= (2 if double else 1))
    unbeaten = frozenset(p for p in seeds if not lost[p] and p not in eliminated)
    return _Bracket(
        tuple(run.matches),
        tuple(run.played),
        tuple(run.playable),
        byes,
        winner,
        reached,
        eliminated,
        unbeaten,
        tuple(run.nodes),
    )


@dataclass(frozen=True)
class Elimination:
    """A single or double elimination in progress: the field and the results so far (immutable).

    The bracket is rebuilt from the results; the matches whose two players are known and that are undecided are
    :meth:`playable` (several rounds may be in play at once). A withdrawn player loses every match of theirs by
    forfeit as it comes up (if both players of a match have withdrawn, the lower seed is the one to forfeit).
    Advance it with :meth:`record` and :meth:`withdraw`; build it with :func:`single_elimination` or
    :func:`double_elimination`.
    """

    players: tuple[Player, ...]
    double: bool = False
    bracket_reset: bool = True
    length: int = 1
    results: tuple[Result, ...] = ()
    withdrawn: tuple[str, ...] = ()
    events: tuple[Result | str, ...] = ()
    """What was applied, in order: each recorded :class:`Result` and each withdrawn player's id (forfeits that follow
    from a withdrawal are in ``results`` only). :mod:`tournaments.records` saves and replays it."""

    def __post_init__(self) -> None:
        check_players(self.players)
        check_length(self.length)

    @cached_property
    def _bracket(self) -> _Bracket:
        seeds = tuple(p.id for p in seeded(self.players))
        return _walk(seeds, self.results, self.double, self.bracket_reset)

    def _settle(self) -> Elimination:
        """Record a forfeit for every playable match of a withdrawn player (of two, the lower seed forfeits)."""
        seed = {p.id: i for i, p in enumerate(seeded(self.players))}
        state = self
        while not state.is_over:
            forfeits = []
            for match in state.playable():
                out = [p for p in (match.first, match.second) if p in self.withdrawn]
                if out:
                    forfeits.append(forfeit(match, max(out, key=seed.__getitem__)))
            if not forfeits:
                break
            state = replace(state, results=state.results + tuple(forfeits))
        return state

    def matches(self) -> tuple[Match, ...]:
        """Return every match whose two players are known so far, decided or not, in bracket order. Raises nothing."""
        return self._bracket.matches

    def bracket(self) -> tuple[BracketNode, ...]:
        """Return every node of the whole bracket, known or not, in bracket order: the winners' rounds, then (double)
        the losers' rounds and ``GF1``, and ``GF2`` once the losers' champion has won ``GF1`` (with
        ``bracket_reset``). A node whose players are both known is one of :meth:`matches`; a first-round node with
        one seed is a bye; the others wait for their players. Raises nothing.
        """
        return self._bracket.nodes

    def played(self) -> tuple[tuple[Match, Result], ...]:
        """Return the decided matches with their results (forfeits of withdrawn players included). Raises nothing."""
        return self._bracket.played

    def playable(self) -> tuple[Match, ...]:
        """Return the undecided matches whose two players are known. Raises nothing."""
        return self._bracket.playable

    def byes(self) -> tuple[Bye, ...]:
        """Return the first-round byes (the top seeds when the field is not a power of two). Raises nothing."""
        return self._bracket.byes

    @property
    def champion(self) -> str | None:
        """The winner once the tournament is over, else None."""
        return self._bracket.champion

    @property
    def is_over(self) -> bool:
        """True once the final is decided."""
        return self._bracket.champion is not None

    def winners(self) -> tuple[str, ...]:
        """Return (champion,) once the tournament is over, else (). Raises nothing."""
        return () if self.champion is None else (self.champion,)

    def record(self, result: Result) -> Elimination:
        """Return the tournament with ``result`` recorded.

        Raises :class:`NotPlayableError` if the match is not in :meth:`playable`, :class:`InvalidResultError` if the
        result does not fit the match (no draws in elimination), :class:`TournamentOverError` once it is over.
        """
        if self.is_over:
            raise TournamentOverError("the elimination is over; no more results can be recorded")
        match = next((m for m in self.playable() if m.id == result.match_id), None)
        if match is None:
            raise NotPlayableError(f"match {result.match_id!r} is not playable now")
        check_result(match, result, draws=False)
        return replace(self, results=(*self.results, result), events=(*self.events, result))._settle()

    def withdraw(self, player: str) -> Elimination:
        """Return the tournament after ``player`` withdraws: the opponent of each of their matches advances by forfeit.

        Raises :class:`UnknownPlayerError` for an id not in the field, withdrawn or already eliminated, and
        :class:`TournamentOverError` once the tournament is over.
        """
        if self.is_over:
            raise TournamentOverError("the elimination is over; nobody can withdraw")
        ids = {p.id for p in self.players}
        if player not in ids or player in self.withdrawn or player in self._bracket.eliminated:
            raise UnknownPlayerError(f"{player!r} is not a player still in the elimination")
        return replace(self, withdrawn=(*self.withdrawn, player), events=(*self.events, player))._settle()

    def standings(self) -> tuple[EliminationRow, ...]:
        """Return the standings so far: players still in first, then the stage reached, then (at the same stage) the
        unbeaten above the once beaten, then rating. Raises nothing.

        Single elimination: ``reached`` is the round of the last match (the champion gets rounds + 1). Double
        elimination, on the losers' bracket's scale: an eliminated player the losers' round of the second loss; a
        player still in the losers' round they stand in, and a player still unbeaten in winners' round w the losers'
        round a loss would drop them into (2·(w − 1), round 1: 1), the stage they are sure of; the grand final is
        2·(rounds − 1) + 1, the champion one more.
        """
        bracket = self._bracket
        return elimination_standings(self.players, bracket.reached, bracket.eliminated, bracket.unbeaten)


def single_elimination(players: Iterable[Player], *, length: int = 1) -> Elimination:
    """Return a new single elimination seeded by rating (1 v N, 2 v N−1, ...; top seeds get the byes).

    Raises :class:`InvalidPlayersError` for a bad field and :class:`InvalidOptionError` for a bad length.
    """
    return Elimination(check_players(players), double=False, length=length)


def double_elimination(players: Iterable[Player], *, bracket_reset: bool = True, length: int = 1) -> Elimination:
    """Return a new double elimination seeded by rating; a second loss eliminates.

    ``bracket_reset`` (default on): if the losers'-bracket champion wins the grand final, a deciding second final is
    played. Raises :class:`InvalidPlayersError` for a bad field and :class:`InvalidOptionError` for a bad length.
    """
    return Elimination(check_players(players), double=True, bracket_reset=bracket_reset, length=length)
