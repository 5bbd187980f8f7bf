"""``bot.outage.Outage``: one WARNING per outage (a traceback only for an unexpected error), DEBUG for the failures
after it, one INFO at recovery with how long it lasted, and a doubling backoff with a cap."""

from __future__ import annotations

import logging

import pytest
from redis.exceptions import BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.outage import NETWORK_ERRORS, Outage, describe

LOGGER = "tests.outage"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _outage(clock: FakeClock, first_delay: float = 0.25, max_delay: float = 2.0) -> Outage:
    return Outage(
        "job queue receiver",
        logging.getLogger(LOGGER),
        first_delay=first_delay,
        max_delay=max_delay,
        clock=clock,
        draw=lambda: 0.5,
    )


def _records(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, bool]]:
    return [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records if r.name == LOGGER]


def test_one_warning_per_outage_and_one_info_at_recovery(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    clock = FakeClock()
    outage = _outage(clock)
    assert not outage.succeeded()  # no outage: nothing to say
    outage.failed(RedisConnectionError("Connection refused"))
    clock.now += 1.0
    outage.failed(BusyLoadingError("Redis is loading the dataset in memory"))
    clock.now += 1.5
    outage.failed(RedisConnectionError("Connection refused"))
    assert outage.down and outage.failures == 3
    clock.now += 0.5
    assert outage.succeeded("finished jobs acknowledged late: 1")
    assert not outage.down and outage.backoff == 0.0
    assert not outage.succeeded()
    assert _records(caplog) == [
        (
            "WARNING",
            "job queue receiver: Redis is unavailable (ConnectionError: Connection refused); waiting for it, trying "
            "again at most every 2 s",
            False,
        ),
        (
            "DEBUG",
            "job queue receiver: Redis is still unavailable (BusyLoadingError: Redis is loading the dataset in memory)",
            False,
        ),
        ("DEBUG", "job queue receiver: Redis is still unavailable (ConnectionError: Connection refused)", False),
        (
            "INFO",
            "job queue receiver: Redis is back after 3.0 s (3 failed attempts); finished jobs acknowledged late: 1",
            False,
        ),
    ]


def test_a_new_outage_after_a_recovery_is_reported_again(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    clock = FakeClock()
    outage = Outage(
        "periodic work", logging.getLogger(LOGGER), needs="the store", meanwhile="due games wait", clock=clock
    )
    for _ in range(2):
        outage.failed(OSError("Network is unreachable"))
        clock.now += 0.3
        outage.succeeded()
    assert [level for level, _, _ in _records(caplog)] == ["WARNING", "INFO", "WARNING", "INFO"]
    assert _records(caplog)[0][1] == (
        "periodic work: the store is unavailable (OSError: Network is unreachable); due games wait; waiting for it, "
        "trying again at most every 2 s"
    )
    assert _records(caplog)[1][1] == "periodic work: the store is back after 0.3 s (1 failed attempt)"


def test_an_unexpected_error_is_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    outage = _outage(FakeClock())
    try:
        raise KeyError("b'data'")
    except KeyError as error:
        outage.failed(error, expected=False)
    [record] = [r for r in caplog.records if r.name == LOGGER]
    assert record.levelno == logging.WARNING and record.exc_info is not None
    assert record.getMessage() == (
        "job queue receiver: unexpected failure (KeyError: \"b'data'\"); trying again at most every 2 s"
    )


def test_the_backoff_doubles_up_to_its_cap_and_says_when_to_try_again() -> None:
    clock = FakeClock()
    outage = _outage(clock, first_delay=0.25, max_delay=2.0)
    delays = [outage.failed(RedisConnectionError()) for _ in range(6)]
    assert delays == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]
    assert not outage.retry_due()
    clock.now += 1.9
    assert not outage.retry_due()
    clock.now += 0.1
    assert outage.retry_due()
    outage.succeeded()
    assert outage.retry_due()


def test_the_jitter_stays_within_its_fraction_and_the_cap() -> None:
    low = Outage("p", logging.getLogger(LOGGER), jitter=0.2, draw=lambda: 0.0)
    high = Outage("p", logging.getLogger(LOGGER), jitter=0.2, draw=lambda: 0.999999)
    assert low.failed(OSError()) == pytest.approx(0.2)
    assert high.failed(OSError()) == pytest.approx(0.3, rel=1e-5)
    for _ in range(10):
        assert high.failed(OSError()) <= high.max_delay


def test_network_errors_and_their_description() -> None:
    assert isinstance(BusyLoadingError(), NETWORK_ERRORS)
    assert isinstance(ConnectionRefusedError(), NETWORK_ERRORS)
    assert not isinstance(ValueError(), NETWORK_ERRORS)
    assert describe(RedisConnectionError("refused")) == "ConnectionError: refused"
    assert describe(TimeoutError()) == "TimeoutError"
