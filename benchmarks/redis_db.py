"""A Redis database for a benchmark, reserved as the tests reserve theirs (``nardy-tests:db-reserved:<db>`` in
database 0), so that a benchmark run beside the test suite never flushes a test's database, nor the other way
round."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

from redis import Redis

RESERVATION = "nardy-tests:db-reserved:{db}"


def base_url(url: str) -> str:
    """Return ``url`` without its database number (``redis://host:port``)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


@contextlib.contextmanager
def reserved_db(url: str) -> Iterator[str]:
    """Yield the URL of a database of the server at ``url`` (one of 1–15) reserved for this process and flushed
    before and after. Raises: RedisError when the server does not answer."""
    base = base_url(url)
    admin = Redis.from_url(f"{base}/0")
    token = f"bench:{os.getpid()}:{uuid.uuid4().hex}"
    db = 0
    while not db:
        for candidate in range(1, 16):
            if admin.set(RESERVATION.format(db=candidate), token, nx=True, ex=3600):
                db = candidate
                break
        else:
            time.sleep(0.1)
    reserved = f"{base}/{db}"
    Redis.from_url(reserved).flushdb()
    try:
        yield reserved
    finally:
        Redis.from_url(reserved).flushdb()
        if admin.get(RESERVATION.format(db=db)) == token.encode():
            admin.delete(RESERVATION.format(db=db))
