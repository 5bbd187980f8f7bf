"""What the arenas say in the chats, through :class:`~bot.services.messaging.Replies`: the card in the group (edited
rarely: the players in, the time left, the end), the standings (one message, edited at most every few minutes), the
result, and the notice to a paused player in private. The games themselves never go to the group. What is owed and
when, and noting it in the record, is the reconciler's (:mod:`bot.services.arena.reconcile`); every call goes
through the sender, which paces it within the group's budget shared by every worker. A send or edit that fails is
logged, not raised, so an unreachable chat does not stop an arena."""

from __future__ import annotations

import hashlib
import logging

from aiogram.methods import EditMessageText, GetMe, SendMessage
from aiogram.types import InlineKeyboardMarkup, ReplyParameters

from bot.keyboards.arena import back_keyboard, card_keyboard
from bot.keyboards.webapp import WebAppLinks, arena_button
from bot.model.arena import ArenaRecord, Outgoing
from bot.model.clock import FIRST_MOVE_WINDOW
from bot.services.arena import texts
from bot.services.messaging import SEND_FAILURES, Replies
from bot.texts import tr

log = logging.getLogger(__name__)


class ArenaMessages:
    """Sends and edits the arenas' messages (see the module docstring)."""

    def __init__(self, replies: Replies, links: WebAppLinks | None = None) -> None:
        """Talk to the chats through ``replies``; ``links``: where the Mini App lives (the card then opens the arena's
        live view in it; None: no such button)."""
        self.replies = replies
        self.links = links
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
        cannot be edited. Returns: the id of the message showing them, None when they could not be posted."""
        text = texts.standings_text(record.lang, record, now)
        if record.standings_message_id is not None:
            edit = EditMessageText(chat_id=record.chat_id, message_id=record.standings_message_id, text=text)
            try:
                await self.replies.sender.edit(edit)
                return record.standings_message_id
            except SEND_FAILURES as error:
                log.info("arena %s: standings cannot be edited (%s): posting them anew", arena_id, error)
        return await self.say(record.chat_id, text, thread=record.thread)

    async def post_result(self, arena_id: str, record: ArenaRecord) -> None:
        """Post the final standings in the group, as a reply to the card. Returns nothing."""
        text = texts.standings_text(record.lang, record, record.finished_at or record.ends_at, final=True)
        await self.say(record.chat_id, text, thread=record.thread, reply_to=record.card_message_id)

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


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]
