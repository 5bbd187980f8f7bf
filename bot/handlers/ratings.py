"""``/rating`` (``/рейтинг``): the sender's (or the replied-to user's) FIBS rating per variant; ``/top [long|short]``
(``/топ``): the group's leaderboard (the players who played rated matches shown in it), as a monospace table."""

from __future__ import annotations

import asyncio
import html
import logging
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Final

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.methods import SendPhoto
from aiogram.types import BufferedInputFile, Message

from bot.handlers.challenge import display_name
from bot.handlers.identity import is_proxy_user, proxy_refusal
from bot.services.boards import known_theme
from bot.services.messaging import SEND_FAILURES, Replies
from bot.services.preferences import Preferences
from bot.services.ratings import RATED_VARIANTS, Leaderboards, PlayerRating
from bot.texts import Html, esc, norm_lang, table_labels, tr
from bot.variants import DEFAULT, MAIN, resolve
from rendering import LeaderboardRow, render_leaderboard

log = logging.getLogger(__name__)
CAPTION_LIMIT: Final = 1000
"""A caption longer than this (Telegram allows 1024 characters after parsing) is replaced by the title alone."""

TOP_SIZE: Final = 20
"""How many players the leaderboard shows."""
NAME_WIDTH: Final = 16
"""The width (in monospace cells) of the leaderboard's name column."""


def format_rating(value: float) -> str:
    """Return a rating as shown to users, with two decimals as on FIBS (``1510.00``)."""
    return f"{value:.2f}"


def _cell_width(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def clean_name(name: str) -> str:
    """Return a display name fit for one table cell: control and format characters dropped, whitespace runs made
    one space."""
    spaced = "".join(" " if ch.isspace() else ch for ch in name)
    kept = "".join(ch for ch in spaced if unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs"))
    return " ".join(kept.split())


def fit(text: str, width: int) -> str:
    """Return ``text`` cut (with ``…``) and padded with spaces to exactly ``width`` monospace cells."""
    used = 0
    out: list[str] = []
    total = sum(_cell_width(ch) for ch in text)
    limit = width if total <= width else width - 1
    for ch in text:
        cells = _cell_width(ch)
        if used + cells > limit:
            break
        out.append(ch)
        used += cells
    if total > width:
        out.append("…")
        used += 1
    return "".join(out) + " " * (width - used)


def leaderboard_rows(ratings: Mapping[int, PlayerRating], limit: int = TOP_SIZE) -> list[tuple[int, PlayerRating]]:
    """Return the best ``limit`` (user id, rating) pairs: highest rating first, then more matches, then name."""
    rated = [(user, rating) for user, rating in ratings.items() if rating.matches > 0]
    rated.sort(key=lambda item: (-item[1].rating, -item[1].matches, clean_name(item[1].name).casefold(), item[0]))
    return rated[:limit]


def leaderboard_table(lang: str, rows: Sequence[tuple[int, PlayerRating]]) -> Html:
    """Return the leaderboard as a Telegram HTML ``<pre>`` table (every name escaped, cut to the column; ratings
    with one decimal, as on the leaderboard picture)."""
    place_width = len(str(len(rows))) if rows else 1
    header = (
        f"{'#':>{place_width}}  {fit(tr(lang, 'top.player'), NAME_WIDTH)}  "
        f"{tr(lang, 'top.rating'):>7}  {tr(lang, 'top.matches')}"
    )
    lines = [header]
    for place, (user, rating) in enumerate(rows, 1):
        name = fit(clean_name(rating.name) or f"id{user}", NAME_WIDTH)
        shown = f"{rating.rating:.1f}"  # one decimal, as the leaderboard picture it goes under (rendering.leaderboard)
        lines.append(f"{place:>{place_width}}  {name}  {shown:>7}  {rating.matches:>3}")
    return Html("<pre>" + "\n".join(esc(line) for line in lines) + "</pre>")


async def on_rating(message: Message, leaderboards: Leaderboards, replies: Replies, locale: str) -> None:
    """Reply with the user's rating, experience and rated matches in each variant."""
    user = message.from_user
    if user is None:
        return
    lang = norm_lang(locale)
    refusal = proxy_refusal(message, lang)
    if refusal:
        await replies.reply(message, refusal)
        return
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        if replied.sender_chat is not None or is_proxy_user(replied.from_user):
            await replies.reply(message, tr(lang, "move.sender_chat"))
            return
        user = replied.from_user
    ratings = await leaderboards.of_user(user.id)
    lines: list[str] = [tr(lang, "rating.title", name=display_name(user))]
    for variant in RATED_VARIANTS:
        rating = ratings[variant]
        if variant not in MAIN and not rating.matches:
            continue  # the other games only once played
        values: dict[str, object] = {"variant": tr(lang, f"variant.{variant}"), "rating": format_rating(rating.rating)}
        if rating.matches:
            lines.append(tr(lang, "rating.line", experience=rating.experience, matches=rating.matches, **values))
        else:
            lines.append(tr(lang, "rating.unrated", **values))
    lines.append("")
    lines.append(tr(lang, "rating.note"))
    await replies.reply(message, "\n".join(lines))


def parse_variant(args: str | None) -> str | None:
    """Return the rated variant named by the command's argument (any alias: ``long``, ``длинные`` …), "" for no
    argument, or None when the argument names no rated variant."""
    words = (args or "").split()
    if not words:
        return ""
    if len(words) > 1:
        return None
    name = resolve(words[0])
    return name if name in RATED_VARIANTS else None


async def on_top(
    message: Message,
    leaderboards: Leaderboards,
    preferences: Preferences,
    replies: Replies,
    command: CommandObject,
    locale: str,
) -> None:
    """Reply with the group's leaderboard of the variant asked (default: the chat's variant, else short)."""
    lang = norm_lang(locale)
    if message.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        await replies.reply(message, tr(lang, "top.private"))
        return
    variant = parse_variant(command.args)
    if variant is None:
        games = ", ".join(tr(lang, f"variant.{v}") for v in RATED_VARIANTS)
        await replies.reply(message, tr(lang, "top.usage", games=games))
        return
    if not variant:
        chosen = (await preferences.chat(message.chat.id)).variant or DEFAULT
        variant = chosen if chosen in RATED_VARIANTS else DEFAULT
    variant_name = tr(lang, f"variant.{variant}")
    rows = leaderboard_rows(await leaderboards.chat_ratings(message.chat.id, variant))
    if not rows:
        await replies.reply(message, tr(lang, "top.empty", variant=variant_name))
        return
    title = tr(lang, "top.title", variant=variant_name)
    text = title + "\n" + leaderboard_table(lang, rows)
    theme = known_theme((await preferences.chat(message.chat.id)).theme)  # the group's theme, as its boards
    try:
        image = await asyncio.to_thread(
            render_leaderboard,
            [
                LeaderboardRow(place, clean_name(r.name) or f"id{user_id}", r.rating, r.experience, r.matches)
                for place, (user_id, r) in enumerate(rows, 1)
            ],
            title=html.unescape(title),
            labels=table_labels(lang),
            theme=theme,
        )
    except (ValueError, OSError):
        log.exception("the leaderboard image could not be drawn: the table is sent alone")
        await replies.reply(message, text)
        return
    caption = text if len(text) <= CAPTION_LIMIT else title  # the picture shows the table either way
    try:
        await replies.send(
            SendPhoto(
                chat_id=message.chat.id,
                photo=BufferedInputFile(image, filename="top.jpg"),
                caption=caption,
                message_thread_id=message.message_thread_id if message.is_topic_message else None,
            )
        )
    except SEND_FAILURES as error:
        log.info("leaderboard not sent to %s: %s", message.chat.id, error)


def create_router() -> Router:
    """Return a new router with this module's handlers (a router can belong to one Dispatcher only)."""
    router = Router(name=__name__)
    router.message.register(on_rating, Command("rating", "рейтинг", ignore_case=True))
    router.message.register(on_top, Command("top", "топ", ignore_case=True))
    return router
