"""The pure parts of inline mode: what an inline query offers, the ids derived from an inline message, and the
signature of the invitations' buttons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.keyboards.callbacks import InviteCb
from bot.model.game import ChatLink
from bot.services.actions import GameActions
from bot.services.inline import (
    INLINE_CHAT_BASE,
    InlineGames,
    Offer,
    inline_chat_id,
    inline_game_id,
    is_inline_chat,
    offers,
)
from bot.storage.ids import new_id


def test_an_empty_query_offers_the_main_games() -> None:
    assert offers("") == [Offer("short", 0), Offer("long", 0), Offer("short", 5), Offer("long", 3)]


def test_a_named_game_and_length_come_first() -> None:
    assert offers("long 7")[:2] == [Offer("long", 7), Offer("long", 0)]
    assert offers("длинные 5")[0] == Offer("long", 5)
    assert offers("гипер")[0] == Offer("hypergammon", 0)
    assert offers("tavli")[0] == Offer("tavli", 7)  # a Tavli match is to 7 unless asked
    assert offers("mixed 9")[0] == Offer("mixed", 0)  # three games, never a length
    assert offers("5")[:2] == [Offer("short", 5), Offer("long", 5)]
    assert offers("short 99")[0] == Offer("short", 25)
    assert all(len(offers(q)) <= 8 for q in ("", "long 3", "portes 5", "x y z"))


@given(st.text(min_size=1, max_size=64))
def test_inline_ids_are_well_formed(inline_message_id: str) -> None:
    chat = inline_chat_id(inline_message_id)
    assert is_inline_chat(chat) and chat <= -INLINE_CHAT_BASE and chat < -(10**13)  # below Telegram's chat ids
    game_id = inline_game_id(inline_message_id)
    assert len(game_id) == 10 and game_id.replace("-", "").replace("_", "").isalnum()
    assert not is_inline_chat(-1001234567890) and not is_inline_chat(42)


def test_an_invitation_fits_a_button_and_its_signature_binds_every_field() -> None:
    games = InlineGames.__new__(InlineGames)
    games.secret = b"k" * 32
    keyboard = games.invite_keyboard(Offer("acey_deucey", 25), 9_999_999_999_999, "ru", 99_999_999)
    data = [b.callback_data or "" for row in keyboard.inline_keyboard for b in row]
    assert all(len(d.encode()) <= 64 for d in data)
    join = InviteCb.unpack(data[0])
    assert join.sig == games._sign("acey_deucey", 25, 9_999_999_999_999, "ru", 99_999_999)
    assert games._sign("acey_deucey", 24, 9_999_999_999_999, "ru", 99_999_999) != join.sig
    assert games._sign("acey_deucey", 25, 9_999_999_999_998, "ru", 99_999_999) != join.sig
    assert new_id() != inline_game_id("x")


class _Settings:
    """The user settings of a store, in memory (all ``InlineGames._remember`` uses)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.writes = 0

    async def get_user_settings(self, user_id: int) -> dict[str, Any]:
        return dict(self.data)

    async def set_user_settings(self, user_id: int, settings: Mapping[str, Any]) -> None:
        self.data = dict(settings)
        self.writes += 1


async def test_the_host_name_is_remembered_in_the_user_settings_keeping_the_rest() -> None:
    store = _Settings({"theme": "dark", "later": [1], "name": 5})  # a name of another type is replaced
    games = InlineGames(store, None, None, None, None, secret=b"k")  # type: ignore[arg-type]
    await games._remember(7, "Alice")
    assert store.data == {"theme": "dark", "later": [1], "name": "Alice"} and store.writes == 1
    await games._remember(7, "Alice")
    games._names.clear()
    await games._remember(7, "Alice")  # read again: already stored
    assert store.writes == 1


class _Sender:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send(self, method: Any) -> None:
        self.sent.append(method)


async def test_a_notice_about_an_inline_game_goes_to_no_chat() -> None:
    sender = _Sender()
    actions = GameActions(None, sender, None, None, None, None)  # type: ignore[arg-type]
    inline = ChatLink(inline_chat_id("AgAAAbc"), inline="AgAAAbc")
    await actions._notify(inline, "limit")
    assert sender.sent == []
    await actions._notify(ChatLink(-100123, thread=5), "limit")
    assert [(m.chat_id, m.message_thread_id, m.text) for m in sender.sent] == [(-100123, 5, "limit")]
