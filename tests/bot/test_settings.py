"""Settings come from the environment and ``.env``; .env.example lists every one of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_with_only_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("BOT_TOKEN", "123:abc")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.bot_token.get_secret_value() == "123:abc"
    assert "123:abc" not in repr(settings)
    assert settings.redis_url is None
    assert settings.telegram_api_url is None
    assert settings.default_language == "ru"
    assert settings.embedded_db_path == Path("data/nardy.sqlite3")


def test_env_file_and_empty_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    env = tmp_path / ".env"
    env.write_text("BOT_TOKEN=1:x\nREDIS_URL=\nDEFAULT_LANGUAGE=en\nTURN_TIMEOUT=60\nLOG_LEVEL=DEBUG\n")
    settings = Settings(_env_file=env)  # type: ignore[call-arg]
    assert settings.redis_url is None
    assert settings.default_language == "en"
    assert settings.turn_timeout == 60
    assert settings.log_level == "DEBUG"


def test_missing_token_or_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    monkeypatch.setenv("DEFAULT_LANGUAGE", "de")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_env_example_lists_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))
    assert listed == {name.upper() for name in Settings.model_fields}
    # Every setting is preceded by a comment line.
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^#?\s*[A-Z][A-Z0-9_]+=", line):
            assert lines[i - 1].startswith("#"), line


def test_webhook_mode_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("BOT_TOKEN", "1:x")
    polling = Settings(_env_file=None)  # type: ignore[call-arg]
    assert polling.bot_mode == "polling" and polling.webhook_secret is None
    assert (polling.webhook_host, polling.webhook_port, polling.webhook_path) == ("0.0.0.0", 8080, "/telegram")
    monkeypatch.setenv("BOT_MODE", "webhook")
    with pytest.raises(ValidationError, match="BOT_MODE=webhook needs WEBHOOK_URL and WEBHOOK_SECRET"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/")
    monkeypatch.setenv("WEBHOOK_SECRET", "not allowed!")
    with pytest.raises(ValidationError, match="1-256 characters"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("WEBHOOK_SECRET", "Ok_secret-1")
    monkeypatch.setenv("WEBHOOK_PORT", "9000")
    webhook = Settings(_env_file=None)  # type: ignore[call-arg]
    assert webhook.webhook_secret is not None and webhook.webhook_secret.get_secret_value() == "Ok_secret-1"
    assert "Ok_secret-1" not in repr(webhook) and webhook.webhook_port == 9000

    from bot.webhook import webhook_url

    assert webhook_url(webhook) == "https://bot.example.org/telegram"
