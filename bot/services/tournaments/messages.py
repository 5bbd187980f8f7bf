"""What the tournaments say in the chats, through :class:`~bot.services.messaging.Replies`: the registration card,
the round announcements, the result lines, the live standings picture, reminders, the bracket album and the closing
text. The texts and pictures come from :mod:`bot.services.tournaments.chat_views`; what is owed and when, and
noting it in the record, is the reconciler's (:mod:`bot.services.tournaments.reconcile`). A send or edit that fails
(:data:`~bot.services.messaging.SEND_FAILURES`) is logged, not raised, so an unreachable chat does not stop a
tournament.

A picture never holds the story back either: where the chat forbids the bot's media, or Telegram refuses the one
picture (:func:`bot.services.media.media_verdict`), the standings and the bracket go out as text
(:mod:`bot.services.tournaments.text_views`) in its place, at once; with :class:`~bot.services.media.ChatMedia` the
chat is remembered (later ones go as text without trying, until a picture is due to be tried again) and its admins
are told once what to change."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

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
from bot.model.game import is_private_chat
from bot.model.tournament import TournamentRecord
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
from bot.services.tournaments import chat_views as views
from bot.services.tournaments import text_views
from bot.storage import StoreUnavailableError
from bot.texts import tr
from tournaments import Elimination, Match, Tournament

log = logging.getLogger(__name__)

PICTURE = "a tournament picture"
"""What the log calls this module's pictures."""

_Picture = TypeVar("_Picture")


class TournamentMessages:
    """Sends and edits the tournaments' messages (see the module docstring)."""

    def __init__(
        self,
        replies: Replies,
        *,
        links: WebAppLinks | None = None,
        media: ChatMedia | None = None,
        preferences: Preferences | None = None,
    ) -> None:
        """Talk to the chats through ``replies``; ``links`` (when the Mini App is configured) puts a button that
        opens the tournament's live table on the card, the standings menu and the standings text; ``media``
        remembers the chats that forbid the bot's pictures and tells their admins (None: every picture is tried,
        and a refused one still goes out as text); ``preferences`` give each chat's theme, which its tables and
        brackets are drawn in (None: the classic theme)."""
        self.replies = replies
        self.links = links
        self.media = media
        self.preferences = preferences
        self._username: str | None = None

    async def theme(self, chat_id: int) -> str:
        """Return the theme the chat's pictures are drawn in: a group's chosen by its admins, a private chat's its
        user's (:func:`~bot.services.boards.board_theme`'s rule); classic without preferences or a store."""
        if self.preferences is None:
            return "classic"
        try:
            if is_private_chat(chat_id):
                return known_theme((await self.preferences.user(chat_id)).theme)
            return known_theme((await self.preferences.chat(chat_id)).theme)
        except StoreUnavailableError as error:
            log.info("store unavailable: the classic theme for chat %s (%s)", chat_id, error)
            return "classic"

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
        (:func:`~bot.services.tournaments.chat_views.bracket_album_due`). Returns nothing."""
        deadline = min(record.started[m.id] for m in new) + record.settings.deadline_seconds
        text = views.announcement(record.lang, record, tournament, new, deadline)
        await self.say(record.chat_id, text, thread=record.thread)
        if views.bracket_album_due(tournament, record.announced, new):
            await self.send_bracket(record.chat_id, record, tournament, record.lang, thread=record.thread)

    async def post_results(self, record: TournamentRecord, tournament: Tournament) -> None:
        """Post the result lines of the matches in the record's outbox (one message, at most
        :data:`~bot.services.tournaments.chat_views.MAX_LISTED` lines). Returns nothing."""
        played = {m.id: (m, r) for m, r in tournament.played()}
        lines = [views.result_line(record.lang, record, *played[mid]) for mid in record.outbox if mid in played]
        if lines:
            await self.say(record.chat_id, "\n".join(lines[: views.MAX_LISTED]), thread=record.thread)

    async def show_standings(self, tournament_id: str, record: TournamentRecord, tournament: Tournament) -> int | None:
        """Show the live standings in the tournament's chat: edit the live message (``record.standings_message_id``),
        or post a new one when there is none or it cannot be edited. The picture, or the text in a chat that takes no
        pictures (or refuses this one). Returns: the id of the message showing it, None when it could not be
        posted."""
        where = _Where(record.chat_id, record.lang, record.thread, record.standings_message_id)
        return await self._standings(tournament_id, record, tournament, where)

    async def send_standings(
        self,
        chat_id: int,
        tournament_id: str,
        record: TournamentRecord,
        lang: str,
        *,
        keyboard: InlineKeyboardMarkup | None = None,
        thread: int | None = None,
    ) -> int | None:
        """Post the standings as a new message in the chat (``/tournament``), with ``keyboard``: the picture, or
        the text in a chat that takes no pictures (or refuses this one). Returns: the id of the message, None when
        it could not be posted."""
        where = _Where(chat_id, lang, thread, None, keyboard)
        return await self._standings(tournament_id, record, record.tournament(), where)

    async def _standings(
        self, tournament_id: str, record: TournamentRecord, tournament: Tournament, where: _Where
    ) -> int | None:
        """Show the standings ``where`` says: see :meth:`show_standings`."""
        mode = await picture_mode(self.media, where.chat_id)
        if mode is not MediaMode.TEXT:
            try:
                shown = await self._standings_picture(tournament_id, record, tournament, where)
            except _TextInstead:
                pass
            else:
                if shown is not None:
                    await picture_accepted(self.media, where.chat_id, mode)
                return shown
        return await self._standings_text(tournament_id, record, tournament, where)

    async def _standings_picture(
        self, tournament_id: str, record: TournamentRecord, tournament: Tournament, where: _Where
    ) -> int | None:
        """Show the standings picture in ``where.message_id`` (edited) or a new message. Returns: its id, or None
        when it could not be posted. Raises: _TextInstead when text must go in its place (:meth:`_refused`)."""
        theme = await self.theme(where.chat_id)
        photo = await _draw("standings", views.standings_image, where.lang, record, tournament, theme)
        if photo is None:
            raise _TextInstead
        caption = views.standings_caption(where.lang, record, tournament)
        chat_id = where.chat_id
        if where.message_id is not None:
            media = InputMediaPhoto(media=BufferedInputFile(photo, filename="standings.jpg"), caption=caption)
            edit = EditMessageMedia(
                chat_id=chat_id, message_id=where.message_id, media=media, reply_markup=where.keyboard
            )
            try:
                await self.replies.sender.edit(edit)
                return where.message_id
            except SEND_FAILURES as error:
                if await picture_refused(
                    self.media, chat_id, error, lang=where.lang, thread=where.thread, what="a tournament picture"
                ):
                    raise _TextInstead from error
                log.info("standings of tournament %s cannot be edited (%s): posting them anew", tournament_id, error)
        try:
            sent = await self.replies.send(
                SendPhoto(
                    chat_id=chat_id,
                    photo=BufferedInputFile(photo, filename="standings.jpg"),
                    caption=caption,
                    reply_markup=where.keyboard,
                    message_thread_id=where.thread,
                )
            )
        except SEND_FAILURES as error:
            if await picture_refused(
                self.media, chat_id, error, lang=where.lang, thread=where.thread, what="a tournament picture"
            ):
                raise _TextInstead from error
            log.info("standings of tournament %s not posted: %s", tournament_id, error)
            return None
        return int(sent.message_id)

    async def _standings_text(
        self, tournament_id: str, record: TournamentRecord, tournament: Tournament, where: _Where
    ) -> int | None:
        """Show the standings as text in ``where.message_id`` (edited) or a new message, with the Mini App's link
        when there is no other keyboard. Returns: its id, or None when it could not be posted."""
        text = text_views.standings_text(where.lang, record, tournament)
        keyboard = where.keyboard
        if keyboard is None:
            button = self.app_button(tournament_id, where.lang)
            keyboard = InlineKeyboardMarkup(inline_keyboard=[[button]]) if button is not None else None
        if where.message_id is not None:
            edit = EditMessageText(chat_id=where.chat_id, message_id=where.message_id, text=text, reply_markup=keyboard)
            try:
                await self.replies.sender.edit(edit)
                return where.message_id
            except SEND_FAILURES as error:  # a picture (no text to edit) or a message gone: post the text anew
                log.info(
                    "standings of tournament %s cannot be edited as text (%s): posting them anew", tournament_id, error
                )
        try:
            sent = await self.replies.send(
                SendMessage(chat_id=where.chat_id, text=text, reply_markup=keyboard, message_thread_id=where.thread)
            )
        except SEND_FAILURES as error:
            log.info("standings of tournament %s not posted as text: %s", tournament_id, error)
            return None
        return int(sent.message_id)

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
        (:func:`~bot.services.tournaments.chat_views.bracket_album_due`), at the end, and on request
        (``/tournament``); the rounds between edit only the live table. In a chat that takes no pictures, or when
        Telegram refuses one, the bracket goes out as text instead. Returns the number of pictures sent; Telegram
        errors are logged."""
        if not isinstance(tournament, Elimination):
            return 0
        mode = await picture_mode(self.media, chat_id)
        if mode is not MediaMode.TEXT:
            theme = await self.theme(chat_id)
            pictures = await _draw("bracket", views.bracket_pictures, lang, record, tournament, theme)
            if pictures is not None:
                caption = views.album_caption(lang, record, tournament)
                sent = await self._send_albums(chat_id, pictures, caption, lang, thread)
                if sent is not None:
                    if sent == len(pictures):
                        await picture_accepted(self.media, chat_id, mode)
                    return sent
        await self.say(chat_id, text_views.bracket_text(lang, record, tournament), thread=thread)
        return 0

    async def _send_albums(
        self, chat_id: int, pictures: Sequence[bytes], caption: str, lang: str, thread: int | None
    ) -> int | None:
        """Send ``pictures`` as albums of at most ten (one alone as a photo), ``caption`` under the first of each.
        Returns: how many were sent (a failure is logged), or None when text must go in their place
        (:meth:`_refused`)."""
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
            if await picture_refused(self.media, chat_id, error, lang=lang, thread=thread, what=PICTURE):
                return None
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


async def _draw(what: str, draw: Callable[..., _Picture], *args: object) -> _Picture | None:
    """Return the pictures ``draw(*args)`` draws (off the event loop), or None when the renderer failed: a bug,
    logged with its traceback, and text goes in their place, so that the tournament never waits for a picture."""
    try:
        return await asyncio.to_thread(draw, *args)
    except Exception:
        log.exception("drawing the %s of a tournament failed: text in its place", what)
        return None


@dataclass(frozen=True, slots=True)
class _Where:
    """Where standings go: the chat, its language and forum topic, the message to edit (None: a new one) and the
    keyboard under it."""

    chat_id: int
    lang: str
    thread: int | None
    message_id: int | None
    keyboard: InlineKeyboardMarkup | None = None


class _TextInstead(Exception):  # noqa: N818  (a signal, not an error)
    """A picture failed in a way that calls for text in its place (:meth:`TournamentMessages._refused`)."""


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]
