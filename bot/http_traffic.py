"""What the bot's own HTTP server saw, summed up: one log line per interval instead of one line per request.

aiohttp's access log writes a line for every request; under a flood of unsigned requests that is megabytes a minute
and a share of the event loop. :class:`HttpTraffic` counts instead — responses by status, malformed requests (a bad
request line, an oversized header, a broken body: answered 400, logged without a traceback), connections cut by the
header timeout and connections refused at the cap — and :meth:`HttpTraffic.log_summary` writes the counts of one
interval as one line and starts the next interval: INFO, or WARNING when connections were refused at the cap (honest
clients may have been among them); nothing for an interval without traffic.

This module imports nothing from the bot, so any layer can use it.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field

log = logging.getLogger(__name__)


@dataclass
class HttpTraffic:
    """The counts of one server (``name`` says which in the log line) since the last summary."""

    name: str
    responses: Counter[int] = field(default_factory=Counter)
    """Responses sent, by status (a WebSocket counts once, with 101, when it closes)."""
    malformed: int = 0
    """Requests the server could not read — a bad request line, an oversized header, a broken body, or a body its
    client cut short — answered 400 (when the client is still there to read it)."""
    header_timeouts: int = 0
    """Connections closed because a request's headers did not arrive within the header timeout."""
    refused: int = 0
    """Connections refused because the server already had as many open as its cap allows."""
    since: float = field(default_factory=time.monotonic)
    """When the current interval began (``time.monotonic``)."""

    def count_response(self, status: int) -> None:
        """Count one response with ``status``. Returns nothing."""
        self.responses[status] += 1

    def summary(self, open_connections: int, cap: int) -> str | None:
        """Return the line for the current interval (``open_connections`` of at most ``cap`` open now), or None when
        nothing happened in it; either way the next interval begins now, with every count at zero."""
        now = time.monotonic()
        seconds, self.since = now - self.since, now
        total = self.responses.total()
        parts = []
        if total:
            by_status = ", ".join(f"{status}: {count}" for status, count in sorted(self.responses.items()))
            parts.append(f"{total} responses ({by_status})")
        if self.malformed:
            parts.append(f"{self.malformed} malformed requests")
        if self.header_timeouts:
            parts.append(f"{self.header_timeouts} connections cut by the header timeout")
        if self.refused:
            parts.append(f"{self.refused} connections refused at the cap of {cap}")
        self.responses.clear()
        self.malformed = self.header_timeouts = self.refused = 0
        if not parts:
            return None
        return f"{self.name} server, last {seconds:.0f} s: {'; '.join(parts)}; {open_connections} connections open"

    def log_summary(self, open_connections: int, cap: int) -> None:
        """Log :meth:`summary` (INFO, or WARNING when connections were refused at the cap), if there is one, and
        start the next interval. Returns nothing."""
        refused = self.refused
        line = self.summary(open_connections, cap)
        if line is not None:
            log.log(logging.WARNING if refused else logging.INFO, "%s", line)
