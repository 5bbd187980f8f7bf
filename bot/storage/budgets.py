"""The send budgets role: Telegram's rate limits counted for the bot as a whole, shared by every worker.

Telegram counts a bot's messages and edits per chat (about one a second, twenty a minute in a group) and over all
chats (about thirty a second), whatever process makes them. Each worker's sender keeps its own queues, priorities
and coalescing, and asks this role, right before every call, for the call's share of the chat's budget and the bot's:
one atomic step that grants it (and records it) or says how long to wait. The record lives in the store, so it is
shared by all workers and survives a restart.

Times are the caller's clock (``now``): the workers' wall clocks (``time.time``), which must be kept in step (NTP,
as the store's leases already need; the budget window has a second of margin).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class SendLimits:
    """One chat's budget and the bot's, as :meth:`SendBudgets.take_send` applies them.

    Attributes:
        interval: seconds between two calls in the chat.
        per_window: at most this many calls in the chat in any ``window`` seconds.
        window: the chat's counting window (a minute and a margin).
        per_second: at most this many calls of the bot in any second, over all chats.
    """

    interval: float
    per_window: int
    window: float
    per_second: int


@runtime_checkable
class SendBudgets(Protocol):
    """The bot's send budgets (see the module docstring).

    All methods are coroutines; each raises :class:`~bot.storage.errors.StoreUnavailableError` when the back end
    cannot be reached.
    """

    async def take_send(self, chat: str, now: float, count: int, limits: SendLimits, token: str) -> float:
        """Take ``count`` calls (an album counts each of its messages) of the budget of ``chat`` and of the bot's at
        ``now``, recorded under ``token``. Granted when the chat's last call was at least ``interval`` ago and no
        hold (:meth:`hold_sends`) is on it, when its calls of the last ``window`` seconds leave room for ``count``
        more within ``per_window`` (``count`` is capped at ``per_window``), and when the bot's calls of the last
        second leave room within ``per_second``.

        Returns: 0.0 when granted (and recorded), else the seconds to wait before asking again (nothing recorded).
        """
        ...

    async def refund_send(self, chat: str, token: str) -> None:
        """Give back the calls taken under ``token`` that were not made after all (e.g. a guard withdrew the call).
        The chat's interval stays. Returns nothing."""
        ...

    async def hold_sends(self, chat: str, now: float, seconds: float) -> None:
        """Make every worker wait ``seconds`` from ``now`` before its next call in ``chat`` (Telegram answered 429
        with ``retry_after``); a later hold already there is kept. Returns nothing."""
        ...
