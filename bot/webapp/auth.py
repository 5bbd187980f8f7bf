"""Trust: every request and socket of the Mini App carries Telegram's signed init data, checked here.

Telegram signs the Mini App's ``initData`` with a key derived from the bot token (HMAC-SHA256 of the data-check
string under ``HMAC-SHA256("WebAppData", token)``). :func:`verify_init_data` checks that signature as aiogram's
``check_webapp_signature`` does, but with the key computed once per token and only for data that looks like
Telegram's (a flood of garbage costs no HMAC); then it asks for a fresh ``auth_date`` and a user.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Final
from urllib.parse import parse_qsl

from bot.i18n import normalize_language

MAX_INIT_DATA_LENGTH: Final = 8192
"""Init data longer than this is refused without checking (Telegram's is well under 2 KB)."""
_HASH: Final = re.compile(r"[0-9a-f]{64}")
"""The ``hash`` of Telegram's init data: a hex HMAC-SHA256."""
_DATE: Final = re.compile(r"[0-9]{1,12}")
"""The ``auth_date`` of Telegram's init data: a Unix time in seconds."""


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


def _claimed_language(user: str | None, default: str) -> str:
    """Return the language an (unverified) ``user`` field claims, to word a refusal in it; ``default`` when none."""
    if user is None:
        return default
    try:
        code = json.loads(user).get("language_code")
    except (ValueError, AttributeError, RecursionError):  # not JSON, not an object, nested beyond reason
        return default
    return normalize_language(code if isinstance(code, str) else None) or default


@functools.lru_cache(maxsize=8)
def _secret_key(token: str) -> bytes:
    """Return the key Telegram signs the bot's init data with: HMAC-SHA256 of ``token`` under ``WebAppData``."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _signature(fields: dict[str, str], token: str) -> str | None:
    """Return the hex signature Telegram gives ``fields`` (the init data without its ``hash``): HMAC-SHA256 of their
    data-check string (``key=value`` lines in the order of the keys) under the bot's key; None when they cannot be
    signed (text that is not Unicode)."""
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    try:
        return hmac.new(_secret_key(token), check.encode(), hashlib.sha256).hexdigest()
    except UnicodeEncodeError:
        return None


def verify_init_data(
    init_data: str | None, token: str, *, max_age: float, now: float | None = None, default_language: str = "en"
) -> WebAppIdentity:
    """Return the identity that Telegram's signed ``init_data`` vouches for, checked with the bot ``token``.

    ``max_age``: the oldest ``auth_date`` accepted, in seconds (``WEBAPP_AUTH_MAX_AGE``). Telegram signs the init
    data once, when the app is opened, and a Mini App may stay open for hours; a day (the default) lets a player
    keep a long match open, while a leaked init data string (a log, a shared screenshot of a URL) stops working
    after that. A date more than a minute in the future is refused too (a clock far ahead is not Telegram's).

    The cheap checks come first: data too long, not a query string, or without a well-formed ``hash`` and
    ``auth_date`` is refused without computing a signature; only data that looks like Telegram's costs an HMAC,
    and only signed data is read further (its date, its user). What signed data says is kept (:func:`_signed`):
    the page sends the same init data with every request, so it is checked once, and only its age every time.

    Raises: AuthError (MISSING, FORGED, STALE or NO_USER).
    """
    if not init_data:
        raise AuthError(AuthFailure.MISSING, default_language)
    signed = _signed(init_data, token, default_language)
    current = time.time() if now is None else now
    if current - signed.at > max_age or signed.at - current > 60:
        raise AuthError(AuthFailure.STALE, signed.lang)
    if signed.identity is None:
        raise AuthError(AuthFailure.NO_USER, signed.lang)
    return signed.identity


@dataclass(frozen=True, slots=True)
class _SignedData:
    """What signed init data says: when Telegram signed it, the language it claims, and its user (None: none)."""

    at: int
    lang: str
    identity: WebAppIdentity | None


@functools.lru_cache(maxsize=1024)
def _signed(init_data: str, token: str, default_language: str) -> _SignedData:
    """Return what ``init_data`` says once its signature under ``token`` is checked (kept for the most recent
    init data strings checked: the result depends on nothing else, and a refusal is not kept).

    Raises: AuthError (FORGED: too long, not a query string, without a well-formed hash or date, a signature
    that does not verify, or a user that is not Telegram's shape).
    """
    if len(init_data) > MAX_INIT_DATA_LENGTH:
        raise AuthError(AuthFailure.FORGED, default_language)
    try:
        fields = dict(parse_qsl(init_data, strict_parsing=True))
    except ValueError:
        raise AuthError(AuthFailure.FORGED, default_language) from None
    lang = _claimed_language(fields.get("user"), default_language)
    received = fields.pop("hash", "")
    if not _HASH.fullmatch(received) or not _DATE.fullmatch(fields.get("auth_date", "")):
        raise AuthError(AuthFailure.FORGED, lang)
    expected = _signature(fields, token)
    if expected is None or not hmac.compare_digest(expected, received):
        raise AuthError(AuthFailure.FORGED, lang)
    identity = _identity(fields["user"], lang, fields.get("start_param")) if "user" in fields else None
    return _SignedData(at=int(fields["auth_date"]), lang=lang, identity=identity)


def _identity(user_json: str, lang: str, start_param: str | None) -> WebAppIdentity:
    """Return the identity of the signed ``user`` field (``lang``: the language it claims, ``start_param``: the
    link's), read as aiogram's ``WebAppUser`` reads it. Raises: AuthError (FORGED for a user that is not Telegram's
    shape)."""
    try:
        user = json.loads(user_json)
    except (ValueError, RecursionError):
        raise AuthError(AuthFailure.FORGED, lang) from None
    user_id = user.get("id") if isinstance(user, dict) else None
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        raise AuthError(AuthFailure.FORGED, lang)
    first, last, username = (_text(user, key) for key in ("first_name", "last_name", "username"))
    name = " ".join(part for part in (first, last) if part) or username or str(user_id)
    return WebAppIdentity(user_id=user_id, name=name, language=lang, start_param=start_param)


def _text(values: dict[str, object], key: str) -> str | None:
    """Return ``values[key]`` when it is a string, else None."""
    value = values.get(key)
    return value if isinstance(value, str) else None
