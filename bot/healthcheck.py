"""The container's health check (the Dockerfile's ``HEALTHCHECK``): ``python -m bot.healthcheck``.

In webhook mode (``BOT_MODE=webhook``) it asks the worker's ``GET /healthz`` on ``WEBHOOK_PORT`` (200 while the
store answers, see :mod:`bot.webhook`) and exits 0 on 200, 1 otherwise. In polling mode the bot serves no HTTP at
all, so there is nothing to ask: it exits 0, and the container's health is only that its one process runs (if the
bot stops, so does the container). Settings are read as the bot reads them (the environment and ``.env``); only
the standard library's urllib is used, since the slim image has no curl.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

from pydantic import ValidationError

from bot.config import Settings

TIMEOUT = 4.0
"""Seconds the check waits for ``/healthz`` (the Dockerfile gives the whole check 5)."""


def health_url(settings: Settings) -> str | None:
    """Return the URL of the worker's ``/healthz`` for ``settings``, or None in polling mode (no HTTP server)."""
    if settings.bot_mode != "webhook":
        return None
    host = settings.webhook_host
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{settings.webhook_port}/healthz"


def check(settings: Settings, timeout: float = TIMEOUT) -> tuple[int, str]:
    """Return the exit code (0 healthy, 1 not) and a one-line explanation for ``settings``. Raises nothing."""
    url = health_url(settings)
    if url is None:
        return 0, "polling mode: no HTTP server to ask; healthy while the process runs"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # a fixed http:// URL
            body = response.read(64).decode(errors="replace")
            return (0, f"{url}: {response.status} {body}") if response.status == 200 else (1, f"{url}: {body}")
    except urllib.error.HTTPError as error:
        return 1, f"{url}: {error.code} {error.read(64).decode(errors='replace')}"
    except (OSError, ValueError) as error:
        return 1, f"{url}: {type(error).__name__}: {error}"


def main() -> None:
    """Entry point of ``python -m bot.healthcheck``: print one line and exit with :func:`check`'s code.
    Raises: SystemExit (always)."""
    try:
        settings = Settings()  # type: ignore[call-arg]  # BOT_TOKEN comes from the environment
    except ValidationError as error:
        print(f"invalid settings: {error.error_count()} problem(s); the bot cannot be running", file=sys.stderr)
        raise SystemExit(1) from None
    code, message = check(settings)
    print(message, file=sys.stderr if code else sys.stdout)
    raise SystemExit(code)


if __name__ == "__main__":
    main()
