"""The one way the bot sends messages: per-chat pacing with priorities, retries, and coalescing of edits.

Telegram allows about one message per second in a chat and about twenty messages *or edits* per minute in a
group, thirty calls per second overall, and answers 429 with ``retry_after`` beyond that. :class:`Sender` keeps
per chat two FIFO queues served by one worker task:

- **board** traffic (edits of a message, ``sendPhoto`` of a board, deletions) is always served first and is never
  dropped; while an edit of a message is still waiting, a newer edit of the same message that covers it replaces
  it (so only the latest board is sent);
- **chat** traffic (``sendMessage`` replies and everything else) waits behind it, and its queue is bounded: when
  it is full the oldest waiting item is dropped and its caller gets :class:`SendDropped`.

Before every call that reaches the Bot API for a chat, retries included, the worker waits for the chat's
interval, the chat's per-minute budget (counted over any 61 seconds, a second of margin for clock differences
with Telegram) and the global budget. Telegram counts these per bot, not per process: with ``budgets`` (the store's
:class:`~bot.storage.budgets.SendBudgets`) every call also takes its share of the budgets all workers share, in one
store call, after the local wait (a call withdrawn by its guard gives it back; a 429 holds the chat for every
worker). While the store cannot be reached, calls wait for it (asking again after a capped backoff) for up to
``budgets_outage_wait`` seconds — a store restart costs a short wait, never a burst — and then each worker paces on
its own counts alone (one WARNING line when the outage starts, one INFO line when the budgets answer again,
:mod:`bot.outage`). A 429 makes the whole chat wait ``retry_after``;
network errors and 5xx answers are retried with a growing pause, a bounded number of times. Methods without a
``chat_id`` (such as ``answerCallbackQuery``, which is not rate limited) are called at once and never wait for any
chat; edits of an inline message (``inline_message_id``) are paced like a group's, under the key ``inline:<id>``.

While a handler waits for its call, it gives its update slot back (:func:`bot.in_flight.outside_slot`).
The clock and the sleep function are injectable, so tests run on virtual time.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    DeleteMessage,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    SendMediaGroup,
    SendPhoto,
    TelegramMethod,
)

from bot.in_flight import outside_slot
from bot.outage import Outage
from bot.storage import SendBudgets, SendLimits, StoreUnavailableError

log = logging.getLogger(__name__)

PRUNE_EVERY = 1000
"""Idle chats are forgotten on every this many submitted calls."""
BUDGET_WINDOW = 61.0
"""Seconds over which a chat's per-minute budget is counted: a minute plus a second of margin, so that no 60 s
window as Telegram measures it (arrival times differ from ours by network jitter) holds more than the budget."""
TRANSIENT_BACKOFF = 1.0
"""Pause before the first retry of a network error or a 5xx answer; it doubles with every further retry."""
NOTICE_RESERVE = 3.0
"""Seconds (at most half the drain time) a shutdown keeps for the notices of the calls it could not make
(:meth:`Sender.send`'s ``notice``)."""

T = TypeVar("T")
ChatKey = int | str


class Priority(enum.IntEnum):
    """Which of a chat's queues a call waits in: board traffic is always sent before chatter."""

    BOARD = 0
    """Edits and pictures of boards: never dropped (edits of one message are coalesced), sent first."""
    CHAT = 1
    """Replies and other chatter: sent after board traffic; the oldest is dropped when the chat's queue is full."""


class SendDropped(TelegramAPIError):  # noqa: N818  (the name the callers were promised)
    """The sender dropped a queued call without sending it (the chat's chatter queue overflowed, or the sender
    shut down). A :class:`~aiogram.exceptions.TelegramAPIError`, so callers that tolerate Telegram failures
    tolerate this too; nothing reached Telegram."""

    label = "Dropped by the sender"


class SendWithdrawn(SendDropped):
    """The call's guard (see :meth:`Sender.send`) refused it just before it would have been made: nothing reached
    Telegram."""

    label = "Withdrawn by its guard"


Guard = Callable[[], Awaitable[bool]]
"""A check made right before every attempt of a call (retries included): False (or an exception) withdraws it."""


class SenderClosedError(SendDropped, RuntimeError):
    """A call was submitted after the sender began to shut down (or was closed)."""


class MethodCaller(Protocol):
    """Anything that executes a Bot API method like ``aiogram.Bot.__call__``."""

    async def __call__(self, method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        """Return the method's result; raise ``TelegramAPIError`` subclasses on failure."""
        ...


@dataclass(frozen=True)
class SenderLimits:
    """Pacing parameters (seconds and counts)."""

    private_interval: float = 1.0
    """Minimum time between two calls in one private chat."""
    group_interval: float = 1.0
    """Minimum time between two calls in one group chat."""
    group_per_minute: int = 19
    """At most this many calls in any minute in one group chat (Telegram's limit is 20 messages or edits)."""
    private_per_minute: int = 30
    """At most this many calls in any minute in one private chat."""
    global_per_second: int = 30
    """At most this many paced calls in any second over all chats."""
    max_retries: int = 5
    """How many times a call answered with 429 is retried before its error is returned to the caller."""
    max_transient_retries: int = 3
    """How many times a call failing with a network error or a 5xx answer is retried (pauses 1, 2, 4 … s)."""
    chat_queue_limit: int = 20
    """At most this many chatter calls wait in one chat; beyond that the oldest is dropped."""
    budgets_outage_wait: float = 10.0
    """While the shared budgets cannot be reached, calls wait for them this long (a restart of the store takes a few
    seconds) before this worker paces on its own counts alone."""
    guarded_call_timeout: int = 15
    """Request timeout (seconds) of a call made under a guard (a board call under its lease,
    :mod:`bot.services.boards`): well within the lease, so a call this process stopped waiting for cannot outlive
    the lease on its way."""


# Which pending edit kinds a newer edit replaces entirely (each edit also sets or clears the keyboard).
_COVERS: dict[type[TelegramMethod[Any]], tuple[type[TelegramMethod[Any]], ...]] = {
    EditMessageMedia: (EditMessageMedia, EditMessageCaption, EditMessageReplyMarkup),
    EditMessageCaption: (EditMessageCaption, EditMessageReplyMarkup),
    EditMessageText: (EditMessageText, EditMessageReplyMarkup),
    EditMessageReplyMarkup: (EditMessageReplyMarkup,),
}
_BOARD_METHODS: tuple[type[TelegramMethod[Any]], ...] = (*_COVERS, SendPhoto, DeleteMessage)


def default_priority(method: TelegramMethod[Any]) -> Priority:
    """Return BOARD for edits, ``sendPhoto`` and ``deleteMessage``, CHAT for everything else."""
    return Priority.BOARD if isinstance(method, _BOARD_METHODS) else Priority.CHAT


def is_not_modified(error: TelegramBadRequest) -> bool:
    """Return True when the error is Telegram's "message is not modified" answer to a no-op edit."""
    return "message is not modified" in error.message.lower()


def is_group(chat_id: ChatKey) -> bool:
    """Return True for group, supergroup and channel ids (negative numbers or ``@username`` strings), and for the
    ``inline:<id>`` key of an inline message's edits (paced like a group's: the message may be in one). The synthetic
    chat id a game on an inline message is stored under never reaches the sender: its board is edited by
    ``inline_message_id``."""
    return isinstance(chat_id, str) or chat_id < 0


def is_transient(error: BaseException) -> bool:
    """Return True for errors worth retrying unchanged: network failures and 5xx answers of the Bot API."""
    if isinstance(error, TelegramEntityTooLarge):
        return False
    return isinstance(error, (TelegramNetworkError, TelegramServerError))


@dataclass(eq=False)
class _Item:
    method: TelegramMethod[Any]
    futures: list[asyncio.Future[Any]]
    priority: Priority
    edit_key: tuple[ChatKey, int] | None = None
    guard: Guard | None = None
    notice: TelegramMethod[Any] | None = None


@dataclass(eq=False)
class _ChatQueue:
    board: deque[_Item] = field(default_factory=deque)
    chat: deque[_Item] = field(default_factory=deque)
    sent_at: deque[float] = field(default_factory=deque)
    not_before: float = 0.0
    worker: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self.board) + len(self.chat)

    def peek(self) -> _Item | None:
        if self.board:
            return self.board[0]
        return self.chat[0] if self.chat else None

    def pop(self) -> _Item:
        return self.board.popleft() if self.board else self.chat.popleft()


@dataclass(frozen=True)
class _Turn:
    at: float
    """When the call was counted (this process's clock)."""
    token: str | None
    """The token of its share of the shared budgets (None: not recorded there)."""


class _PastDeadlineError(Exception):
    """The next call of a chat could not start before the shutdown deadline."""


class Sender:
    """Paced, prioritised, retrying, coalescing sender of Bot API methods. Use one per bot process."""

    def __init__(
        self,
        bot: MethodCaller,
        limits: SenderLimits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        budgets: SendBudgets | None = None,
        budget_clock: Callable[[], float] = time.time,
    ) -> None:
        """Wrap ``bot`` (an ``aiogram.Bot`` or any :class:`MethodCaller`); with ``budgets``, take every paced call's
        share of the budgets all workers share too, at the times of ``budget_clock`` (the wall clock, which the
        workers share)."""
        self._bot = bot
        self.budgets = budgets
        self.budget_clock = budget_clock
        self._budgets_outage = Outage(
            "shared send budgets", log, needs="the store", meanwhile="pacing on this worker's counts alone", clock=clock
        )
        self.limits = limits or SenderLimits()
        self.clock = clock
        """The clock of the pacing (also used by the throttling of users, so both share one notion of time)."""
        self._sleep = sleep
        self._chats: dict[ChatKey, _ChatQueue] = {}
        self._pending_edits: dict[tuple[ChatKey, int], _Item] = {}
        self._global_sent: deque[float] = deque()
        self._direct: set[asyncio.Task[Any]] = set()
        self._closed = False
        self._deadline: float | None = None
        self._notices: list[TelegramMethod[Any]] = []
        self._submitted = 0
        self.coalesced = 0
        """How many edits were dropped because a newer edit of the same message replaced them."""
        self.dropped = 0
        """How many queued calls were dropped unsent (chatter overflow, shutdown)."""
        self.retried = 0
        """How many calls were repeated after a 429, a network error or a 5xx answer."""
        self.withdrawn = 0
        """How many calls their guard refused just before they were made."""
        self.noticed = 0
        """How many notices a shutdown sent in place of calls it dropped."""
        self.budget_waits = 0
        """How many times a call waited because the shared budgets (other workers' calls) said so."""

    # ---- public API --------------------------------------------------------------------------------------
    async def send(
        self,
        method: TelegramMethod[T],
        *,
        priority: Priority | None = None,
        guard: Guard | None = None,
        notice: TelegramMethod[Any] | None = None,
    ) -> T:
        """Queue ``method`` in its chat's queue of ``priority`` (default: :func:`default_priority`) and return its
        result once it was sent.

        Edits are coalesced as described in :meth:`edit`. Methods without ``chat_id`` are called at once.
        ``guard`` (paced calls only) is awaited right before every attempt of the call, after its wait in the
        queue: when it returns False or raises, the call is not made and the caller gets :class:`SendWithdrawn`
        (so a decision taken when the call was queued can be checked again when it is about to happen).
        ``notice`` (a short message in the same chat, e.g. "send the command again") is sent in the call's place,
        before anything else, when a shutdown drops the call (see :meth:`shutdown`); identical notices of one chat
        are sent once.
        Raises: the ``TelegramAPIError`` of the call (a 429 after ``max_retries`` retries, a network error or
        5xx after ``max_transient_retries``); :class:`SendDropped` when it was dropped unsent;
        :class:`SenderClosedError` (a RuntimeError too) when the sender is shutting down or closed.
        """
        future = self.submit(method, priority=priority, guard=guard, notice=notice)
        async with outside_slot():
            return await future  # type: ignore[no-any-return]

    async def edit(
        self, method: TelegramMethod[T], *, priority: Priority | None = None, guard: Guard | None = None
    ) -> T | None:
        """Queue an edit of a message (``editMessageMedia``/``Caption``/``Text``/``ReplyMarkup``; BOARD priority
        by default; ``guard`` as in :meth:`send`).

        If an edit of the same message that this one covers is still waiting, it is replaced by this one (in
        its queue position, with this one's guard) and its caller receives this one's result.
        Returns: the method's result, or None when Telegram says the message is not modified.
        Raises: like :meth:`send`.
        """
        try:
            return await self.send(method, priority=priority, guard=guard)
        except TelegramBadRequest as error:
            if is_not_modified(error):
                return None
            raise

    def submit(
        self,
        method: TelegramMethod[Any],
        *,
        priority: Priority | None = None,
        guard: Guard | None = None,
        notice: TelegramMethod[Any] | None = None,
    ) -> asyncio.Future[Any]:
        """Queue ``method`` without waiting. Returns: a future of its result (see :meth:`send`).

        Raises: :class:`SenderClosedError` when the sender is shutting down or closed.
        """
        if self._closed:
            raise SenderClosedError(method, "the sender is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        chat_id: ChatKey | None = getattr(method, "chat_id", None)
        inline = getattr(method, "inline_message_id", None)
        if chat_id is None and isinstance(inline, str):
            chat_id = f"inline:{inline}"  # paced like a group: the inline message may be in one
        if chat_id is None:
            task = loop.create_task(self._call_direct(method))
            self._direct.add(task)  # keep a strong reference while it runs
            task.add_done_callback(self._direct.discard)
            task.add_done_callback(lambda t: _copy_result(t, [future]))
            return future

        edit_key = self._edit_key(method, chat_id)
        if edit_key is not None:
            pending = self._pending_edits.get(edit_key)
            if pending is not None and type(pending.method) in _COVERS.get(type(method), ()):
                pending.method = method
                pending.guard = guard
                pending.futures.append(future)
                self.coalesced += 1
                return future

        self._submitted += 1
        if self._submitted % PRUNE_EVERY == 0:
            self._prune()
        item = _Item(
            method=method,
            futures=[future],
            priority=default_priority(method) if priority is None else priority,
            edit_key=edit_key,
            guard=guard,
            notice=notice,
        )
        queue = self._chats.setdefault(chat_id, _ChatQueue())
        if item.priority is Priority.BOARD:
            queue.board.append(item)
        else:
            if len(queue.chat) >= self.limits.chat_queue_limit:
                self._drop(queue.chat.popleft(), "the chat's queue of replies is full")
            queue.chat.append(item)
        if edit_key is not None:
            self._pending_edits[edit_key] = item
        if queue.worker is None or queue.worker.done():
            queue.worker = loop.create_task(self._work(chat_id, queue), name=f"sender:{chat_id}")
        return future

    def tracked_chats(self) -> int:
        """Return how many chats the sender currently keeps pacing state for."""
        return len(self._chats)

    def pending(self) -> int:
        """Return how many queued calls have not been started yet."""
        return sum(len(q) for q in self._chats.values())

    async def drain(self) -> None:
        """Wait until every queued call has been made (or has failed). Returns: nothing."""
        while True:
            workers = [q.worker for q in self._chats.values() if q.worker is not None and not q.worker.done()]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    async def shutdown(self, timeout: float) -> int:
        """Stop accepting calls, go on sending the queued ones (paced as always) until none is left or ``timeout``
        seconds of the sender's clock have passed, then drop the rest (their callers get :class:`SendDropped`).

        When queued calls carry a ``notice``, the last :data:`NOTICE_RESERVE` seconds (at most half the time) are
        kept for the notices: calls that could not start before then are dropped, and the notices of those that
        carry one are sent first in their chats (each distinct notice once), paced as always, until the deadline.
        A call is only started if the pacer lets it start before the deadline; calls in flight are cancelled after
        ``timeout`` + 1 seconds of real time at the latest. Returns: how many queued calls were dropped unsent.
        """
        timeout = max(0.0, timeout)
        self._closed = True
        end = self.clock() + timeout
        noticed = any(item.notice is not None for q in self._chats.values() for item in (*q.board, *q.chat))
        reserve = min(NOTICE_RESERVE, timeout / 2) if noticed else 0.0
        self._deadline = end - reserve
        dropped_before = self.dropped
        await self._wait_workers(timeout - reserve + 1.0)
        if noticed:
            self._queue_notices()
            self._deadline = end
            loop = asyncio.get_running_loop()
            for chat_id, queue in self._chats.items():
                if queue and (queue.worker is None or queue.worker.done()):
                    queue.worker = loop.create_task(self._work(chat_id, queue), name=f"sender:{chat_id}")
            await self._wait_workers(reserve + 1.0)
        await self._cancel_all()
        return self.dropped - dropped_before

    async def _wait_workers(self, timeout: float) -> None:
        tasks = [q.worker for q in self._chats.values() if q.worker is not None and not q.worker.done()]
        tasks += [t for t in self._direct if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=max(0.0, timeout))

    def _queue_notices(self) -> None:
        """Drop the queued calls that carry a notice and put the notices of every dropped call (each distinct one
        once per chat) at the head of their chats' queues."""
        for queue in self._chats.values():
            for line in (queue.board, queue.chat):
                for item in [i for i in line if i.notice is not None]:
                    line.remove(item)
                    self._drop(item, "the sender shut down")
        seen: set[tuple[ChatKey, str]] = set()
        notices: list[tuple[ChatKey, _Item]] = []
        for notice in self._notices:
            chat_id: ChatKey | None = getattr(notice, "chat_id", None)
            if chat_id is None or (chat_id, repr(notice)) in seen:
                continue
            seen.add((chat_id, repr(notice)))
            notices.append((chat_id, _Item(method=notice, futures=[], priority=Priority.BOARD)))
        self._notices.clear()
        for chat_id, item in reversed(notices):
            self._chats.setdefault(chat_id, _ChatQueue()).board.appendleft(item)

    async def close(self) -> None:
        """Stop accepting calls at once and drop waiting ones (their callers get :class:`SendDropped`).

        Returns: nothing.
        """
        self._closed = True
        await self._cancel_all()

    # ---- internals ---------------------------------------------------------------------------------------
    async def _cancel_all(self) -> None:
        for queue in self._chats.values():
            if queue.worker is not None and not queue.worker.done():
                queue.worker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await queue.worker
            while queue:
                self._drop(queue.pop(), "the sender shut down")
        self._pending_edits.clear()

    def _drop(self, item: _Item, reason: str) -> None:
        if item.edit_key is not None and self._pending_edits.get(item.edit_key) is item:
            del self._pending_edits[item.edit_key]
        if item.notice is not None and self._closed:
            self._notices.append(item.notice)
        self.dropped += 1
        for future in item.futures:
            if not future.done():
                future.set_exception(SendDropped(item.method, reason))
                future.exception()  # callers may ignore a drop: asyncio must not log it as never retrieved
        log.debug("dropped %s: %s", item.method.__api_method__, reason)

    def _prune(self) -> None:
        """Forget idle chats whose pacing state no longer matters (nothing queued, last call long ago)."""
        now = self.clock()
        idle = [
            chat_id
            for chat_id, queue in self._chats.items()
            if not queue
            and (queue.worker is None or queue.worker.done())
            and queue.not_before <= now
            and (not queue.sent_at or queue.sent_at[-1] <= now - BUDGET_WINDOW)
        ]
        for chat_id in idle:
            del self._chats[chat_id]

    @staticmethod
    def _edit_key(method: TelegramMethod[Any], chat_id: ChatKey) -> tuple[ChatKey, int] | None:
        if type(method) not in _COVERS:
            return None
        message_id = getattr(method, "message_id", None)
        if message_id is None and isinstance(chat_id, str) and chat_id.startswith("inline:"):
            return chat_id, 0  # an inline message is the only message of its key
        return None if message_id is None else (chat_id, int(message_id))

    def _budget(self, chat_id: ChatKey) -> tuple[float, int]:
        if is_group(chat_id):
            return self.limits.group_interval, self.limits.group_per_minute
        return self.limits.private_interval, self.limits.private_per_minute

    def _delay(self, chat_id: ChatKey, queue: _ChatQueue) -> float:
        """Return how long to wait before the next call in this chat may be made (<= 0: now)."""
        now = self.clock()
        while queue.sent_at and queue.sent_at[0] <= now - BUDGET_WINDOW:
            queue.sent_at.popleft()
        while self._global_sent and self._global_sent[0] <= now - 1.0:
            self._global_sent.popleft()
        delay = queue.not_before - now
        per_minute = self._budget(chat_id)[1]
        if len(queue.sent_at) >= per_minute:
            delay = max(delay, queue.sent_at[-per_minute] + BUDGET_WINDOW - now)
        if len(self._global_sent) >= self.limits.global_per_second:
            delay = max(delay, self._global_sent[-self.limits.global_per_second] + 1.0 - now)
        return delay

    async def _wait_turn(self, chat_id: ChatKey, queue: _ChatQueue, count: int = 1) -> _Turn:
        """Wait until the chat may make its next call (of ``count`` messages: an album's), by this process's counts
        and then by the shared budgets, then count that call (every attempt reaches the API).

        Returns: the call's turn (its time, and the token under which the shared budgets recorded it).
        Raises: _PastDeadlineError when shutting down and the call could not start before the deadline.
        """
        while True:
            delay = self._delay(chat_id, queue)
            if self._deadline is not None and self.clock() + max(0.0, delay) > self._deadline:
                raise _PastDeadlineError
            if delay <= 0:
                token, delay = await self._take_shared(chat_id, count)
                if delay <= 0:
                    break
                self.budget_waits += 1
                if self._deadline is not None and self.clock() + delay > self._deadline:
                    raise _PastDeadlineError
            await self._sleep(delay)
        now = self.clock()
        queue.sent_at.append(now)
        self._global_sent.append(now)
        queue.not_before = now + self._budget(chat_id)[0]
        return _Turn(now, token)

    def _shared_limits(self, chat_id: ChatKey) -> SendLimits:
        interval, per_minute = self._budget(chat_id)
        return SendLimits(interval, per_minute, BUDGET_WINDOW, self.limits.global_per_second)

    async def _take_shared(self, chat_id: ChatKey, count: int) -> tuple[str | None, float]:
        """Take the call's share of the shared budgets. Returns: (its token, 0.0) when granted, (None, seconds to
        wait) when not. While the store cannot be reached, the call waits for it (it is asked again after the
        outage's backoff) for up to :attr:`SenderLimits.budgets_outage_wait` seconds — a restart of the store
        costs a few seconds' wait, never a burst beyond the budget — and then goes on by this worker's counts alone
        (None, 0.0). Without shared budgets: (None, 0.0)."""
        budgets = self.budgets
        outage = self._budgets_outage
        if budgets is None:
            return None, 0.0
        if not outage.retry_due():
            return None, self._outage_wait()
        token = secrets.token_hex(6)
        try:
            wait = await budgets.take_send(
                str(chat_id), self.budget_clock(), count, self._shared_limits(chat_id), token
            )
        except StoreUnavailableError as error:
            outage.failed(error)
            return None, self._outage_wait()
        outage.succeeded()
        return (token, 0.0) if wait <= 0 else (None, wait)

    def _outage_wait(self) -> float:
        """Return how long a call waits for the shared budgets during an outage: until the next attempt, or 0.0
        once the outage has lasted :attr:`SenderLimits.budgets_outage_wait` (then this worker's counts rule)."""
        outage = self._budgets_outage
        if self.clock() - outage.since >= self.limits.budgets_outage_wait:
            return 0.0
        return max(0.01, outage.backoff)

    async def _refund(self, chat_id: ChatKey, queue: _ChatQueue, turn: _Turn) -> None:
        """Give back a call's turn, in this process's counts and in the shared budgets (the call was not made; the
        chat's interval stays). Returns nothing."""
        for counted in (queue.sent_at, self._global_sent):
            with contextlib.suppress(ValueError):
                counted.remove(turn.at)
        if turn.token is None or self.budgets is None:
            return
        try:
            await self.budgets.refund_send(str(chat_id), turn.token)
        except StoreUnavailableError as error:
            self._budgets_outage.failed(error)

    async def _hold_shared(self, chat_id: ChatKey, seconds: float) -> None:
        """Make every worker wait ``seconds`` before its next call in the chat (a 429). Returns nothing."""
        if self.budgets is None or not self._budgets_outage.retry_due():
            return
        try:
            await self.budgets.hold_sends(str(chat_id), self.budget_clock(), seconds)
        except StoreUnavailableError as error:
            self._budgets_outage.failed(error)

    def _charge_album(self, queue: _ChatQueue, method: TelegramMethod[Any]) -> None:
        """Count an album's other messages against the chat's and the global budget: Telegram counts each
        message of a ``sendMediaGroup``, while :meth:`_wait_turn` counted the call once. Returns nothing."""
        extra = len(method.media) - 1 if isinstance(method, SendMediaGroup) else 0
        if extra > 0:
            now = self.clock()
            queue.sent_at.extend([now] * extra)
            self._global_sent.extend([now] * extra)

    async def _work(self, chat_id: ChatKey, queue: _ChatQueue) -> None:
        while queue:
            head = queue.peek()
            try:
                turn = await self._wait_turn(chat_id, queue, _messages(head.method) if head is not None else 1)
            except _PastDeadlineError:
                return
            item = queue.pop()  # chosen after the wait: board traffic queued meanwhile goes first
            self._charge_album(queue, item.method)
            if item.edit_key is not None and self._pending_edits.get(item.edit_key) is item:
                del self._pending_edits[item.edit_key]
            try:
                result = await self._call_paced(chat_id, queue, item.method, turn, item.guard)
            except asyncio.CancelledError:
                for future in item.futures:
                    future.cancel()
                raise
            except _PastDeadlineError:
                self._drop(item, "the sender shut down before a retry")
                return
            except Exception as error:  # delivered to the callers
                for future in item.futures:
                    if not future.done():
                        future.set_exception(error)
            else:
                if not item.futures:
                    self.noticed += 1
                for future in item.futures:
                    if not future.done():
                        future.set_result(result)

    async def _call_paced(
        self,
        chat_id: ChatKey,
        queue: _ChatQueue,
        method: TelegramMethod[Any],
        turn: _Turn,
        guard: Guard | None = None,
    ) -> Any:
        """Make the call (its ``turn`` is already counted) if its guard allows it; retry through the pacer. A
        guarded call is made with the request timeout :attr:`SenderLimits.guarded_call_timeout`. Returns: the
        result. Raises: SendWithdrawn when the guard refuses an attempt (its turn is given back)."""
        rate_limited = transient = 0
        while True:
            if guard is not None:
                try:
                    await self._check_guard(method, guard)
                except SendWithdrawn:
                    await self._refund(chat_id, queue, turn)
                    raise
            try:
                if guard is None:
                    return await self._bot(method)
                return await self._bot(method, self.limits.guarded_call_timeout)
            except TelegramRetryAfter as error:
                rate_limited += 1
                if rate_limited > self.limits.max_retries:
                    raise
                log.warning(
                    "429 on %s in chat %s: the chat waits %ss", method.__api_method__, chat_id, error.retry_after
                )
                queue.not_before = max(queue.not_before, self.clock() + error.retry_after)
                await self._hold_shared(chat_id, float(error.retry_after))
            except Exception as error:
                if not is_transient(error) or transient >= self.limits.max_transient_retries:
                    raise
                pause = TRANSIENT_BACKOFF * 2**transient
                transient += 1
                log.warning("%s on %s in chat %s: retrying in %ss", error, method.__api_method__, chat_id, pause)
                queue.not_before = max(queue.not_before, self.clock() + pause)
            self.retried += 1
            turn = await self._wait_turn(chat_id, queue, _messages(method))

    async def _check_guard(self, method: TelegramMethod[Any], guard: Guard) -> None:
        """Raise SendWithdrawn unless ``guard`` allows the call now."""
        try:
            allowed = await guard()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.info("the guard of %s failed (%r): not sent", method.__api_method__, error)
            allowed = False
        if not allowed:
            self.withdrawn += 1
            raise SendWithdrawn(method, "its guard refused it")

    async def _call_direct(self, method: TelegramMethod[Any]) -> Any:
        """Make an unpaced call (no chat), retrying like :meth:`_call_paced`. Returns: the result."""
        rate_limited = transient = 0
        while True:
            try:
                return await self._bot(method)
            except TelegramRetryAfter as error:
                rate_limited += 1
                if rate_limited > self.limits.max_retries:
                    raise
                pause = float(error.retry_after)
            except Exception as error:
                if not is_transient(error) or transient >= self.limits.max_transient_retries:
                    raise
                pause = TRANSIENT_BACKOFF * 2**transient
                transient += 1
            log.warning("retrying %s in %ss", method.__api_method__, pause)
            self.retried += 1
            await self._sleep(pause)


def _messages(method: TelegramMethod[Any]) -> int:
    """Return how many messages a call sends, as Telegram counts them (an album's pictures each)."""
    return len(method.media) if isinstance(method, SendMediaGroup) else 1


def _copy_result(task: asyncio.Task[Any], futures: list[asyncio.Future[Any]]) -> None:
    for future in futures:
        if future.done():
            continue
        if task.cancelled():
            future.cancel()
        elif (error := task.exception()) is not None:
            future.set_exception(error)
        else:
            future.set_result(task.result())
