"""The journal of a soak run: every saved version of every game, read back from Redis's append-only file.

Redis 7 writes a Lua script's effects, not the script, to the append-only file, so every compare-and-set of a game
record that succeeded (``RedisGameStore.CAS_SCRIPT`` and the creation script) appears there as one ``HSET
nardy:{g:<id>}:game v <version> d <record JSON> ...`` and a refused one does not appear at all; the board state per
chat appears as ``HSET ... b:<chat> "<message id>,<shown version>"``. With the automatic rewrite of the file off
(:class:`soak_processes.RedisServer`) the file holds the whole run, across the Redis restart: :func:`read_journal`
returns, per game, each saved version with its record, which tells a person's save from the computer's (whose
turn the version before it awaited) and which caption each version had (for boards without buttons).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GAME_KEY = re.compile(rb"^nardy:\{g:([A-Za-z0-9_-]{10})\}:game$")
RDB_MAGIC = b"REDIS"


class JournalError(Exception):
    """The append-only file cannot be read as a journal of the whole run."""


@dataclass
class GameJournal:
    """The saved versions of one game (``saves``: version → record) and the board messages recorded for it per
    chat (``boards``: chat → message ids)."""

    game_id: str
    saves: dict[int, dict[str, Any]] = field(default_factory=dict)
    boards: dict[int, set[int]] = field(default_factory=dict)


@dataclass
class Journal:
    """Every game of the run (see the module docstring); ``commands`` counts the commands read."""

    games: dict[str, GameJournal] = field(default_factory=dict)
    commands: int = 0

    def game(self, game_id: str) -> GameJournal:
        """Return the journal of ``game_id`` (an empty one when the game was never saved)."""
        return self.games.setdefault(game_id, GameJournal(game_id))

    def message_games(self) -> dict[tuple[int, int], str]:
        """Return the game each recorded board message belongs to, by (chat id, message id)."""
        return {
            (chat, message): g.game_id for g in self.games.values() for chat, ids in g.boards.items() for message in ids
        }


def commands(data: bytes) -> Iterator[list[bytes]]:
    """Yield the commands of an append-only file's text (RESP arrays of bulk strings), skipping annotations
    (``#...`` lines).

    Raises: JournalError on a malformed command, except a last one cut short (Redis loads such a file too)."""
    pos, size = 0, len(data)
    while pos < size:
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        if data[pos : pos + 1] != b"*":
            raise JournalError(f"unexpected byte {data[pos : pos + 1]!r} at offset {pos}")
        try:
            end = data.index(b"\r\n", pos)
            count = int(data[pos + 1 : end])
            pos = end + 2
            args: list[bytes] = []
            for _ in range(count):
                end = data.index(b"\r\n", pos)
                if data[pos : pos + 1] != b"$":
                    raise JournalError(f"no bulk string at offset {pos}")
                length = int(data[pos + 1 : end])
                start = end + 2
                if start + length + 2 > size:
                    raise ValueError("cut short")
                args.append(data[start : start + length])
                pos = start + length + 2
        except ValueError:
            return  # the last command was cut short
        yield args


def read_journal(files: list[Path]) -> Journal:
    """Return the journal of the games in the append-only ``files`` (oldest first).

    Raises: JournalError when no file is given, a base file holds data (the file was rewritten: earlier versions
    are gone), or a file is malformed."""
    if not files:
        raise JournalError("no append-only file")
    journal = Journal()
    for path in files:
        data = path.read_bytes()
        if data.startswith(RDB_MAGIC):
            if len(data) > 256:  # the empty base written when the file was created is ~100 bytes
                raise JournalError(f"{path.name} is a rewritten base: the journal is incomplete")
            continue
        for command in commands(data):
            journal.commands += 1
            if len(command) < 4 or command[0].upper() != b"HSET":
                continue
            key = GAME_KEY.match(command[1])
            if key is None:
                continue
            game = journal.game(key.group(1).decode())
            fields = dict(zip(command[2::2], command[3::2], strict=False))
            if b"v" in fields and b"d" in fields:
                game.saves[int(float(fields[b"v"]))] = json.loads(fields[b"d"])
            for name, value in fields.items():
                if name.startswith(b"b:"):
                    message = value.split(b",", 1)[0]
                    if message:
                        game.boards.setdefault(int(name[2:]), set()).add(int(message))
    return journal
