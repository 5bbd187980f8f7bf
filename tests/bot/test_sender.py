"""The sender: per-chat pacing, group minute budget, 429 retries and coalescing of edits, on virtual time."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    SendMessage,
    TelegramMethod,
)
from aiogram.types import InputMediaPhoto
from virtual_time import VirtualClock

from bot.sender import Sender, SenderLimits, is_group


class RecordingBot:
    """Records each call with the virtual time it was made at; can block or fail calls on demand."""

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, TelegramMethod[Any]]] = []
        self.gate: asyncio.Event | None = None
        self.fail_with: list[Exception] = []

    async def __call__(self, method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        self.calls.append((self.clock(), method))
        if self.gate is not None:
            await self.gate.wait()
        if self.fail_with:
            raise self.fail_with.pop(0)
        return f"result-{len(self.calls)}"

    def texts(self, chat_id: int | None = None) -> list[str]:
        return [
            getattr(m, "text", None) or getattr(m, "caption", None) or type(m).__name__
            for _, m in self.calls
            if chat_id is None or getattr(m, "chat_id", None) == chat_id
        ]


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def bot(clock: VirtualClock) -> RecordingBot:
    return RecordingBot(clock)


@pytest.fixture
async def sender(bot: RecordingBot, clock: VirtualClock) -> Any:
    s = Sender(bot, SenderLimits(), clock=clock, sleep=clock.sleep)
    yield s
    await s.close()


def msg(chat_id: int, text: str) -> SendMessage:
    return SendMessage(chat_id=chat_id, text=text)


def test_is_group() -> None:
    assert is_group(-100123) and is_group("@channel") and not is_group(42)


async def test_private_chat_is_paced_one_per_second(sender: Sender, bot: RecordingBot) -> None:
    results = await asyncio.gather(*(sender.send(msg(7, f"m{i}")) for i in range(5)))
    assert results == [f"result-{i}" for i in range(1, 6)]
    assert bot.texts() == [f"m{i}" for i in range(5)]
    times = [t for t, _ in bot.calls]
    assert all(b - a >= 1.0 for a, b in pairwise(times))


async def test_group_chat_at_most_twenty_per_minute(sender: Sender, bot: RecordingBot) -> None:
    await asyncio.gather(*(sender.send(msg(-5, f"m{i}")) for i in range(45)))
    times = [t for t, _ in bot.calls]
    assert bot.texts() == [f"m{i}" for i in range(45)]
    assert all(b - a >= 1.0 for a, b in pairwise(times))
    for i, start in enumerate(times):
        assert sum(1 for t in times[i:] if t < start + 60.0) <= 20


async def test_chats_do_not_wait_for_each_other(sender: Sender, bot: RecordingBot) -> None:
    await asyncio.gather(*(sender.send(msg(1, f"a{i}")) for i in range(3)), sender.send(msg(2, "b")))
    # Chat 2's message goes out while chat 1 is still waiting for its budget.
    assert bot.texts() == ["a0", "b", "a1", "a2"]


async def test_global_budget(bot: RecordingBot, clock: VirtualClock) -> None:
    sender = Sender(bot, SenderLimits(global_per_second=3), clock=clock, sleep=clock.sleep)
    await asyncio.gather(*(sender.send(msg(chat, "x")) for chat in range(1, 8)))
    times = sorted(t for t, _ in bot.calls)
    for i, start in enumerate(times):
        assert sum(1 for t in times[i:] if t < start + 1.0) <= 3
    await sender.close()


async def test_retry_after_is_honoured(sender: Sender, bot: RecordingBot, clock: VirtualClock) -> None:
    method = msg(3, "hello")
    bot.fail_with = [TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=7)]
    assert await sender.send(method) == "result-2"
    assert len(bot.calls) == 2
    assert 7 in clock.sleeps
    assert bot.calls[1][0] - bot.calls[0][0] >= 7
    # The chat's next call also waits for the retry_after window.
    await sender.send(msg(3, "next"))
    assert bot.calls[2][0] - bot.calls[0][0] >= 7


async def test_retry_after_gives_up(bot: RecordingBot, clock: VirtualClock) -> None:
    sender = Sender(bot, SenderLimits(max_retries=2), clock=clock, sleep=clock.sleep)
    method = msg(3, "hello")
    bot.fail_with = [TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=1)] * 3
    with pytest.raises(TelegramRetryAfter):
        await sender.send(method)
    assert len(bot.calls) == 3
    await sender.close()


async def test_errors_reach_the_caller_and_the_queue_goes_on(sender: Sender, bot: RecordingBot) -> None:
    bad = msg(4, "bad")
    bot.fail_with = [TelegramBadRequest(method=bad, message="Bad Request: chat not found")]
    first = sender.submit(bad)
    second = sender.submit(msg(4, "good"))
    with pytest.raises(TelegramBadRequest):
        await first
    assert await second == "result-2"


def caption_edit(caption: str, message_id: int = 10, chat_id: int = 9) -> EditMessageCaption:
    return EditMessageCaption(chat_id=chat_id, message_id=message_id, caption=caption)


async def test_waiting_edits_of_one_message_are_coalesced(sender: Sender, bot: RecordingBot) -> None:
    bot.gate = asyncio.Event()
    in_flight = sender.submit(caption_edit("v0"))
    await asyncio.sleep(0)
    assert len(bot.calls) == 1  # v0 is being sent and cannot be replaced any more
    waiting = [sender.submit(caption_edit(f"v{i}")) for i in range(1, 6)]
    other_message = sender.submit(caption_edit("other", message_id=11))
    bot.gate.set()
    await asyncio.gather(in_flight, *waiting, other_message)
    assert bot.texts() == ["v0", "v5", "other"]
    assert {w.result() for w in waiting} == {"result-2"}
    assert sender.coalesced == 4


async def test_edit_does_not_swallow_a_different_kind_of_edit(sender: Sender, bot: RecordingBot) -> None:
    bot.gate = asyncio.Event()
    first = sender.submit(msg(9, "first"))
    await asyncio.sleep(0)
    media = EditMessageMedia(chat_id=9, message_id=10, media=InputMediaPhoto(media="file-1"))
    markup_only = EditMessageReplyMarkup(chat_id=9, message_id=10)
    later_media = EditMessageMedia(chat_id=9, message_id=10, media=InputMediaPhoto(media="file-2"))
    futures = [sender.submit(media), sender.submit(markup_only), sender.submit(later_media)]
    bot.gate.set()
    await asyncio.gather(first, *futures)
    kinds = [type(m).__name__ for _, m in bot.calls]
    # The markup-only edit cannot replace the waiting media edit, so it queues behind it; the later media edit
    # then replaces the most recent waiting edit of the message (the markup-only one).
    assert kinds == ["SendMessage", "EditMessageMedia", "EditMessageMedia"]
    sent_media = [m.media.media for _, m in bot.calls if isinstance(m, EditMessageMedia)]  # type: ignore[union-attr]
    assert sent_media == ["file-1", "file-2"]


async def test_edit_not_modified_returns_none(sender: Sender, bot: RecordingBot) -> None:
    edit = caption_edit("same")
    bot.fail_with = [TelegramBadRequest(method=edit, message="Bad Request: message is not modified")]
    assert await sender.edit(edit) is None


async def test_methods_without_chat_are_not_queued(sender: Sender, bot: RecordingBot) -> None:
    bot.gate = asyncio.Event()
    blocked = sender.submit(msg(1, "blocked"))
    await asyncio.sleep(0)
    answer = sender.submit(AnswerCallbackQuery(callback_query_id="1", text="hi"))
    await asyncio.sleep(0)
    assert [type(m).__name__ for _, m in bot.calls] == ["SendMessage", "AnswerCallbackQuery"]
    bot.gate.set()
    await asyncio.gather(blocked, answer)


async def test_drain_and_close(sender: Sender, bot: RecordingBot) -> None:
    for i in range(3):
        sender.submit(msg(1, f"m{i}"))
    assert sender.pending() >= 2
    await sender.drain()
    assert sender.pending() == 0 and len(bot.calls) == 3
    await sender.close()
    with pytest.raises(RuntimeError):
        sender.submit(msg(1, "late"))


async def test_idle_chats_are_forgotten(bot: RecordingBot, clock: VirtualClock) -> None:
    sender = Sender(bot, clock=clock, sleep=clock.sleep)
    await asyncio.gather(*(sender.send(msg(chat, "x")) for chat in range(1, 600)))
    assert sender.tracked_chats() == 599
    clock.now += 120
    await asyncio.gather(*(sender.send(msg(1000 + chat, "y")) for chat in range(401)))
    assert sender.tracked_chats() < 599 + 401
    await sender.close()
