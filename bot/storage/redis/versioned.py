"""The shared helper of games and tournaments on Redis: versioned documents with a deadline index.

A document is one hash under its own hash tag (``v`` version, ``d`` record JSON, ``s`` status ``a``/``f``, ``dl``
deadline, ``q`` quarantine reason for games); every change of one is one Lua script on that hash
(compare-and-set on the version). The deadline index is one sorted set (id → deadline) in another hash slot, so it
cannot change in the same script: a deadline is lowered in the index (``ZADD LT``) before the record and copied from
the record after it, so the index never holds a deadline later than the record's, and a crash in between can only
wake a document early (:meth:`VersionedDocs.due` then repairs the entry), never lose its wake-up.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from ..documents import UNSET

T = TypeVar("T")

KEEP = "-"
"""Deadline argument of the compare-and-set scripts that keeps the stored deadline."""


def _text(value: Any) -> Any:
    return value.decode() if isinstance(value, bytes) else value


def deadline_arg(deadline: float | None) -> str:
    """Return the script argument of a deadline: "" for none, else the number."""
    return "" if deadline is None else repr(float(deadline))


def wanted_deadline(status: Any, dl: Any, quarantined: Any) -> float | None:
    """Return the deadline the index should hold for a document in this state (None: not indexed)."""
    if status not in ("a", "f") or quarantined is not None or not dl:
        return None
    return float(dl)


class VersionedDocs:
    """Documents of one kind (games, or tournaments) and their deadline index.

    None of the methods maps errors or passes the store's gate: callers run them inside their ``_op`` block.
    """

    def __init__(
        self,
        redis: Redis | RedisCluster,
        *,
        key: Callable[[str], str],
        index_key: str,
        set_deadline: AsyncScript,
    ) -> None:
        """Serve the documents whose hash is ``key(id)``, indexed by deadline in the sorted set ``index_key``;
        ``set_deadline`` is the registered ``SET_DEADLINE_SCRIPT``."""
        self._redis = redis
        self.key = key
        self.index_key = index_key
        self._set_deadline = set_deadline

    async def fields(self, doc_id: str) -> dict[str, str] | None:
        """Return every field of the document's hash, or None when it holds no record (no ``v``)."""
        raw = await self._redis.hgetall(self.key(doc_id))
        fields = {str(_text(name)): str(_text(value)) for name, value in raw.items()}
        return fields if "v" in fields else None

    @staticmethod
    def record(fields: dict[str, str]) -> tuple[int, Any, bool, float | None]:
        """Return (version, record, finished, deadline) of a document's fields."""
        dl = fields.get("dl", "")
        return int(fields["v"]), json.loads(fields["d"]), fields.get("s") == "f", float(dl) if dl else None

    async def lower_deadline(self, doc_id: str, deadline: float | None) -> None:
        """Before a record gets ``deadline``: put it in the index unless the index already holds an earlier one."""
        if deadline is not None:
            await self._redis.zadd(self.index_key, {doc_id: float(deadline)}, lt=True)

    async def deadline_state(self, doc_id: str) -> float | None:
        """Return the deadline the index should hold for the document as stored now (None: none)."""
        status, dl, quarantined = await self._redis.hmget(self.key(doc_id), ["s", "dl", "q"])
        return wanted_deadline(status, dl, quarantined)

    async def sync_deadline(self, doc_id: str) -> None:
        """Copy the document's current deadline from its hash into the deadline index.

        The copy is read back after it is written: when the record changed in between (a concurrent update, whose
        own copy may have come first), it is copied again, so that no index entry stays later than the record.
        """
        for _ in range(5):
            wanted = await self.deadline_state(doc_id)
            if wanted is None:
                await self._redis.zrem(self.index_key, doc_id)
            else:
                await self._redis.zadd(self.index_key, {doc_id: wanted})
            if await self.deadline_state(doc_id) == wanted:
                return
        # The record keeps changing under us: at least never leave the entry later than the record.
        await self.lower_deadline(doc_id, await self.deadline_state(doc_id))

    async def with_deadline(self, doc_id: str, deadline: Any, write: Callable[[], Awaitable[T]]) -> T:
        """Return the result of ``write`` (a script storing ``deadline`` with the document), run between lowering
        the index entry to ``deadline`` and copying the stored deadline back into the index (also when ``write``
        raises). ``deadline`` UNSET: ``write`` keeps the stored deadline, so the index is not touched."""
        if deadline is UNSET:
            return await write()
        await self.lower_deadline(doc_id, deadline)
        try:
            return await write()
        finally:
            await self.sync_deadline(doc_id)

    async def set_deadline(self, doc_id: str, expected_version: int, deadline: float | None) -> bool:
        """Return True when the document's deadline was set (its version equals ``expected_version``; the version
        is not bumped), False on a conflict or when it does not exist."""

        async def write() -> Any:
            return await self._set_deadline(
                keys=[self.key(doc_id)], args=[int(expected_version), deadline_arg(deadline)]
            )

        return int(await self.with_deadline(doc_id, deadline, write)) == 1

    async def states(self, doc_ids: list[str]) -> list[tuple[Any, Any, Any]]:
        """Return (status, deadline, quarantine reason) for each id; (None, None, None) for a vanished one."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for doc_id in doc_ids:
                pipe.hmget(self.key(doc_id), ["s", "dl", "q"])
            rows = await pipe.execute()
        return [(row[0], row[1], row[2]) for row in rows]

    async def due(self, now: float, limit: int) -> list[str]:
        """Return the ids whose stored deadline is at or before ``now`` (earliest first, at most ``limit``).

        An index entry that does not match its record (earlier than the stored deadline, or of a document no
        longer indexed) is repaired instead of returned.
        """
        ids = [str(_text(v)) for v in await self._redis.zrangebyscore(self.index_key, "-inf", now, start=0, num=limit)]
        if not ids:
            return []
        result: list[str] = []
        unsure: list[str] = []
        for doc_id, state in zip(ids, await self.states(ids), strict=True):
            wanted = wanted_deadline(*state)
            if wanted is not None and wanted <= now:
                result.append(doc_id)
            else:
                unsure.append(doc_id)  # not indexed any more, or the index lagged behind a later deadline
        for doc_id in unsure:
            await self.sync_deadline(doc_id)
        return result
