"""An action's body is read whole whatever the packets it comes in (a phone on a bad link sends it in two, 0.3 s
apart), with ``Content-Length`` or chunked; a body over the limit is refused without being read to its end, and a
body that breaks off or never ends is refused without a traceback. Requests are written on a raw socket."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from typing import Any

import pytest

import bot.webapp.server
from bot.storage import Store
from bot.webapp.server import MAX_BODY, REFUSALS
from tests.bot.e2e.group_play import users
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.limitkit import Worker, auth, parts_of

PAUSE = 0.3
"""Seconds between two packets of one request."""


class RawClient:
    """One raw connection to a worker: writes a request in pieces, reads the answer."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, worker: Worker) -> RawClient:
        reader, writer = await asyncio.open_connection(worker.host, worker.port)
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # a packet per write
        return cls(reader, writer)

    async def send(self, *pieces: bytes, pause: float = PAUSE) -> None:
        """Write the pieces, each in its own packet, ``pause`` seconds apart."""
        for n, piece in enumerate(pieces):
            if n:
                await asyncio.sleep(pause)
            self.writer.write(piece)
            await self.writer.drain()

    async def answer(self) -> tuple[int, dict[str, Any]]:
        """Read the answer (as long as its ``Content-Length`` says: the server may keep reading what is left of a
        refused body for a while before it closes), then close. Returns: its status and JSON."""
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode()
        status = int(head.split(" ")[1])
        length = next(
            int(line.split(":")[1]) for line in head.split("\r\n") if line.lower().startswith("content-length:")
        )
        body = await self.reader.readexactly(length)
        self.writer.close()
        return status, json.loads(body)


def head(game_id: str, user: Any, **headers: str) -> bytes:
    """Return the request line and headers of an action of ``user`` (closing the connection after the answer)."""
    lines = [
        f"POST /webapp/api/games/{game_id}/actions HTTP/1.1",
        "Host: bot.example.org",
        f"Authorization: {auth(user)['Authorization']}",
        "Content-Type: application/json",
        "Connection: close",
        *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def chunked(*pieces: bytes) -> list[bytes]:
    """Return ``pieces`` as chunks of a chunked body (the last piece ends it)."""
    return [f"{len(piece):x}\r\n".encode() + piece + b"\r\n" for piece in pieces] + [b"0\r\n\r\n"]


async def a_move(app: AppEnv, worker: Worker, base: int) -> tuple[str, Any, int, bytes]:
    """Start a game; return its id, the player to move, the version and the body of their first legal step."""
    alice, bob = users(app.env.fake, "Alice", "Bob", base=base)
    game_id = await app.group_game(app.env.fake.group_chat(-base), alice, bob)
    _, _, view = await worker.get(game_id, alice)
    mover = alice if view["turn"] == 0 else bob
    _, _, mine = await worker.get(game_id, mover)
    step = next(x for x in mine["actions"] if x["step"] is not None)
    body = json.dumps({"version": mine["version"], "action": step["action"]}).encode()
    return game_id, mover, mine["version"], body


async def test_a_body_in_two_packets_is_read_whole(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app, Worker(parts_of(app)) as worker:
        game_id, mover, version, body = await a_move(app, worker, 701)
        client = await RawClient.connect(worker)
        await client.send(head(game_id, mover, Content_Length=str(len(body))) + body[:7], body[7:])
        status, answer = await client.answer()
        assert status == 200, answer
        stored = await sqlite_store.get_game(game_id)
        assert stored is not None and stored.version == answer["version"] > version  # the move was applied


async def test_a_chunked_body_in_two_packets_is_read_whole(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app, Worker(parts_of(app)) as worker:
        game_id, mover, version, body = await a_move(app, worker, 711)
        first, second, end = chunked(body[:12], body[12:])
        client = await RawClient.connect(worker)
        await client.send(head(game_id, mover, Transfer_Encoding="chunked") + first, second + end)
        status, answer = await client.answer()
        assert status == 200 and answer["version"] > version, answer


async def test_a_body_over_the_limit_is_refused_unread(sqlite_store: Store) -> None:
    async with AppEnv(sqlite_store) as app, Worker(parts_of(app)) as worker:
        game_id, mover, version, _ = await a_move(app, worker, 721)
        # announced too long: refused on the headers alone, before a byte of the body is sent
        client = await RawClient.connect(worker)
        await client.send(head(game_id, mover, Content_Length=str(10 * MAX_BODY)))
        assert (await client.answer())[0] == 400
        # chunked, never ending: refused once a byte more than the limit has come
        client = await RawClient.connect(worker)
        pieces = chunked(b" " * (MAX_BODY // 2), b" " * (MAX_BODY // 2), b" ")[:3]
        await client.send(head(game_id, mover, Transfer_Encoding="chunked") + pieces[0], pieces[1] + pieces[2])
        status, answer = await client.answer()
        assert (status, answer["error"]) == (400, "bad_request")
        stored = await sqlite_store.get_game(game_id)
        assert stored is not None and stored.version == version


async def test_a_body_that_breaks_off_or_never_ends_is_refused_quietly(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.webapp.server, "BODY_TIMEOUT", 2 * PAUSE)
    async with AppEnv(sqlite_store) as app, Worker(parts_of(app)) as worker:
        game_id, mover, version, body = await a_move(app, worker, 731)
        refusals = worker.webapp[REFUSALS]
        with caplog.at_level(logging.DEBUG):
            # the client sends a piece and then nothing: refused once the body's time is up
            client = await RawClient.connect(worker)
            await client.send(head(game_id, mover, Content_Length=str(len(body))) + body[:7])
            status, answer = await client.answer()
            assert (status, answer["error"]) == (400, "bad_request")
            # the client goes away in the middle of the body: nobody to answer, nothing applied, nothing logged
            client = await RawClient.connect(worker)
            await client.send(head(game_id, mover, Content_Length=str(len(body))) + body[:7])
            await asyncio.sleep(PAUSE)  # the server waits for the rest
            client.writer.close()
            while refusals.reasons["bad_request"] < 2:  # the handler notices when the body breaks off
                await asyncio.sleep(0.01)
        stored = await sqlite_store.get_game(game_id)
        assert stored is not None and stored.version == version
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info], caplog.text
