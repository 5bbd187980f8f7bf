"""SQLite-only behaviour: indexes, purging outside the write path, and opening files of older versions."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from bot.storage import BoardFence, BoardState, SqliteGameStore, Stats, StoredRating

FIXTURES = Path(__file__).parent / "fixtures"

FIXTURE_NOW = 1_800_000_000.0
"""The store clock when ``fixtures/store-before-split.sqlite`` was written (its records are read at that time)."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _query_plan(path: str, sql: str, args: tuple[object, ...]) -> str:
    conn = sqlite3.connect(path)
    try:
        return " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, args))
    finally:
        conn.close()


async def test_game_rows_are_indexed_by_game_id(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    await store.ping()
    await store.close()
    # The cascading delete of a game looks its rows up by game_id: without these indexes every deleted game
    # scanned the whole tables (100,000 games, 1,000 expired: 48 s).
    for table in ("game_chats", "game_users"):
        plan = _query_plan(sqlite_path, f"SELECT 1 FROM {table} WHERE game_id = ?", ("x",))
        assert "USING COVERING INDEX" in plan or "USING INDEX" in plan, plan
        assert "SCAN" not in plan, plan


async def test_user_chat_games_does_not_scan_the_chat(sqlite_path: str) -> None:
    store = SqliteGameStore(sqlite_path)
    await store.ping()
    await store.close()
    plan = _query_plan(
        sqlite_path,
        "SELECT g.id FROM game_users u CROSS JOIN game_chats c ON c.chat_id = ? AND c.game_id = u.game_id"
        " JOIN games g ON g.id = u.game_id"
        " WHERE u.user_id = ? AND g.finished = 0 AND g.quarantined IS NULL ORDER BY g.created_at, g.rowid",
        (-1, 5),
    )
    assert "SCAN" not in plan.replace("SCAN CONSTANT ROW", ""), plan
    assert "SEARCH u USING" in plan and "SEARCH c USING" in plan, plan


async def test_writes_never_purge(sqlite_path: str) -> None:
    clock = Clock()
    store = SqliteGameStore(sqlite_path, clock=clock)
    try:
        expired = await store.create_game({"n": 0}, chat_ids=[-1])
        assert await store.finish_game(expired, 1, {}, ttl=10) == 2
        clock.now += 100
        for i in range(250):  # the old store purged inside every 100th write
            await store.create_game({"n": i}, chat_ids=[-2])
        conn = sqlite3.connect(sqlite_path)
        try:
            assert conn.execute("SELECT COUNT(*) FROM games WHERE id = ?", (expired,)).fetchone() == (1,)
        finally:
            conn.close()
        assert await store.get_game(expired) is None  # invisible all the same
        assert await store.purge_expired() == 1
        conn = sqlite3.connect(sqlite_path)
        try:
            assert conn.execute("SELECT COUNT(*) FROM games WHERE id = ?", (expired,)).fetchone() == (0,)
            assert conn.execute("SELECT COUNT(*) FROM game_chats WHERE game_id = ?", (expired,)).fetchone() == (0,)
        finally:
            conn.close()
    finally:
        await store.close()


async def test_purge_runs_in_batches_and_lets_other_operations_in(sqlite_path: str) -> None:
    clock = Clock()
    store = SqliteGameStore(sqlite_path, clock=clock)
    try:
        for _ in range(7):
            game_id = await store.create_game({"n": 0}, chat_ids=[-1], user_ids=[5])
            await store.set_board(game_id, -1, 1, 1)
            assert await store.finish_game(game_id, 1, {}, ttl=10) == 2
        await store.add_game_stats(-1, "game000001", {5: (1, 0, 0)})
        await store.create_challenge({"by": 1}, ttl=10)
        clock.now += 91 * 24 * 3600
        transactions = []
        real_tx = store._tx

        def counting_tx(fn):  # type: ignore[no-untyped-def]
            transactions.append(fn)
            return real_tx(fn)

        store._tx = counting_tx  # type: ignore[method-assign]
        assert await store.purge_expired(batch=3) == 7 + 1 + 1
        # games: 3 + 3 + 1; challenges: 1; counted games: 1; send budgets: none -> six transactions of at most 3 rows
        assert len(transactions) == 6
        conn = sqlite3.connect(sqlite_path)
        try:
            for table in ("games", "game_chats", "game_users", "game_boards", "challenges", "counted_games"):
                assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,), table
        finally:
            conn.close()
    finally:
        await store.close()


OLD_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, version INTEGER NOT NULL, data TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
    chat_ids TEXT NOT NULL, user_ids TEXT NOT NULL, deadline REAL, created_at REAL NOT NULL, finished_at REAL,
    expires_at REAL
);
CREATE TABLE game_chats (game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE, chat_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, game_id));
CREATE TABLE game_users (game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE, user_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id));
CREATE TABLE stats (chat_id INTEGER NOT NULL, user_id INTEGER NOT NULL, wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (chat_id, user_id));
INSERT INTO games VALUES ('oldgame001', 3, '{"n": 3}', 0, '[-1]', '[5]', 50.0, 1.0, NULL, NULL);
INSERT INTO game_chats VALUES ('oldgame001', -1);
INSERT INTO game_users VALUES ('oldgame001', 5);
INSERT INTO stats VALUES (-1, 5, 2, 1, 0);
"""


async def test_file_of_an_older_version_is_upgraded(sqlite_path: str) -> None:
    conn = sqlite3.connect(sqlite_path)
    conn.executescript(OLD_SCHEMA)
    conn.close()
    store = SqliteGameStore(sqlite_path)
    try:
        game = await store.get_game("oldgame001")
        assert game is not None and game.version == 3 and not game.quarantined and game.boards == {}
        assert await store.user_chat_games(-1, 5) == ["oldgame001"]
        assert await store.due_games(now=60.0) == ["oldgame001"]
        assert await store.set_board("oldgame001", -1, 9, 3) is True
        assert await store.add_game_stats(-1, "oldgame001", {5: (1, 0, 0)}) is True
        assert (await store.get_stats(-1, 5)).wins == 3
        await store.quarantine_game("oldgame001", "test")
        assert await store.quarantined_games() == ["oldgame001"]
    finally:
        await store.close()
    # Opening it again (columns present now) works too.
    again = SqliteGameStore(sqlite_path)
    try:
        assert await again.quarantined_games() == ["oldgame001"]
    finally:
        await again.close()


async def test_file_written_before_the_split_by_aggregate_opens_with_every_record(tmp_path: Path) -> None:
    # fixtures/store-before-split.sqlite was written by the single-module SQLite store (commit a4eeea7), clock at
    # FIXTURE_NOW: an active game with a board and a claim, a finished game, a quarantined game, a challenge,
    # settings, counted stats, a running and a finished tournament, ratings with a leaderboard, a handled update.
    path = tmp_path / "nardy.sqlite"
    shutil.copyfile(FIXTURES / "store-before-split.sqlite", path)
    store = SqliteGameStore(path, clock=lambda: FIXTURE_NOW)
    try:
        game = await store.get_game("ActiveGame")
        assert game is not None and game.version == 2 and game.data == {"kind": "active", "n": 2}
        assert game.chat_ids == (-100,) and game.user_ids == (1, 2) and game.deadline == FIXTURE_NOW + 60
        assert game.boards == {-100: BoardState(chat_id=-100, message_id=555, shown_version=2)}
        assert await store.fence_board("ActiveGame", -100, 555, "worker-b", 0) is BoardFence.BUSY  # worker-a holds it
        assert await store.chat_games(-100) == ["ActiveGame"]
        assert await store.user_chat_games(-100, 1) == ["ActiveGame"]
        assert await store.chat_history(-100) == ["Finished01"]
        assert await store.due_games(FIXTURE_NOW + 60) == ["Finished01", "ActiveGame"]
        assert await store.quarantined_games() == ["Quarantine"]
        assert await store.active_game_count() == 1
        [challenge] = await store.chat_challenges(-100)
        assert challenge.data == {"from": 1, "variant": "long"}
        assert await store.get_chat_settings(-100) == {"lang": "ru", "variant": "long"}
        assert await store.get_user_settings(1) == {"lang": "en"}
        assert await store.chat_stats(-100) == {1: Stats(wins=1), 3: Stats(losses=1)}
        assert await store.add_game_stats(-100, "Finished01", {1: (1, 0, 0)}) is False  # counted before
        assert await store.chat_tournament(-100) == "Tournament"
        tournament = await store.get_tournament("Tournament")
        assert tournament is not None and tournament.version == 2 and tournament.data == {"name": "cup", "round": 2}
        assert await store.due_tournaments(FIXTURE_NOW + 120) == ["Tournament"]
        assert await store.chat_tournament_history(-300) == ["OldTourney"]
        assert await store.get_ratings("long", [1, 3]) == {
            1: StoredRating(1508.0, 1, 1, "Ann"),
            3: StoredRating(1492.0, 1, 1, "Bob"),
        }
        assert sorted(await store.chat_rated_players(-100, "long")) == [1, 3]
        assert (
            await store.apply_ratings("long", "match-1", {1: 1, 3: 1}, {1: StoredRating(), 3: StoredRating()}) is False
        )
        assert await store.claim_update(42, lease=30.0) == "done"
        # And it keeps working: a new version of the active game is written.
        assert await store.update_game("ActiveGame", 2, {"kind": "active", "n": 3}) == 3
    finally:
        await store.close()
