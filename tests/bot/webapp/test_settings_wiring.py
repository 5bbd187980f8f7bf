"""The Mini App's settings: unset, nothing is built or mounted; set, the composition root builds the live updates
(in process for the embedded store, Redis pub/sub with REDIS_URL) and the links, and the servers mount it."""

from __future__ import annotations

import pytest
from aiohttp import ClientSession
from pydantic import ValidationError

from bot.app import start_webapp_server
from bot.config import Settings
from bot.services.live import LocalLive, RedisLive
from bot.storage import Store
from bot.wiring import service_options, webapp_parts
from tests.bot.e2e.helpers import Env, seeded


def settings(**values: object) -> Settings:
    return Settings(bot_token="42:TEST", _env_file=None, **values)  # type: ignore[call-arg]


def test_unset_builds_nothing() -> None:
    options = service_options(settings())
    assert "live" not in options and "links" not in options


def test_set_builds_the_live_updates_and_links(redis_url: str) -> None:
    local = service_options(  # the embedded store, whatever REDIS_URL the environment has (the test command sets it)
        settings(webapp_url="https://x.example/webapp/", webapp_short_name="play", redis_url=None)
    )
    assert isinstance(local["live"], LocalLive) and local["links"].short_name == "play"
    shared = service_options(settings(webapp_url="https://x.example/webapp/", redis_url=redis_url))
    assert isinstance(shared["live"], RedisLive)


def test_the_address_must_be_https() -> None:
    with pytest.raises(ValidationError):
        settings(webapp_url="http://x.example/webapp/")
    with pytest.raises(ValidationError):
        settings(webapp_url="https://x.example/", webapp_short_name="no spaces")


async def test_polling_mode_serves_the_mini_app_on_its_port(sqlite_store: Store) -> None:
    configured = settings(webapp_url="https://x.example/webapp/", webapp_host="127.0.0.1", webapp_port=0)
    built = service_options(configured)
    env = Env(sqlite_store, seeded("serve"), live=built["live"], links=built["links"])
    assert webapp_parts(settings(), env.service) is None  # WEBAPP_URL unset: nothing is served
    assert webapp_parts(configured, env.service) is not None
    plain = Env(sqlite_store, seeded("serve-plain"))
    assert webapp_parts(configured, plain.service) is None  # a bot built without live updates serves nothing
    assert await start_webapp_server(configured, None) is None
    runner = await start_webapp_server(configured, webapp_parts(configured, env.service))
    assert runner is not None
    try:
        (port,) = [site._server.sockets[0].getsockname()[1] for site in runner.sites]  # type: ignore[union-attr]
        async with ClientSession() as session, session.get(f"http://127.0.0.1:{port}/webapp/api/games/x") as got:
            assert got.status == 401
    finally:
        await runner.cleanup()
        await env.close()
        await plain.close()


async def test_webhook_mode_mounts_the_mini_app_on_the_webhook_port(sqlite_store: Store) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from bot.metrics import Metrics
    from bot.webapp.server import create_webapp
    from bot.webhook import create_webhook_app

    configured = settings(
        webapp_url="https://x.example/webapp/",
        bot_mode="webhook",
        webhook_url="https://x.example",
        webhook_secret="s3cret",
        webhook_register=False,
    )
    built = service_options(configured)
    env = Env(sqlite_store, seeded("webhook-mount"), live=built["live"], links=built["links"])
    parts = webapp_parts(configured, env.service)
    assert parts is not None
    app = create_webhook_app(env.dp, env.bot, sqlite_store, configured, Metrics(), webapp=create_webapp(parts))
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        async with client.get("/webapp/api/games/x") as got:
            assert got.status == 401 and (await got.json())["error"] == "missing"
        async with client.get("/healthz") as got:
            assert got.status == 200
    finally:
        await client.close()
        await env.close()
