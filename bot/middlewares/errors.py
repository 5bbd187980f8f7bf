"""Turns any exception escaping a handler into a log line with the update id and a short apology.

Registered as the outermost update middleware of the bot (after aiogram's own user-context middleware), so it
also covers the other middlewares. The game is never changed by a failed handler: game changes are only ever
written by one compare-and-set at the end of a handler's work, which either happened or did not.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.methods import AnswerCallbackQuery, SendMessage, TelegramMethod
from aiogram.types import ReplyParameters, TelegramObject, Update, User
from aiogram.utils.i18n import I18n

from bot.i18n import gettext_noop, normalize_language
from bot.outage import Outage
from bot.sender import SendDropped, Sender
from bot.storage import StoreUnavailableError

log = logging.getLogger(__name__)

REPORT_CONTEXT_KEY = "error_report"
"""Data key of a dict that inner middlewares may fill (e.g. ``locale``) to shape the apology."""

APOLOGY = gettext_noop("Sorry, something went wrong. The game is unchanged; please try again.")
UNAVAILABLE = gettext_noop("The bot is temporarily unavailable. Please try again in a minute.")


class ErrorReportingMiddleware(BaseMiddleware):
    """Outer ``update`` middleware: logs exceptions with the update id and apologises to the user.

    A callback query gets a toast (``answerCallbackQuery``); a message gets a reply. A
    :class:`~bot.storage.StoreUnavailableError` gets "temporarily unavailable" instead of the apology. A
    :class:`~bot.sender.SendDropped` (a reply the sender dropped under a flood, or at shutdown) is not a failure:
    it is logged quietly and gets no apology, which would only add to the flood.
    The exception is not re-raised, so polling goes on.
    """

    def __init__(self, i18n: I18n) -> None:
        """Use ``i18n`` to translate the apologies."""
        self.i18n = i18n
        self.failures = 0
        """How many updates failed (for tests and diagnostics)."""
        self.outage = Outage("updates", log, needs="the store", meanwhile="users are asked to try again in a minute")
        """The store's outages as the updates meet them: one WARNING, one INFO when an update gets through again."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        """Return the handler's result, or None after reporting its exception."""
        report: dict[str, Any] = {}
        data[REPORT_CONTEXT_KEY] = report
        try:
            result = await handler(event, data)
        except SendDropped as dropped:
            update_id = event.update_id if isinstance(event, Update) else None
            log.info("update %s: %s", update_id, dropped)
            return None
        except Exception as error:
            self.failures += 1
            update_id = event.update_id if isinstance(event, Update) else None
            if isinstance(error, StoreUnavailableError):
                self.outage.failed(error)
                log.debug("update %s: storage unavailable: %s", update_id, error)
                text = UNAVAILABLE
            else:
                log.exception("update %s: unhandled %s", update_id, type(error).__name__)
                text = APOLOGY
            user: User | None = data.get("event_from_user")
            locale = report.get("locale") or normalize_language(user.language_code if user else None)
            translated = self.i18n.gettext(text, locale=locale or self.i18n.default_locale)
            if isinstance(event, Update):
                await self._apologise(event, translated, data)
            return None
        self.outage.succeeded()
        return result

    async def _apologise(self, update: Update, text: str, data: dict[str, Any]) -> None:
        bot: Bot | None = data.get("bot")
        sender: Sender | None = data.get("sender")
        method: TelegramMethod[Any] | None = None
        if update.callback_query is not None:
            method = AnswerCallbackQuery(callback_query_id=update.callback_query.id, text=text)
        else:
            message = update.message or update.edited_message
            if message is not None:
                method = SendMessage(
                    chat_id=message.chat.id,
                    text=text,
                    message_thread_id=message.message_thread_id if message.is_topic_message else None,
                    reply_parameters=ReplyParameters(message_id=message.message_id, allow_sending_without_reply=True),
                )
        if method is None or bot is None:
            return
        try:
            if sender is not None:
                await sender.send(method)
            else:
                await bot(method)
        except Exception:
            log.exception("update %s: could not send the apology", update.update_id)
