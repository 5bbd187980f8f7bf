"""Send budgets on Redis (:class:`~bot.storage.budgets.SendBudgets`): one script per call, all keys under the hash
tag ``{tg}`` (see :mod:`bot.storage.redis.keys`)."""

from __future__ import annotations

import math

from ..budgets import SendLimits
from .client import RedisClient
from .keys import ALL_SENDS_KEY, NEXT_SEND_KEY, SENDS_KEY

KEEP_MARGIN = 60.0
"""Seconds the budget keys are kept beyond their window after the last call (the callers' clocks may run ahead of
the server's in tests on virtual time; a lost key only ever lets a call through that the window would have held)."""


class RedisBudgets(RedisClient):
    """The send budgets of a :class:`~bot.storage.redis.store.RedisGameStore`."""

    async def take_send(self, chat: str, now: float, count: int, limits: SendLimits, token: str) -> float:
        """See :meth:`bot.storage.budgets.SendBudgets.take_send`."""
        keep = math.ceil((max(limits.window, limits.interval) + KEEP_MARGIN) * 1000)
        async with self._op():
            result = await self._take_send(
                keys=[SENDS_KEY.format(chat=chat), ALL_SENDS_KEY, NEXT_SEND_KEY.format(chat=chat)],
                args=[
                    repr(float(now)),
                    max(1, int(count)),
                    repr(float(limits.interval)),
                    int(limits.per_window),
                    repr(float(limits.window)),
                    int(limits.per_second),
                    token,
                    keep,
                ],
            )
        return max(0.0, float(result))

    async def refund_send(self, chat: str, token: str) -> None:
        """See :meth:`bot.storage.budgets.SendBudgets.refund_send` (an album's calls are removed as well: up to
        the most a chat's window holds)."""
        async with self._op():
            await self._refund_send(keys=[SENDS_KEY.format(chat=chat), ALL_SENDS_KEY], args=[token, REFUND_MOST])

    async def hold_sends(self, chat: str, now: float, seconds: float) -> None:
        """See :meth:`bot.storage.budgets.SendBudgets.hold_sends`."""
        keep = math.ceil((max(0.0, seconds) + KEEP_MARGIN) * 1000)
        async with self._op():
            await self._hold_sends(keys=[NEXT_SEND_KEY.format(chat=chat)], args=[repr(float(now + seconds)), keep])


REFUND_MOST = 10
"""The most calls one token takes (an album of ten pictures)."""
