"""What the tournaments say in the chats, through :class:`~bot.services.messaging.Replies`: the registration card,
the round announcements, the result lines, the live standings picture, reminders, the bracket album and the closing
text. The texts and pictures come from :mod:`bot.services.tournament_views`; what is owed and when, and noting it in
the record, is the reconciler's (:mod:`bot.services.tournament_reconcile`). A send or edit that fails
(:data:`~bot.services.messaging.SEND_FAILURES`) is logged, not raised, so an unreachable chat does not stop a
tournament."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from aiogram.methods import EditMessageMedia, EditMessageText, GetMe, SendMediaGroup, SendMessage, SendPhoto
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    ReplyParameters,
)

from bot.keyboards.tournament import registration_keyboard
from bot.keyboards.webapp import WebAppLinks, tournament_button
from bot.model.tournament import TournamentRecord
from bot.services import tournament_views as views
from bot.services.messaging import SEND_FAILURES, Replies
from bot.texts import tr
from tournaments import Elimination, Match, Tournament

log = logging.getLogger(__name__)


class TournamentMessages:
    """Sends and edits the tournaments' messages (see the module docstring)."""

    def __init__(self, replies: Replies, *, links: WebAppLinks | None = None) -> None:
        """Talk to the chats through ``replies``; ``links`` (when the Mini App is configured) puts a button that
        opens the tournament's live table on the card and the standings menu."""
        self.replies = replies
        self.links = links
        self._username: str | None = None

    async def sync_card(self, tournament_id: str, record: TournamentRecord) -> str | None:
        """Edit the tournament's card to show the record (its text, and the registration buttons while it is open),
        unless it shows it already (``record.card_shown``). Returns: the digest of what the card shows now, to note
        in the record as ``card_shown``; None when there is no card or nothing to change."""
        if record.card_message_id is None:
            return None
        text = views.registration_text(record.lang, record)
        keyboard: InlineKeyboardMarkup | None = None
        if record.status == "registration":
            keyboard = registration_keyboard(
                tournament_id,
                record.lang,
                deep_link=await self._deep_link(tournament_id) if record.settings.venue == "private" else None,
                full=len(record.entrants) >= record.settings.limit,
                app_button=self.app_button(tournament_id, record.lang),
            )
        key = _digest(text + (keyboard.model_dump_json() if keyboard else ""))
        if key == record.card_shown:
            return None
        await self.replies.edit(
            EditMessageText(chat_id=record.chat_id, message_id=record.card_message_id, text=text, reply_markup=keyboard)
        )
        return key

    def app_button(self, tournament_id: str, lang: str) -> InlineKeyboardButton | None:
        """Return the button that opens the tournament in the Mini App from its group (a link button: groups take
        no ``web_app`` buttons), or None when the Mini App is not configured."""
        return tournament_button(self.links, tournament_id, lang, private=False)

    async def _deep_link(self, tournament_id: str) -> str | None:
        if self._username is None:
            try:
                me = await self.replies.send(GetMe())
            except SEND_FAILURES as error:
                log.info("getMe failed: %s", error)
                return None
            self._username = me.username or ""
        return f"https://t.me/{self._username}?start=t_{tournament_id}" if self._username else None

    async def announce(self, record: TournamentRecord, tournament: Tournament, new: Sequence[Match]) -> None:
        """Announce the newly started matches ``new`` (with the earliest of their deadlines) in the tournament's
        chat, and post the bracket album when the round calls for it
        (:func:`~bot.services.tournament_views.bracket_album_due`). Returns nothing."""
        deadline = min(record.started[m.id] for m in new) + record.settings.deadline_seconds
        text = views.announcement(record.lang, record, tournament, new, deadline)
        await self.say(record.chat_id, text, thread=record.thread)
        if views.bracket_album_due(tournament, record.announced, new):
            await self.send_bracket(record.chat_id, record, tournament, record.lang, thread=record.thread)

    async def post_results(self, record: TournamentRecord, tournament: Tournament) -> None:
        """Post the result lines of the matches in the record's outbox (one message, at most
        :data:`~bot.services.tournament_views.MAX_LISTED` lines). Returns nothing."""
        played = {m.id: (m, r) for m, r in tournament.played()}
        lines = [views.result_line(record.lang, record, *played[mid]) for mid in record.outbox if mid in played]
        if lines:
            await self.say(record.chat_id, "\n".join(lines[: views.MAX_LISTED]), thread=record.thread)

    async def show_standings(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> int | None:
        """Show the standings picture: edit the live one (``record.standings_message_id``), or post a new one when
        there is none or it cannot be edited. Returns: the id of the message showing it, None when it could not be
        posted."""
        photo = await asyncio.to_thread(views.standings_image, record.lang, record, tournament)
        caption = views.standings_caption(record.lang, record, tournament)
        file = BufferedInputFile(photo, filename="standings.jpg")
        message_id = record.standings_message_id
        if message_id is not None:
            edited = await self.replies.edit(
                EditMessageMedia(
                    chat_id=record.chat_id,
                    message_id=message_id,
                    media=InputMediaPhoto(media=file, caption=caption),
                )
            )
            if edited is None:
                message_id = None  # the message is gone or cannot be edited: post a new one
        if message_id is None:
            try:
                sent = await self.replies.send(
                    SendPhoto(chat_id=record.chat_id, photo=file, caption=caption, message_thread_id=record.thread)
                )
                message_id = sent.message_id
            except SEND_FAILURES as error:
                log.info("standings of tournament %s not posted: %s", tournament_id, error)
        return message_id

    async def remind(self, record: TournamentRecord, late: Sequence[Match], deadline: float) -> None:
        """Remind the people playing the ``late`` matches of their deadline (``deadline`` seconds after each
        match's start): in the group for group games, else each in private. Returns nothing."""
        for match in late:
            due = views.deadline_text(record.lang, record.started[match.id] + deadline)
            for pid in (match.first, match.second):
                entrant = record.entrant(pid)
                if entrant is None or entrant.user_id is None:
                    continue
                text = tr(entrant.lang, "tour.remind", name=entrant.name, deadline=due)
                if record.settings.venue == "group":
                    await self.say(record.chat_id, text, thread=record.thread)
                else:
                    await self.say(entrant.user_id, text)

    async def closing(self, record: TournamentRecord, tournament: Tournament, ratings_after: dict[str, float]) -> None:
        """Close a tournament that is over: the final bracket (an elimination whose live picture is not one), then
        the final text with ``ratings_after`` (player id → rating), as a reply to the live standings picture, which
        already shows the final table. Returns nothing."""
        if isinstance(tournament, Elimination) and not views.standings_shows_bracket(tournament):
            await self.send_bracket(record.chat_id, record, tournament, record.lang, thread=record.thread)
        final = views.final_text(record.lang, record, tournament, ratings_after)
        await self.say(record.chat_id, final, reply_to=record.standings_message_id, thread=record.thread)

    async def send_bracket(
        self, chat_id: int, record: TournamentRecord, tournament: Tournament, lang: str, *, thread: int | None = None
    ) -> int:
        """Send the bracket of an elimination as an album (several pictures, each readable on a phone; more than
        ten go as further albums) or a photo (one picture); nothing for other formats. An album cannot be edited as
        one, so each call posts a new one: with the first announcement and the (grand) final's
        (:func:`~bot.services.tournament_views.bracket_album_due`), at the end, and on request (``/tournament``); the
        rounds between edit only the live table. Returns the number of pictures sent; Telegram errors are logged."""
        if not isinstance(tournament, Elimination):
            return 0
        pictures = await asyncio.to_thread(views.bracket_pictures, lang, record, tournament)
        caption = views.bracket_caption(lang, record)
        sent = 0
        try:
            for number, album in enumerate(views.album_chunks(pictures)):
                files = [BufferedInputFile(p, filename=f"bracket-{number}-{i}.jpg") for i, p in enumerate(album)]
                if len(files) == 1:
                    await self.replies.send(
                        SendPhoto(chat_id=chat_id, photo=files[0], caption=caption, message_thread_id=thread)
                    )
                else:
                    media: list[Any] = [
                        InputMediaPhoto(media=file, caption=caption if i == 0 else None) for i, file in enumerate(files)
                    ]
                    await self.replies.send(SendMediaGroup(chat_id=chat_id, media=media, message_thread_id=thread))
                sent += len(files)
        except SEND_FAILURES as error:
            log.info("bracket of a tournament not sent to %s: %s", chat_id, error)
        return sent

    async def say(self, chat_id: int, text: str, *, reply_to: int | None = None, thread: int | None = None) -> None:
        """Send ``text`` to the chat (in ``thread``; as a reply to ``reply_to`` when it is still there). Returns
        nothing; a Telegram error is logged."""
        reply = None if reply_to is None else ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
        try:
            await self.replies.send(
                SendMessage(chat_id=chat_id, text=text, reply_parameters=reply, message_thread_id=thread)
            )
        except SEND_FAILURES as error:
            log.info("tournament message to %s failed: %s", chat_id, error)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]
