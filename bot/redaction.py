"""Keeps the bot token out of the logs: every log record is redacted when it is created.

The token can reach a log line through a URL (``https://api.telegram.org/bot<token>/getMe`` in an aiohttp error
when ``TELEGRAM_API_URL`` is malformed, or a custom server echoing the request path), in a message's arguments, in
an exception's message or in a traceback. :func:`install_token_redaction` wraps the logging record factory, so
every record of every logger, whatever its handlers, carries ``<redacted>`` instead of the token, its secret part
(after the colon) and their URL-encoded forms.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

REDACTED = "<redacted>"


class Redactor:
    """Replaces every form of some secrets in a text."""

    def __init__(self, secrets: Iterable[str]) -> None:
        """Redact each secret, for a bot token also its part after the colon, and their URL-encoded forms."""
        forms: set[str] = set()
        for secret in secrets:
            if not secret:
                continue
            parts = [secret]
            if ":" in secret:
                parts.append(secret.split(":", 1)[1])
            for part in parts:
                forms.update({part, quote(part, safe=""), quote(part)})
        self._forms = sorted((f for f in forms if len(f) >= 4), key=len, reverse=True)

    def __call__(self, text: str) -> str:
        """Return ``text`` with every form of the secrets replaced by ``<redacted>``."""
        for form in self._forms:
            if form in text:
                text = text.replace(form, REDACTED)
        return text

    def record(self, record: logging.LogRecord) -> logging.LogRecord:
        """Redact the record in place: its message (arguments merged in), exception text and stack. Returns it."""
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: keep what can be shown, redacted
            message = f"{record.msg!s} {record.args!r}"
        record.msg = self(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self(record.exc_text)
        if record.stack_info:
            record.stack_info = self(record.stack_info)
        return record


def install_token_redaction(token: str) -> Callable[[], None]:
    """Make every log record created from now on redact ``token`` (see the module docstring).

    Returns: a function that restores the previous record factory.
    """
    redact = Redactor([token])
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return redact.record(previous(*args, **kwargs))

    logging.setLogRecordFactory(factory)

    def uninstall() -> None:
        if logging.getLogRecordFactory() is factory:
            logging.setLogRecordFactory(previous)

    return uninstall
