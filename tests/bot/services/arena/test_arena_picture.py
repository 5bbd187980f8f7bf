"""The arena's standings as a picture in the group (:mod:`bot.services.arena.pictures`, and
:class:`~bot.services.arena.messages.ArenaMessages` posting it): the words in the record's language, the caption, the
photo sent or edited in place, the result as a reply to the card, and the text table in the picture's place when
Telegram refuses the picture, the chat forbids media or the renderer fails."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any, cast

import pytest
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import EditMessageMedia, EditMessageText, SendMessage, SendPhoto, TelegramMethod
from aiogram.types import Chat, Message
from PIL import Image

from bot.model.arena import ArenaRecord
from bot.services.arena import messages as arena_messages
from bot.services.arena import pictures
from bot.services.arena.messages import ArenaMessages
from bot.services.messaging import Replies
from tests.bot.services.arena.test_arena_parts import _record as _ru_record


class Calls:
    """A stand-in for the replies and their sender: records every call, answers with a message, or raises
    ``fail`` for the calls of the kinds in ``failing``."""

    def __init__(self, fail: Exception | None = None, failing: tuple[type[Any], ...] = ()) -> None:
        self.calls: list[TelegramMethod[Any]] = []
        self.fail = fail
        self.failing = failing
        self.sender = self

    async def _answer(self, method: TelegramMethod[Any]) -> Any:
        self.calls.append(method)
        if self.fail is not None and isinstance(method, self.failing):
            raise self.fail
        return Message(message_id=70 + len(self.calls), date=0, chat=Chat(id=-5, type="supergroup"))

    async def send(self, method: TelegramMethod[Any]) -> Any:
        return await self._answer(method)

    async def edit(self, method: TelegramMethod[Any]) -> Any:
        return await self._answer(method)


def _record() -> ArenaRecord:
    """The arena of :mod:`test_arena_parts` (Ann, Ben and Cy, paused; three games counted, one running), in English."""
    return _ru_record().with_changes(lang="en")


def _messages(calls: Calls) -> ArenaMessages:
    return ArenaMessages(cast(Replies, calls))


def _refused(text: str) -> TelegramBadRequest:
    return TelegramBadRequest(method=cast(TelegramMethod[Any], None), message=text)


def _finished(record: ArenaRecord) -> ArenaRecord:
    return record.with_changes(status="finished", finished_at=1800.0, late=record.running, card_message_id=9)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_picture_is_a_phone_sized_jpeg_in_the_record_s_language(lang: str) -> None:
    record = _ru_record().with_changes(lang=lang)
    for final in (False, True):
        data = pictures.standings_picture(lang, record, 600.0, "dark", final=final)
        image = Image.open(io.BytesIO(data))
        assert image.format == "JPEG" and 400 <= image.width <= 860 and len(data) < 200 * 1024
    labels = pictures.arena_labels(lang, record, 600.0)
    if lang == "ru":
        assert (labels.score, labels.player, labels.berserk) == ("Очки", "Игрок", "берсерк")
    else:
        assert labels.time_left == "About 20 minutes left." and "3 players" in labels.finished


def test_the_caption_has_the_title_the_settings_and_at_the_end_the_podium() -> None:
    record = _record()
    live = pictures.standings_caption("en", record, 600.0)
    assert live.startswith("⚔️ Arena standings · about 20 minutes left") and "30 min" in live
    final = pictures.standings_caption("en", _finished(record), 1800.0, final=True)
    assert final.startswith("🏁 Arena result") and "🥇 Ann <b>" in final and "🥈 Ben" in final
    assert "3 games counted" in final and "does not count" in final


async def test_the_standings_are_a_photo_then_edited_in_place() -> None:
    calls = Calls()
    sent = await _messages(calls).show_standings("a1", _record(), 600.0)
    (photo,) = calls.calls
    assert isinstance(photo, SendPhoto) and sent == 71
    assert "Arena standings" in (photo.caption or "")
    calls.calls.clear()
    again = await _messages(calls).show_standings("a1", _record().with_changes(standings_message_id=sent), 900.0)
    (edit,) = calls.calls
    assert isinstance(edit, EditMessageMedia) and edit.message_id == sent and again == sent


async def test_the_result_is_a_photo_replying_to_the_card() -> None:
    calls = Calls()
    await _messages(calls).post_result("a1", _finished(_record()))
    (photo,) = calls.calls
    assert isinstance(photo, SendPhoto) and photo.reply_parameters is not None
    assert photo.reply_parameters.message_id == 9 and "Arena result" in (photo.caption or "")


@pytest.mark.parametrize(
    "error",
    ["Bad Request: not enough rights to send photos to the chat", "Bad Request: PHOTO_INVALID_DIMENSIONS"],
)
async def test_a_refused_picture_goes_out_as_the_text_table(error: str) -> None:
    calls = Calls(_refused(error), (SendPhoto, EditMessageMedia))
    sent = await _messages(calls).show_standings("a1", _record(), 600.0)
    assert [type(c) for c in calls.calls] == [SendPhoto, SendMessage] and sent == 72
    text = calls.calls[-1]
    assert isinstance(text, SendMessage) and "1. Ann" in text.text
    calls.calls.clear()
    await _messages(calls).show_standings("a1", _record().with_changes(standings_message_id=50), 900.0)
    assert [type(c) for c in calls.calls] == [EditMessageMedia, EditMessageText]
    calls.calls.clear()
    await _messages(calls).post_result("a1", _finished(_record()))
    assert [type(c) for c in calls.calls] == [SendPhoto, SendMessage]
    result = calls.calls[-1]
    assert isinstance(result, SendMessage) and result.reply_parameters is not None
    assert "Arena result" in result.text


async def test_another_failure_is_not_text_but_logged(caplog: pytest.LogCaptureFixture) -> None:
    calls = Calls(_refused("Bad Request: chat not found"), (SendPhoto,))
    assert await _messages(calls).show_standings("a1", _record(), 600.0) is None
    assert [type(c) for c in calls.calls] == [SendPhoto]


async def test_a_renderer_failure_sends_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("boom")

    monkeypatch.setattr(arena_messages.pictures, "standings_picture", broken)
    calls = Calls()
    assert await _messages(calls).show_standings("a1", _record(), 600.0) == 71
    assert [type(c) for c in calls.calls] == [SendMessage]


def test_forty_players_are_cut_and_counted() -> None:
    record = _record()
    players = tuple(replace(record.players[0], user_id=100 + i, name=f"Игрок {i} 🎲") for i in range(40))
    labels = pictures.arena_labels("en", record.with_changes(players=players), 600.0)
    assert labels.more == "… and 20 more"
    data = pictures.standings_picture("en", record.with_changes(players=(*record.players, *players)), 600.0)
    assert Image.open(io.BytesIO(data)).height < 1000
