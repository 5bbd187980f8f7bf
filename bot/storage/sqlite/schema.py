"""The SQLite schema of the store: tables, the columns added since the first version, and indexes.

Tables: ``games`` (one row per game: record, version, deadline, finished/expiry and quarantine columns),
``game_chats`` / ``game_users`` (which chats show a game, who plays it; indexed both ways), ``game_boards``
(board state per game and chat: the message, the version it shows, older messages whose keyboards are still to be
taken off), ``board_claims`` (the chats' board leases, ``fence_board``), ``clock_seen`` (when the awaited action's
board was seen, ``mark_seen``), ``challenges``,
``chat_settings`` / ``user_settings``, ``stats`` (counters per chat and user) and ``counted_games`` (which games
``add_game_stats`` counted in which chat). Rows of a game in the other game tables go with it (``ON DELETE
CASCADE``). ``tournaments`` (one row per tournament; a partial unique index on the chat of the unfinished ones
makes "one running tournament per chat" a constraint, so there is no separate pointer that could go stale),
``ratings`` (per variant and user), ``rated_matches`` (which match keys ``apply_ratings`` applied),
``chat_rated_players`` (the chats' leaderboards), ``updates`` (claims of incoming updates), ``sends`` and
``send_next`` (the send budgets: recent calls per chat, ``*`` for all chats, and each chat's next allowed time),
``rate_buckets`` (the rate buckets that are not full: the time at which each is full again), ``pool_entries`` (the
members waiting in the pairing pools), ``pool_pairings`` (the pairings claimed from them: open ones with their
entries, closed or released ones as remembered ids until ``purge_expired``), ``pool_bound`` (which open pairing a
claimed member is bound to) and ``pool_leads`` (the lease on each pool's pairing passes: its owner and until when).

Files made by older versions get the new columns and tables when opened (:func:`prepare`).
"""

from __future__ import annotations

import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    chat_ids TEXT NOT NULL,
    user_ids TEXT NOT NULL,
    deadline REAL,
    created_at REAL NOT NULL,
    finished_at REAL,
    expires_at REAL,
    quarantined TEXT,
    quarantined_at REAL
);
CREATE TABLE IF NOT EXISTS game_chats (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    chat_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, game_id)
);
CREATE TABLE IF NOT EXISTS game_users (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE TABLE IF NOT EXISTS game_boards (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    chat_id INTEGER NOT NULL,
    message_id INTEGER,
    shown_version INTEGER NOT NULL,
    stale TEXT,
    PRIMARY KEY (game_id, chat_id)
);
CREATE TABLE IF NOT EXISTS board_claims (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    chat_id INTEGER NOT NULL,
    owner TEXT NOT NULL,
    until REAL NOT NULL,
    replaces INTEGER,
    PRIMARY KEY (game_id, chat_id)
);
CREATE TABLE IF NOT EXISTS clock_seen (
    game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    action INTEGER NOT NULL,
    seen_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    chat_id INTEGER,
    data TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_chat ON challenges (chat_id);
CREATE TABLE IF NOT EXISTS chat_settings (chat_id INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS user_settings (user_id INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stats (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, user_id)
);
CREATE TABLE IF NOT EXISTS counted_games (
    chat_id INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (chat_id, game_id)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    chat_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    deadline REAL,
    created_at REAL NOT NULL,
    finished_at REAL,
    expires_at REAL
);
CREATE TABLE IF NOT EXISTS ratings (
    variant TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    rating REAL NOT NULL,
    experience INTEGER NOT NULL,
    matches INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (variant, user_id)
);
CREATE TABLE IF NOT EXISTS rated_matches (
    variant TEXT NOT NULL,
    match_key TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (variant, match_key)
);
CREATE TABLE IF NOT EXISTS updates (
    update_id INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    expires_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sends (
    chat TEXT NOT NULL,
    at REAL NOT NULL,
    token TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS send_next (
    chat TEXT PRIMARY KEY,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rate_buckets (
    bucket TEXT PRIMARY KEY,
    full_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chat_rated_players (
    chat_id INTEGER NOT NULL,
    variant TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, variant, user_id)
);
CREATE TABLE IF NOT EXISTS pool_entries (
    pool TEXT NOT NULL,
    member TEXT NOT NULL,
    score REAL NOT NULL,
    since REAL NOT NULL,
    data TEXT NOT NULL,
    expires_at REAL,
    PRIMARY KEY (pool, member)
);
CREATE TABLE IF NOT EXISTS pool_pairings (
    pool TEXT NOT NULL,
    pairing_id TEXT NOT NULL,
    made REAL NOT NULL,
    entries TEXT,
    closed_at REAL,
    PRIMARY KEY (pool, pairing_id)
);
CREATE TABLE IF NOT EXISTS pool_bound (
    pool TEXT NOT NULL,
    member TEXT NOT NULL,
    pairing_id TEXT NOT NULL,
    PRIMARY KEY (pool, member)
);
CREATE TABLE IF NOT EXISTS pool_leads (
    pool TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    until REAL NOT NULL
);
"""

ADDED_COLUMNS = {
    "games": (("quarantined", "TEXT"), ("quarantined_at", "REAL")),
    "game_boards": (("stale", "TEXT"),),
}
"""Columns added since the first schema: added to files made by older versions when they are opened."""

INDEXES = """
CREATE INDEX IF NOT EXISTS games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_expires ON games (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_quarantined ON games (quarantined_at) WHERE quarantined IS NOT NULL;
CREATE INDEX IF NOT EXISTS game_chats_game ON game_chats (game_id);
CREATE INDEX IF NOT EXISTS game_users_game ON game_users (game_id);
CREATE INDEX IF NOT EXISTS challenges_expires ON challenges (expires_at);
CREATE INDEX IF NOT EXISTS counted_games_at ON counted_games (at);
CREATE UNIQUE INDEX IF NOT EXISTS tournaments_running ON tournaments (chat_id) WHERE finished = 0;
CREATE INDEX IF NOT EXISTS tournaments_history ON tournaments (chat_id, finished_at) WHERE finished = 1;
CREATE INDEX IF NOT EXISTS tournaments_deadline ON tournaments (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS tournaments_expires ON tournaments (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS rated_matches_at ON rated_matches (at);
CREATE INDEX IF NOT EXISTS sends_chat_at ON sends (chat, at);
CREATE INDEX IF NOT EXISTS rate_buckets_full_at ON rate_buckets (full_at);
CREATE INDEX IF NOT EXISTS pool_entries_score ON pool_entries (pool, score, member);
CREATE INDEX IF NOT EXISTS pool_entries_expires ON pool_entries (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS pool_pairings_open ON pool_pairings (pool, made) WHERE closed_at IS NULL;
CREATE INDEX IF NOT EXISTS pool_pairings_closed ON pool_pairings (closed_at) WHERE closed_at IS NOT NULL;
"""
"""Indexes (created after the columns they use). ``game_chats_game`` and ``game_users_game`` serve the cascading
deletes of ``purge_expired``: without them every deleted game scans both tables."""


def prepare(conn: sqlite3.Connection) -> None:
    """Create what is missing of the schema on ``conn``: tables, then added columns, then indexes.

    Raises: sqlite3.OperationalError when the file cannot be written.
    """
    conn.executescript(SCHEMA)
    add_missing_columns(conn)
    conn.executescript(INDEXES)


def add_missing_columns(conn: sqlite3.Connection) -> None:
    """Add the columns of :data:`ADDED_COLUMNS` that a file made by an older version lacks."""
    for table, columns in ADDED_COLUMNS.items():
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        for name, sql_type in columns:
            if name not in present:
                try:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {sql_type}")
                except sqlite3.OperationalError as exc:  # another process added it first
                    if "duplicate column" not in str(exc):
                        raise
