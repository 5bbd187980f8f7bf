"""The Docker deployment (``docker-compose.yml``) loaded by Docker Compose v2's own loader (``docker compose config``,
which needs no Docker engine): both profiles are valid, the webhook profile runs N workers behind Caddy with Redis
on AOF, and what the file gives each service agrees with the bot's settings and with ``deploy/Caddyfile``. Where
Compose v2 is missing (scripts/test.sh installs it) the tests fail under CI=true and are skipped elsewhere."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[3]


def _compose_command() -> list[str] | None:
    """The Docker Compose v2 command line at hand, or None."""
    candidates = [["docker", "compose"], ["docker-compose"]]
    for command in candidates:
        if shutil.which(command[0]) is None:
            continue
        version = subprocess.run([*command, "version", "--short"], capture_output=True, text=True)
        if version.returncode == 0 and version.stdout.strip().lstrip("v").startswith("2."):
            return command
    return None


@pytest.fixture(scope="module")
def compose() -> list[str]:
    command = _compose_command()
    if command is None:
        if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
            pytest.fail("Docker Compose v2 is not installed (scripts/ensure-compose.sh installs it): CI=true")
        pytest.skip("Docker Compose v2 is not installed")
    return command


@pytest.fixture
def deployment(tmp_path: Path) -> Path:
    """A copy of the deployment's files with a ``.env`` made from ``.env.example`` as its README says: the token,
    and for the webhook the public URL, the secret and the domain."""
    for name in ("docker-compose.yml", "Dockerfile", ".env.example"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "deploy").mkdir()
    shutil.copy(ROOT / "deploy" / "Caddyfile", tmp_path / "deploy" / "Caddyfile")
    env = (ROOT / ".env.example").read_text(encoding="utf-8")
    env = env.replace("BOT_TOKEN=123456789:replace-me", "BOT_TOKEN=123456789:AAcompose-test-token")
    env += "\nWEBHOOK_URL=https://bot.example.org\nWEBHOOK_SECRET=compose-secret_1\nBOT_DOMAIN=bot.example.org\n"
    (tmp_path / ".env").write_text(env, encoding="utf-8")
    return tmp_path


def _config(compose: list[str], directory: Path, profile: str, **env: str) -> dict[str, Any]:
    """The project as Compose resolves it for ``profile`` with ``env`` in the environment."""
    clean = {k: v for k, v in os.environ.items() if k not in ("WORKERS", "BOT_DOMAIN", "WEBHOOK_PATH")}
    loaded = subprocess.run(
        [*compose, "--project-directory", str(directory), "--profile", profile, "config", "--format", "json"],
        cwd=directory,
        env={**clean, **env},
        capture_output=True,
        text=True,
    )
    assert loaded.returncode == 0, loaded.stderr
    config: dict[str, Any] = json.loads(loaded.stdout)
    return config


def _settings_of(service: dict[str, Any], directory: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The bot's settings in a container of ``service``: its resolved environment only (no .env file inside)."""
    for name in list(os.environ):
        monkeypatch.delenv(name)
    for name, value in service["environment"].items():
        monkeypatch.setenv(name, "" if value is None else str(value))
    monkeypatch.chdir(directory / "deploy")  # a folder without a .env
    return Settings()  # type: ignore[call-arg]


def test_the_webhook_profile_runs_n_workers_behind_caddy_on_redis_with_aof(
    compose: list[str], deployment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(compose, deployment, "webhook", WORKERS="4")
    services = config["services"]
    assert set(services) == {"redis", "worker", "proxy"}
    redis, worker, proxy = services["redis"], services["worker"], services["proxy"]

    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert any(v["target"] == "/data" and v["type"] == "volume" for v in redis["volumes"])
    assert worker["depends_on"]["redis"]["condition"] == "service_healthy"

    assert worker["deploy"]["replicas"] == 4
    assert _config(compose, deployment, "webhook")["services"]["worker"]["deploy"]["replicas"] == 2

    settings = _settings_of(worker, deployment, monkeypatch)
    assert settings.bot_mode == "webhook"
    assert settings.webhook_url == "https://bot.example.org"
    assert settings.webhook_secret is not None and settings.webhook_secret.get_secret_value() == "compose-secret_1"
    assert settings.redis_url == "redis://redis:6379/0"
    assert settings.webhook_host == "0.0.0.0"
    assert f"http://127.0.0.1:{settings.webhook_port}/healthz" in " ".join(worker["healthcheck"]["test"])

    # Caddy: the deployment's Caddyfile, mounted where the image reads it, sends WEBHOOK_PATH to the workers by the
    # service's name and port, and nothing else
    mount = next(v for v in proxy["volumes"] if v["target"] == "/etc/caddy/Caddyfile")
    assert Path(mount["source"]) == deployment / "deploy" / "Caddyfile" and mount["read_only"]
    assert {p["target"] for p in proxy["ports"]} == {80, 443}
    assert proxy["environment"]["BOT_DOMAIN"] == "bot.example.org"
    assert proxy["environment"]["WEBHOOK_PATH"] == settings.webhook_path
    if shutil.which("caddy") is not None:
        adapted = subprocess.run(
            ["caddy", "adapt", "--config", str(deployment / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
            env={**os.environ, **proxy["environment"]},
            capture_output=True,
            text=True,
            check=True,
        )
        server = next(iter(json.loads(adapted.stdout)["apps"]["http"]["servers"].values()))
        text = json.dumps(server)
        assert '"host": ["bot.example.org"]' in text
        assert f'"path": ["{settings.webhook_path}"]' in text
        upstreams = '"dynamic_upstreams": {"name": "worker", "port": "' + str(settings.webhook_port) + '"'
        assert upstreams in text


def test_the_polling_profile_runs_one_bot_on_redis(
    compose: list[str], deployment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = _config(compose, deployment, "polling")["services"]
    assert set(services) == {"redis", "bot"}
    assert "deploy" not in services["bot"] or services["bot"]["deploy"].get("replicas") in (None, 1)
    settings = _settings_of(services["bot"], deployment, monkeypatch)
    assert settings.bot_mode == "polling"
    assert settings.redis_url == "redis://redis:6379/0"
    assert settings.bot_token.get_secret_value() == "123456789:AAcompose-test-token"
