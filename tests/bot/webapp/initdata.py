"""Signed Mini App init data, made in the tests the way Telegram makes it (HMAC-SHA256 with the bot token)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any
from urllib.parse import urlencode

TOKEN = "42:TEST"


def signed_init_data(
    user_id: int | None,
    name: str = "Alice",
    *,
    token: str = TOKEN,
    auth_date: float | None = None,
    language: str = "en",
    start_param: str | None = None,
) -> str:
    """Return init data for ``user_id`` (None: without a user) signed with ``token`` as Telegram signs it."""
    fields: dict[str, Any] = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
    }
    if user_id is not None:
        fields["user"] = json.dumps(
            {"id": user_id, "first_name": name, "language_code": language}, separators=(",", ":")
        )
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def forged(init_data: str) -> str:
    """Return ``init_data`` with its user's name changed and the old hash kept."""
    return init_data.replace("Alice", "Mallory")
