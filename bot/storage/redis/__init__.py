"""The Redis back end of the storage: one module per aggregate over one client and the shared versioned-document
helper (:mod:`~bot.storage.redis.versioned`)."""

from .keys import cluster_startup_url
from .store import RedisGameStore

__all__ = ["RedisGameStore", "cluster_startup_url"]
