"""Whether a person is a member of an arena's group, asked of the Bot API (``getChatMember``; nothing is cached): a
join through the Mini App (whose link can be forwarded anywhere) is refused to someone outside the group. A press of
the card's Join button needs no check: the presser sees the group."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import GetChatMember, TelegramMethod

MemberCheck = Callable[[int, int], Awaitable[bool | None]]
"""``(chat_id, user_id)`` → whether the user is a member of the chat (None: Telegram could not tell)."""
MEMBER_STATUSES: Final = frozenset({"creator", "administrator", "member"})
"""The statuses of a chat member who is in the chat (a ``restricted`` one is in when ``is_member`` says so)."""


def chat_member_check(call: Callable[[TelegramMethod[Any]], Awaitable[Any]]) -> MemberCheck:
    """Return the check calling ``getChatMember`` through ``call`` (a Bot, unpaced: the answer is not a message and
    must not wait in the group's send queue)."""

    async def is_member(chat_id: int, user_id: int) -> bool | None:
        try:
            member = await call(GetChatMember(chat_id=chat_id, user_id=user_id))
        except (TelegramBadRequest, TelegramForbiddenError):  # no such user in the chat, or the bot is not in it
            return False
        except (TelegramAPIError, OSError):  # a network failure, a 5xx, a 429: cannot tell
            return None
        status = str(getattr(member, "status", ""))
        if status in MEMBER_STATUSES:
            return True
        return status == "restricted" and bool(getattr(member, "is_member", False))

    return is_member


__all__ = ["MEMBER_STATUSES", "MemberCheck", "chat_member_check"]
