"""The one way the bot sends messages: per-chat pacing, 429 handling and coalescing of edits.

Telegram allows about one message per second in a chat, twenty per minute in a group and thirty per second
overall, and answers 429 with ``retry_after`` beyond that. :class:`Sender` keeps one FIFO queue per chat,
served by a worker task that waits for the chat's (and the global) budget before each call, sleeps
``retry_after`` and retries on a 429, and, while an edit of a message is still waiting, replaces it by a newer
edit of the same message that covers it (so only the latest board is sent). Methods without a ``chat_id``
(such as ``answerCallbackQuery``, which is not rate limited) are called at once.

The clock and the sleep function are injectable, so tests run on virtual time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import (
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    TelegramMethod,
)

log = logging.getLogger(__name__)

PRUNE_EVERY = 1000
"""Idle chats are forgotten on every this many submitted calls."""

T = TypeVar("T")
ChatKey = int | str


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
    group_per_minute: int = 20
    """At most this many calls in any 60 seconds in one group chat."""
    global_per_second: int = 30
    """At most this many paced calls in any second over all chats."""
    max_retries: int = 5
    """How many times a call answered with 429 is retried before its error is returned to the caller."""


# Which pending edit kinds a newer edit replaces entirely (each edit also sets or clears the keyboard).
_COVERS: dict[type[TelegramMethod[Any]], tuple[type[TelegramMethod[Any]], ...]] = {
    EditMessageMedia: (EditMessageMedia, EditMessageCaption, EditMessageReplyMarkup),
    EditMessageCaption: (EditMessageCaption, EditMessageReplyMarkup),
    EditMessageText: (EditMessageText, EditMessageReplyMarkup),
    EditMessageReplyMarkup: (EditMessageReplyMarkup,),
}


def is_not_modified(error: TelegramBadRequest) -> bool:
    """Return True when the error is Telegram's "message is not modified" answer to a no-op edit."""
    return "message is not modified" in error.message.lower()


def is_group(chat_id: ChatKey) -> bool:
    """Return True for group, supergroup and channel ids (negative numbers or ``@username`` strings)."""
    return isinstance(chat_id, str) or chat_id < 0


@dataclass(eq=False)
class _Item:
    method: TelegramMethod[Any]
    futures: list[asyncio.Future[Any]]
    edit_key: tuple[ChatKey, int] | None = None


@dataclass(eq=False)
class _ChatQueue:
    items: deque[_Item] = field(default_factory=deque)
    sent_at: deque[float] = field(default_factory=deque)
    not_before: float = 0.0
    worker: asyncio.Task[None] | None = None


class Sender:
    """Paced, retrying, coalescing sender of Bot API methods. Use one per bot process."""

    def __init__(
        self,
        bot: MethodCaller,
        limits: SenderLimits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        """Wrap ``bot`` (an ``aiogram.Bot`` or any :class:`MethodCaller`)."""
        self._bot = bot
        self.limits = limits or SenderLimits()
        self._clock = clock
        self._sleep = sleep
        self._chats: dict[ChatKey, _ChatQueue] = {}
        self._pending_edits: dict[tuple[ChatKey, int], _Item] = {}
        self._global_sent: deque[float] = deque()
        self._direct: set[asyncio.Task[Any]] = set()
        self._closed = False
        self._submitted = 0
        self.coalesced = 0
        """How many edits were dropped because a newer edit of the same message replaced them."""

    # ---- public API --------------------------------------------------------------------------------------
    async def send(self, method: TelegramMethod[T]) -> T:
        """Queue ``method`` behind earlier calls of its chat and return its result once it was sent.

        Edits are coalesced as described in :meth:`edit`. Methods without ``chat_id`` are called at once.
        Raises: the ``TelegramAPIError`` of the call (a 429 only after ``max_retries`` retries);
            RuntimeError when the sender is closed.
        """
        return await self.submit(method)  # type: ignore[no-any-return]

    async def edit(self, method: TelegramMethod[T]) -> T | None:
        """Queue an edit of a message (``editMessageMedia``/``Caption``/``Text``/``ReplyMarkup``).

        If an edit of the same message that this one covers is still waiting, it is replaced by this one (in
        its queue position) and its caller receives this one's result.
        Returns: the method's result, or None when Telegram says the message is not modified.
        Raises: like :meth:`send`.
        """
        try:
            return await self.submit(method)  # type: ignore[no-any-return]
        except TelegramBadRequest as error:
            if is_not_modified(error):
                return None
            raise

    def submit(self, method: TelegramMethod[Any]) -> asyncio.Future[Any]:
        """Queue ``method`` without waiting. Returns: a future of its result (see :meth:`send`).

        Raises: RuntimeError when the sender is closed.
        """
        if self._closed:
            raise RuntimeError("the sender is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        chat_id: ChatKey | None = getattr(method, "chat_id", None)
        if chat_id is None:
            task = loop.create_task(self._call_with_retries(method))
            self._direct.add(task)  # keep a strong reference while it runs
            task.add_done_callback(self._direct.discard)
            task.add_done_callback(lambda t: _copy_result(t, [future]))
            return future

        edit_key = self._edit_key(method, chat_id)
        if edit_key is not None:
            pending = self._pending_edits.get(edit_key)
            if pending is not None and type(pending.method) in _COVERS.get(type(method), ()):
                pending.method = method
                pending.futures.append(future)
                self.coalesced += 1
                return future

        self._submitted += 1
        if self._submitted % PRUNE_EVERY == 0:
            self._prune()
        item = _Item(method=method, futures=[future], edit_key=edit_key)
        if edit_key is not None:
            self._pending_edits[edit_key] = item
        queue = self._chats.setdefault(chat_id, _ChatQueue())
        queue.items.append(item)
        if queue.worker is None or queue.worker.done():
            queue.worker = loop.create_task(self._work(chat_id, queue), name=f"sender:{chat_id}")
        return future

    def tracked_chats(self) -> int:
        """Return how many chats the sender currently keeps pacing state for."""
        return len(self._chats)

    def _prune(self) -> None:
        """Forget idle chats whose pacing state no longer matters (nothing queued, last call over a minute ago)."""
        now = self._clock()
        idle = [
            chat_id
            for chat_id, queue in self._chats.items()
            if not queue.items
            and (queue.worker is None or queue.worker.done())
            and queue.not_before <= now
            and (not queue.sent_at or queue.sent_at[-1] <= now - 60.0)
        ]
        for chat_id in idle:
            del self._chats[chat_id]

    def pending(self) -> int:
        """Return how many queued calls have not been started yet."""
        return sum(len(q.items) for q in self._chats.values())

    async def drain(self) -> None:
        """Wait until every queued call has been made (or has failed). Returns: nothing."""
        while True:
            workers = [q.worker for q in self._chats.values() if q.worker is not None and not q.worker.done()]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    async def close(self) -> None:
        """Stop accepting calls, cancel waiting ones (their futures are cancelled). Returns: nothing."""
        self._closed = True
        for queue in self._chats.values():
            if queue.worker is not None:
                queue.worker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await queue.worker
            for item in queue.items:
                for future in item.futures:
                    future.cancel()
            queue.items.clear()
        self._pending_edits.clear()

    # ---- internals ---------------------------------------------------------------------------------------
    @staticmethod
    def _edit_key(method: TelegramMethod[Any], chat_id: ChatKey) -> tuple[ChatKey, int] | None:
        if type(method) not in _COVERS:
            return None
        message_id = getattr(method, "message_id", None)
        return None if message_id is None else (chat_id, int(message_id))

    def _delay(self, chat_id: ChatKey, queue: _ChatQueue) -> float:
        """Return how long to wait before the next call in this chat may be made (0 = now)."""
        now = self._clock()
        window_start = now - 60.0
        while queue.sent_at and queue.sent_at[0] <= window_start:
            queue.sent_at.popleft()
        while self._global_sent and self._global_sent[0] <= now - 1.0:
            self._global_sent.popleft()
        delay = queue.not_before - now
        if is_group(chat_id) and len(queue.sent_at) >= self.limits.group_per_minute:
            delay = max(delay, queue.sent_at[-self.limits.group_per_minute] + 60.0 - now)
        if len(self._global_sent) >= self.limits.global_per_second:
            delay = max(delay, self._global_sent[-self.limits.global_per_second] + 1.0 - now)
        return delay

    async def _work(self, chat_id: ChatKey, queue: _ChatQueue) -> None:
        interval = self.limits.group_interval if is_group(chat_id) else self.limits.private_interval
        while queue.items:
            delay = self._delay(chat_id, queue)
            if delay > 0:
                await self._sleep(delay)
                continue
            item = queue.items.popleft()
            if item.edit_key is not None and self._pending_edits.get(item.edit_key) is item:
                del self._pending_edits[item.edit_key]
            now = self._clock()
            queue.sent_at.append(now)
            self._global_sent.append(now)
            queue.not_before = now + interval
            try:
                result = await self._call_with_retries(item.method, queue)
            except asyncio.CancelledError:
                for future in item.futures:
                    future.cancel()
                raise
            except Exception as error:  # delivered to the callers
                for future in item.futures:
                    if not future.done():
                        future.set_exception(error)
            else:
                for future in item.futures:
                    if not future.done():
                        future.set_result(result)

    async def _call_with_retries(self, method: TelegramMethod[Any], queue: _ChatQueue | None = None) -> Any:
        attempt = 0
        while True:
            try:
                return await self._bot(method)
            except TelegramRetryAfter as error:
                attempt += 1
                if attempt > self.limits.max_retries:
                    raise
                log.warning(
                    "429 on %s, retrying in %ss (attempt %d)", method.__api_method__, error.retry_after, attempt
                )
                if queue is not None:
                    queue.not_before = max(queue.not_before, self._clock() + error.retry_after)
                await self._sleep(float(error.retry_after))


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
