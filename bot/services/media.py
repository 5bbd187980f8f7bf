"""Pictures in chats that may refuse them: what a failed picture means, which chats take none, and the one notice.

**What Telegram answers.** A bot's picture (``sendPhoto``, ``sendMediaGroup``, ``editMessageMedia``; a file by
``sendDocument``) is refused for two different reasons, and everything else is no matter of pictures
(:func:`media_verdict` tells them apart):

- *the chat forbids media* (:attr:`MediaVerdict.CHAT_FORBIDS`): a group whose admins took the "Send media → Photos"
  permission from its members, which binds the bot too unless it is an admin. The Bot API checks the permission
  itself (tdlib's ``can_send_message_content``: ``Status::Error(400, "Not enough rights to send photos to the
  chat")``, "… documents …" for a file) and answers 400 "Bad Request: not enough rights to send photos to the
  chat"; when Telegram's servers refuse instead, their MTProto codes ``CHAT_SEND_MEDIA_FORBIDDEN``,
  ``CHAT_SEND_PHOTOS_FORBIDDEN`` or ``CHAT_SEND_DOCS_FORBIDDEN`` come through in the description (403 in MTProto,
  so they are matched whatever the status). Every later picture would be refused the same way until an admin
  changes something, so the chat is remembered (:class:`ChatMedia`) and gets text;
- *this one picture* (:attr:`MediaVerdict.PICTURE_REFUSED`): ``PHOTO_INVALID_DIMENSIONS`` (width plus height over
  10,000 or a side ratio over 20), ``IMAGE_PROCESS_FAILED`` (Telegram could not decode it), ``PHOTO_INVALID``,
  ``PHOTO_SAVE_FILE_INVALID``, ``PHOTO_EXT_INVALID``, "file is too big", "wrong file identifier" (a ``file_id``
  Telegram no longer knows) or a 413 "Request Entity Too Large": that message goes out as text, the next picture is
  tried as usual;
- *retryable* (:attr:`MediaVerdict.RETRYABLE`): a network error, a 5xx answer, a 429 (the sender retries these
  already; what reaches the caller is retried as before), or the sender's own drop of the call;
- *anything else* (:attr:`MediaVerdict.OTHER`): not about the picture — the chat is unreachable, the message is
  gone, a caption is refused — handled as before.

(Sources: tdlib ``td/telegram/MessageContent.cpp``; the Bot API error lists of Go libraries such as telebot,
``ErrNoRightsToSendPhoto = 400 "Bad Request: not enough rights to send photos to the chat"``; tdlib/td issue 2544
for the photo limits; ``IMAGE_PROCESS_FAILED`` in pengrad/java-telegram-bot-api issue 337 and TelegramBot/Api
issue 302; MTProto's ``CHAT_SEND_*_FORBIDDEN`` in the clients' error tables.)

**The chat's memory.** :class:`ChatMedia` keeps in the chat's stored settings (:attr:`ChatSettings.media_refused`,
written through :class:`~bot.services.preferences.Preferences`) when the chat last refused a picture, so every
worker and a restarted bot know it. While that is recent the chat gets text (:attr:`MediaMode.TEXT`); once it is
:data:`MEDIA_RETRY_AFTER` old, the next picture is tried again (:attr:`MediaMode.RETRY`): refused, the clock starts
again; taken, the chat is forgotten (:meth:`ChatMedia.accepted`) and has its pictures back. An hour: a chat that was
fixed gets pictures back soon, and one that was not costs one refused call an hour. :meth:`ChatMedia.forget` forgets
at once (for an admin's command, or the bot made an admin).

**The notice.** When a chat is found to forbid media, :meth:`ChatMedia.refused` says once, in text, in that chat
(its topic), what the admins can change (``media.notice``). Once across workers and restarts: the notice is claimed
in the store (:meth:`~bot.storage.updates.UpdateClaims.claim_update` under a negative key made from the chat, as
inline mode claims its joins) and, once posted, kept there for :data:`NOTICE_KEPT`, so later refusals say nothing;
a notice that could not be posted is released and tried with the next refusal. A chat that takes pictures again
drops it, so that forbidding media once more is told anew.
"""

from __future__ import annotations

import enum
import hashlib
import logging
import time
from collections.abc import Callable
from typing import Final

from aiogram.exceptions import (
    TelegramAPIError,
    TelegramEntityTooLarge,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import SendMessage

from bot.model.settings import ChatSettings
from bot.sender import SendDropped
from bot.services.messaging import SEND_FAILURES, MessageSender
from bot.services.preferences import Preferences
from bot.storage import UpdateClaims
from bot.storage.errors import StoreUnavailableError
from bot.texts import tr

log = logging.getLogger(__name__)

MEDIA_RETRY_AFTER: Final = 3600.0
"""Seconds after a chat's last refusal before a picture is tried there again."""
NOTICE_KEPT: Final = 365 * 24 * 3600.0
"""Seconds a posted notice is remembered: the chat gets no other one while it still forbids media."""
NOTICE_LEASE: Final = 60.0
"""Seconds a worker's claim to post a chat's notice holds while it posts it."""

CHAT_FORBIDS_MARKERS: Final = (
    "not enough rights to send photos",
    "not enough rights to send documents",
    "chat_send_media_forbidden",
    "chat_send_photos_forbidden",
    "chat_send_docs_forbidden",
)
"""Parts of the (lower-cased) descriptions of Bot API errors that mean: the chat forbids the bot's media."""
PICTURE_REFUSED_MARKERS: Final = (
    "photo_invalid",  # PHOTO_INVALID and PHOTO_INVALID_DIMENSIONS
    "image_process_failed",
    "photo_save_file_invalid",
    "photo_ext_invalid",
    "file is too big",
    "wrong file identifier",
)
"""Parts of the (lower-cased) descriptions of Bot API errors that mean: Telegram refuses this one picture."""


class MediaVerdict(enum.Enum):
    """What a failed picture means for the chat (see the module docstring)."""

    CHAT_FORBIDS = "chat_forbids"
    """The chat forbids the bot's media: remember it (:meth:`ChatMedia.refused`) and send text."""
    PICTURE_REFUSED = "picture_refused"
    """Telegram refuses this picture: send this message as text; the next picture is tried as usual."""
    RETRYABLE = "retryable"
    """A network error, a 5xx, a 429 or the sender's drop: retry as before."""
    OTHER = "other"
    """Not about the picture (an unreachable chat, a gone message, a refused caption …): handle as before."""


class MediaMode(enum.Enum):
    """How to show something in a chat (:meth:`ChatMedia.mode`)."""

    PICTURES = "pictures"
    """No refusal is known: send the picture."""
    RETRY = "retry"
    """The chat refused pictures long enough ago: try one; taken, call :meth:`ChatMedia.accepted`."""
    TEXT = "text"
    """The chat refused pictures lately: send text."""


def media_verdict(error: BaseException) -> MediaVerdict:
    """Return what the failure ``error`` of a picture (or a file) sent or edited in a chat means for that chat (see
    the module docstring). Raises nothing."""
    if isinstance(error, TelegramAPIError):
        description = error.message.lower()
        if any(marker in description for marker in CHAT_FORBIDS_MARKERS):
            return MediaVerdict.CHAT_FORBIDS
        if isinstance(error, TelegramEntityTooLarge) or any(
            marker in description for marker in PICTURE_REFUSED_MARKERS
        ):
            return MediaVerdict.PICTURE_REFUSED
    if isinstance(error, TelegramRetryAfter | TelegramServerError | TelegramNetworkError | SendDropped):
        return MediaVerdict.RETRYABLE
    if isinstance(error, RuntimeError | LookupError):  # the sender's (or a fake Bot API's) own failure
        return MediaVerdict.RETRYABLE
    return MediaVerdict.OTHER


def media_mode(settings: ChatSettings, now: float, retry_after: float = MEDIA_RETRY_AFTER) -> MediaMode:
    """Return how the chat of ``settings`` is shown things at ``now`` (Unix time): pictures while no refusal is
    recorded, a retry once the last one is ``retry_after`` seconds old, text before that."""
    refused = settings.media_refused
    if refused is None:
        return MediaMode.PICTURES
    return MediaMode.RETRY if now >= refused + retry_after else MediaMode.TEXT


def notice_key(chat_id: int) -> int:
    """Return the store's claim key of the chat's notice: negative, which no Telegram update id is."""
    digest = hashlib.sha256(f"media-notice:{chat_id}".encode()).digest()
    return -1 - int.from_bytes(digest[:7], "big")


class ChatMedia:
    """Which chats refuse the bot's pictures, remembered in their settings, and the one notice to their admins (see
    the module docstring)."""

    def __init__(
        self,
        preferences: Preferences,
        claims: UpdateClaims,
        sender: MessageSender,
        *,
        clock: Callable[[], float] = time.time,
        retry_after: float = MEDIA_RETRY_AFTER,
    ) -> None:
        """Keep the chats' refusals in their settings through ``preferences``; claim each notice in ``claims`` and
        send it through ``sender``; ``clock`` gives Unix time (shared by the workers); ``retry_after``: seconds
        after a refusal before a picture is tried again."""
        self.preferences = preferences
        self.claims = claims
        self.sender = sender
        self.clock = clock
        self.retry_after = retry_after

    async def mode(self, chat_id: int) -> MediaMode:
        """Return how to show things in the chat now (:func:`media_mode`): :attr:`MediaMode.PICTURES` when the
        chat's settings cannot be read (the picture is tried; a refusal falls back to text anyway)."""
        try:
            settings = await self.preferences.chat(chat_id)
        except StoreUnavailableError as error:
            log.info("store unavailable: a picture is tried in chat %s (%s)", chat_id, error)
            return MediaMode.PICTURES
        return media_mode(settings, self.clock(), self.retry_after)

    async def refused(self, chat_id: int, *, lang: str, thread: int | None = None) -> None:
        """Remember that the chat refused a picture because it forbids media (now), and unless its admins were told
        already, tell them once what they can change (in ``lang``, in forum topic ``thread``). Returns nothing; a
        store outage or a failed notice is logged."""
        try:
            first = await self.preferences.note_media_refused(chat_id, int(self.clock()))
        except StoreUnavailableError as error:
            log.warning("chat %s forbids pictures, not remembered (store unavailable: %s)", chat_id, error)
            return
        if first:
            log.info("chat %s forbids the bot's pictures: text from now on", chat_id)
        else:
            log.info("chat %s still forbids the bot's pictures", chat_id)
        await self._notice(chat_id, lang, thread)

    async def accepted(self, chat_id: int) -> None:
        """Forget the chat's refusal after a picture got through there again (call it after a picture sent in
        :attr:`MediaMode.RETRY`). Returns nothing; a store outage is logged."""
        try:
            if await self.forget(chat_id):
                log.info("chat %s takes the bot's pictures again", chat_id)
        except StoreUnavailableError as error:
            log.warning("chat %s takes pictures again, not recorded (store unavailable: %s)", chat_id, error)

    async def forget(self, chat_id: int) -> bool:
        """Forget the chat's refusal (and its notice) at once, so that the next picture is tried (an admin's
        command, the bot made an admin). Returns: whether a refusal was recorded. Raises: StoreUnavailableError."""
        if not await self.preferences.forget_media_refused(chat_id):
            return False
        await self.claims.release_update(notice_key(chat_id))
        return True

    async def _notice(self, chat_id: int, lang: str, thread: int | None) -> None:
        """Post the notice in the chat unless it was posted (or another worker is posting it)."""
        key = notice_key(chat_id)
        try:
            if await self.claims.claim_update(key, lease=NOTICE_LEASE) != "new":
                return
        except StoreUnavailableError as error:
            log.warning("notice of chat %s not posted (store unavailable: %s)", chat_id, error)
            return
        try:
            await self.sender.send(
                SendMessage(chat_id=chat_id, text=tr(lang, "media.notice"), message_thread_id=thread)
            )
        except SEND_FAILURES as error:
            log.info("notice of chat %s not posted (tried again with its next refusal): %s", chat_id, error)
            await self._settle(key, posted=False)
            return
        await self._settle(key, posted=True)

    async def _settle(self, key: int, *, posted: bool) -> None:
        """Keep the claim of a posted notice for :data:`NOTICE_KEPT`, or release that of a notice not posted."""
        try:
            if posted:
                await self.claims.finish_update(key, ttl=NOTICE_KEPT)
            else:
                await self.claims.release_update(key)
        except StoreUnavailableError as error:
            log.warning("claim of a media notice not settled (store unavailable: %s)", error)


async def picture_mode(media: ChatMedia | None, chat_id: int) -> MediaMode:
    """Return how to show pictures in the chat (:meth:`ChatMedia.mode`; pictures when there is no memory)."""
    return MediaMode.PICTURES if media is None else await media.mode(chat_id)


async def picture_refused(
    media: ChatMedia | None, chat_id: int, error: BaseException, *, lang: str, thread: int | None, what: str
) -> bool:
    """Return whether the failure ``error`` of a picture (``what``: "an arena picture", for the log) calls for text in
    its place: the chat forbids media (then remembered in ``media``, and its admins told once) or Telegram refuses
    this picture. Raises: StoreUnavailableError from ``media``."""
    verdict = media_verdict(error)
    if verdict is MediaVerdict.CHAT_FORBIDS:
        if media is None:
            log.info("chat %s refused %s (%s): text in its place", chat_id, what, error)
        else:
            await media.refused(chat_id, lang=lang, thread=thread)  # it logs the refusal
        return True
    if verdict is MediaVerdict.PICTURE_REFUSED:
        log.warning("Telegram refused %s in chat %s (%s): text in its place", what, chat_id, error)
        return True
    return False


async def picture_accepted(media: ChatMedia | None, chat_id: int, mode: MediaMode) -> None:
    """Note that a picture tried again (``mode`` RETRY) got through: the chat has its pictures back. Returns
    nothing."""
    if mode is MediaMode.RETRY and media is not None:
        await media.accepted(chat_id)
