"""Brackets on a phone, end to end: 16 players in double elimination see the bracket as an album of pictures
readable on a phone (each at most 1,280 px wide; the renderer keeps them to 830), the live standings picture stays
one edited message (the elimination table, readable too), and knock-out rounds are named as players say them.

And in a group whose admins forbid members (the bot too) to send media, the same tournament goes on to its end: the
bracket and the standings go out as text, the admins are told once what to change, and the bot stops trying
pictures there."""

from __future__ import annotations

import io
import logging

import pytest
from PIL import Image

from bot.model.settings import ChatSettings
from bot.services.media import ChatMedia, MediaMode
from bot.services.tournaments import chat_views
from bot.storage import Store
from rendering.theme import get_theme, theme_names
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_tournament_formats import _check_end, _play_out, _register
from tests.bot.e2e.tournament_drive import record_of, tournament_env
from tests.bot.fake_telegram import Call
from tournaments import Elimination

MAX_WIDTH = 1280


def _width(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return image.width


def _background(data: bytes) -> str:
    """Return the theme whose frame colour the picture's top-left corner has (a table's and a bracket's margin)."""
    with Image.open(io.BytesIO(data)) as image:
        corner = image.convert("RGB").getpixel((2, 2))
    assert isinstance(corner, tuple)
    for name in theme_names():
        if max(abs(a - b) for a, b in zip(corner, get_theme(name).frame, strict=False)) <= 12:
            return name
    return f"none of the themes: {corner}"


def _albums(calls: list[Call], chat_id: int) -> list[list[bytes]]:
    """Return the pictures of each album the bot sent to the chat, in order."""
    albums = []
    for call in calls:
        if call.name != "sendMediaGroup" or int(call.payload["chat_id"]) != chat_id:
            continue
        items = call.json("media")
        albums.append([call.files[item["media"].removeprefix("attach://")] for item in items])
    return albums


async def test_sixteen_player_double_elimination_sends_its_bracket_as_an_album(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("de-16-album")))
    fake, h = env.fake, env.h
    alice = fake.user(1, "Alice", "en")
    users = {alice.id: alice}
    group = fake.group_chat(-1600, admins=[alice.id])
    await sqlite_store.set_chat_settings(group.id, ChatSettings(theme="dark").to_dict())  # the admins chose it

    tournament_id, _ = await _register(env, alice, group, [alice], 15, ("Format:",) * 4)
    record = await record_of(env, tournament_id)
    tournament = record.tournament()
    assert isinstance(tournament, Elimination) and tournament.double and len(tournament.players) == 16

    # the start: the first round named as players say it, then the bracket as one album of five pictures
    texts = [m.content for m in fake.messages(group.id) if m.photo is None]
    assert any(t.startswith("Winners' round of 16\n") for t in texts), texts
    albums = _albums(fake.calls, group.id)
    assert len(albums) == 1 and len(albums[0]) == 5
    assert all(_width(p) <= MAX_WIDTH for p in albums[0]), [_width(p) for p in albums[0]]
    first = fake.calls_named("sendMediaGroup")[0].json("media")
    caption = first[0]["caption"].splitlines()
    # the caption says on which picture each match being played is: page 1 holds the whole first round
    assert caption[0] == "Bracket (double elimination)" and len(caption) == 2, caption
    assert caption[1].startswith("Page 1, Winners' round of 16: Alice – ") and caption[1].count(" – ") == 8, caption
    assert all(_background(p) == "dark" for p in albums[0])  # the group's theme

    # the live standings picture: one message, the elimination table (not a 2,686-px bracket), edited in place
    assert record.standings_message_id is not None
    live = fake.chats[group.id][record.standings_message_id]
    assert live.photo is not None and "Standings" in live.content and _width(live.photo) <= MAX_WIDTH
    assert _background(live.photo) == "dark"

    # on request: the album again, then the table with the menu as the last message
    await h.send_text(alice, group, "/tournament")
    assert len(_albums(fake.calls, group.id)) == 2
    menu = fake.last_message(group.id)
    assert menu.photo is not None and "Standings" in menu.content
    assert any("Pairings" in text for text in menu.button_texts()), menu.button_texts()

    record = await _play_out(env, tournament_id, users)
    tournament = record.tournament()
    assert isinstance(tournament, Elimination) and tournament.is_over
    albums = _albums(fake.calls, group.id)
    # the start, the request, the grand final and the end: every album the whole bracket in five pictures, none
    # wider than 1,280 px (the rounds between only edit the live table)
    assert len(albums) == 4, len(albums)
    assert all(len(album) == 5 for album in albums)
    assert all(_width(p) <= MAX_WIDTH for album in albums for p in album)
    pictures = [m for m in fake.messages(group.id) if m.photo is not None]
    assert all(_width(m.photo or b"") <= MAX_WIDTH for m in pictures)
    assert record.standings_message_id == live.message_id  # one live message, edited, never a new one
    live = fake.chats[group.id][live.message_id]
    assert live.edits > 0 and live.photo is not None and _width(live.photo) <= MAX_WIDTH
    texts = [m.content for m in fake.messages(group.id) if m.photo is None]
    lines = [line for t in texts for line in t.splitlines()]
    for label in ("Winners' quarterfinal: ", "Winners' semifinal: ", "Winners' final: ", "Losers' final: "):
        assert any(line.startswith(label) and " beat " in line for line in lines), (label, lines)
    champion = record.entrant(tournament.winners()[0])
    assert champion is not None
    _check_end(env, group, [champion.name])
    await env.close()


PICTURE_CALLS = ("sendPhoto", "sendMediaGroup", "editMessageMedia")


def _with_media_memory(env: Env, now: list[float]) -> ChatMedia:
    """Give the tournaments of ``env`` the memory of chats that forbid media (as the composition root is to),
    on the clock ``now[0]``. Returns it."""
    media = ChatMedia(env.service.preferences, env.store, env.sender, clock=lambda: now[0])
    env.service.tournaments.messages.media = media
    return media


async def test_a_group_that_forbids_media_gets_its_tournament_as_text(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("de-16-no-media")))
    fake = env.fake
    alice = fake.user(1, "Alice", "en")
    group = fake.group_chat(-1602, admins=[alice.id])
    fake.media_forbidden.add(group.id)  # "Send media → Photos" is off for members, and the bot is no admin
    now = [1_800_000_000.0]
    media = _with_media_memory(env, now)

    tournament_id, _ = await _register(env, alice, group, [alice], 15, ("Format:",) * 4)

    # the first round is announced; the album is refused once, then the bracket follows as text
    texts = [m.content for m in fake.messages(group.id)]
    assert any(t.startswith("Winners' round of 16\n") for t in texts), texts
    tried = [c for c in fake.calls if c.name in PICTURE_CALLS and int(c.payload["chat_id"]) == group.id]
    assert [c.name for c in tried] == ["sendMediaGroup"]
    brackets = [t for t in texts if t.startswith("Bracket (double elimination)\n")]
    assert len(brackets) == 1 and "Winners' round of 16\n" in brackets[0]
    assert "Alice – Computer 15 (easy)" in brackets[0]

    # the admins are told once, in text, what to change; the chat is remembered in its settings
    notices = [t for t in texts if "may not send pictures" in t]
    assert len(notices) == 1 and "Send media → Photos" in notices[0] and "make the bot an admin" in notices[0]
    settings = ChatSettings.from_dict(await sqlite_store.get_chat_settings(group.id))
    assert settings.media_refused == int(now[0])
    assert await media.mode(group.id) is MediaMode.TEXT

    # the live standings are one text message, edited in place
    record = await record_of(env, tournament_id)
    assert record.standings_message_id is not None
    live = fake.chats[group.id][record.standings_message_id]
    assert live.photo is None and live.content.startswith("Standings (double elimination)\n")
    assert "1. " in live.content and "Rating 1500" in live.content

    record = await _play_out(env, tournament_id, {alice.id: alice})
    tournament = record.tournament()
    assert isinstance(tournament, Elimination) and tournament.is_over and record.status == "finished"
    champion = record.entrant(tournament.winners()[0])
    assert champion is not None
    _check_end(env, group, [champion.name])

    # no picture was tried after the first refusal, none is in the group; one notice in all
    tried = [c for c in fake.calls if c.name in PICTURE_CALLS and int(c.payload["chat_id"]) == group.id]
    assert len(tried) == 1
    assert not [m for m in fake.messages(group.id) if m.photo is not None]
    texts = [m.content for m in fake.messages(group.id)]
    assert len([t for t in texts if "may not send pictures" in t]) == 1
    # the bracket went out as text with the first announcement, the grand final's and at the end
    brackets = [t for t in texts if t.startswith("Bracket (double elimination)\n")]
    assert len(brackets) == 3, len(brackets)
    assert f"🏆 Champion: {champion.name}" in brackets[-1]
    assert record.standings_message_id == live.message_id
    live = fake.chats[group.id][live.message_id]
    assert live.edits > 0 and live.photo is None and "Standings (double elimination)" in live.content
    await env.close()


async def test_pictures_come_back_an_hour_after_the_admins_allow_them(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("rr-no-media")))
    fake, h = env.fake, env.h
    alice = fake.user(1, "Alice", "en")
    group = fake.group_chat(-1603, admins=[alice.id])
    fake.media_forbidden.add(group.id)
    now = [1_800_000_000.0]
    _with_media_memory(env, now)

    # a round robin of four computer players: it runs to its end at the start
    tournament_id, _ = await _register(env, alice, group, [], 4, ())
    record = await record_of(env, tournament_id)
    assert record.status == "finished"
    live = fake.chats[group.id][record.standings_message_id or 0]
    assert live.photo is None and live.content.startswith("Standings (round robin)\n")
    rows = [line for line in live.content.splitlines() if line[:2] in ("1.", "2.", "3.", "4.")]
    assert len(rows) == 4 and all(" · Pl 3 · W " in row and " · Pts " in row for row in rows), rows

    # the admins allow photos; within the hour the bot still sends text (it does not know yet) …
    fake.media_forbidden.discard(group.id)
    now[0] += 3599
    messages = env.service.tournaments.messages
    assert await messages.send_standings(group.id, tournament_id, record, "en") is not None
    assert fake.last_message(group.id).photo is None
    # … and an hour after the refusal it tries a picture again, which gets through: the chat has its pictures back
    now[0] += 1
    message_id = await messages.send_standings(group.id, tournament_id, record, "en")
    shown = fake.chats[group.id][message_id or 0]
    assert shown.photo is not None and shown.content.startswith("Standings (round robin)")
    assert ChatSettings.from_dict(await sqlite_store.get_chat_settings(group.id)).media_refused is None
    await h.send_text(alice, group, "/tournament last")
    assert fake.last_message(group.id).photo is not None
    assert len([m for m in fake.messages(group.id) if "may not send pictures" in m.content]) == 1
    await env.close()


async def test_a_picture_telegram_refuses_goes_out_as_text_that_once(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("rr-refused")))
    fake, h = env.fake, env.h
    alice = fake.user(1, "Alice", "en")
    group = fake.group_chat(-1604, admins=[alice.id])
    media = _with_media_memory(env, [1_800_000_000.0])
    fake.fail_next("sendPhoto", description="Bad Request: PHOTO_INVALID_DIMENSIONS")  # the standings picture

    tournament_id, _ = await _register(env, alice, group, [], 4, ())
    record = await record_of(env, tournament_id)
    assert record.status == "finished"
    live = fake.chats[group.id][record.standings_message_id or 0]
    assert live.photo is None and live.content.startswith("Standings (round robin)\n")
    assert "The tournament is over" in fake.last_message(group.id).content
    # the chat does not forbid anything: nobody is told, nothing is remembered, the next picture goes out
    assert not [m for m in fake.messages(group.id) if "may not send pictures" in m.content]
    assert await media.mode(group.id) is MediaMode.PICTURES
    assert ChatSettings.from_dict(await sqlite_store.get_chat_settings(group.id)).media_refused is None
    await h.send_text(alice, group, "/tournament last")
    assert fake.last_message(group.id).photo is not None
    await env.close()


async def test_pictures_the_renderer_cannot_draw_never_hold_the_tournament_back(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bracket the renderer failed to draw made the announcement step fail before it was recorded: the
    tournament never advanced, and every retry repeated the round's announcement."""

    def broken(*args: object) -> bytes:
        raise ValueError("the renderer cannot draw this")

    monkeypatch.setattr(chat_views, "bracket_pictures", broken)
    monkeypatch.setattr(chat_views, "standings_image", broken)
    env = tournament_env(Env(sqlite_store, seeded("de-16-broken-renderer")))
    fake = env.fake
    alice = fake.user(1, "Alice", "en")
    group = fake.group_chat(-1605, admins=[alice.id])

    with caplog.at_level(logging.ERROR, logger="bot.services.tournaments.messages"):
        tournament_id, _ = await _register(env, alice, group, [alice], 15, ("Format:",) * 4)
    record = await record_of(env, tournament_id)
    assert "W1-1" in record.announced and record.tournament().results  # announced, and the computers have played
    texts = [m.content for m in fake.messages(group.id)]
    assert len([t for t in texts if t.startswith("Winners' round of 16\n")]) == 1  # announced once
    assert len([t for t in texts if t.startswith("Bracket (double elimination)\n")]) == 1
    assert all("text in its place" in r.getMessage() and r.exc_info for r in caplog.records)
    record = await _play_out(env, tournament_id, {alice.id: alice})
    assert record.status == "finished"
    live = fake.chats[group.id][record.standings_message_id or 0]
    assert live.photo is None and live.content.startswith("Standings (double elimination)\n")
    assert not [m for m in fake.messages(group.id) if m.photo is not None or "may not send pictures" in m.content]
    await env.close()


async def test_a_group_that_forbids_media_later_gets_its_live_standings_anew_as_text(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("rr-forbids-later")))
    fake = env.fake
    alice = fake.user(1, "Alice", "en")
    group = fake.group_chat(-1606, admins=[alice.id])
    now = [1_800_000_000.0]
    media = _with_media_memory(env, now)
    tournament_id, _ = await _register(env, alice, group, [], 4, ())
    record = await record_of(env, tournament_id)
    picture = fake.chats[group.id][record.standings_message_id or 0]
    assert picture.photo is not None

    fake.media_forbidden.add(group.id)  # the admins take "Send media" away
    messages = env.service.tournaments.messages
    shown = await messages.show_standings(tournament_id, record, record.tournament())
    assert shown is not None and shown != picture.message_id  # a picture cannot turn into text: posted anew
    assert fake.chats[group.id][shown].photo is None
    assert fake.chats[group.id][shown].content.startswith("Standings (round robin)\n")
    assert fake.messages(group.id)[-2].content.startswith("🖼 The bot may not send pictures in this chat")
    assert await media.mode(group.id) is MediaMode.TEXT
    await env.close()
