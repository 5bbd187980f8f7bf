"""Per-user throttling: a token bucket per user; over the limit one short notice, then silence until it refills.

Every message or button press of a user takes a token from the user's bucket, which holds ``burst`` tokens and
refills at ``rate`` tokens a second. With no token left the update is not handled:

- a button press is still answered at once (``answerCallbackQuery`` is not rate limited), with the notice, so a
  game's press never stays unanswered;
- a message gets the notice as a reply once per throttling episode (until the user has a token again), and the
  further messages are dropped silently.

Buckets of idle users are forgotten (a full bucket is the same as a new one), and at most ``max_users`` are kept.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.methods import AnswerCallbackQuery, SendMessage, TelegramMethod
from aiogram.types import ReplyParameters, TelegramObject, Update, User

from bot.i18n import normalize_language
from bot.sender import Priority, Sender
from bot.texts import tr

log = logging.getLogger(__name__)


def too_fast_text(language_code: str | None, default: str = "ru") -> str:
    """Return the throttling notice in the user's language (``default`` when the code says nothing)."""
    return tr(normalize_language(language_code) or default, "too_fast")


@dataclass
class _Bucket:
    tokens: float
    updated: float
    noticed: bool = False


class ThrottleMiddleware(BaseMiddleware):
    """Outer ``update`` middleware throttling each user's messages and presses (see the module docstring)."""

    def __init__(
        self,
        rate: float,
        burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        default_language: str = "ru",
        max_users: int = 100_000,
    ) -> None:
        """Allow each user ``burst`` updates at once and ``rate`` a second after that (``rate`` <= 0: no
        throttling). Raises: ValueError when ``burst`` < 1 or ``max_users`` < 1."""
        if burst < 1 or max_users < 1:
            raise ValueError(f"burst ({burst}) and max_users ({max_users}) must be at least 1")
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.default_language = default_language
        self.max_users = max_users
        self._buckets: OrderedDict[int, _Bucket] = OrderedDict()
        self.dropped = 0
        """How many updates were not handled because their user was over the limit."""

    def tracked_users(self) -> int:
        """Return how many users' buckets are kept."""
        return len(self._buckets)

    def allow(self, user_id: int) -> bool:
        """Take a token of the user's bucket. Returns: True when there was one (the update may be handled)."""
        now = self.clock()
        self._forget_idle(now)
        bucket = self._buckets.pop(user_id, None) or _Bucket(tokens=float(self.burst), updated=now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.updated) * self.rate)
        bucket.updated = now
        self._buckets[user_id] = bucket  # most recently seen last
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            bucket.noticed = False
            return True
        return False

    def _forget_idle(self, now: float) -> None:
        full_after = self.burst / self.rate
        while self._buckets:
            user_id, oldest = next(iter(self._buckets.items()))
            idle = now - oldest.updated >= full_after
            if not idle and len(self._buckets) < self.max_users:
                return
            del self._buckets[user_id]

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        """Return the handler's result, or None when the user is over the limit (after the notice, if due)."""
        user: User | None = data.get("event_from_user")
        if self.rate <= 0 or user is None or not isinstance(event, Update):
            return await handler(event, data)
        if event.message is None and event.callback_query is None and event.edited_message is None:
            return await handler(event, data)
        if self.allow(user.id):
            return await handler(event, data)
        self.dropped += 1
        await self._notify(event, user, data)
        return None

    async def _notify(self, update: Update, user: User, data: dict[str, Any]) -> None:
        text = too_fast_text(user.language_code, self.default_language)
        method: TelegramMethod[Any]
        if update.callback_query is not None:
            method = AnswerCallbackQuery(callback_query_id=update.callback_query.id, text=text)
        else:
            bucket = self._buckets.get(user.id)
            message = update.message or update.edited_message
            if bucket is None or bucket.noticed or message is None:
                return
            bucket.noticed = True
            method = SendMessage(
                chat_id=message.chat.id,
                text=text,
                message_thread_id=message.message_thread_id if message.is_topic_message else None,
                reply_parameters=ReplyParameters(message_id=message.message_id, allow_sending_without_reply=True),
            )
        sender: Sender | None = data.get("sender")
        bot: Bot | None = data.get("bot")
        try:
            if sender is not None:
                await sender.send(method, priority=Priority.CHAT)  # type: ignore[misc]
            elif bot is not None:
                await bot(method)  # type: ignore[misc]
        except Exception as error:  # a notice that cannot be sent is not worth more than a log line
            log.info("update %s: throttling notice not sent: %s", update.update_id, error)
