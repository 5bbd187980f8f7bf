"""Brackets on a phone, end to end: 16 players in double elimination see the bracket as an album of pictures
readable on a phone (each at most 1,280 px wide; the renderer keeps them to 830), the live standings picture stays
one edited message (the elimination table, readable too), and knock-out rounds are named as players say them."""

from __future__ import annotations

import io

from PIL import Image

from bot.storage import Store
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_tournament_formats import _check_end, _play_out, _register
from tests.bot.e2e.tournament_drive import record_of, tournament_env
from tests.bot.fake_telegram import Call
from tournaments import Elimination

MAX_WIDTH = 1280


def _width(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return image.width


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
    assert first[0]["caption"] == "Bracket (double elimination)"

    # the live standings picture: one message, the elimination table (not a 2,686-px bracket), edited in place
    assert record.standings_message_id is not None
    live = fake.chats[group.id][record.standings_message_id]
    assert live.photo is not None and "Standings" in live.content and _width(live.photo) <= MAX_WIDTH

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
