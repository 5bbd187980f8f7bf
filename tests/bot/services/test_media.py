"""Pictures in chats that refuse them (:mod:`bot.services.media`): what Telegram's answers mean, and the memory of
the chats that forbid media — kept in their settings on both stores, shared by workers, kept over a restart — with
its one notice to the admins."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

import pytest
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import SendMediaGroup, SendMessage, SendPhoto
from aiogram.types import BufferedInputFile, InputMediaPhoto

from bot.model.settings import ChatSettings
from bot.sender import SendDropped, SendWithdrawn
from bot.services.media import (
    MEDIA_RETRY_AFTER,
    ChatMedia,
    MediaMode,
    MediaVerdict,
    media_mode,
    media_verdict,
    notice_key,
)
from bot.services.messaging import DirectSender
from bot.services.preferences import Preferences
from bot.storage import Store
from bot.storage.errors import StoreUnavailableError
from tests.bot.fake_telegram import FakeTelegram

GROUP = -1001
PHOTO = SendPhoto(chat_id=GROUP, photo=BufferedInputFile(b"jpeg", filename="board.jpg"))


def _bad_request(description: str) -> TelegramBadRequest:
    return TelegramBadRequest(method=PHOTO, message=description)


@pytest.mark.parametrize(
    ("error", "verdict"),
    [
        # the Bot API's own check of the chat's permissions (tdlib), and Telegram's MTProto codes passed through
        (_bad_request("Bad Request: not enough rights to send photos to the chat"), MediaVerdict.CHAT_FORBIDS),
        (_bad_request("Bad Request: not enough rights to send documents to the chat"), MediaVerdict.CHAT_FORBIDS),
        (_bad_request("Bad Request: CHAT_SEND_MEDIA_FORBIDDEN"), MediaVerdict.CHAT_FORBIDS),
        (_bad_request("Bad Request: CHAT_SEND_PHOTOS_FORBIDDEN"), MediaVerdict.CHAT_FORBIDS),
        (
            TelegramForbiddenError(method=PHOTO, message="Forbidden: CHAT_SEND_MEDIA_FORBIDDEN"),
            MediaVerdict.CHAT_FORBIDS,
        ),
        # this one picture
        (_bad_request("Bad Request: PHOTO_INVALID_DIMENSIONS"), MediaVerdict.PICTURE_REFUSED),
        (_bad_request("Bad Request: IMAGE_PROCESS_FAILED"), MediaVerdict.PICTURE_REFUSED),
        (_bad_request("Bad Request: PHOTO_INVALID"), MediaVerdict.PICTURE_REFUSED),
        (_bad_request("Bad Request: PHOTO_SAVE_FILE_INVALID"), MediaVerdict.PICTURE_REFUSED),
        (_bad_request("Bad Request: file is too big"), MediaVerdict.PICTURE_REFUSED),
        (_bad_request("Bad Request: wrong file identifier/HTTP URL specified"), MediaVerdict.PICTURE_REFUSED),
        (TelegramEntityTooLarge(method=PHOTO, message="Request Entity Too Large"), MediaVerdict.PICTURE_REFUSED),
        # retried as before
        (
            TelegramRetryAfter(method=PHOTO, message="Too Many Requests: retry after 5", retry_after=5),
            MediaVerdict.RETRYABLE,
        ),
        (TelegramServerError(method=PHOTO, message="Internal Server Error"), MediaVerdict.RETRYABLE),
        (
            TelegramNetworkError(method=PHOTO, message="HTTP Client says - ClientConnectionError"),
            MediaVerdict.RETRYABLE,
        ),
        (SendDropped(PHOTO, "the chat's queue is full"), MediaVerdict.RETRYABLE),
        (SendWithdrawn(PHOTO, "its guard refused it"), MediaVerdict.RETRYABLE),
        (RuntimeError("the sender is closed"), MediaVerdict.RETRYABLE),
        # nothing to do with pictures: handled as before
        (
            TelegramForbiddenError(method=PHOTO, message="Forbidden: bot was kicked from the supergroup chat"),
            MediaVerdict.OTHER,
        ),
        (_bad_request("Bad Request: not enough rights to send text messages to the chat"), MediaVerdict.OTHER),
        (_bad_request("Bad Request: chat not found"), MediaVerdict.OTHER),
        (_bad_request("Bad Request: message to edit not found"), MediaVerdict.OTHER),
        (_bad_request("Bad Request: message caption is too long"), MediaVerdict.OTHER),
        (ValueError("a bug"), MediaVerdict.OTHER),
    ],
)
def test_what_a_failed_picture_means(error: BaseException, verdict: MediaVerdict) -> None:
    assert media_verdict(error) is verdict


async def _failure_of(fake: FakeTelegram, method: Any) -> TelegramAPIError:
    bot = fake.make_bot()
    with pytest.raises(TelegramAPIError) as caught:
        await bot(method)
    return caught.value


async def test_the_refusal_of_a_group_without_media_rights_reads_as_the_chat_forbidding_media() -> None:
    fake = FakeTelegram()
    fake.group_chat(GROUP)
    fake.media_forbidden.add(GROUP)
    album = SendMediaGroup(
        chat_id=GROUP,
        media=[InputMediaPhoto(media=BufferedInputFile(b"jpeg", filename=f"{i}.jpg")) for i in range(2)],
    )
    for method in (PHOTO, album):
        error = await _failure_of(fake, method)
        assert isinstance(error, TelegramBadRequest)
        assert media_verdict(error) is MediaVerdict.CHAT_FORBIDS
    assert (await fake.make_bot()(SendMessage(chat_id=GROUP, text="text goes through"))).text == "text goes through"
    fake.fail_next("sendPhoto", description="Bad Request: PHOTO_INVALID_DIMENSIONS")
    fake.media_forbidden.clear()
    assert media_verdict(await _failure_of(fake, PHOTO)) is MediaVerdict.PICTURE_REFUSED


def test_the_mode_of_a_chat_follows_its_last_refusal() -> None:
    assert media_mode(ChatSettings(), 1e9) is MediaMode.PICTURES
    refused = ChatSettings(media_refused=1_000_000)
    assert media_mode(refused, 1_000_000) is MediaMode.TEXT
    assert media_mode(refused, 1_000_000 + MEDIA_RETRY_AFTER - 1) is MediaMode.TEXT
    assert media_mode(refused, 1_000_000 + MEDIA_RETRY_AFTER) is MediaMode.RETRY
    assert media_mode(refused, 1_000_000 + 60, retry_after=60) is MediaMode.RETRY


def test_notice_keys_are_negative_and_per_chat() -> None:
    keys = {notice_key(chat) for chat in (-1, -2, -100123, 5)}
    assert len(keys) == 4 and all(-(2**56) <= key < 0 for key in keys)


@pytest.fixture(params=["sqlite", "redis"])
def store(request: pytest.FixtureRequest) -> Store:
    """Both stores: the memory must hold on each."""
    value: Store = request.getfixturevalue(f"{request.param}_store")
    return value


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _notices(fake: FakeTelegram, chat_id: int = GROUP) -> list[str]:
    return [m.content for m in fake.messages(chat_id) if "may not send pictures" in m.content]


def _worker(store: Store, fake: FakeTelegram, clock: _Clock) -> ChatMedia:
    """One worker's (or one process lifetime's) memory on the shared store."""
    return ChatMedia(Preferences(store), store, DirectSender(fake.make_bot()), clock=clock)


async def test_a_chat_that_forbids_media_is_remembered_and_its_admins_told_once(store: Store) -> None:
    fake = FakeTelegram()
    fake.group_chat(GROUP)
    clock = _Clock(1_800_000_000.0)
    await store.set_chat_settings(GROUP, {"theme": "dark", "later": [1]})
    media = _worker(store, fake, clock)
    assert await media.mode(GROUP) is MediaMode.PICTURES

    await media.refused(GROUP, lang="en", thread=None)
    (notice,) = _notices(fake)
    assert "Send media → Photos" in notice and "make the bot an admin" in notice
    stored = await store.get_chat_settings(GROUP)
    assert stored == {"theme": "dark", "later": [1], "media_refused": 1_800_000_000}  # nothing else lost
    assert await media.mode(GROUP) is MediaMode.TEXT

    # later refusals (a retry that failed again) move the clock on and say nothing
    clock.now += MEDIA_RETRY_AFTER
    assert await media.mode(GROUP) is MediaMode.RETRY
    await media.refused(GROUP, lang="en")
    assert len(_notices(fake)) == 1
    assert (await store.get_chat_settings(GROUP))["media_refused"] == 1_800_000_000 + int(MEDIA_RETRY_AFTER)
    assert await media.mode(GROUP) is MediaMode.TEXT

    # another worker, or the bot after a restart, knows it and says nothing either
    restarted = _worker(store, fake, clock)
    assert await restarted.mode(GROUP) is MediaMode.TEXT
    await restarted.refused(GROUP, lang="ru")
    assert len(_notices(fake)) == 1

    # a picture tried again got through: the chat is forgotten; forbidding media again is told anew
    clock.now += MEDIA_RETRY_AFTER
    await restarted.accepted(GROUP)
    assert await media.mode(GROUP) is MediaMode.PICTURES
    assert await store.get_chat_settings(GROUP) == {"theme": "dark", "later": [1]}
    await media.accepted(GROUP)  # nothing recorded: nothing written
    await media.refused(GROUP, lang="ru", thread=None)
    russian = [m.content for m in fake.messages(GROUP) if "нельзя отправлять картинки" in m.content]
    assert len(russian) == 1 and "«Отправка медиа» → «Фото»" in russian[0]


async def test_workers_refused_at_once_tell_the_admins_once(store: Store) -> None:
    fake = FakeTelegram()
    fake.group_chat(GROUP)
    clock = _Clock(1_800_000_000.0)
    workers = [_worker(store, fake, clock) for _ in range(4)]
    await asyncio.gather(*(w.refused(GROUP, lang="en", thread=7) for w in workers))
    assert len(_notices(fake)) == 1
    assert fake.messages(GROUP)[0].thread_id == 7  # in the topic where the picture was refused
    assert all([await w.mode(GROUP) is MediaMode.TEXT for w in workers])


async def test_a_notice_that_could_not_be_posted_is_posted_with_the_next_refusal(store: Store) -> None:
    fake = FakeTelegram()
    fake.group_chat(GROUP)
    media = _worker(store, fake, _Clock(1_800_000_000.0))
    fake.fail_next("sendMessage", error_code=502, description="Bad Gateway")
    await media.refused(GROUP, lang="en")
    assert _notices(fake) == [] and await media.mode(GROUP) is MediaMode.TEXT
    await media.refused(GROUP, lang="en")
    await media.refused(GROUP, lang="en")
    assert len(_notices(fake)) == 1


async def test_an_admin_may_have_the_pictures_tried_at_once(store: Store) -> None:
    fake = FakeTelegram()
    fake.group_chat(GROUP)
    media = _worker(store, fake, _Clock(1_800_000_000.0))
    assert await media.forget(GROUP) is False
    await media.refused(GROUP, lang="en")
    assert await media.forget(GROUP) is True
    assert await media.mode(GROUP) is MediaMode.PICTURES
    await media.refused(GROUP, lang="en")  # forbidden again after all: told again
    assert len(_notices(fake)) == 2


async def test_a_stray_value_is_replaced_and_forgotten() -> None:
    settings: dict[str, Any] = {"media_refused": "yesterday", "variant": "long"}

    class Settings:
        async def get_chat_settings(self, chat_id: int) -> dict[str, Any]:
            return dict(settings)

        async def set_chat_settings(self, chat_id: int, value: Mapping[str, Any]) -> None:
            settings.clear()
            settings.update(value)

    preferences = Preferences(Settings())  # type: ignore[arg-type]
    assert (await preferences.chat(GROUP)).media_refused is None
    assert await preferences.forget_media_refused(GROUP) is False  # nothing was recorded …
    assert settings == {"variant": "long"}  # … but the stray value is gone
    assert await preferences.note_media_refused(GROUP, 5) is True
    assert await preferences.note_media_refused(GROUP, 9) is False
    assert settings == {"variant": "long", "media_refused": 9}


class _DownStore:
    """A store that cannot be reached."""

    async def get_chat_settings(self, chat_id: int) -> dict[str, Any]:
        raise StoreUnavailableError("connection refused")

    async def set_chat_settings(self, chat_id: int, settings: Mapping[str, Any]) -> None:
        raise StoreUnavailableError("connection refused")

    async def claim_update(self, update_id: int, *, lease: float) -> str:
        raise StoreUnavailableError("connection refused")

    async def finish_update(self, update_id: int, *, ttl: float) -> None:
        raise StoreUnavailableError("connection refused")

    async def release_update(self, update_id: int) -> None:
        raise StoreUnavailableError("connection refused")


async def test_a_store_outage_tries_pictures_and_says_so_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    fake = FakeTelegram()
    down = _DownStore()
    media = ChatMedia(Preferences(down), down, DirectSender(fake.make_bot()))  # type: ignore[arg-type]
    with caplog.at_level(logging.INFO, logger="bot.services.media"):
        assert await media.mode(GROUP) is MediaMode.PICTURES
        await media.refused(GROUP, lang="en")
        await media.accepted(GROUP)
    assert fake.calls == []  # no notice without the store's claim
    assert len(caplog.records) == 3 and all(r.exc_info is None for r in caplog.records)
    assert all("store unavailable" in r.getMessage() for r in caplog.records)
