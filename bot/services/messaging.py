"""How the services talk to Telegram: the :class:`MessageSender` protocol (the infra ``Sender`` implements it) and
a direct, unpaced implementation for tools and tests; plus the classification of Bot API errors that the board
converger relies on."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramUnauthorizedError,
)
from aiogram.methods import SendMessage, TelegramMethod
from aiogram.types import InlineKeyboardMarkup, Message, ReplyParameters

from bot.sender import Guard, SendWithdrawn

log = logging.getLogger(__name__)

SEND_FAILURES: Final = (TelegramAPIError, RuntimeError, LookupError)
"""What a send or an edit through the sender raises when the message did not get through: a Bot API error (or the
sender's own drops, closing and withdrawn calls), or a failure of the sender or the fake Bot API behind it. Callers
that log and carry on catch exactly these: ``except SEND_FAILURES``."""


class MessageSender(Protocol):
    """What the service needs to talk to Telegram (the infra ``Sender`` has both methods)."""

    async def send(
        self, method: TelegramMethod[Any], *, guard: Guard | None = None, notice: TelegramMethod[Any] | None = None
    ) -> Any:
        """Return the result of the method; ``guard`` is checked right before the call is made (False: the call
        is withdrawn, :class:`~bot.sender.SendWithdrawn`); ``notice`` is sent in its place when a shutdown drops
        it (see :meth:`bot.sender.Sender.send`)."""
        ...

    async def edit(self, method: TelegramMethod[Any], *, guard: Guard | None = None) -> Any:
        """Return the result of the edit, or None when the message was not modified (``guard`` as in ``send``)."""
        ...


class DirectSender:
    """A :class:`MessageSender` calling a Bot directly, without pacing (for tests and tools)."""

    def __init__(self, bot: Callable[[TelegramMethod[Any]], Awaitable[Any]]) -> None:
        """Wrap ``bot`` (an aiogram Bot)."""
        self.bot = bot

    async def send(
        self, method: TelegramMethod[Any], *, guard: Guard | None = None, notice: TelegramMethod[Any] | None = None
    ) -> Any:
        """Return the method's result (nothing is queued, so ``notice`` is never needed). Raises: SendWithdrawn
        when ``guard`` refuses the call."""
        if guard is not None and not await guard():
            raise SendWithdrawn(method, "its guard refused it")
        return await self.bot(method)

    async def edit(self, method: TelegramMethod[Any], *, guard: Guard | None = None) -> Any:
        """Return the edit's result, or None for "message is not modified". Raises: SendWithdrawn when ``guard``
        refuses the call."""
        try:
            return await self.send(method, guard=guard)
        except TelegramBadRequest as error:
            if "not modified" in error.message.lower():
                return None
            raise


class Replies:
    """The services' and handlers' way to answer: send, edit and reply through the sender, logging (not raising)
    where the caller carries on whatever happened."""

    def __init__(self, sender: MessageSender) -> None:
        """Talk to Telegram through ``sender``."""
        self.sender = sender

    async def send(self, method: TelegramMethod[Any]) -> Any:
        """Send a method through the sender. Returns: its result. Raises: TelegramAPIError (see
        :data:`SEND_FAILURES`)."""
        return await self.sender.send(method)

    async def edit(self, method: TelegramMethod[Any]) -> Any:
        """Send an edit through the sender; failures (:data:`SEND_FAILURES`) are logged, not raised.
        Returns: the result or None."""
        try:
            return await self.sender.edit(method)
        except SEND_FAILURES as error:
            log.info("edit failed: %s", error)
            return None

    async def reply(
        self, message: Message, text: str, *, keyboard: InlineKeyboardMarkup | None = None, quote: bool = True
    ) -> None:
        """Send ``text`` to the message's chat (its topic, if any) through the sender, as a reply when ``quote``.
        Failures (:data:`SEND_FAILURES`) are logged, not raised. Returns nothing."""
        method = SendMessage(
            chat_id=message.chat.id,
            text=text,
            reply_markup=keyboard,
            message_thread_id=message.message_thread_id if message.is_topic_message else None,
            reply_parameters=(
                ReplyParameters(message_id=message.message_id, allow_sending_without_reply=True) if quote else None
            ),
        )
        try:
            await self.send(method)
        except SEND_FAILURES as error:
            log.info("reply failed: %s", error)


_MESSAGE_GONE = ("message to edit not found", "message can't be edited", "message_id_invalid", "message not found")


def message_gone(error: Exception) -> bool:
    """Return True when an edit failed because the message no longer exists or cannot be edited any more (the
    board must then be posted anew)."""
    return isinstance(error, TelegramBadRequest) and any(part in error.message.lower() for part in _MESSAGE_GONE)


def chat_gone(error: Exception) -> bool:
    """Return True when the chat itself is gone for the bot (it was removed or blocked, or the chat deleted), as
    opposed to a refusal of one request or of the bot's token."""
    return isinstance(error, TelegramForbiddenError | TelegramNotFound) or (
        isinstance(error, TelegramBadRequest) and "chat not found" in error.message.lower()
    )


def chat_unreachable(error: Exception) -> bool:
    """Return True when the bot can never reach the chat again as things stand (blocked, kicked, chat gone or
    migrated, bad token): retrying would only repeat the failure."""
    return chat_gone(error) or isinstance(error, TelegramMigrateToChat | TelegramUnauthorizedError)
