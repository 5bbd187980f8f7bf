"""The Mini App's buttons: open a game's live board from its chat board or from ``/watch``, a tournament's live
table, an arena's live view (``?arena=<id>``, ``startapp=arena_<id>``) and the "Play" screen (``?play=1``,
``startapp=play``).

Telegram allows a ``web_app`` button only in private chats; in groups the button is a URL to the bot's Mini App,
``https://t.me/<bot username>/<short name>?startapp=<game id>``, which opens the same app with the game id as its
``start_param``. The button rides on the board's own keyboard, so it costs no message and no edit of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.texts import tr


@dataclass
class WebAppLinks:
    """Where the Mini App lives: ``url`` (``WEBAPP_URL``, its public HTTPS address), ``short_name``
    (``WEBAPP_SHORT_NAME``, the name given to @BotFather's /newapp, for links from groups) and the bot's username
    (learnt at start-up from getMe; until then groups get no link)."""

    url: str
    short_name: str | None = None
    bot_username: str | None = None

    def app_url(self, game_id: str) -> str:
        """Return ``WEBAPP_URL`` with the game in its query (``?game=<id>``), for a ``web_app`` button."""
        parts = urlsplit(self.url)
        query = "&".join(q for q in (parts.query, urlencode({"game": game_id})) if q)
        return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, parts.fragment))

    def direct_link(self, game_id: str) -> str | None:
        """Return the t.me link that opens the Mini App on the game (``startapp``), or None without a short name
        or before the bot's username is known."""
        if not self.short_name or not self.bot_username:
            return None
        return f"https://t.me/{self.bot_username}/{self.short_name}?{urlencode({'startapp': game_id})}"

    def tournament_url(self, tournament_id: str) -> str:
        """Return ``WEBAPP_URL`` with the tournament in its query (``?tournament=<id>``), for a ``web_app``
        button."""
        parts = urlsplit(self.url)
        query = "&".join(q for q in (parts.query, urlencode({"tournament": tournament_id})) if q)
        return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, parts.fragment))

    def tournament_link(self, tournament_id: str) -> str | None:
        """Return the t.me link that opens the Mini App on the tournament (``startapp=t_<id>``; the app tells it
        from a game id by its length), or None as :meth:`direct_link`."""
        return self.direct_link(f"t_{tournament_id}")

    def _with_query(self, key: str, value: str) -> str:
        """Return ``WEBAPP_URL`` with ``key=value`` added to its query."""
        parts = urlsplit(self.url)
        query = "&".join(q for q in (parts.query, urlencode({key: value})) if q)
        return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, parts.fragment))

    def arena_url(self, arena_id: str) -> str:
        """Return ``WEBAPP_URL`` with the arena in its query (``?arena=<id>``), for a ``web_app`` button."""
        return self._with_query("arena", arena_id)

    def arena_link(self, arena_id: str) -> str | None:
        """Return the t.me link that opens the Mini App on the arena's live view (``startapp=arena_<id>``), or None
        as :meth:`direct_link`."""
        return self.direct_link(f"arena_{arena_id}")

    def play_url(self) -> str:
        """Return ``WEBAPP_URL`` opening the "Play" screen (``?play=1``), for a ``web_app`` button."""
        return self._with_query("play", "1")

    def play_link(self) -> str | None:
        """Return the t.me link that opens the Mini App on the "Play" screen (``startapp=play``), or None as
        :meth:`direct_link`."""
        return self.direct_link("play")


def app_button(links: WebAppLinks, game_id: str, lang: str, *, private: bool) -> InlineKeyboardButton | None:
    """Return the button that opens the game in the Mini App: a ``web_app`` button in a private chat, else a URL
    button with the direct link (None when there is none)."""
    text = tr(lang, "webapp.open")
    if private:
        return InlineKeyboardButton(text=text, web_app=WebAppInfo(url=links.app_url(game_id)))
    link = links.direct_link(game_id)
    return None if link is None else InlineKeyboardButton(text=text, url=link)


def tournament_button(
    links: WebAppLinks | None, tournament_id: str, lang: str, *, private: bool
) -> InlineKeyboardButton | None:
    """Return the button that opens the tournament's live table in the Mini App: a ``web_app`` button in a private
    chat, else a URL button with the direct link; None without ``links`` or without a link for a group."""
    if links is None:
        return None
    text = tr(lang, "webapp.tour.link")
    if private:
        return InlineKeyboardButton(text=text, web_app=WebAppInfo(url=links.tournament_url(tournament_id)))
    link = links.tournament_link(tournament_id)
    return None if link is None else InlineKeyboardButton(text=text, url=link)


def arena_button(links: WebAppLinks | None, arena_id: str, lang: str, *, private: bool) -> InlineKeyboardButton | None:
    """Return the button that opens the arena's live view in the Mini App (for the arena's card): a ``web_app``
    button in a private chat, else a URL button with the direct link; None without ``links`` or without a link for
    a group."""
    if links is None:
        return None
    text = tr(lang, "webapp.arena.link")
    if private:
        return InlineKeyboardButton(text=text, web_app=WebAppInfo(url=links.arena_url(arena_id)))
    link = links.arena_link(arena_id)
    return None if link is None else InlineKeyboardButton(text=text, url=link)


def play_button(links: WebAppLinks | None, lang: str, *, private: bool) -> InlineKeyboardButton | None:
    """Return the button that opens the Mini App's "Play" screen (the lobby): a ``web_app`` button in a private
    chat, else a URL button with the direct link; None without ``links`` or without a link for a group."""
    if links is None:
        return None
    text = tr(lang, "webapp.play.entry")
    if private:
        return InlineKeyboardButton(text=text, web_app=WebAppInfo(url=links.play_url()))
    link = links.play_link()
    return None if link is None else InlineKeyboardButton(text=text, url=link)


def with_app_button(
    keyboard: InlineKeyboardMarkup | None, links: WebAppLinks | None, game_id: str, lang: str, *, private: bool
) -> InlineKeyboardMarkup | None:
    """Return ``keyboard`` with the Mini App's button as its last row (``keyboard`` unchanged when ``links`` is
    None or there is no button for this chat)."""
    if links is None:
        return keyboard
    button = app_button(links, game_id, lang, private=private)
    if button is None:
        return keyboard
    rows = list(keyboard.inline_keyboard) if keyboard is not None else []
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [button]])
