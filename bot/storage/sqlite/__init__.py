"""The SQLite back end of the storage: one module per aggregate over one connection and the shared
versioned-document helper (:mod:`~bot.storage.sqlite.versioned`)."""

from .store import SqliteGameStore

__all__ = ["SqliteGameStore"]
