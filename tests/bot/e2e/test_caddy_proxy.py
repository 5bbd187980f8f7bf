"""The reverse proxy of the webhook deployment: Caddy run with ``deploy/Caddyfile`` in front of real webhook
workers (``python -m bot``), Telegram's POSTs sent through it: to one worker, and to two found by DNS as Docker
names a service's replicas (a small DNS server in the test answers for them); and the Caddyfile's limits against
slow or abusive clients, which match the workers' own ``HTTP_*`` settings. Where Caddy is not installed
(scripts/test.sh installs Debian's) the tests fail under CI=true and are skipped elsewhere."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot.config import Settings
from tests.bot.fake_bot_api_server import (
    WORKER_SECRET,
    FakeBotApiServer,
    Worker,
    deliver,
    free_port,
    group,
    private,
    start_worker,
    stop_workers,
    user,
    wait_healthy,
)

CADDYFILE = Path(__file__).resolve().parents[3] / "deploy" / "Caddyfile"
ALICE = user(701, "Alice")
BOB = user(702, "Bob")
GROUP = group(-100_888)


def _under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


@pytest.fixture(autouse=True)
def _needs_caddy() -> None:
    if shutil.which("caddy") is None:
        if _under_ci():
            pytest.fail("Caddy is not installed (scripts/ensure-caddy.sh installs it): CI=true")
        pytest.skip("Caddy is not installed")


def _caddy_config(tmp_path: Path, port: int, worker_host: str, worker_port: int, resolver: str | None = None) -> Path:
    """The Caddyfile adapted to JSON with the deployment's variables, its admin endpoint moved to a free port and,
    given a ``resolver`` (host:port), the workers' name looked up there instead of the system's DNS."""
    env = {
        **os.environ,
        "BOT_DOMAIN": f"http://127.0.0.1:{port}",
        "WEBHOOK_PATH": "/telegram",
        "WORKER_HOST": worker_host,
        "WORKER_PORT": str(worker_port),
    }
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    config: dict[str, Any] = json.loads(adapted.stdout)
    config["admin"] = {"listen": f"127.0.0.1:{free_port()}"}
    if resolver is not None:
        proxies = [h for h in _handlers(config) if h.get("handler") == "reverse_proxy"]
        assert len(proxies) == 2, config  # the webhook and the Mini App
        for proxy in proxies:
            proxy["dynamic_upstreams"]["resolver"] = {"addresses": [resolver]}
    path = tmp_path / "caddy.json"
    path.write_text(json.dumps(config))
    return path


def _handlers(node: Any) -> list[dict[str, Any]]:
    """Every handler object of a Caddy JSON config, however deeply its routes nest."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "handler" in node:
            found.append(node)
        for value in node.values():
            found.extend(_handlers(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_handlers(value))
    return found


@contextlib.asynccontextmanager
async def _caddy(tmp_path: Path, config: Path, base: str) -> AsyncIterator[None]:
    """Run Caddy on ``config`` until it answers ``base`` (404 at /), and stop it afterwards."""
    home = tmp_path / "caddy-home"
    home.mkdir(exist_ok=True)
    log_path = tmp_path / "caddy.log"
    log = log_path.open("wb")
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(config)],
        env={**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + 30
            while True:
                assert caddy.poll() is None, log_path.read_text()
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(base + "/") as response:
                        if response.status == 404:
                            break
                assert time.monotonic() < deadline, log_path.read_text()
                await asyncio.sleep(0.1)
        yield
    finally:
        caddy.terminate()
        caddy.wait(timeout=10)
        log.close()


@pytest.fixture
async def proxied(
    redis_url: str, tmp_path: Path
) -> AsyncIterator[tuple[FakeBotApiServer, Worker, str, aiohttp.ClientSession]]:
    api = FakeBotApiServer()
    server = TestServer(api.app(), host="127.0.0.1")
    await server.start_server()
    worker = start_worker(
        str(server.make_url("")), redis_url, tmp_path, "behind-caddy", WEBAPP_URL="https://bot.example.org/webapp/"
    )
    port = free_port()
    config = _caddy_config(tmp_path, port, "127.0.0.1", worker.port)
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            await wait_healthy(session, worker)
            async with _caddy(tmp_path, config, base):
                yield api, worker, base, session
    finally:
        stop_workers([worker])
        await server.close()


async def _settle(api: FakeBotApiServer, predicate: Any, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, [m.text or m.caption for m in api.chat(GROUP["id"])]
        await asyncio.sleep(0.1)


async def test_caddy_forwards_telegrams_posts_the_mini_app_and_nothing_else(
    proxied: tuple[FakeBotApiServer, Worker, str, aiohttp.ClientSession],
) -> None:
    api, _, base, session = proxied
    url = base + "/telegram"
    challenge = api.message_update(ALICE, GROUP, "/new short")
    # the secret travels through the proxy: without it the worker refuses, and nothing is sent
    assert (await deliver(session, url, challenge, None))[0] == 401
    assert (await deliver(session, url, challenge, "wrong"))[0] == 401
    # the worker's own endpoints are not routed from outside
    for path in ("/healthz", "/metrics", "/telegram/extra", "/"):
        async with session.get(base + path) as response:
            assert response.status == 404, path
    assert api.methods("sendMessage", "sendPhoto") == []
    # the Mini App goes through: its page (gzipped by the worker) and its API, which wants signed init data
    async with session.get(base + "/webapp/", headers={"Accept-Encoding": "gzip"}) as response:
        assert response.status == 200 and response.headers.get("Content-Encoding") == "gzip"
        assert 'src="app.js"' in await response.text()
    async with session.get(base + "/webapp/api/games/nothing") as response:
        assert response.status == 401
    # with the secret: the challenge card, and a Join press through the proxy starts the game
    assert (await deliver(session, url, challenge, WORKER_SECRET))[0] == 200
    await _settle(api, lambda: any(m.keyboard for m in api.chat(GROUP["id"])))
    card = next(m for m in api.chat(GROUP["id"]) if m.keyboard)
    join = next(data for data in card.callbacks() if data.startswith("c:") and data.endswith(":join"))
    press = api.press_update(BOB, card, join)
    assert (await deliver(session, url, press, WORKER_SECRET))[0] == 200
    assert (await deliver(session, url, press, WORKER_SECRET))[0] == 200  # a redelivery: dropped by the worker
    await _settle(api, lambda: any(m.photo and m.keyboard for m in api.chat(GROUP["id"])))
    answers = [
        c
        for c in api.methods("answerCallbackQuery")
        if c.fields.get("callback_query_id") == press["callback_query"]["id"]
    ]
    assert len(answers) == 1


# ---- two workers found by DNS, as Docker's DNS names a compose service's replicas ------------------------------
WORKERS_NAME = "workers.nardy.test"
_TYPE_A = 1
_NOERROR, _NXDOMAIN = 0, 3


class _WorkersDns(asyncio.DatagramProtocol):
    """A DNS server of one name with several A records (Caddy's ``dynamic a`` looks the workers up here); every
    other name, and every other record type of it, has no answer."""

    def __init__(self, addresses: list[str]) -> None:
        self.addresses = addresses
        self.transport: asyncio.DatagramTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.DatagramTransport, transport)

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        assert self.transport is not None
        with contextlib.suppress(ValueError, IndexError):
            self.transport.sendto(self.answer(data), addr)

    def answer(self, query: bytes) -> bytes:
        """Return the response to one query (its first question only).

        Raises: ValueError or IndexError for a malformed query."""
        labels, at = [], 12
        while query[at]:
            labels.append(query[at + 1 : at + 1 + query[at]].decode("ascii").lower())
            at += 1 + query[at]
        question_end = at + 5
        qtype = int.from_bytes(query[at + 1 : at + 3], "big")
        known = ".".join(labels) == WORKERS_NAME
        records = self.addresses if known and qtype == _TYPE_A else []
        flags = 0x8180 | (_NOERROR if known else _NXDOMAIN)  # a response, recursion desired and available
        header = query[:2] + flags.to_bytes(2, "big") + (1).to_bytes(2, "big") + len(records).to_bytes(2, "big")
        answers = b"".join(
            b"\xc0\x0c"  # the name of the question
            + _TYPE_A.to_bytes(2, "big")
            + (1).to_bytes(2, "big")  # class IN
            + (1).to_bytes(4, "big")  # TTL 1 s
            + (4).to_bytes(2, "big")
            + bytes(int(part) for part in address.split("."))
            for address in records
        )
        return header + b"\x00\x00\x00\x00" + query[12:question_end] + answers


def _counted(metrics_text: str, kind: str, outcome: str = "ok") -> float:
    """The updates of ``kind`` with ``outcome`` that a worker's ``/metrics`` counts."""
    for family in text_string_to_metric_families(metrics_text):
        for sample in family.samples:
            if sample.name == "nardy_updates_total" and sample.labels == {"kind": kind, "outcome": outcome}:
                return sample.value
    return 0.0


@pytest.fixture
async def two_behind_caddy(
    redis_url: str, tmp_path: Path
) -> AsyncIterator[tuple[FakeBotApiServer, list[Worker], str, aiohttp.ClientSession]]:
    api = FakeBotApiServer()
    server = TestServer(api.app(), host="127.0.0.1")
    await server.start_server()
    hosts = ["127.0.0.1", "127.0.0.2"]  # one port on two addresses, as two containers of one service
    worker_port = free_port()
    workers = [
        start_worker(str(server.make_url("")), redis_url, tmp_path, f"rr{i}", host=host, port=worker_port)
        for i, host in enumerate(hosts)
    ]
    loop = asyncio.get_running_loop()
    dns_transport, _ = await loop.create_datagram_endpoint(lambda: _WorkersDns(hosts), local_addr=("127.0.0.1", 0))
    dns_port = dns_transport.get_extra_info("sockname")[1]
    port = free_port()
    config = _caddy_config(tmp_path, port, WORKERS_NAME, worker_port, resolver=f"udp/127.0.0.1:{dns_port}")
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            for worker in workers:
                await wait_healthy(session, worker)
            async with _caddy(tmp_path, config, base):
                yield api, workers, base, session
    finally:
        stop_workers(workers)
        dns_transport.close()
        await server.close()


async def test_caddy_spreads_updates_over_the_workers_it_finds_by_dns_and_skips_a_dead_one(
    two_behind_caddy: tuple[FakeBotApiServer, list[Worker], str, aiohttp.ClientSession],
) -> None:
    api, workers, base, session = two_behind_caddy
    url = base + "/telegram"
    players = [user(800 + i, f"Player{i}") for i in range(12)]

    async def handled_by_each(kind: str = "message", outcome: str = "ok") -> list[float]:
        counts = []
        for worker in workers:
            if worker.process.poll() is not None:
                counts.append(0.0)
                continue
            async with session.get(worker.base + "/metrics") as response:
                counts.append(_counted(await response.text(), kind, outcome))
        return counts

    for player in players:
        assert (await deliver(session, url, api.message_update(player, private(player), "/help"), WORKER_SECRET))[
            0
        ] == 200
    await _settle(api, lambda: all(api.chat(p["id"]) for p in players))
    counts = await handled_by_each()
    assert sum(counts) == len(players), counts
    assert min(counts) >= len(players) // 4, counts  # round robin: both workers take a fair share
    assert all(len(api.chat(p["id"])) == 1 for p in players)

    # the same update twice through the proxy lands on both workers and is applied once
    twice = user(850, "Twice")
    update = api.message_update(twice, private(twice), "/help")
    handled_before = await handled_by_each()
    for _ in range(2):
        assert (await deliver(session, url, update, WORKER_SECRET))[0] == 200
    await _settle(api, lambda: bool(api.chat(twice["id"])))
    await asyncio.sleep(0.5)
    assert len(api.chat(twice["id"])) == 1
    gained = [after - before for after, before in zip(await handled_by_each(), handled_before, strict=True)]
    dropped = await handled_by_each("webhook", "duplicate")
    assert sorted(gained) == [0, 1] and sorted(dropped) == [0, 1]
    assert gained.index(1) != dropped.index(1)  # one worker applied it, the other dropped the second copy

    # a worker dies and DNS still names it: Caddy retries a request it cannot deliver there on the other worker
    # (the Caddyfile buffers request bodies so that a POST can be sent again), and every update is answered
    workers[1].process.kill()
    workers[1].process.wait(timeout=10)
    before = (await handled_by_each())[0]
    late = [user(900 + i, f"Late{i}") for i in range(6)]
    for player in late:
        assert (await deliver(session, url, api.message_update(player, private(player), "/help"), WORKER_SECRET))[
            0
        ] == 200
    await _settle(api, lambda: all(api.chat(p["id"]) for p in late))
    assert (await handled_by_each())[0] == before + len(late)


# ---- the limits against slow or abusive clients ----------------------------------------------------------------
SECOND_NS = 1_000_000_000


def _server_of(config: dict[str, Any]) -> dict[str, Any]:
    (server,) = config["apps"]["http"]["servers"].values()
    return cast(dict[str, Any], server)


def test_the_caddyfile_limits_match_the_workers(tmp_path: Path) -> None:
    config = json.loads(_caddy_config(tmp_path, free_port(), "127.0.0.1", free_port()).read_text())
    server = _server_of(config)
    workers = Settings(bot_token="42:TEST", _env_file=None)  # type: ignore[call-arg]  # the workers' defaults
    # a request's headers within the workers' header timeout, and no more than 16 KiB of them
    assert server["read_header_timeout"] == workers.http_header_timeout * SECOND_NS
    assert server["max_header_bytes"] == 16 * 1024
    # the whole request within 30 s (the workers time headers only); a client's idle connection as long as a worker's
    assert server["read_timeout"] == 30 * SECOND_NS
    assert server["idle_timeout"] == workers.http_idle_timeout * SECOND_NS
    proxies = [h for h in _handlers(config) if h.get("handler") == "reverse_proxy"]
    assert len(proxies) == 2
    for proxy in proxies:
        # Caddy lets its idle connections to a worker go before the worker would close them
        assert proxy["transport"]["keep_alive"]["idle_timeout"] < workers.http_idle_timeout * SECOND_NS
    # bodies: Telegram's updates up to the workers' own limit (aiohttp's 1 MiB), the Mini App's small JSON
    assert sorted(h["max_size"] for h in _handlers(config) if h.get("handler") == "request_body") == [
        64 * 1024,
        1024 * 1024,
    ]


async def _echo_socket(request: web.Request) -> web.WebSocketResponse:
    socket = web.WebSocketResponse()
    await socket.prepare(request)
    async for message in socket:
        await socket.send_str(message.data)
    return socket


async def _body_length(request: web.Request) -> web.Response:
    return web.Response(text=str(len(await request.read())))


@pytest.fixture
async def shortened(tmp_path: Path) -> AsyncIterator[tuple[str, int, list[int]]]:
    """Caddy on the Caddyfile with its header and request timeouts shortened to 1 s, in front of a small upstream
    (a WebSocket echo under ``/webapp/``, body-length answers at ``/telegram`` and ``/webapp/body``); yields the
    base URL, Caddy's port and the body lengths the upstream received."""
    received: list[int] = []

    async def body_length(request: web.Request) -> web.Response:
        received.append(len(await request.read()))
        return web.Response(text=str(received[-1]))

    upstream = web.Application(client_max_size=8 * 1024 * 1024)
    upstream.router.add_get("/webapp/live", _echo_socket)
    upstream.router.add_post("/telegram", body_length)
    upstream.router.add_post("/webapp/body", body_length)
    server = TestServer(upstream, host="127.0.0.1")
    await server.start_server()
    port = free_port()
    path = _caddy_config(tmp_path, port, "127.0.0.1", cast(int, server.port))
    config = json.loads(path.read_text())
    _server_of(config).update(read_header_timeout=SECOND_NS, read_timeout=SECOND_NS)
    path.write_text(json.dumps(config))
    base = f"http://127.0.0.1:{port}"
    try:
        async with _caddy(tmp_path, path, base):
            yield base, port, received
    finally:
        await server.close()


async def test_caddy_cuts_slow_clients_refuses_oversized_requests_and_keeps_websockets(
    shortened: tuple[str, int, list[int]],
) -> None:
    base, port, received = shortened
    # a client that sends nothing, and one that trickles its headers, are cut at the header timeout
    for trickle in (False, True):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        if trickle:
            writer.write(b"GET /webapp/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with contextlib.suppress(ConnectionError):
            for line in range(200):  # a header line every 0.1 s, for 20 s at most
                if trickle:
                    writer.write(f"X-Slow-{line}: x\r\n".encode())
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(65536), 0.1) == b"" or reader.at_eof():
                        break
        assert reader.at_eof() or writer.is_closing(), trickle
        assert line < 199, trickle
        writer.close()
    async with aiohttp.ClientSession() as session:
        # a 64 KB header: 431, and nothing reaches the upstream
        async with session.post(base + "/telegram", data=b"{}", headers={"X-Huge": "a" * 65536}) as response:
            assert response.status == 431
        # bodies beyond the routes' caps are not delivered
        async with session.post(base + "/telegram", data=b"x" * (2 * 1024 * 1024)) as response:
            assert response.status >= 400
        async with session.post(base + "/webapp/body", data=b"x" * (100 * 1024)) as response:
            assert response.status >= 400
        async with session.post(base + "/webapp/body", data=b"x" * 1000) as response:
            assert response.status == 200
        assert received == [1000]

        # a body trickled for longer than the request timeout is cut too
        async def slowly() -> AsyncIterator[bytes]:
            for _ in range(30):
                yield b"x" * 10
                await asyncio.sleep(0.1)

        with contextlib.suppress(aiohttp.ClientError):
            async with session.post(base + "/webapp/body", data=slowly()) as response:
                assert response.status != 200 or response.headers.get("Connection") == "close"
        assert received == [1000]  # the upstream never had it whole
        # a WebSocket outlives both timeouts
        async with session.ws_connect(base + "/webapp/live") as socket:
            await asyncio.sleep(2.5)
            await socket.send_str("still open")
            assert (await socket.receive(timeout=10)).data == "still open"
