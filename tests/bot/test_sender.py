"""The sender, on virtual time: per-chat pacing and minute budgets (retries counted), 429s that hold the whole
chat, retries of network errors and 5xx, coalescing of edits, board traffic before a bounded queue of chatter,
presses answered without waiting, and a shutdown that sends what it can before a deadline."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    SendMediaGroup,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import BufferedInputFile, InputMediaPhoto
from fake_telegram import FakeTelegram
from hypothesis import given, settings
from hypothesis import strategies as st
from virtual_time import VirtualClock

from bot.sender import Priority, SendDropped, Sender, SenderClosedError, SenderLimits, is_group


def max_in_any_minute(times: list[float]) -> int:
    """Return the most calls in any closed 60-second window [t, t + 60]."""
    ordered = sorted(times)
    return max((sum(1 for u in ordered[i:] if u <= t + 60.0) for i, t in enumerate(ordered)), default=0)


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


async def test_group_chat_at_most_nineteen_in_any_minute(sender: Sender, bot: RecordingBot) -> None:
    await asyncio.gather(*(sender.send(msg(-5, f"m{i}"), priority=Priority.BOARD) for i in range(45)))
    times = [t for t, _ in bot.calls]
    assert bot.texts() == [f"m{i}" for i in range(45)]
    assert all(b - a >= 1.0 for a, b in pairwise(times))
    # Regression: the old window let the 21st call through exactly 60 s after the 1st (21 in a closed minute).
    assert max_in_any_minute(times) == 19


async def test_an_album_counts_each_of_its_pictures_against_the_group_budget(sender: Sender, bot: RecordingBot) -> None:
    photo = BufferedInputFile(b"jpeg", filename="p.jpg")
    album = SendMediaGroup(chat_id=-5, media=[InputMediaPhoto(media=photo) for _ in range(5)])
    await asyncio.gather(
        sender.send(album, priority=Priority.BOARD),
        *(sender.send(msg(-5, f"m{i}"), priority=Priority.BOARD) for i in range(20)),
    )
    # Telegram counts each picture of an album as a message: 5 at the album's time, then one per message.
    times = [t for t, m in bot.calls for _ in range(len(m.media) if isinstance(m, SendMediaGroup) else 1)]
    assert len(times) == 25
    assert max_in_any_minute(times) == 19


async def test_private_chat_budget_per_minute(bot: RecordingBot, clock: VirtualClock) -> None:
    sender = Sender(bot, SenderLimits(private_interval=0.1, private_per_minute=30), clock=clock, sleep=clock.sleep)
    await asyncio.gather(*(sender.send(msg(8, f"m{i}"), priority=Priority.BOARD) for i in range(70)))
    assert len(bot.calls) == 70
    assert max_in_any_minute([t for t, _ in bot.calls]) == 30
    await sender.close()


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


# ---- budgets counted over every call that reaches the Bot API, retries included ---------------------------------


def server_error(method: TelegramMethod[Any]) -> TelegramServerError:
    return TelegramServerError(method=method, message="Bad Gateway")


def retry_after(method: TelegramMethod[Any], seconds: int) -> TelegramRetryAfter:
    return TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=seconds)


OPERATION = st.tuples(
    st.sampled_from(["message", "edit", "photo"]),
    st.sampled_from([None, None, None, "429", "502", "network"]),
    st.floats(min_value=0.0, max_value=5.0),
)


@settings(max_examples=60, deadline=None)
@given(operations=st.lists(OPERATION, min_size=1, max_size=60), chat_id=st.sampled_from([-5, 5]))
async def test_no_minute_ever_holds_more_than_the_budget(
    operations: list[tuple[str, str | None, float]], chat_id: int
) -> None:
    """Whatever is queued and however calls fail, no 60 s window holds more calls to the chat than its budget."""
    clock = VirtualClock()
    bot = RecordingBot(clock)
    limits = SenderLimits(private_interval=0.5, group_interval=0.5, max_retries=2, max_transient_retries=2)
    sender = Sender(bot, limits, clock=clock, sleep=clock.sleep)
    failures: dict[int, Exception] = {}

    async def flaky(method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        bot.calls.append((clock(), method))
        error = failures.pop(id(method), None)  # each chosen call fails once; its retry succeeds
        if error is not None:
            raise error
        return "ok"

    sender._bot = flaky
    futures = []
    for i, (kind, failure, pause) in enumerate(operations):
        method: TelegramMethod[Any]
        if kind == "message":
            method = msg(chat_id, f"m{i}")
        elif kind == "edit":
            method = caption_edit(f"v{i}", message_id=i % 3, chat_id=chat_id)
        else:
            method = SendPhoto(chat_id=chat_id, photo="file", caption=f"p{i}")
        if failure == "429":
            failures[id(method)] = retry_after(method, 3)
        elif failure == "502":
            failures[id(method)] = server_error(method)
        elif failure == "network":
            failures[id(method)] = TelegramNetworkError(method=method, message="Request timeout error")
        futures.append(sender.submit(method))
        await clock.sleep(pause)

    await asyncio.gather(*futures, return_exceptions=True)
    await sender.drain()
    budget = limits.group_per_minute if chat_id < 0 else limits.private_per_minute
    assert max_in_any_minute([t for t, _ in bot.calls]) <= budget
    assert not failures or sender.coalesced or sender.dropped  # each planned failure happened (unless replaced)
    await sender.close()


async def test_retries_count_against_the_group_budget(sender: Sender, bot: RecordingBot) -> None:
    """Regression: retries were not counted, so a chat with failing calls went over its budget."""

    async def fail_every_first(method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        bot.calls.append((bot.clock(), method))
        if sum(1 for _, m in bot.calls if m is method) == 1:
            raise server_error(method)
        return "ok"

    sender._bot = fail_every_first
    futures = [sender.submit(msg(-6, f"m{i}"), priority=Priority.BOARD) for i in range(19)]
    assert await asyncio.gather(*futures) == ["ok"] * 19
    assert len(bot.calls) == 38  # every call failed once with a 502 and succeeded on its retry
    assert max_in_any_minute([t for t, _ in bot.calls]) == 19


# ---- 429: the whole chat waits --------------------------------------------------------------------------------


async def test_a_429_makes_the_whole_chat_wait(sender: Sender, bot: RecordingBot) -> None:
    first = msg(-7, "first")
    bot.fail_with = [retry_after(first, 30)]
    futures = [sender.submit(first)] + [sender.submit(msg(-7, f"next{i}")) for i in range(3)]
    other_chat = sender.submit(msg(-8, "elsewhere"))
    await asyncio.gather(*futures, other_chat)
    refused_at = bot.calls[0][0]
    later = [t for t, m in bot.calls[1:] if getattr(m, "chat_id", None) == -7]
    assert len(later) == 4 and all(t >= refused_at + 30 for t in later)
    assert bot.texts(-7) == ["first", "first", "next0", "next1", "next2"]


# ---- network errors and 5xx are retried a bounded number of times ---------------------------------------------


async def test_a_502_is_retried(sender: Sender, bot: RecordingBot, clock: VirtualClock) -> None:
    edit = EditMessageMedia(chat_id=9, message_id=10, media=InputMediaPhoto(media="file-1"))
    bot.fail_with = [server_error(edit), TelegramNetworkError(method=edit, message="Request timeout error")]
    assert await sender.edit(edit) == "result-3"
    assert len(bot.calls) == 3 and sender.retried == 2
    assert bot.calls[1][0] - bot.calls[0][0] >= 1.0 and bot.calls[2][0] - bot.calls[1][0] >= 2.0


async def test_transient_errors_give_up_after_the_retries(bot: RecordingBot, clock: VirtualClock) -> None:
    sender = Sender(bot, SenderLimits(max_transient_retries=2), clock=clock, sleep=clock.sleep)
    method = msg(3, "hello")
    bot.fail_with = [server_error(method)] * 3
    with pytest.raises(TelegramServerError):
        await sender.send(method)
    assert len(bot.calls) == 3
    answer = AnswerCallbackQuery(callback_query_id="1")
    bot.fail_with = [server_error(answer)] * 3
    with pytest.raises(TelegramServerError):
        await sender.send(answer)
    assert len(bot.calls) == 6
    await sender.close()


async def test_other_errors_are_not_retried(sender: Sender, bot: RecordingBot) -> None:
    photo = SendPhoto(chat_id=3, photo="file")
    bot.fail_with = [TelegramEntityTooLarge(method=photo, message="Request Entity Too Large")]
    with pytest.raises(TelegramEntityTooLarge):
        await sender.send(photo)
    assert len(bot.calls) == 1 and sender.retried == 0


async def test_a_502_of_the_fake_bot_api_on_edit_message_media_is_retried() -> None:
    fake = FakeTelegram()
    real_bot = fake.make_bot()
    clock = VirtualClock()
    sender = Sender(real_bot, clock=clock, sleep=clock.sleep)
    photo = await sender.send(SendPhoto(chat_id=-20, photo=BufferedInputFile(b"board-1", "board.png")))
    fake.fail_next("editMessageMedia", error_code=502, description="Bad Gateway")
    edit = EditMessageMedia(
        chat_id=-20,
        message_id=photo.message_id,
        media=InputMediaPhoto(media=BufferedInputFile(b"board-2", "board.png")),
    )
    assert await sender.edit(edit) is not None
    assert [c.name for c in fake.calls] == ["sendPhoto", "editMessageMedia", "editMessageMedia"]
    assert fake.last_message(-20).photo == b"board-2"
    await sender.close()


# ---- priorities and the bounded chatter queue -------------------------------------------------------------------


async def test_board_traffic_goes_before_chatter(sender: Sender, bot: RecordingBot) -> None:
    bot.gate = asyncio.Event()
    first = sender.submit(msg(-9, "in flight"))
    await asyncio.sleep(0)
    chatter = [sender.submit(msg(-9, f"reply{i}")) for i in range(3)]
    board = sender.submit(caption_edit("board", chat_id=-9))
    photo = sender.submit(SendPhoto(chat_id=-9, photo="file", caption="new board"))
    explicit = sender.submit(msg(-9, "text board"), priority=Priority.BOARD)
    bot.gate.set()
    await asyncio.gather(first, *chatter, board, photo, explicit)
    assert bot.texts(-9) == ["in flight", "board", "new board", "text board", "reply0", "reply1", "reply2"]


async def test_a_flood_of_replies_never_delays_the_board(sender: Sender, bot: RecordingBot) -> None:
    """200 replies queued in a group (a /help flood): the board edit still goes out next, and only the newest 20
    replies wait; the older ones are dropped with SendDropped."""
    bot.gate = asyncio.Event()
    first = sender.submit(caption_edit("board v1", chat_id=-10))
    await asyncio.sleep(0)
    replies = [sender.submit(msg(-10, f"help{i}")) for i in range(200)]
    board = sender.submit(caption_edit("board v2", chat_id=-10))
    bot.gate.set()
    await first
    await board
    assert bot.texts(-10)[:2] == ["board v1", "board v2"]
    results = await asyncio.gather(*replies, return_exceptions=True)
    dropped = [i for i, r in enumerate(results) if isinstance(r, SendDropped)]
    assert dropped == list(range(180))
    assert bot.texts(-10)[2:] == [f"help{i}" for i in range(180, 200)]
    assert sender.dropped == 180


async def test_board_traffic_is_never_dropped(sender: Sender, bot: RecordingBot) -> None:
    futures = [sender.submit(caption_edit(f"b{i}", message_id=i, chat_id=-11)) for i in range(60)]
    futures += [sender.submit(SendPhoto(chat_id=-11, photo="f", caption=f"p{i}")) for i in range(30)]
    await asyncio.gather(*futures)
    assert len(bot.calls) == 90 and sender.dropped == 0


async def test_answer_callback_query_never_waits_for_a_chat(bot: RecordingBot, clock: VirtualClock) -> None:
    """While a group's queue is long and the chat waits out a 429, a press is still answered at once."""
    released = asyncio.Event()
    sleeps: list[float] = []

    async def held_sleep(seconds: float) -> None:  # the chat's wait lasts until the test releases it
        sleeps.append(seconds)
        await released.wait()
        clock.now += seconds

    sender = Sender(bot, clock=clock, sleep=held_sleep)
    first = caption_edit("first", 99, -12)
    bot.fail_with = [retry_after(first, 40)]
    queued = [sender.submit(first)] + [sender.submit(caption_edit(f"b{i}", i, -12)) for i in range(30)]
    while not sleeps:
        await asyncio.sleep(0)
    assert await sender.send(AnswerCallbackQuery(callback_query_id="7", text="ok")) == "result-2"
    assert [type(m).__name__ for _, m in bot.calls] == ["EditMessageCaption", "AnswerCallbackQuery"]
    assert sleeps == [40.0]  # the chat is still waiting
    released.set()
    await asyncio.gather(*queued)
    assert len(bot.calls) == 33
    await sender.close()


# ---- graceful shutdown ------------------------------------------------------------------------------------------


async def test_shutdown_sends_what_the_pacer_allows_before_the_deadline(
    sender: Sender, bot: RecordingBot, clock: VirtualClock
) -> None:
    board = [sender.submit(caption_edit(f"b{i}", message_id=i, chat_id=-13)) for i in range(20)]
    start = clock()
    dropped = await sender.shutdown(10.0)
    sent = [t for t, _ in bot.calls]
    assert all(t <= start + 10.0 for t in sent)
    assert len(sent) == 11  # one a second, from the start to the deadline
    assert dropped == 20 - 11 == sender.dropped
    results = await asyncio.gather(*board, return_exceptions=True)
    assert sum(isinstance(r, SendDropped) for r in results) == 9
    with pytest.raises(SenderClosedError):
        sender.submit(msg(13, "late"))
    with pytest.raises(RuntimeError):
        sender.submit(msg(13, "late"))


async def test_shutdown_sends_everything_when_there_is_time(sender: Sender, bot: RecordingBot) -> None:
    """Regression: close() at SIGTERM dropped 15 of 20 queued board edits; shutdown sends all 20."""
    board = [sender.submit(caption_edit(f"b{i}", message_id=i, chat_id=-14)) for i in range(20)]
    assert await sender.shutdown(120.0) == 0
    assert len(await asyncio.gather(*board)) == 20 and len(bot.calls) == 20


async def test_shutdown_does_not_retry_past_the_deadline(sender: Sender, bot: RecordingBot) -> None:
    first = msg(-15, "first")
    bot.fail_with = [retry_after(first, 30)]
    future = sender.submit(first)
    assert await sender.shutdown(10.0) == 1
    with pytest.raises(SendDropped):
        await future
    assert len(bot.calls) == 1


async def test_edits_of_an_inline_message_are_paced_like_a_group_and_coalesced(
    sender: Sender, bot: RecordingBot
) -> None:
    def edit(caption: str) -> EditMessageMedia:
        return EditMessageMedia(inline_message_id="im-1", media=InputMediaPhoto(media="file-1", caption=caption))

    first = [sender.edit(edit(f"e{i}")) for i in range(25)]
    await asyncio.gather(*first)
    times = [t for t, _ in bot.calls]
    assert max_in_any_minute(times) <= 19 and all(b - a >= 1.0 for a, b in pairwise(times))
    captions = [m.media.caption for _, m in bot.calls if isinstance(m, EditMessageMedia)]
    assert captions[-1] == "e24" and len(captions) < 25  # waiting edits of the message were coalesced


async def test_shutdown_sends_the_notices_of_the_calls_it_drops(
    sender: Sender, bot: RecordingBot, clock: VirtualClock
) -> None:
    """A busy group at shutdown: the board edits go first, the requested files behind them cannot be sent before
    the deadline; in their place the one notice they carry is sent first in the time kept for notices."""
    start = clock()
    board = [sender.submit(caption_edit(f"b{i}", message_id=i, chat_id=-17)) for i in range(20)]
    notice = msg(-17, "The bot is restarting: send /export again.")
    files = [sender.submit(msg(-17, f"file {i}"), notice=notice) for i in range(2)]
    other = sender.submit(msg(-17, "chatter"))
    dropped = await sender.shutdown(10.0)
    sent = [(t, m) for t, m in bot.calls]
    assert all(t <= start + 10.0 for t, _ in sent)
    assert [type(m).__name__ for _, m in sent[:8]] == ["EditMessageCaption"] * 8  # until the time kept for notices
    texts = [m.text for _, m in sent if isinstance(m, SendMessage)]
    assert texts == ["The bot is restarting: send /export again."]  # once, though two calls carried it
    assert sender.noticed == 1
    for future in [*files, other]:
        with pytest.raises(SendDropped):
            await future
    edits = [m for _, m in sent if isinstance(m, EditMessageCaption)]
    assert len(edits) == 10  # eight, the notice, then two more in the time left
    assert dropped == 20 - 10 + 2 + 1 == sender.dropped
    assert len(await asyncio.gather(*board, return_exceptions=True)) == 20
