"""FreshReads: callers that ask at once share one read, and never one that started before they asked."""

from __future__ import annotations

import asyncio

import pytest

from bot.services.fresh_reads import FreshReads


class Source:
    """A value that changes, read slowly: each read returns the value when it started, after ``gate`` opens."""

    def __init__(self) -> None:
        self.value = 0
        self.started: list[int] = []
        self.gate = asyncio.Event()

    async def read(self, key: str) -> tuple[str, int]:
        seen = self.value
        self.started.append(seen)
        await self.gate.wait()
        return key, seen


async def test_callers_at_once_share_one_read() -> None:
    source = Source()
    reads = FreshReads(source.read)
    callers = [asyncio.create_task(reads.read("g")) for _ in range(50)]
    await asyncio.sleep(0)
    source.gate.set()
    assert set(await asyncio.gather(*callers)) == {("g", 0)}
    assert source.started == [0]  # fifty callers, one read
    assert reads.under_way() == 0


async def test_a_caller_that_asks_during_a_read_gets_the_next_read_never_the_older_one() -> None:
    source = Source()
    reads = FreshReads(source.read)
    early = asyncio.create_task(reads.read("g"))
    await asyncio.sleep(0.01)
    assert source.started == [0]  # under way, seeing 0
    source.value = 1  # a save the read under way may not see
    late = [asyncio.create_task(reads.read("g")) for _ in range(10)]
    await asyncio.sleep(0.01)
    assert source.started == [0]  # the latecomers wait for the read under way to end
    source.gate.set()
    assert await early == ("g", 0)
    assert set(await asyncio.gather(*late)) == {("g", 1)}  # one more read, after the save
    assert source.started == [0, 1]
    assert reads.under_way() == 0


async def test_keys_are_read_apart_and_a_failure_reaches_every_caller_and_is_forgotten() -> None:
    calls: list[str] = []

    async def read(key: str) -> str:
        calls.append(key)
        await asyncio.sleep(0)
        if key == "bad":
            raise ValueError("no such game")
        return key.upper()

    reads = FreshReads(read)
    assert await asyncio.gather(reads.read("a"), reads.read("b"), reads.read("a")) == ["A", "B", "A"]
    assert sorted(calls) == ["a", "b"]
    failed = await asyncio.gather(reads.read("bad"), reads.read("bad"), return_exceptions=True)
    assert all(isinstance(error, ValueError) for error in failed) and calls.count("bad") == 1
    assert await reads.read("a") == "A" and calls.count("a") == 2  # a later call reads again
    assert reads.under_way() == 0


async def test_a_cancelled_caller_does_not_cancel_the_read_of_the_others() -> None:
    source = Source()
    reads = FreshReads(source.read)
    leaving = asyncio.create_task(reads.read("g"))
    staying = asyncio.create_task(reads.read("g"))
    await asyncio.sleep(0)
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    source.gate.set()
    assert await staying == ("g", 0)
