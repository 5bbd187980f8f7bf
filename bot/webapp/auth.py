"""Trust: every request and socket of the Mini App carries Telegram's signed init data, checked here.

Telegram signs the Mini App's ``initData`` with a key derived from the bot token (HMAC-SHA256 of the data-check
string under ``HMAC-SHA256("WebAppData", token)``); aiogram's ``safe_parse_webapp_init_data`` checks that
signature. On top of it :func:`verify_init_data` asks for a fresh ``auth_date`` and a user.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Final
from urllib.parse import parse_qsl

from aiogram.utils.web_app import safe_parse_webapp_init_data

from bot.i18n import normalize_language

MAX_INIT_DATA_LENGTH: Final = 8192
"""Init data longer than this is refused without checking (Telegram's is well under 2 KB)."""


class AuthFailure(StrEnum):
    """Why init data was refused; the value is the ``error`` of the 401 answer."""

    MISSING = "missing"
    """No init data at all."""
    FORGED = "forged"
    """The signature does not match (edited data, another bot's token, garbage)."""
    STALE = "stale"
    """Signed, but ``auth_date`` is older than the freshness limit (or in the future)."""
    NO_USER = "no_user"
    """Signed, but carries no user (e.g. opened from an inline query's chat without one)."""


class AuthError(Exception):
    """Init data that cannot be trusted; ``failure`` says why and ``lang`` the language to say it in (read from
    the unverified data, only for that)."""

    def __init__(self, failure: AuthFailure, lang: str = "en") -> None:
        super().__init__(failure.value)
        self.failure = failure
        self.lang = lang


@dataclass(frozen=True, slots=True)
class WebAppIdentity:
    """Who opened the Mini App, as Telegram vouches for it."""

    user_id: int
    name: str
    language: str
    """``ru`` or ``en`` (:func:`bot.i18n.normalize_language` of the Telegram language code)."""
    start_param: str | None
    """The ``startapp`` parameter of the link that opened the app (a game id), if any."""


def _claimed_language(init_data: str, default: str) -> str:
    """Return the language an (unverified) init data claims, to word a refusal in it; ``default`` when none."""
    try:
        for key, value in parse_qsl(init_data, keep_blank_values=True):
            if key == "user":
                code = json.loads(value).get("language_code")
                return normalize_language(code if isinstance(code, str) else None) or default
    except (ValueError, AttributeError):
        pass
    return default


def verify_init_data(
    init_data: str | None, token: str, *, max_age: float, now: float | None = None, default_language: str = "en"
) -> WebAppIdentity:
    """Return the identity that Telegram's signed ``init_data`` vouches for, checked with the bot ``token``.

    ``max_age``: the oldest ``auth_date`` accepted, in seconds (``WEBAPP_AUTH_MAX_AGE``). Telegram signs the init
    data once, when the app is opened, and a Mini App may stay open for hours; a day (the default) lets a player
    keep a long match open, while a leaked init data string (a log, a shared screenshot of a URL) stops working
    after that. A date more than a minute in the future is refused too (a clock far ahead is not Telegram's).

    Raises: AuthError (MISSING, FORGED, STALE or NO_USER).
    """
    if not init_data:
        raise AuthError(AuthFailure.MISSING, default_language)
    lang = _claimed_language(init_data, default_language)
    if len(init_data) > MAX_INIT_DATA_LENGTH:
        raise AuthError(AuthFailure.FORGED, lang)
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except (ValueError, TypeError, KeyError):
        raise AuthError(AuthFailure.FORGED, lang) from None
    signed_at = data.auth_date.timestamp()
    current = time.time() if now is None else now
    if current - signed_at > max_age or signed_at - current > 60:
        raise AuthError(AuthFailure.STALE, lang)
    user = data.user
    if user is None:
        raise AuthError(AuthFailure.NO_USER, lang)
    name = " ".join(part for part in (user.first_name, user.last_name) if part) or (user.username or str(user.id))
    return WebAppIdentity(
        user_id=user.id,
        name=name,
        language=normalize_language(user.language_code) or default_language,
        start_param=data.start_param,
    )
