"""Who really sent a message: people play; channels and anonymous admins do not.

Telegram gives every message sent "on behalf of a channel" the same ``from_user`` (``Channel_Bot``), and every
message of an anonymous group admin the same ``from_user`` (``GroupAnonymousBot``); the real sender is only in
``sender_chat``. A game keyed by ``from_user`` would be playable by any channel or any anonymous admin, so such
messages may not create, join or accept challenges, play the computer, resign, type moves, change the language
or the chat settings: they get :func:`proxy_refusal`'s answer instead. Button presses always carry the real
user, so callback queries never need this check.
"""

from __future__ import annotations

from typing import Final

from aiogram.types import Message, User

from bot.texts import Html, tr

CHANNEL_BOT_ID: Final = 136817688
"""``Channel_Bot``: the ``from_user`` of every message sent on behalf of a channel."""
GROUP_ANONYMOUS_BOT_ID: Final = 1087968824
"""``GroupAnonymousBot``: the ``from_user`` of every message of an anonymous group admin."""
PROXY_USER_IDS: Final = frozenset({CHANNEL_BOT_ID, GROUP_ANONYMOUS_BOT_ID})
"""User ids that stand for someone else (a channel, an anonymous admin), never for one person."""


def is_proxy_user(user: User | None) -> bool:
    """Return whether ``user`` is one of Telegram's stand-ins for a channel or an anonymous admin."""
    return user is not None and user.id in PROXY_USER_IDS


def is_proxy_sender(message: Message) -> bool:
    """Return whether ``message`` was not sent by a person as themselves: it has a ``sender_chat`` (a channel, a
    linked channel's automatic forward, an anonymous admin) or its ``from_user`` is a stand-in id."""
    return message.sender_chat is not None or is_proxy_user(message.from_user)


def proxy_refusal(message: Message, lang: str | None) -> Html | None:
    """Return the answer (in ``lang``) to a message that may not act in a game because it was sent on behalf of a
    channel or by an anonymous admin, or None when a person sent it as themselves."""
    return tr(lang, "move.sender_chat") if is_proxy_sender(message) else None
