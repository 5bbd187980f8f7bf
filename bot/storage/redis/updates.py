"""Update claims on Redis (:class:`~bot.storage.updates.UpdateClaims`): one key per update (``SET NX PX``)."""

from __future__ import annotations

from ..updates import UpdateClaim
from .client import RedisClient, text
from .keys import UPDATE_KEY


class RedisUpdates(RedisClient):
    """The update claims of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def claim_update(self, update_id: int, *, lease: float) -> UpdateClaim:
        """See :meth:`bot.storage.updates.UpdateClaims.claim_update` (``SET NX PX``: one key per update)."""
        key = UPDATE_KEY.format(update_id=int(update_id))
        async with self._op():
            if await self._redis.set(key, "running", nx=True, px=max(1, int(lease * 1000))):
                return "new"
            state = await self._redis.get(key)
        if state is None:  # the other claim lapsed between the two commands: try once more
            return await self.claim_update(update_id, lease=lease)
        return "done" if text(state) == "done" else "running"

    async def finish_update(self, update_id: int, *, ttl: float) -> None:
        """See :meth:`bot.storage.updates.UpdateClaims.finish_update`."""
        async with self._op():
            await self._redis.set(UPDATE_KEY.format(update_id=int(update_id)), "done", px=max(1, int(ttl * 1000)))

    async def release_update(self, update_id: int) -> None:
        """See :meth:`bot.storage.updates.UpdateClaims.release_update`."""
        async with self._op():
            await self._redis.delete(UPDATE_KEY.format(update_id=int(update_id)))
