"""Random ids for games and challenges."""

from __future__ import annotations

import re
import secrets

ID_LENGTH = 10
"""Length of every id: 7 random bytes in URL-safe base64 (56 bits)."""

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{10}")
"""A well-formed game or challenge id (use ``fullmatch``)."""


def new_id() -> str:
    """Return a fresh random id of :data:`ID_LENGTH` URL-safe characters (fit for callbacks, deep links)."""
    return secrets.token_urlsafe(7)


def is_valid_id(value: str) -> bool:
    """Return True when ``value`` has the shape of an id made by :func:`new_id`."""
    return ID_PATTERN.fullmatch(value) is not None
