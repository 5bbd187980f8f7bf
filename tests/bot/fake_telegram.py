"""A fake Telegram Bot API for end-to-end tests, at aiogram's HTTP-session level.

``FakeTelegram`` is an ``aiogram.client.session.base.BaseSession``: a real ``aiogram.Bot`` built on it calls
real aiogram methods, whose payloads are serialised exactly as the aiohttp session would send them (the same
``prepare_value``; files are read). It then plays the server: it records every call, keeps what each chat
shows (every message with its text or photo, caption and inline keyboard, edited in place), answers with
plausible results parsed by aiogram (``Message`` objects with increasing ids, ``True`` …), refuses edits of
missing messages and no-op edits like Telegram does, and can be told to fail the next call (e.g. 429).
Like Telegram it refuses a text or caption sent with ``parse_mode=HTML`` that is not valid Telegram HTML
(:func:`telegram_html_error`: supported tags only, balanced, only the four named entities and numeric ones, no
raw ``<``, ``>`` or ``&``), and one longer than Telegram's limits counted in UTF-16 units after parsing; every
such refusal is also kept in :data:`REJECTED`, which the bot tests' autouse fixture requires to stay empty.

It also builds incoming updates (messages and button presses from given users in given chats) and
``TelegramHarness`` feeds them through a real ``Dispatcher``.

Inline mode: :meth:`FakeTelegram.inline_query_update` builds an inline query, ``answerInlineQuery`` keeps the
answer (refusing more than 50 results, duplicate or long ids and callback data over 64 bytes),
:meth:`FakeTelegram.choose_inline_result` posts a chosen result in a chat as an inline message (kept in
:attr:`FakeTelegram.inline_messages` under its ``inline_message_id``), and
:meth:`FakeTelegram.inline_callback_update` presses its buttons (a query without ``message``). Edits of an inline
message behave like Telegram's: a new file cannot be uploaded (only a ``file_id`` the server knows), a text message
may become a photo but not the other way round. Chats in :attr:`FakeTelegram.unreachable` (users who never started
the bot) refuse every message with 403. Chats in :attr:`FakeTelegram.media_forbidden` (groups whose admins forbid
members, the bot included, to send media) refuse every picture and file the bot sends or edits in with Telegram's
400 "not enough rights to send photos to the chat" (documents: "… documents …"), and take text as usual.

Typical use::

    fake = FakeTelegram()
    bot = fake.make_bot()
    h = TelegramHarness(fake, bot, dispatcher)
    alice = fake.user(1, "Alice", "en")
    await h.send_text(alice, fake.private_chat(alice), "/start")
    board = fake.last_message(alice.id)
    await h.press_button(alice, board, "Language")
    assert fake.toasts_for(alice.id) == [...]
"""

from __future__ import annotations

import datetime
import html
import itertools
import json
import re
from collections.abc import AsyncGenerator, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.enums import ParseMode
from aiogram.methods import TelegramMethod
from aiogram.types import (
    CallbackQuery,
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQuery,
    InputFile,
    Message,
    MessageEntity,
    Update,
    User,
)

BOT_ID = 4242
BOT_USERNAME = "nardy_test_bot"
BOT_TOKEN = f"{BOT_ID}:TEST-token-for-the-fake-api"
EPOCH = 1_700_000_000

_TAG = re.compile(r"<[^>]+>")

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
"""Telegram's limits, in UTF-16 code units of the text after entity parsing."""

REJECTED: list[str] = []
"""Every text or caption this fake (any instance) refused as Telegram would (bad HTML, too long); the bot tests'
autouse fixture fails a test that leaves anything here, since the bot swallows some send errors."""

_HTML_TAG = re.compile(r"<(/?)([a-z][a-z0-9-]*)((?:\s+[a-z-]+(?:=\"[^\"<>]*\")?)*)\s*>")
_HTML_ATTR = re.compile(r'\s+([a-z-]+)(?:="([^"<>]*)")?')
_HTML_ENTITY = re.compile(r"&(lt|gt|amp|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});")
_ALLOWED_TAGS: dict[str, frozenset[str]] = {
    **{tag: frozenset() for tag in ("b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "tg-spoiler")},
    "span": frozenset({"class"}),
    "a": frozenset({"href"}),
    "tg-emoji": frozenset({"emoji-id"}),
    "code": frozenset({"class"}),
    "pre": frozenset(),
    "blockquote": frozenset({"expandable"}),
}


def telegram_html_error(text: str) -> str | None:
    """Return why Telegram's HTML parse mode would refuse ``text`` (strictly, after the Bot API documentation),
    or None when it parses: only the supported tags (b, strong, i, em, u, ins, s, strike, del,
    ``span class="tg-spoiler"``, tg-spoiler, ``a href``, ``tg-emoji emoji-id``, code, pre, blockquote) with
    their attributes, properly nested; only the entities ``&lt; &gt; &amp; &quot;`` and numeric ones; no other
    ``<``, ``>`` or ``&``."""
    stack: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "<":
            m = _HTML_TAG.match(text, i)
            if m is None:
                return f"unescaped '<' or malformed tag at {i}: {text[i : i + 20]!r}"
            closing, name, attrs = m.group(1), m.group(2), m.group(3)
            if name not in _ALLOWED_TAGS:
                return f"unsupported tag <{name}> at {i}"
            if closing:
                if attrs.strip():
                    return f"attributes on a closing tag </{name}> at {i}"
                if not stack or stack[-1] != name:
                    return f"unbalanced </{name}> at {i} (open: {stack})"
                stack.pop()
            else:
                found = dict(_HTML_ATTR.findall(attrs))
                if set(found) - _ALLOWED_TAGS[name]:
                    return f"unsupported attributes {sorted(found)} of <{name}> at {i}"
                if name == "span" and found.get("class") != "tg-spoiler":
                    return f'<span> without class="tg-spoiler" at {i}'
                if name == "a" and not found.get("href"):
                    return f"<a> without href at {i}"
                if name == "tg-emoji" and not found.get("emoji-id", "").isdigit():
                    return f"<tg-emoji> without a numeric emoji-id at {i}"
                if stack and stack[-1] in ("pre", "code") and not (stack[-1] == "pre" and name == "code"):
                    return f"<{name}> inside <{stack[-1]}> at {i}"
                stack.append(name)
            i = m.end()
        elif char == "&":
            m = _HTML_ENTITY.match(text, i)
            if m is None:
                return f"unescaped '&' or unsupported entity at {i}: {text[i : i + 12]!r}"
            number = m.group(1)
            if number.startswith("#"):
                value = int(number[2:], 16) if number.startswith("#x") else int(number[1:])
                if not 0 < value <= 0x10FFFF or 0xD800 <= value <= 0xDFFF:
                    return f"invalid character reference {m.group(0)} at {i}"
            i = m.end()
        elif char == ">":
            return f"unescaped '>' at {i}"
        else:
            i += 1
    if stack:
        return f"unclosed tags {stack}"
    return None


def telegram_visible_text(text: str) -> str:
    """Return what Telegram shows of the HTML ``text``: tags removed, entities decoded."""
    return html.unescape(_TAG.sub("", text))


def utf16_length(text: str) -> int:
    """Return the length of ``text`` in UTF-16 code units (how Telegram counts)."""
    return len(text.encode("utf-16-le")) // 2


def check_formatted(text: str | None, parse_mode: str | None, limit: int) -> str | None:
    """Return Telegram's refusal of a text or caption sent with ``parse_mode`` (bad HTML, or longer than
    ``limit`` UTF-16 units once parsed), or None when Telegram would take it."""
    if text is None:
        return None
    shown = text
    if parse_mode == "HTML":
        error = telegram_html_error(text)
        if error is not None:
            return f"Bad Request: can't parse entities: {error}"
        shown = telegram_visible_text(text)
    if utf16_length(shown) > limit:
        kind = "message caption is too long" if limit == MAX_CAPTION_LENGTH else "message is too long"
        return f"Bad Request: {kind}"
    return None


class FakeTelegramError(AssertionError):
    """The code under test called a Bot API method the fake does not implement."""


@dataclass
class Call:
    """One Bot API call as the fake server received it."""

    name: str
    """The API method name, e.g. ``sendPhoto``."""
    method: TelegramMethod[Any]
    """The aiogram method object (typed access to every field)."""
    payload: dict[str, Any]
    """The wire payload (strings; nested objects as JSON text; files as ``attach://<key>``)."""
    files: dict[str, bytes]
    """Uploaded files by attach key."""
    result: Any = None
    """The raw JSON result returned (or None when the call was made to fail)."""

    def json(self, key: str) -> Any:
        """Return a payload field decoded from JSON (e.g. ``reply_markup``), or None when absent."""
        value = self.payload.get(key)
        return None if value is None else json.loads(value)


@dataclass
class Toast:
    """An ``answerCallbackQuery`` as the pressing user sees it."""

    user_id: int | None
    text: str | None
    show_alert: bool


@dataclass
class ShownMessage:
    """A message as it currently appears in a chat."""

    chat_id: int
    message_id: int
    from_user_id: int
    text: str | None = None
    caption: str | None = None
    photo: bytes | None = None
    photo_file_id: str | None = None
    document: bytes | None = None
    document_name: str | None = None
    thread_id: int | None = None
    """The forum topic the message is in (None: the chat's general thread)."""
    reply_markup: InlineKeyboardMarkup | None = None
    reply_to: int | None = None
    inline_message_id: str | None = None
    """The id of an inline message (posted by a user through the bot's inline mode), else None."""
    edits: int = 0
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    """Earlier states (text, caption, photo_file_id, buttons) before each edit."""

    @property
    def from_bot(self) -> bool:
        """Return True when the bot sent this message."""
        return self.from_user_id == BOT_ID

    @property
    def content(self) -> str:
        """Return the text or caption, HTML tags removed and entities unescaped."""
        return html.unescape(_TAG.sub("", self.text or self.caption or ""))

    def buttons(self) -> list[list[InlineKeyboardButton]]:
        """Return the inline keyboard rows (empty when there is none)."""
        return [list(row) for row in self.reply_markup.inline_keyboard] if self.reply_markup else []

    def button_texts(self) -> list[str]:
        """Return every button's text, row by row."""
        return [b.text for row in self.buttons() for b in row]

    def button(self, text_part: str) -> InlineKeyboardButton:
        """Return the only button whose text contains ``text_part``. Raises: AssertionError otherwise."""
        found = [b for row in self.buttons() for b in row if text_part in b.text]
        assert len(found) == 1, f"{len(found)} buttons match {text_part!r} in {self.button_texts()}"
        return found[0]

    def snapshot(self) -> dict[str, Any]:
        """Return the visible state as a plain dict."""
        return {
            "text": self.text,
            "caption": self.caption,
            "photo_file_id": self.photo_file_id,
            "buttons": self.button_texts(),
        }


def _chat_type(chat_id: int) -> str:
    return "private" if chat_id > 0 else "supergroup"


class FakeTelegram(BaseSession):
    """An in-memory Bot API server behind aiogram's session interface. See the module docstring."""

    def __init__(self) -> None:
        """Start with no chats, calls or users."""
        super().__init__()
        self.calls: list[Call] = []
        self.chats: dict[int, dict[int, ShownMessage]] = {}
        self.chat_objects: dict[int, Chat] = {}
        self.users: dict[int, User] = {}
        self.toasts: list[Toast] = []
        self.admins: dict[int, set[int]] = {}
        self.outsiders: dict[int, set[int]] = {}
        """Chat id → the users ``getChatMember`` says have left it (everyone else is a member)."""
        self.file_store: dict[str, bytes] = {}
        self._failures: list[tuple[str, int, str, int | None]] = []
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._query_users: dict[str, int] = {}
        self.inline_messages: dict[str, ShownMessage] = {}
        self.inline_answers: dict[str, list[dict[str, Any]]] = {}
        self.unreachable: set[int] = set()
        self.media_forbidden: set[int] = set()
        self._inline_ids = itertools.count(1)
        self.closed = False

    # ---- making bots -------------------------------------------------------------------------------------
    def make_bot(self, token: str = BOT_TOKEN) -> Bot:
        """Return a real ``aiogram.Bot`` talking to this fake (HTML parse mode by default, like the app)."""
        return Bot(token=token, session=self, default=DefaultBotProperties(parse_mode=ParseMode.HTML))

    @property
    def bot_user(self) -> User:
        """Return the bot's own user."""
        return User(id=BOT_ID, is_bot=True, first_name="Nardy", username=BOT_USERNAME)

    # ---- error injection ---------------------------------------------------------------------------------
    def fail_next(
        self,
        method_name: str,
        *,
        error_code: int = 400,
        description: str = "Bad Request",
        retry_after: int | None = None,
    ) -> None:
        """Make the next call of ``method_name`` (e.g. ``"sendMessage"``) fail with this error (429 needs
        ``retry_after``). Failures queue up and are used in order."""
        self._failures.append((method_name, error_code, description, retry_after))

    # ---- BaseSession -------------------------------------------------------------------------------------
    async def close(self) -> None:
        """Mark the session closed (it keeps working for later bots)."""
        self.closed = True

    async def stream_content(
        self,
        url: str,
        headers: dict[str, Any] | None = None,
        timeout: int = 30,
        chunk_size: int = 65536,
        raise_for_status: bool = True,
    ) -> AsyncGenerator[bytes, None]:
        """Yield the bytes of a stored file whose id ends the URL."""
        yield self.file_store.get(url.rsplit("/", 1)[-1], b"")

    async def make_request(self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None) -> Any:
        """Serialise ``method`` like the real session, play the server, and return the parsed result.

        Raises: the aiogram ``TelegramAPIError`` matching an injected or simulated failure.
        """
        files: dict[str, InputFile] = {}
        payload: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files)
            if prepared:
                payload[key] = prepared
        raw_files: dict[str, bytes] = {}
        for key, input_file in files.items():
            raw_files[key] = b"".join([chunk async for chunk in input_file.read(bot)])
        name = method.__api_method__
        call = Call(name=name, method=method, payload=payload, files=raw_files)
        self.calls.append(call)

        for i, (fail_name, code, description, retry_after) in enumerate(self._failures):
            if fail_name == name:
                del self._failures[i]
                return self._error(bot, method, code, description, retry_after)
        target = payload.get("chat_id")
        if name.startswith("send") and target is not None and int(target) in self.unreachable:
            return self._error(bot, method, 403, "Forbidden: bot can't initiate conversation with a user", None)
        refused = self._refuse_media(name, target)
        if refused is not None:
            return self._error(bot, method, refused.code, refused.description, None)
        handler = getattr(self, f"_api_{name}", None)
        if handler is None:
            raise FakeTelegramError(f"the fake Bot API does not implement {name}")
        outcome = handler(call)
        if isinstance(outcome, _Failure):
            return self._error(bot, method, outcome.code, outcome.description, None)
        call.result = outcome
        response = self.check_response(
            bot=bot, method=method, status_code=200, content=json.dumps({"ok": True, "result": outcome})
        )
        return response.result

    def _error(
        self, bot: Bot, method: TelegramMethod[Any], code: int, description: str, retry_after: int | None
    ) -> Any:
        body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
        if retry_after is not None:
            body["parameters"] = {"retry_after": retry_after}
        self.check_response(bot=bot, method=method, status_code=code, content=json.dumps(body))
        raise AssertionError("check_response should have raised")  # pragma: no cover

    def _refuse_media(self, name: str, target: Any) -> _Failure | None:
        """Refuse a picture or a file sent to (or edited in) a chat of :attr:`media_forbidden` as the Bot API does
        (its wording: tdlib's "Not enough rights to send photos to the chat" behind "Bad Request: ")."""
        if target is None or int(target) not in self.media_forbidden:
            return None
        if name in ("sendPhoto", "sendMediaGroup", "editMessageMedia"):
            return _Failure(400, "Bad Request: not enough rights to send photos to the chat")
        if name == "sendDocument":
            return _Failure(400, "Bad Request: not enough rights to send documents to the chat")
        return None

    # ---- server state helpers ----------------------------------------------------------------------------
    def _next_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def _chat_json(self, chat_id: int) -> dict[str, Any]:
        chat = self.chat_objects.get(chat_id)
        if chat is not None:
            return chat.model_dump(mode="json", exclude_none=True)
        return {"id": chat_id, "type": _chat_type(chat_id)}

    def _message_json(self, shown: ShownMessage) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": shown.message_id,
            "date": EPOCH + shown.message_id,
            "chat": self._chat_json(shown.chat_id),
            "from": self.bot_user.model_dump(mode="json", exclude_none=True),
        }
        if shown.edits:
            data["edit_date"] = EPOCH + 10_000 + shown.edits
        if shown.text is not None:
            data["text"] = html.unescape(_TAG.sub("", shown.text))
        if shown.caption is not None:
            data["caption"] = html.unescape(_TAG.sub("", shown.caption))
        if shown.photo_file_id is not None:
            data["photo"] = [
                {
                    "file_id": shown.photo_file_id,
                    "file_unique_id": "u" + shown.photo_file_id,
                    "width": 1280,
                    "height": 960,
                }
            ]
        if shown.thread_id is not None:
            data["message_thread_id"] = shown.thread_id
            data["is_topic_message"] = True
        if shown.document is not None:
            name = shown.document_name or "file"
            data["document"] = {"file_id": f"doc-{shown.message_id}", "file_unique_id": "ud", "file_name": name}
        if shown.reply_markup is not None:
            data["reply_markup"] = shown.reply_markup.model_dump(mode="json", exclude_none=True)
        return data

    def _photo(self, call: Call, value: str | None) -> tuple[bytes | None, str | None]:
        if value is None:
            return None, None
        if value.startswith("attach://"):
            data = call.files[value.removeprefix("attach://")]
            file_id = f"photo-{next(self._file_ids)}"
            self.file_store[file_id] = data
            return data, file_id
        return self.file_store.get(value), value

    @staticmethod
    def _markup(call: Call) -> InlineKeyboardMarkup | None:
        raw = call.json("reply_markup")
        if not raw or "inline_keyboard" not in raw:
            return None
        return InlineKeyboardMarkup.model_validate(raw)

    def _new_message(self, call: Call, **fields: Any) -> dict[str, Any]:
        chat_id = int(call.payload["chat_id"])
        reply = call.json("reply_parameters")
        thread = call.payload.get("message_thread_id")
        shown = ShownMessage(
            chat_id=chat_id,
            message_id=self._next_message_id(chat_id),
            from_user_id=BOT_ID,
            thread_id=int(thread) if thread is not None else None,
            reply_markup=self._markup(call),
            reply_to=reply.get("message_id") if reply else None,
            **fields,
        )
        self.chats.setdefault(chat_id, {})[shown.message_id] = shown
        return self._message_json(shown)

    def _target(self, call: Call) -> ShownMessage | _Failure:
        inline = call.payload.get("inline_message_id")
        if inline is not None:
            found = self.inline_messages.get(str(inline))
            return found if found is not None else _Failure(400, "Bad Request: MESSAGE_ID_INVALID")
        chat_id = int(call.payload["chat_id"])
        message_id = int(call.payload["message_id"])
        shown = self.chats.get(chat_id, {}).get(message_id)
        if shown is None or shown.deleted:
            return _Failure(400, "Bad Request: message to edit not found")
        if not shown.from_bot:
            return _Failure(400, "Bad Request: message can't be edited")
        return shown

    def _apply_edit(self, shown: ShownMessage, **changes: Any) -> dict[str, Any] | _Failure:
        before = shown.snapshot()
        current = {key: getattr(shown, key) for key in changes}
        if current == changes:
            return _Failure(
                400,
                "Bad Request: message is not modified: specified new message content and reply markup are exactly"
                " the same as a current content and reply markup of the message",
            )
        shown.history.append(before)
        for key, value in changes.items():
            setattr(shown, key, value)
        shown.edits += 1
        if shown.inline_message_id is not None:
            return True  # Telegram returns True, not the message, for an inline message
        return self._message_json(shown)

    # ---- API methods -------------------------------------------------------------------------------------
    def _api_getMe(self, call: Call) -> Any:  # noqa: N802
        return self.bot_user.model_dump(mode="json", exclude_none=True)

    def _refuse_formatting(self, call: Call, key: str, limit: int) -> _Failure | None:
        """Refuse (and remember in :data:`REJECTED`) a text or caption Telegram would not take."""
        source = call.payload
        if key == "media":
            source = call.json("media") or {}
            key = "caption"
        problem = check_formatted(source.get(key), source.get("parse_mode"), limit)
        if problem is None:
            return None
        REJECTED.append(f"{call.name}: {problem}: {source.get(key)!r}")
        return _Failure(400, problem)

    def _api_sendMessage(self, call: Call) -> Any:  # noqa: N802
        refused = self._refuse_formatting(call, "text", MAX_TEXT_LENGTH)
        if refused is not None:
            return refused
        return self._new_message(call, text=call.payload["text"])

    def _api_sendPhoto(self, call: Call) -> Any:  # noqa: N802
        refused = self._refuse_formatting(call, "caption", MAX_CAPTION_LENGTH)
        if refused is not None:
            return refused
        data, file_id = self._photo(call, call.payload.get("photo"))
        return self._new_message(call, photo=data, photo_file_id=file_id, caption=call.payload.get("caption"))

    def _api_sendMediaGroup(self, call: Call) -> Any:  # noqa: N802
        items = call.json("media") or []
        if not 2 <= len(items) <= 10:
            return _Failure(400, "Bad Request: a media group must hold 2 to 10 items")
        sent = []
        for item in items:
            problem = check_formatted(item.get("caption"), item.get("parse_mode"), MAX_CAPTION_LENGTH)
            if problem is not None:
                REJECTED.append(f"{call.name}: {problem}: {item.get('caption')!r}")
                return _Failure(400, problem)
            data, file_id = self._photo(call, item.get("media"))
            sent.append(self._new_message(call, photo=data, photo_file_id=file_id, caption=item.get("caption")))
        return sent

    def _api_sendDocument(self, call: Call) -> Any:  # noqa: N802
        refused = self._refuse_formatting(call, "caption", MAX_CAPTION_LENGTH)
        if refused is not None:
            return refused
        value = str(call.payload.get("document", ""))
        if not value.startswith("attach://"):
            return _Failure(400, "Bad Request: the fake takes uploaded documents only")
        method = call.method
        name = getattr(getattr(method, "document", None), "filename", None)
        data = call.files[value.removeprefix("attach://")]
        return self._new_message(call, document=data, document_name=name, caption=call.payload.get("caption"))

    def _api_editMessageText(self, call: Call) -> Any:  # noqa: N802
        refused = self._refuse_formatting(call, "text", MAX_TEXT_LENGTH)
        if refused is not None:
            return refused
        shown = self._target(call)
        if not isinstance(shown, _Failure) and shown.text is None:
            return _Failure(400, "Bad Request: there is no text in the message to edit")
        if isinstance(shown, _Failure):
            return shown
        return self._apply_edit(shown, text=call.payload["text"], reply_markup=self._markup(call))

    def _api_editMessageCaption(self, call: Call) -> Any:  # noqa: N802
        refused = self._refuse_formatting(call, "caption", MAX_CAPTION_LENGTH)
        if refused is not None:
            return refused
        shown = self._target(call)
        if isinstance(shown, _Failure):
            return shown
        return self._apply_edit(shown, caption=call.payload.get("caption"), reply_markup=self._markup(call))

    def _api_editMessageReplyMarkup(self, call: Call) -> Any:  # noqa: N802
        shown = self._target(call)
        if isinstance(shown, _Failure):
            return shown
        return self._apply_edit(shown, reply_markup=self._markup(call))

    def _api_editMessageMedia(self, call: Call) -> Any:  # noqa: N802
        refused = self._refuse_formatting(call, "media", MAX_CAPTION_LENGTH)
        if refused is not None:
            return refused
        shown = self._target(call)
        if isinstance(shown, _Failure):
            return shown
        media = call.json("media")
        if not media or media.get("type") != "photo":
            return _Failure(400, "Bad Request: the fake supports photo media only")
        value = str(media.get("media", ""))
        if shown.inline_message_id is not None and (value.startswith("attach://") or value not in self.file_store):
            return _Failure(400, "Bad Request: a new file can't be uploaded when editing an inline message")
        data, file_id = self._photo(call, value)
        return self._apply_edit(
            shown,
            text=None,
            photo=data,
            photo_file_id=file_id,
            caption=media.get("caption"),
            reply_markup=self._markup(call),
        )

    def _api_deleteMessage(self, call: Call) -> Any:  # noqa: N802
        shown = self.chats.get(int(call.payload["chat_id"]), {}).get(int(call.payload["message_id"]))
        if shown is None or shown.deleted:
            return _Failure(400, "Bad Request: message to delete not found")
        shown.deleted = True
        return True

    def _api_answerCallbackQuery(self, call: Call) -> Any:  # noqa: N802
        query_id = call.payload["callback_query_id"]
        self.toasts.append(
            Toast(
                user_id=self._query_users.get(query_id),
                text=call.payload.get("text"),
                show_alert=call.payload.get("show_alert") in (True, "true", "True"),
            )
        )
        return True

    def _api_getChatMember(self, call: Call) -> Any:  # noqa: N802
        chat_id, user_id = int(call.payload["chat_id"]), int(call.payload["user_id"])
        user = self.users.get(user_id, User(id=user_id, is_bot=False, first_name=f"user{user_id}"))
        user_json = user.model_dump(mode="json", exclude_none=True)
        if user_id in self.outsiders.get(chat_id, set()):
            return {"status": "left", "user": user_json}
        if user_id in self.admins.get(chat_id, set()):
            return {
                "status": "administrator",
                "user": user_json,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
                "can_send_welcome_messages": False,
            }
        return {"status": "member", "user": user_json}

    def _api_answerInlineQuery(self, call: Call) -> Any:  # noqa: N802
        results = call.json("results") or []
        if len(results) > 50:
            return _Failure(400, "Bad Request: RESULTS_TOO_MUCH")
        ids = [str(r.get("id", "")) for r in results]
        if len(set(ids)) != len(ids) or any(not 1 <= len(i.encode()) <= 64 for i in ids):
            return _Failure(400, "Bad Request: RESULT_ID_INVALID")
        for result in results:
            for row in (result.get("reply_markup") or {}).get("inline_keyboard", []):
                for button in row:
                    if len(str(button.get("callback_data", "")).encode()) > 64:
                        return _Failure(400, "Bad Request: BUTTON_DATA_INVALID")
        self.inline_answers[str(call.payload["inline_query_id"])] = results
        return True

    def _ok(self, call: Call) -> Any:
        return True

    _api_setMyCommands = _ok  # noqa: N815
    _api_deleteMyCommands = _ok  # noqa: N815
    _api_deleteWebhook = _ok  # noqa: N815
    _api_sendChatAction = _ok  # noqa: N815
    _api_close = _ok

    def _api_getUpdates(self, call: Call) -> Any:  # noqa: N802
        return []

    # ---- views for assertions ----------------------------------------------------------------------------
    def messages(self, chat_id: int, *, from_bot: bool | None = True) -> list[ShownMessage]:
        """Return the chat's undeleted messages in order (only the bot's by default; None = everyone's)."""
        return [
            m
            for m in self.chats.get(chat_id, {}).values()
            if not m.deleted and (from_bot is None or m.from_bot == from_bot)
        ]

    def last_message(self, chat_id: int) -> ShownMessage:
        """Return the bot's most recent undeleted message in the chat. Raises: AssertionError when none."""
        shown = self.messages(chat_id)
        assert shown, f"the bot sent nothing to chat {chat_id}"
        return shown[-1]

    def calls_named(self, *names: str) -> list[Call]:
        """Return the recorded calls of these API methods, in order."""
        return [c for c in self.calls if c.name in names]

    def toasts_for(self, user_id: int) -> list[str | None]:
        """Return the texts of the toasts shown to this user, in order."""
        return [t.text for t in self.toasts if t.user_id == user_id]

    # ---- incoming updates --------------------------------------------------------------------------------
    def user(
        self, user_id: int, first_name: str, language_code: str | None = "ru", username: str | None = None
    ) -> User:
        """Return (and remember) a human user."""
        user = User(id=user_id, is_bot=False, first_name=first_name, language_code=language_code, username=username)
        self.users[user_id] = user
        return user

    def private_chat(self, user: User) -> Chat:
        """Return the private chat of ``user`` with the bot (its id is the user's id)."""
        chat = Chat(id=user.id, type="private", first_name=user.first_name, username=user.username)
        self.chat_objects[chat.id] = chat
        return chat

    def group_chat(self, chat_id: int, title: str = "Nardy club", admins: Iterable[int] = ()) -> Chat:
        """Return a supergroup (``chat_id`` must be negative); ``admins`` are its administrators' ids."""
        assert chat_id < 0, "group ids are negative"
        chat = Chat(id=chat_id, type="supergroup", title=title)
        self.chat_objects[chat_id] = chat
        self.admins[chat_id] = set(admins)
        return chat

    def message_update(
        self,
        user: User,
        chat: Chat,
        text: str,
        *,
        reply_to: int | None = None,
        sender_chat: Chat | None = None,
        thread_id: int | None = None,
    ) -> Update:
        """Return an update with a text message from ``user`` in ``chat`` (also shown in the chat view).
        A leading ``/command`` gets a ``bot_command`` entity, like Telegram sends. ``sender_chat``: the channel
        (or the group itself, for an anonymous admin) the message is sent on behalf of."""
        message_id = self._next_message_id(chat.id)
        self.chats.setdefault(chat.id, {})[message_id] = ShownMessage(
            chat_id=chat.id,
            message_id=message_id,
            from_user_id=user.id,
            text=text,
            reply_to=reply_to,
            thread_id=thread_id,
        )
        entities = None
        if text.startswith("/"):
            length = len(text.split(maxsplit=1)[0])
            entities = [MessageEntity(type="bot_command", offset=0, length=length)]
        reply_message = None
        if reply_to is not None:
            original = self.chats.get(chat.id, {}).get(reply_to)
            author = self.users.get(original.from_user_id) if original else None
            reply_message = Message(
                message_id=reply_to,
                date=datetime.datetime.fromtimestamp(EPOCH + reply_to, tz=datetime.UTC),
                chat=chat,
                from_user=self.bot_user if original and original.from_bot else author,
                text=original.content if original else None,
            )
        message = Message(
            message_id=message_id,
            date=datetime.datetime.fromtimestamp(EPOCH + message_id, tz=datetime.UTC),
            chat=chat,
            from_user=user,
            text=text,
            entities=entities,
            reply_to_message=reply_message,
            sender_chat=sender_chat,
            message_thread_id=thread_id,
            is_topic_message=True if thread_id is not None else None,
        )
        return Update(update_id=next(self._update_ids), message=message)

    def inline_query_update(self, user: User, text: str, chat_type: str = "supergroup") -> Update:
        """Return an update with an inline query (``@bot text``) typed by ``user`` in a chat of ``chat_type``."""
        query_id = f"iq{next(self._query_ids)}"
        self._query_users[query_id] = user.id
        query = InlineQuery(id=query_id, from_user=user, query=text, offset="", chat_type=chat_type)
        return Update(update_id=next(self._update_ids), inline_query=query)

    def choose_inline_result(self, user: User, query_id: str, result_id: str, chat_id: int) -> ShownMessage:
        """Post the result ``result_id`` of the answer to inline query ``query_id`` in ``chat_id``, as ``user``
        choosing it does. Returns: the inline message (with an ``inline_message_id`` when it has buttons, as on
        Telegram). Raises: AssertionError when there is no such answer or result."""
        results = self.inline_answers.get(query_id)
        assert results is not None, f"inline query {query_id} was not answered"
        found = [r for r in results if r.get("id") == result_id]
        assert found, f"no result {result_id!r} in {[r.get('id') for r in results]}"
        result = found[0]
        content = result.get("input_message_content") or {}
        markup = result.get("reply_markup")
        shown = ShownMessage(
            chat_id=chat_id,
            message_id=self._next_message_id(chat_id),
            from_user_id=user.id,
            text=content.get("message_text"),
            reply_markup=InlineKeyboardMarkup.model_validate(markup) if markup else None,
            inline_message_id=f"im{next(self._inline_ids)}-{chat_id}" if markup else None,
        )
        self.chats.setdefault(chat_id, {})[shown.message_id] = shown
        if shown.inline_message_id is not None:
            self.inline_messages[shown.inline_message_id] = shown
        return shown

    def inline_callback_update(self, user: User, inline_message_id: str, data: str) -> Update:
        """Return an update with a press by ``user`` of a button carrying ``data`` on an inline message."""
        query_id = f"q{next(self._query_ids)}"
        self._query_users[query_id] = user.id
        query = CallbackQuery(
            id=query_id,
            from_user=user,
            chat_instance=f"ci-{inline_message_id}",
            inline_message_id=inline_message_id,
            data=data,
        )
        return Update(update_id=next(self._update_ids), callback_query=query)

    def callback_update(self, user: User, chat_id: int, message_id: int, data: str) -> Update:
        """Return an update with a press by ``user`` of a button carrying ``data`` on the given bot message."""
        query_id = f"q{next(self._query_ids)}"
        self._query_users[query_id] = user.id
        shown = self.chats.get(chat_id, {}).get(message_id)
        chat = self.chat_objects.get(chat_id) or Chat(id=chat_id, type=_chat_type(chat_id))
        message = Message.model_validate(
            self._message_json(shown)
            if shown is not None
            else {"message_id": message_id, "date": EPOCH, "chat": chat.model_dump(mode="json", exclude_none=True)}
        )
        query = CallbackQuery(
            id=query_id,
            from_user=user,
            chat_instance=f"ci{chat_id}",
            message=message,
            data=data,
        )
        return Update(update_id=next(self._update_ids), callback_query=query)


@dataclass
class _Failure:
    code: int
    description: str


class TelegramHarness:
    """Feeds fake updates through a real Dispatcher with a Bot on a :class:`FakeTelegram`."""

    def __init__(self, fake: FakeTelegram, bot: Bot, dispatcher: Dispatcher, **feed_kwargs: Any) -> None:
        """Tie the three together; ``feed_kwargs`` are passed to every ``feed_update``."""
        self.fake = fake
        self.bot = bot
        self.dp = dispatcher
        self.feed_kwargs = feed_kwargs

    async def feed(self, update: Update) -> Any:
        """Return the dispatcher's result for ``update``."""
        return await self.dp.feed_update(self.bot, update, **self.feed_kwargs)

    async def send_text(
        self,
        user: User,
        chat: Chat,
        text: str,
        *,
        reply_to: int | None = None,
        sender_chat: Chat | None = None,
        thread_id: int | None = None,
    ) -> Update:
        """Feed a text message from ``user`` in ``chat`` (on behalf of ``sender_chat``; in forum topic
        ``thread_id``). Returns: the update."""
        update = self.fake.message_update(
            user, chat, text, reply_to=reply_to, sender_chat=sender_chat, thread_id=thread_id
        )
        await self.feed(update)
        return update

    async def press(self, user: User, chat_id: int, message_id: int, data: str) -> Update:
        """Feed a press of a button with ``data`` on a message. Returns: the update fed."""
        update = self.fake.callback_update(user, chat_id, message_id, data)
        await self.feed(update)
        return update

    async def press_button(self, user: User, message: ShownMessage, text_part: str) -> Update:
        """Feed a press of the message's only button whose text contains ``text_part`` (on an inline message: a
        query with its ``inline_message_id``). Returns: the update."""
        button = message.button(text_part)
        assert button.callback_data is not None, f"button {button.text!r} has no callback data"
        if message.inline_message_id is not None:
            update = self.fake.inline_callback_update(user, message.inline_message_id, button.callback_data)
            await self.feed(update)
            return update
        return await self.press(user, message.chat_id, message.message_id, button.callback_data)

    async def inline_query(self, user: User, text: str, chat_type: str = "supergroup") -> str:
        """Feed an inline query of ``user``. Returns: its id (its answer is ``fake.inline_answers[id]``)."""
        update = self.fake.inline_query_update(user, text, chat_type)
        await self.feed(update)
        assert update.inline_query is not None
        return update.inline_query.id
