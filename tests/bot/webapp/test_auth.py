"""Trust: the Mini App's init data is accepted only signed with this bot's token, fresh, and with a user."""

from __future__ import annotations

import time

import pytest

from bot.webapp.auth import AuthError, AuthFailure, verify_init_data
from tests.bot.webapp.initdata import TOKEN, forged, signed_init_data

DAY = 86400.0


def test_signed_fresh_init_data_gives_the_user() -> None:
    who = verify_init_data(signed_init_data(7, "Alice", language="ru", start_param="g123"), TOKEN, max_age=DAY)
    assert (who.user_id, who.name, who.language, who.start_param) == (7, "Alice", "ru", "g123")


@pytest.mark.parametrize(
    ("init_data", "failure"),
    [
        (None, AuthFailure.MISSING),
        ("", AuthFailure.MISSING),
        (forged(signed_init_data(7, "Alice")), AuthFailure.FORGED),
        (signed_init_data(7, "Alice", token="43:OTHER"), AuthFailure.FORGED),
        ("user=%7B%7D&hash=00", AuthFailure.FORGED),
        ("garbage", AuthFailure.FORGED),
        ("x" * 9000, AuthFailure.FORGED),
        (signed_init_data(7, "Alice", auth_date=time.time() - DAY - 5), AuthFailure.STALE),
        (signed_init_data(7, "Alice", auth_date=time.time() + 3600), AuthFailure.STALE),
        (signed_init_data(None), AuthFailure.NO_USER),
    ],
)
def test_untrusted_init_data_is_refused(init_data: str | None, failure: AuthFailure) -> None:
    with pytest.raises(AuthError) as caught:
        verify_init_data(init_data, TOKEN, max_age=DAY)
    assert caught.value.failure is failure


def test_the_refusal_speaks_the_claimed_language() -> None:
    with pytest.raises(AuthError) as caught:
        verify_init_data(forged(signed_init_data(7, "Alice", language="ru")), TOKEN, max_age=DAY)
    assert caught.value.lang == "ru"
