"""The bot token never reaches a log line: in a message, its arguments, an exception's message or a traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from bot.redaction import REDACTED, Redactor, install_token_redaction

TOKEN = "123456789:AAF-secret_Token-value"
SECRET = TOKEN.split(":", 1)[1]


@pytest.fixture
def redaction() -> Iterator[None]:
    uninstall = install_token_redaction(TOKEN)
    yield
    uninstall()


def test_every_form_of_the_token_is_replaced() -> None:
    redact = Redactor([TOKEN])
    url = f"https://api.telegram.org/bot{TOKEN}/getMe"
    assert redact(url) == f"https://api.telegram.org/bot{REDACTED}/getMe"
    assert redact(f"path /bot{quote(TOKEN, safe='')}/getMe") == f"path /bot{REDACTED}/getMe"
    assert redact(f"secret alone: {SECRET}") == f"secret alone: {REDACTED}"
    assert redact("nothing here") == "nothing here"
    assert Redactor([""])("anything") == "anything"


def _records(caplog: pytest.LogCaptureFixture) -> str:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    return "\n".join(handler.format(r) for r in caplog.records)


def test_log_records_are_redacted(redaction: None, caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("some.library")
    with caplog.at_level(logging.INFO):
        log.info("request to %s failed", f"http://tg.local/bot{TOKEN}/getUpdates")
        log.warning(f"inline {TOKEN}")
        try:
            raise RuntimeError(f"InvalidURL: htp//bad/bot{TOKEN}/getMe")
        except RuntimeError:
            log.exception("start-up failed")
        log.info("stack", stack_info=True, extra={"unused": TOKEN})
        try:
            url = f"http://x/bot{quote(TOKEN, safe='')}/m"
            raise ValueError(url)
        except ValueError as error:
            log.error("failed: %r", error, exc_info=error)
    text = _records(caplog)
    assert TOKEN not in text and SECRET not in text and quote(TOKEN, safe="") not in text
    assert text.count(REDACTED) >= 5
    assert "RuntimeError: InvalidURL: htp//bad/bot<redacted>/getMe" in text
    assert "Traceback (most recent call last)" in text


def test_uninstall_restores_the_factory() -> None:
    before = logging.getLogRecordFactory()
    uninstall = install_token_redaction(TOKEN)
    assert logging.getLogRecordFactory() is not before
    uninstall()
    assert logging.getLogRecordFactory() is before
