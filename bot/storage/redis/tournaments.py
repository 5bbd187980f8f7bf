"""Tournaments on Redis (:class:`~bot.storage.tournaments.TournamentRecords`): one hash per tournament.

A tournament is created in three steps: the chat's pointer is claimed (a script on the pointer), the deadline is
lowered in the index, and the record is written (a script on its hash). A pointer naming a finished tournament is
free; one naming a tournament that does not exist is free once it is :data:`~bot.storage.redis.keys.CREATION_GRACE`
seconds old (a crash between the pointer and the record), and is taken over only after a tombstone was put on that
id (a script on its hash), so a creation still under way can no longer write its record — of two creations in a
chat never both win. Finishing releases the pointer and adds the history entry after the record (a crash in between
leaves a pointer to a finished tournament, which is free; a later update of the finished tournament completes both).
The deadline index is kept by :class:`~bot.storage.redis.versioned.VersionedDocs`, as for games.
"""

from __future__ import annotations

from ..documents import UNSET, JSONDict
from ..errors import GameNotFoundError
from ..ids import is_valid_id, new_id
from ..tournaments import TOURNAMENT_HISTORY_RETENTION, StoredTournament
from .client import RedisClient, dumps, text, texts
from .keys import CHAT_TOURNAMENT_KEY, CHAT_TOURNAMENTS_KEY, CREATION_GRACE, TOMBSTONE_TTL, TOURNAMENT_KEY
from .versioned import KEEP, deadline_arg

_CLAIM_ATTEMPTS = 20


def _parse_pointer(value: str) -> tuple[str, float | None]:
    """Return (tournament id, claim time or None) of a chat's running-tournament pointer."""
    holder, _, stamp = value.partition(" ")
    try:
        return holder, float(stamp) if stamp else None
    except ValueError:
        return holder, None


class RedisTournaments(RedisClient):
    """The tournaments of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def create_tournament(
        self,
        chat_id: int,
        data: JSONDict,
        *,
        tournament_id: str | None = None,
        deadline: float | None = None,
    ) -> str | None:
        """See :meth:`bot.storage.tournaments.TournamentRecords.create_tournament`."""
        if tournament_id is not None and not is_valid_id(tournament_id):
            raise ValueError(f"malformed tournament id {tournament_id!r}: expected 10 characters of [A-Za-z0-9_-]")
        chat_id = int(chat_id)
        record = dumps(data)
        nonce = new_id() + new_id()
        async with self._op():
            if tournament_id is not None:
                if await self._redis.hexists(TOURNAMENT_KEY.format(tournament_id=tournament_id), "v"):
                    return tournament_id  # created before (a retry): nothing is overwritten
                candidate = tournament_id
            else:
                candidate = new_id()
                while await self._redis.exists(TOURNAMENT_KEY.format(tournament_id=candidate)):
                    candidate = new_id()
            if not await self._claim_chat(chat_id, candidate):
                return None
            key = TOURNAMENT_KEY.format(tournament_id=candidate)
            created = int(
                await self._tournament_docs.with_deadline(
                    candidate,
                    deadline,
                    lambda: self._create_tournament(keys=[key], args=[record, chat_id, deadline_arg(deadline), nonce]),
                )
            )
            if created == -1:  # another creation found ours unfinished and took the chat over
                await self._release_chat_tournament(
                    keys=[CHAT_TOURNAMENT_KEY.format(chat_id=chat_id)], args=[candidate]
                )
                return None
        return candidate

    async def _claim_chat(self, chat_id: int, tournament_id: str) -> bool:
        """Point the chat at ``tournament_id`` unless another tournament runs there (or is being created).

        Returns: True when the chat's pointer names ``tournament_id``; False when the chat is busy.
        """
        key = CHAT_TOURNAMENT_KEY.format(chat_id=chat_id)
        stale = ""
        for _ in range(_CLAIM_ATTEMPTS):
            now = self._clock()
            answer = text(await self._claim_chat_tournament(keys=[key], args=[tournament_id, repr(now), stale]))
            if not isinstance(answer, str):
                return True
            holder, claimed_at = _parse_pointer(answer)
            holder_key = TOURNAMENT_KEY.format(tournament_id=holder)
            status = text(await self._redis.hget(holder_key, "s"))
            if status is None:
                if claimed_at is not None and claimed_at > now - CREATION_GRACE:
                    return False  # its creation may still be under way
                status = text(await self._bury_tournament(keys=[holder_key], args=[int(TOMBSTONE_TTL * 1000)]))
            if status == "a":
                return False
            stale = holder  # finished, expired or buried: free (the next claim replaces it unless it changed)
        return False

    async def _read_tournament(self, tournament_id: str) -> StoredTournament | None:
        fields = await self._tournament_docs.fields(tournament_id)
        if fields is None:
            return None
        version, data, finished, deadline = self._tournament_docs.record(fields)
        return StoredTournament(
            tournament_id=tournament_id,
            version=version,
            data=data,
            chat_id=int(fields["chat"]),
            finished=finished,
            deadline=deadline,
        )

    async def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        """See :meth:`bot.storage.tournaments.TournamentRecords.get_tournament`."""
        async with self._op():
            return await self._read_tournament(tournament_id)

    async def update_tournament(
        self,
        tournament_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
        finished: bool = False,
    ) -> int | None:
        """See :meth:`bot.storage.tournaments.TournamentRecords.update_tournament`."""
        key = TOURNAMENT_KEY.format(tournament_id=tournament_id)
        ttl_ms = max(1, int(TOURNAMENT_HISTORY_RETENTION * 1000))
        keep_or = KEEP if deadline is UNSET else deadline_arg(deadline)
        async with self._op():
            version, status = await self._tournament_docs.with_deadline(
                tournament_id,
                deadline,
                lambda: self._tournament_cas(
                    keys=[key], args=[int(expected_version), dumps(data), "1" if finished else "0", ttl_ms, keep_or]
                ),
            )
            version = int(version)
            if version == -1:
                raise GameNotFoundError(tournament_id)
            if version == 0:
                return None
            if text(status) == "f":
                await self._file_finished_tournament(tournament_id)
        return version

    async def _file_finished_tournament(self, tournament_id: str) -> None:
        """Release the chat's pointer (when it names this finished tournament) and add it to the chat's history
        (idempotent: the first finishing time is kept)."""
        chat = text(await self._redis.hget(TOURNAMENT_KEY.format(tournament_id=tournament_id), "chat"))
        if chat is None:
            return
        chat_id = int(chat)
        await self._release_chat_tournament(keys=[CHAT_TOURNAMENT_KEY.format(chat_id=chat_id)], args=[tournament_id])
        now = self._clock()
        history = CHAT_TOURNAMENTS_KEY.format(chat_id=chat_id)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(history, {tournament_id: now}, nx=True)
            pipe.zremrangebyscore(history, "-inf", now - TOURNAMENT_HISTORY_RETENTION)
            await pipe.execute()

    async def set_tournament_deadline(self, tournament_id: str, expected_version: int, deadline: float | None) -> bool:
        """See :meth:`bot.storage.tournaments.TournamentRecords.set_tournament_deadline`."""
        async with self._op():
            return await self._tournament_docs.set_deadline(tournament_id, expected_version, deadline)

    async def chat_tournament(self, chat_id: int) -> str | None:
        """See :meth:`bot.storage.tournaments.TournamentRecords.chat_tournament`.

        A pointer naming a finished or buried tournament is deleted here; one naming a missing tournament is left
        to ``create_tournament`` (that creation may still be under way).
        """
        key = CHAT_TOURNAMENT_KEY.format(chat_id=int(chat_id))
        async with self._op():
            value = text(await self._redis.get(key))
            if not value:
                return None
            holder, _ = _parse_pointer(str(value))
            status = text(await self._redis.hget(TOURNAMENT_KEY.format(tournament_id=holder), "s"))
            if status == "a":
                return holder
            if status is not None:
                await self._release_chat_tournament(keys=[key], args=[holder])
        return None

    async def chat_tournament_history(self, chat_id: int, limit: int = 10) -> list[str]:
        """See :meth:`bot.storage.tournaments.TournamentRecords.chat_tournament_history`."""
        key = CHAT_TOURNAMENTS_KEY.format(chat_id=int(chat_id))
        async with self._op():
            await self._redis.zremrangebyscore(key, "-inf", self._clock() - TOURNAMENT_HISTORY_RETENTION)
            ids = texts(await self._redis.zrevrange(key, 0, -1))
            if not ids:
                return []
            async with self._redis.pipeline(transaction=False) as pipe:
                for tournament_id in ids:
                    pipe.hget(TOURNAMENT_KEY.format(tournament_id=tournament_id), "s")
                states = [text(status) for status in await pipe.execute()]
            stale = [tid for tid, status in zip(ids, states, strict=True) if status != "f"]
            if stale:
                await self._redis.zrem(key, *stale)
        return [tid for tid, status in zip(ids, states, strict=True) if status == "f"][: max(0, int(limit))]

    async def due_tournaments(self, now: float, limit: int = 100) -> list[str]:
        """See :meth:`bot.storage.tournaments.TournamentRecords.due_tournaments`."""
        async with self._op():
            return await self._tournament_docs.due(now, limit)
