"""The arena's pairing waves: the store's pool ``arena:<id>`` brought in line with the record, then pairs chosen with
:func:`tournaments.matching.arena_pairs` and claimed through the matchmaker, each pair's game started in the
players' private chats.

**Who may be paired is the record's say.** The pool is only where the free players wait: every wave first puts in
it each free player who is neither waiting nor claimed (their entry's score is their arena score, its data their
rating and last opponent) and takes out anyone who is not free (withdrawn, paused, playing, or the arena over).
Starting a pair is one compare-and-set of the arena's record that adds the running game only when both players are
still free in it (:meth:`ArenaPairing.start`); the game is created after that, under the pairing's id, so a retry
(the matchmaker's recovery after a crash, or another worker's) creates the same game. Hence however many workers
run waves at once, nobody is ever started in two games: a pair that the record refuses is released by the
matchmaker, and the refused player's entry is removed first, so that the release does not bring it back.

**Nor in a game elsewhere.** A player who has an unfinished game that is not this pairing's (a lobby game, a casual
one, a game of another group's arena: the store's ``user_games``) is busy: the wave does not put them into the pool,
and :meth:`ArenaPairing.start` refuses a pair with them (their entry is removed, their partner waits on). They come
back into the pool at the first wave after that game ends (the reconciler looks again every few seconds while a
free player is out of the pool: :data:`bot.services.arena.reconcile.BUSY_RECHECK`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from bot.model.arena import ArenaRecord, RunningGame
from bot.model.game import ChatLink, PlayerInfo, TournamentLink
from bot.services.arena.records import ArenaRecordKeeper
from bot.services.arena.table import scores
from bot.storage import GameRecords
from bot.storage.documents import JSONDict
from bot.storage.pools import PairingPools, PoolEntry, StoredPairing, read_pool
from tournaments.matching import Seeker, arena_pairs

if TYPE_CHECKING:
    from bot.services.actions import GameActions

ARENA_LENGTH = 1
"""An arena game is a match to one point (its points still count 1–3 for a марс or a кокс)."""

Start = Callable[[StoredPairing], Awaitable[bool]]
Choose = Callable[[list[PoolEntry], float], list[tuple[str, str]]]


class PairMaker(Protocol):
    """The matchmaker (:mod:`bot.services.matchmaking`): claims pairs from a pool exactly once and starts them."""

    async def pair(self, pool: str, choose: Choose, start: Start) -> list[StoredPairing]:
        """Claim the pairs ``choose`` makes of the pool's entries and start each. Returns the pairings started."""
        ...

    async def recover(self, pool: str, start: Start) -> int:
        """Start (or release) the pool's pairings left open past their lease. Returns how many."""
        ...


def pool_name(arena_id: str) -> str:
    """Return the name of the arena's pairing pool."""
    return f"arena:{arena_id}"


def seekers(entries: list[PoolEntry]) -> list[Seeker]:
    """Return the pool's entries as the pure pairing reads them."""
    found: list[Seeker] = []
    for entry in entries:
        rating = entry.data.get("rating", 1500.0)
        last = entry.data.get("last")
        found.append(
            Seeker(
                entry.member,
                float(rating) if isinstance(rating, (int, float)) else 1500.0,
                entry.since,
                score=entry.score,
                last_opponent=last if isinstance(last, str) else None,
            )
        )
    return found


class ArenaPairing:
    """Pairing waves of the arenas (see the module docstring)."""

    def __init__(
        self,
        records: ArenaRecordKeeper,
        pools: PairingPools,
        matchmaker: PairMaker,
        game_records: GameRecords,
        games: GameActions,
        clock: Callable[[], float],
    ) -> None:
        """Change the arenas through ``records``; keep the waiting players in ``pools`` and claim pairs with
        ``matchmaker``; look for the games in ``game_records`` and create them with ``games``; on ``clock``."""
        self.records = records
        self.pools = pools
        self.matchmaker = matchmaker
        self.game_records = game_records
        self.games = games
        self.clock = clock

    async def wave(self, arena_id: str, record: ArenaRecord) -> int:
        """Bring the pool in line with ``record``, start the pairings left open by a dead worker, and pair the
        players waiting. Returns: how many games were started. Raises: StoreUnavailableError."""
        pool = pool_name(arena_id)
        await self.sync_pool(arena_id, record)
        if record.status != "running":
            return 0
        start = self._starter(arena_id)
        started = await self.matchmaker.recover(pool, start)
        alone_after = record.settings.alone_after

        def choose(entries: list[PoolEntry], now: float) -> list[tuple[str, str]]:
            return arena_pairs(seekers(entries), now, alone_after=alone_after)

        started += len(await self.matchmaker.pair(pool, choose, start))
        return started

    async def sync_pool(self, arena_id: str, record: ArenaRecord) -> list[PoolEntry]:
        """Put every free player of ``record`` who is neither waiting nor claimed into the pool, and take out every
        entry of a player who is not free. Returns: the entries waiting now. Raises: StoreUnavailableError."""
        pool = pool_name(arena_id)
        now = self.clock()
        entries = await read_pool(self.pools, pool, now)
        claimed = {e.member for p in await self.pools.open_pairings(pool, now + 1e9) for e in p.entries}
        free = {p.pid: p for p in record.free()}
        waiting: list[PoolEntry] = []
        for entry in entries:
            if entry.member in free:
                waiting.append(entry)
            else:
                await self.pools.pool_remove(pool, entry.member)
        present = {e.member for e in entries} | claimed
        table = scores(record) if free else {}
        for pid, player in free.items():
            if pid in present or await self.busy_elsewhere(player.user_id):
                continue
            last = record.last_opponent(player.user_id)
            data: JSONDict = {"rating": player.rating, "last": None if last is None else str(last)}
            entry = PoolEntry(pid, float(table.get(pid, 0)), now, data)
            await self.pools.pool_put(pool, entry)
            waiting.append(entry)
        return waiting

    async def busy_elsewhere(self, user_id: int, game_id: str | None = None) -> bool:
        """Return whether the user has an unfinished game other than ``game_id`` (anywhere: a lobby, casual or
        other arena's game). Raises: StoreUnavailableError."""
        return any(g != game_id for g in await self.game_records.user_games(user_id))

    async def clear(self, arena_id: str) -> None:
        """Take everyone out of the arena's pool (it is over). Returns nothing. Raises: StoreUnavailableError."""
        pool = pool_name(arena_id)
        for entry in await read_pool(self.pools, pool, self.clock()):
            await self.pools.pool_remove(pool, entry.member)

    def _starter(self, arena_id: str) -> Start:
        async def start(pairing: StoredPairing) -> bool:
            return await self.start(arena_id, pairing)

        return start

    async def start(self, arena_id: str, pairing: StoredPairing) -> bool:
        """Start the pairing's game (idempotent): one compare-and-set adds it to the record's running games when
        both players are free there (or it is there already), then the game is created under the pairing's id.

        Returns: True when the game exists now; False when the record refuses the pair, or a player has another
        unfinished game (:meth:`busy_elsewhere`): the refused players' entries are removed, so that releasing the
        pairing brings back only the free one.
        Raises: StoreUnavailableError."""
        game_id = pairing.pairing_id
        users = tuple(int(e.member) for e in pairing.entries)
        first, second = users[0], users[1]
        now = self.clock()
        busy = {u for u in (first, second) if await self.busy_elsewhere(u, game_id)}

        def change(record: ArenaRecord) -> ArenaRecord | str | None:
            if record.knows_game(game_id):
                return None  # started already (a retry)
            if now >= record.ends_at:  # over, though the end is not noted yet: no new game
                return f"{first} {second}"
            free = {p.user_id for p in record.free()} - busy
            refused = [u for u in (first, second) if u not in free]
            if refused:
                return " ".join(str(u) for u in refused)
            game = RunningGame(game_id, (first, second), now)
            return record.with_changes(running=(*record.running, game))

        outcome = await self.records.mutate(arena_id, change)
        if isinstance(outcome, str):
            for member in outcome.split():
                await self.pools.pool_remove(pairing.pool, member)
            return False
        loaded = await self.records.load(arena_id)
        if loaded is None:
            return False
        record = loaded[1]
        running = next((g for g in record.running if g.game_id == game_id), None)
        if running is None:
            return record.knows_game(game_id)  # finished already, or ended after the end
        await self.create_game(arena_id, record, running)
        return True

    async def create_game(self, arena_id: str, record: ArenaRecord, running: RunningGame) -> None:
        """Create the running game's session in its players' private chats (idempotent: under its own id), on the
        arena's clock. Returns nothing. Raises: StoreUnavailableError."""
        if await self.game_records.get_game(running.game_id) is not None:
            return
        players: list[PlayerInfo] = []
        for user_id in running.players:
            player = record.player(user_id)
            assert player is not None, f"arena game {running.game_id} has a player {user_id} not in the arena"
            players.append(PlayerInfo(user_id, player.name, player.lang))
        chats = [ChatLink(p.id, index) for index, p in enumerate(players)]
        await self.games.start_tournament_game(
            record.settings.variant,
            ARENA_LENGTH,
            players,
            chats,
            game_id=running.game_id,
            tournament=TournamentLink(arena_id, running.game_id, arena=True),
            kind="private",
            clock=record.settings.clock,
        )
