"""The bot's own HTTP server under abuse (``bot/http_server.py``), driven by raw TCP clients: a connection that sends
nothing, or trickles its headers, is closed within the header timeout; a kept-alive connection gets the idle timeout
instead, and a WebSocket neither; the connection cap answers the (N+1)-th connection 503 at once; a request the
server cannot read is answered 400 without a traceback; no access log line is written, only the summary of the
counts. The timeouts are set small here (a fraction of a second) and each closing is awaited within a generous
bound: these are no speed checks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from collections.abc import AsyncIterator, Callable

import aiohttp
import pytest
from aiohttp import web

from bot.http_server import RESERVED_DESCRIPTORS, GuardedAppRunner, HttpLimits, descriptor_cap, start_http_server
from bot.http_traffic import HttpTraffic

HEADER_TIMEOUT = 0.5
IDLE_TIMEOUT = 1.5
CLOSED_WITHIN = 10.0
"""How long a test waits for a closing that the timeouts under test should bring after a fraction of a second."""
REQUEST = b"GET /hello HTTP/1.1\r\nHost: bot\r\n\r\n"


async def hello(_request: web.Request) -> web.Response:
    return web.Response(text="hello")


async def secret(request: web.Request) -> web.Response:
    if request.headers.get("X-Secret") != "s3cret":
        return web.Response(status=401, text="Unauthorized")
    return web.Response(text=str(len(await request.read())))


async def broken(_request: web.Request) -> web.Response:
    raise RuntimeError("a bug in a handler")


async def echo_socket(request: web.Request) -> web.WebSocketResponse:
    socket = web.WebSocketResponse()
    await socket.prepare(request)
    async for message in socket:
        await socket.send_str(message.data)
    return socket


def application() -> web.Application:
    app = web.Application()
    app.router.add_get("/hello", hello)
    app.router.add_post("/secret", secret)
    app.router.add_get("/broken", broken)
    app.router.add_get("/socket", echo_socket)
    return app


@contextlib.asynccontextmanager
async def serving(
    *,
    header_timeout: float = HEADER_TIMEOUT,
    idle_timeout: float = IDLE_TIMEOUT,
    max_connections: int = 100,
    summary_interval: float = 3600.0,
) -> AsyncIterator[tuple[GuardedAppRunner, int]]:
    """Serve :func:`application` on a free port of 127.0.0.1 within the limits; yield the runner and the port."""
    limits = HttpLimits(header_timeout, idle_timeout, max_connections)
    runner = await start_http_server(
        application(), "127.0.0.1", 0, limits, name="test", summary_interval=summary_interval
    )
    try:
        (port,) = {address[1] for address in runner.addresses}
        yield runner, port
    finally:
        await runner.cleanup()


async def connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


async def read_until_closed(reader: asyncio.StreamReader) -> bytes:
    """Return what the server sent until it closed the connection (a reset counts as closed)."""
    received = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), CLOSED_WITHIN):
            received += chunk
    except ConnectionResetError:
        pass
    return received


async def response(reader: asyncio.StreamReader) -> bytes:
    """Return one response's head and its body (``Content-Length`` bytes)."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), CLOSED_WITHIN)
    length = next(
        int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
    )
    return head + await asyncio.wait_for(reader.readexactly(length), CLOSED_WITHIN)


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait until ``condition()`` holds (within :data:`CLOSED_WITHIN` seconds, else fail saying ``what``)."""
    deadline = time.monotonic() + CLOSED_WITHIN
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def open_connections(runner: GuardedAppRunner) -> int:
    assert runner.guarded is not None
    return runner.guarded.open_connections


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Return the records an operator would see as errors: ERROR and above, or any record (INFO and above, the
    default level) with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or (r.exc_info and r.levelno >= logging.INFO)]


# ---- the header timeout -----------------------------------------------------------------------------------------
async def test_a_connection_that_sends_nothing_is_closed_at_the_header_timeout() -> None:
    async with serving() as (runner, port):
        opened = time.monotonic()
        reader, writer = await connect(port)
        assert await read_until_closed(reader) == b""  # closed without an answer
        assert time.monotonic() - opened >= HEADER_TIMEOUT * 0.9  # not before its time
        writer.close()
        assert runner.traffic.header_timeouts == 1
        await until(lambda: open_connections(runner) == 0, "the closed connection still counts")


async def test_headers_trickled_a_line_at_a_time_are_cut_at_the_header_timeout() -> None:
    async with serving() as (runner, port):
        reader, writer = await connect(port)
        writer.write(b"GET /hello HTTP/1.1\r\nHost: bot\r\n")
        sent = 0
        with contextlib.suppress(ConnectionError):
            while not reader.at_eof() and sent < 1000:  # a header line every 0.1 s, for ever
                writer.write(f"X-Slow-{sent}: still here\r\n".encode())
                await writer.drain()
                sent += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader.read(1), 0.1)
        assert reader.at_eof() or writer.is_closing()
        assert 0 < sent < 1000
        writer.close()
        assert runner.traffic.header_timeouts == 1
        assert runner.traffic.responses.total() == 0


async def test_a_kept_alive_connection_waits_up_to_the_idle_timeout_for_its_next_request() -> None:
    async with serving(idle_timeout=60.0) as (runner, port):
        reader, writer = await connect(port)
        writer.write(REQUEST)
        assert (await response(reader)).endswith(b"hello")
        # quiet for longer than the header timeout: the idle timeout applies between requests, so the
        # proxy's pooled connection stays usable
        await asyncio.sleep(HEADER_TIMEOUT * 2)
        writer.write(REQUEST)
        assert (await response(reader)).endswith(b"hello")
        # the next request's first bytes start its header clock: trickled, it is cut at the header timeout
        writer.write(b"GET /hello HTTP/1.1\r\n")
        assert await read_until_closed(reader) == b""
        writer.close()
        assert runner.traffic.header_timeouts == 1
        assert runner.traffic.responses[200] == 2


async def test_an_idle_kept_alive_connection_is_closed_at_the_idle_timeout() -> None:
    async with serving() as (runner, port):
        reader, writer = await connect(port)
        writer.write(REQUEST)
        assert (await response(reader)).endswith(b"hello")
        answered = time.monotonic()
        assert await read_until_closed(reader) == b""
        assert time.monotonic() - answered >= IDLE_TIMEOUT * 0.9
        writer.close()
        assert runner.traffic.header_timeouts == 0  # the idle timeout, not the header timeout


async def test_a_websocket_outlives_both_timeouts() -> None:
    async with serving() as (runner, port), aiohttp.ClientSession() as session:
        async with session.ws_connect(f"http://127.0.0.1:{port}/socket", autoping=False) as socket:
            await asyncio.sleep(IDLE_TIMEOUT + HEADER_TIMEOUT)
            await socket.send_str("still open")
            assert (await socket.receive(timeout=CLOSED_WITHIN)).data == "still open"
        assert runner.traffic.header_timeouts == 0


# ---- the connection cap -----------------------------------------------------------------------------------------
async def test_the_connection_beyond_the_cap_is_refused_at_once_and_counted() -> None:
    async with serving(header_timeout=60.0, idle_timeout=60.0, max_connections=3) as (runner, port):
        held = [await connect(port) for _ in range(3)]
        await until(lambda: open_connections(runner) == 3, "three held")
        reader, writer = await connect(port)
        writer.write(REQUEST)
        refused = await read_until_closed(reader)
        assert refused in (b"", b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        writer.close()
        assert runner.traffic.refused == 1
        # the held connections are served as before, and one closed frees its place
        held_reader, held_writer = held[0]
        held_writer.write(REQUEST)
        assert (await response(held_reader)).endswith(b"hello")
        held_writer.close()
        await until(lambda: open_connections(runner) == 2, "one let go")
        reader, writer = await connect(port)
        writer.write(REQUEST)
        assert (await response(reader)).endswith(b"hello")
        for _, other in [*held[1:], (reader, writer)]:
            other.close()
        assert runner.traffic.refused == 1


def test_the_cap_leaves_descriptors_for_the_rest_of_the_process() -> None:
    assert descriptor_cap(1000, soft_limit=1024) == 1024 - RESERVED_DESCRIPTORS
    assert descriptor_cap(1000, soft_limit=65536) == 1000
    assert descriptor_cap(1000, soft_limit=100) == 1
    assert descriptor_cap(1000, soft_limit=resource.RLIM_INFINITY) == 1000


async def test_a_cap_above_the_open_file_limit_is_lowered_with_a_warning(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _kind: (512, 4096))
    caplog.set_level(logging.INFO, logger="bot.http_server")
    async with serving(max_connections=1000) as (runner, _port):
        assert runner.guarded is not None and runner.guarded.limits.max_connections == 512 - RESERVED_DESCRIPTORS
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        f"test server: at most {512 - RESERVED_DESCRIPTORS} connections, not 1000: the process may "
        "open only 512 files (ulimit -n)"
    ]


# ---- malformed requests ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "request_bytes",
    [
        pytest.param(b"GET /hello HTTP/1.1\r\nHost: bot\r\nX-Huge: " + b"a" * 65536 + b"\r\n\r\n", id="64KB-header"),
        pytest.param(b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: bot\r\n\r\n", id="64KB-request-line"),
        pytest.param(b"NOT HTTP AT ALL\r\n\r\n", id="garbage"),
        pytest.param(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40, id="TLS-on-the-plain-port"),
        pytest.param(
            b"POST /secret HTTP/1.1\r\nHost: bot\r\nX-Secret: s3cret\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            id="broken-chunk",
        ),
        pytest.param(
            b"POST /secret HTTP/1.1\r\nHost: bot\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", id="broken-chunk-401"
        ),
    ],
)
async def test_a_request_the_server_cannot_read_gets_400_and_no_traceback(
    request_bytes: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with serving() as (runner, port):
        reader, writer = await connect(port)
        writer.write(request_bytes)
        answer = await read_until_closed(reader)
        writer.close()
        assert answer.split(b"\r\n", 1)[0] in (b"HTTP/1.0 400 Bad Request", b"HTTP/1.1 400 Bad Request"), answer[:200]
        assert runner.traffic.malformed == 1
        assert runner.traffic.responses == {400: 1}
    assert tracebacks(caplog) == []


async def test_a_body_cut_short_by_the_client_gets_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with serving() as (runner, port):
        _, writer = await connect(port)
        writer.write(b"POST /secret HTTP/1.1\r\nHost: bot\r\nX-Secret: s3cret\r\nContent-Length: 1000\r\n\r\nshort")
        await writer.drain()
        writer.close()  # the handler reading the body meets the end of the connection
        await until(lambda: runner.traffic.malformed == 1, "the request cut short is not counted")
        assert runner.traffic.responses == {400: 1}  # not 500: no error of the server's (and never sent)
    assert tracebacks(caplog) == []


async def test_a_bug_in_a_handler_still_logs_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    async with serving() as (runner, port), aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/broken") as got:
            assert got.status == 500
        assert runner.traffic.malformed == 0
    (record,) = tracebacks(caplog)
    assert record.exc_info is not None and isinstance(record.exc_info[1], RuntimeError)


# ---- quiet logs: the summary in place of the access log ----------------------------------------------------------
async def test_no_access_log_line_but_a_summary_of_the_counts(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with serving() as (_runner, port), aiohttp.ClientSession() as session:
        for _ in range(20):
            async with session.post(f"http://127.0.0.1:{port}/secret", data=b"{}") as got:
                assert got.status == 401
        async with session.post(f"http://127.0.0.1:{port}/secret", data=b"{}", headers={"X-Secret": "s3cret"}) as got:
            assert got.status == 200
    assert [r for r in caplog.records if r.name == "aiohttp.access"] == []
    summaries = [r for r in caplog.records if r.name == "bot.http_traffic"]
    assert [r.levelno for r in summaries] == [logging.INFO]  # the last summary, written at the stop
    assert "21 responses (200: 1, 401: 20)" in summaries[0].getMessage()


async def test_the_summary_is_written_each_interval_with_traffic_and_never_without(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interval = 0.2
    caplog.set_level(logging.INFO)

    def summaries() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == "bot.http_traffic"]

    async with serving(summary_interval=interval) as (_runner, port), aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/hello") as got:
            assert got.status == 200
        await until(lambda: bool(summaries()), "no summary while the server runs")
        assert "1 responses (200: 1)" in summaries()[0]
        await asyncio.sleep(interval * 5)  # quiet intervals
        assert len(summaries()) == 1


async def test_refused_connections_make_the_summary_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    async with serving(header_timeout=60.0, max_connections=1) as (runner, port):
        held = await connect(port)
        await until(lambda: open_connections(runner) == 1, "one held")
        reader, writer = await connect(port)
        await read_until_closed(reader)
        writer.close()
        held[1].close()
    summaries = [r for r in caplog.records if r.name == "bot.http_traffic"]
    assert [r.levelno for r in summaries] == [logging.WARNING]  # the last summary, written at the stop
    assert "1 connections refused at the cap of 1" in summaries[0].getMessage()


def test_the_summary_line_counts_and_starts_a_new_interval() -> None:
    traffic = HttpTraffic("webhook")
    assert traffic.summary(open_connections=0, cap=10) is None
    for status in (401, 401, 200, 400):
        traffic.count_response(status)
    traffic.malformed, traffic.header_timeouts, traffic.refused = 1, 3, 2
    line = traffic.summary(open_connections=7, cap=10)
    assert line is not None and line.startswith("webhook server, last ")
    assert line.endswith(
        "s: 4 responses (200: 1, 400: 1, 401: 2); 1 malformed requests; 3 connections cut by the header timeout; "
        "2 connections refused at the cap of 10; 7 connections open"
    )
    assert traffic.summary(open_connections=7, cap=10) is None  # every count back at zero
