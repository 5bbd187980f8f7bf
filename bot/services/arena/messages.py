"""What the arenas say in the chats, through :class:`~bot.services.messaging.Replies`: the card in the group (edited
rarely: the players in, the time left, the end), the standings (one message, edited at most every few minutes), the
result, and the notice to a paused player in private. The standings and the result are a picture
(:mod:`bot.services.arena.pictures`) with a caption, drawn in the group's theme; where the chat forbids the bot's
media, Telegram refuses the one picture or the renderer fails, they go out as the text table
(:func:`~bot.services.arena.texts.standings_text`) in its place, at once, as the tournaments' do: with
:class:`~bot.services.media.ChatMedia` the chat is remembered (later ones go as text without trying, until a picture
is due to be tried again) and its admins are told once what to change. The games themselves never go to the group.
What is owed and when, and noting it in the record, is the reconciler's (:mod:`bot.services.arena.reconcile`); every
call goes through the sender, which paces it within the group's budget shared by every worker. A send or edit that
fails is logged, not raised, so an unreachable chat does not stop an arena."""

from __future__ import annotations

import asyncio
import hashlib
import logging

from aiogram.methods import EditMessageMedia, EditMessageText, GetMe, SendMessage, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, ReplyParameters

from bot.keyboards.arena import back_keyboard, card_keyboard
from bot.keyboards.webapp import WebAppLinks, arena_button
from bot.model.arena import ArenaRecord, Outgoing
from bot.model.clock import FIRST_MOVE_WINDOW
from bot.services.arena import pictures, texts
from bot.services.boards import known_theme
from bot.services.media import (
    ChatMedia,
    MediaMode,
    picture_accepted,
    picture_mode,
    picture_refused,
)
from bot.services.messaging import SEND_FAILURES, Replies
from bot.services.preferences import Preferences
from bot.storage import StoreUnavailableError
from bot.texts import tr

log = logging.getLogger(__name__)

PICTURE = "an arena picture"
"""What the log calls this module's pictures."""


class ArenaMessages:
    """Sends and edits the arenas' messages (see the module docstring)."""

    def __init__(
        self,
        replies: Replies,
        links: WebAppLinks | None = None,
        *,
        media: ChatMedia | None = None,
        preferences: Preferences | None = None,
    ) -> None:
        """Talk to the chats through ``replies``; ``links``: where the Mini App lives (the card then opens the arena's
        live view in it; None: no such button); ``media`` remembers the chats that forbid the bot's pictures and
        tells their admins (None: every picture is tried, and a refused one still goes out as text);
        ``preferences`` give each group's theme, which its pictures are drawn in (None: the classic theme)."""
        self.replies = replies
        self.links = links
        self.media = media
        self.preferences = preferences
        self._username: str | None = None

    # ------------------------------------------------------------------ the card

    def card_key(self, record: ArenaRecord, now: float) -> str:
        """Return the key of what the card shows at ``now`` (it is edited only when this changes)."""
        return _digest(texts.card_text(record.lang, record, now))

    async def card(self, arena_id: str, record: ArenaRecord, now: float) -> tuple[str, InlineKeyboardMarkup | None]:
        """Return the card's text and keyboard (none once the arena is over)."""
        text = texts.card_text(record.lang, record, now)
        if record.status != "running":
            return text, None
        live = arena_button(self.links, arena_id, record.lang, private=False)
        return text, card_keyboard(arena_id, record.lang, deep_link=await self.deep_link(arena_id), app_button=live)

    async def send_card(
        self, arena_id: str, record: ArenaRecord, now: float, *, reply_to: int | None = None
    ) -> int | None:
        """Post the card in the arena's group. Returns: its message id, None when it could not be posted."""
        text, keyboard = await self.card(arena_id, record, now)
        reply = None if reply_to is None else ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
        try:
            sent = await self.replies.send(
                SendMessage(
                    chat_id=record.chat_id,
                    text=text,
                    reply_markup=keyboard,
                    message_thread_id=record.thread,
                    reply_parameters=reply,
                )
            )
        except SEND_FAILURES as error:
            log.info("arena %s: card not posted: %s", arena_id, error)
            return None
        return int(sent.message_id)

    async def sync_card(self, arena_id: str, record: ArenaRecord, now: float) -> int | None:
        """Edit the card to show the record at ``now``, or post it when there is none. Returns: the card's message
        id (None: there is none)."""
        if record.card_message_id is None:
            return await self.send_card(arena_id, record, now)
        text, keyboard = await self.card(arena_id, record, now)
        edit = EditMessageText(
            chat_id=record.chat_id,
            message_id=record.card_message_id,
            text=text,
            reply_markup=keyboard,
        )
        await self.replies.edit(edit)
        return record.card_message_id

    async def deep_link(self, arena_id: str) -> str | None:
        """Return the link that opens the bot in private (so that it may send the games there), None when the bot's
        name cannot be had."""
        if self._username is None:
            try:
                me = await self.replies.send(GetMe())
            except SEND_FAILURES as error:
                log.info("getMe failed: %s", error)
                return None
            self._username = me.username or ""
        return f"https://t.me/{self._username}?start=t_{arena_id}" if self._username else None

    # ------------------------------------------------------------------ standings and result

    def standings_key(self, record: ArenaRecord) -> str:
        """Return the key of what the standings show (they are posted again only when this changes)."""
        return f"{len(record.games)}:{len(record.players)}"

    async def show_standings(self, arena_id: str, record: ArenaRecord, now: float) -> int | None:
        """Show the standings in the group: edit the standings message, or post a new one when there is none or it
        cannot be edited. The picture, or the text in a chat that takes no pictures (or refuses this one). Returns:
        the id of the message showing them, None when they could not be posted."""
        mode = await picture_mode(self.media, record.chat_id)
        if mode is not MediaMode.TEXT:
            try:
                shown = await self._picture(arena_id, record, now, record.standings_message_id)
            except _TextInstead:
                pass
            else:
                if shown is not None:
                    await picture_accepted(self.media, record.chat_id, mode)
                return shown
        text = texts.standings_text(record.lang, record, now)
        if record.standings_message_id is not None:
            edit = EditMessageText(chat_id=record.chat_id, message_id=record.standings_message_id, text=text)
            try:
                await self.replies.sender.edit(edit)
                return record.standings_message_id
            except SEND_FAILURES as error:  # a picture (no text to edit) or a message gone: post the text anew
                log.info("arena %s: standings cannot be edited (%s): posting them anew", arena_id, error)
        return await self.say(record.chat_id, text, thread=record.thread)

    async def post_result(self, arena_id: str, record: ArenaRecord) -> None:
        """Post the final standings in the group, as a reply to the card: the picture, or the text in a chat that
        takes no pictures (or refuses this one). Returns nothing."""
        now = record.finished_at or record.ends_at
        mode = await picture_mode(self.media, record.chat_id)
        if mode is not MediaMode.TEXT:
            try:
                shown = await self._picture(arena_id, record, now, None, final=True)
            except _TextInstead:
                pass
            else:
                if shown is not None:
                    await picture_accepted(self.media, record.chat_id, mode)
                return
        text = texts.standings_text(record.lang, record, now, final=True)
        await self.say(record.chat_id, text, thread=record.thread, reply_to=record.card_message_id)

    async def theme(self, chat_id: int) -> str:
        """Return the theme the group's pictures are drawn in (its admins' choice); classic without preferences or
        a store."""
        if self.preferences is None:
            return "classic"
        try:
            return known_theme((await self.preferences.chat(chat_id)).theme)
        except StoreUnavailableError as error:
            log.info("store unavailable: the classic theme for chat %s (%s)", chat_id, error)
            return "classic"

    async def _picture(
        self, arena_id: str, record: ArenaRecord, now: float, message_id: int | None, *, final: bool = False
    ) -> int | None:
        """Show the standings picture (``final``: the result's, as a reply to the card) in ``message_id`` (edited)
        or a new message. Returns: its id, or None when it could not be posted. Raises: _TextInstead when text must
        go in its place (the renderer failed, or :meth:`_refused`)."""
        chat_id, lang = record.chat_id, record.lang
        theme = await self.theme(chat_id)
        try:
            photo = await asyncio.to_thread(pictures.standings_picture, lang, record, now, theme, final=final)
        except Exception as error:
            log.exception("arena %s: drawing the standings failed: text in their place", arena_id)
            raise _TextInstead from error
        caption = pictures.standings_caption(lang, record, now, final=final)
        if message_id is not None:
            media = InputMediaPhoto(media=BufferedInputFile(photo, filename="arena.jpg"), caption=caption)
            try:
                await self.replies.sender.edit(EditMessageMedia(chat_id=chat_id, message_id=message_id, media=media))
                return message_id
            except SEND_FAILURES as error:
                if await picture_refused(
                    self.media, chat_id, error, lang=lang, thread=record.thread, what="an arena picture"
                ):
                    raise _TextInstead from error
                log.info("arena %s: standings cannot be edited (%s): posting them anew", arena_id, error)
        reply_to = record.card_message_id if final else None
        reply = None if reply_to is None else ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
        try:
            sent = await self.replies.send(
                SendPhoto(
                    chat_id=chat_id,
                    photo=BufferedInputFile(photo, filename="arena.jpg"),
                    caption=caption,
                    message_thread_id=record.thread,
                    reply_parameters=reply,
                )
            )
        except SEND_FAILURES as error:
            if await picture_refused(
                self.media, chat_id, error, lang=lang, thread=record.thread, what="an arena picture"
            ):
                raise _TextInstead from error
            log.info("arena %s: standings picture not posted: %s", arena_id, error)
            return None
        return int(sent.message_id)

    # ------------------------------------------------------------------ private notices

    async def notice(self, arena_id: str, record: ArenaRecord, notice: Outgoing) -> None:
        """Send a notice of the outbox to its player in private (a paused player: with the "back" button). Returns
        nothing; a failure is logged."""
        player = record.player(notice.user_id)
        lang = player.lang if player is not None else record.lang
        text = tr(lang, "arena.paused.notice", window=int(FIRST_MOVE_WINDOW))
        try:
            await self.replies.send(
                SendMessage(chat_id=notice.user_id, text=text, reply_markup=back_keyboard(arena_id, lang))
            )
        except SEND_FAILURES as error:
            log.info("arena %s: notice to %s failed: %s", arena_id, notice.user_id, error)

    async def say(
        self, chat_id: int, text: str, *, thread: int | None = None, reply_to: int | None = None
    ) -> int | None:
        """Send ``text`` to the chat. Returns: the message id, None when it failed (logged)."""
        reply = None if reply_to is None else ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
        try:
            sent = await self.replies.send(
                SendMessage(chat_id=chat_id, text=text, message_thread_id=thread, reply_parameters=reply)
            )
        except SEND_FAILURES as error:
            log.info("arena message to %s failed: %s", chat_id, error)
            return None
        return int(sent.message_id)


class _TextInstead(Exception):  # noqa: N818  (a signal, not an error)
    """A picture failed in a way that calls for text in its place (:meth:`ArenaMessages._refused`)."""


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]
