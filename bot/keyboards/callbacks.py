"""Callback data of every inline button (aiogram ``CallbackData``), and a safe parser.

Buttons carry only ids, a state version and a short action, never game state: the whole packed string is at
most 64 bytes (Telegram's limit), which ``tests/bot/test_callbacks.py`` checks with the longest values.
Every field is validated on unpacking, so forged or garbled data never reaches a handler as a valid object.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH, CallbackData
from pydantic import Field, ValidationError

from bot.model.actions import GameAction, parse_action

GameId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{10}$")]
"""A game or challenge id as made by :func:`bot.storage.ids.new_id`."""
Version = Annotated[int, Field(ge=1, le=999_999_999)]
"""A game state version (the store's version number)."""
Action = Annotated[str, Field(pattern=r"^[A-Za-z0-9_./+>-]{1,20}$")]
"""A short action or step, e.g. ``13/7``, ``bar/22``, ``undo``, ``confirm``, ``double``, ``resign2``."""
Word = Annotated[str, Field(pattern=r"^[a-z0-9_]{1,16}$")]
"""A short lowercase word (menu and settings keys and values)."""


class GameCb(CallbackData, prefix="g"):
    """A press on a game's keyboard: step, undo, confirm, cube and resignation buttons.

    ``version`` is the game version the keyboard was built for; a press whose version differs from the stored
    one is stale and must be refused with a toast.
    """

    game_id: GameId
    version: Version
    action: Action
    """The wire form of a :data:`~bot.model.actions.GameAction` (see :meth:`parsed_action`)."""

    def parsed_action(self) -> GameAction | None:
        """Return the typed action of the button, or None when ``action`` is no action a keyboard makes."""
        return parse_action(self.action)


def game_button_data(game_id: str, version: int, action: GameAction) -> str:
    """Return the packed callback data of a game button (at most 64 bytes: ids and versions are bounded)."""
    return GameCb(game_id=game_id, version=version, action=action.pack()).pack()


class ChallengeCb(CallbackData, prefix="c"):
    """A press on a challenge card: ``join``, ``accept``, ``decline`` or ``cancel``."""

    challenge_id: GameId
    action: Literal["join", "accept", "decline", "cancel"]


class ComputerCb(CallbackData, prefix="ai"):
    """A press on the "play against the computer" chooser (the open offer ``offer_id``): ``pick`` shows the chooser
    with this variant and level selected, ``go`` starts the game. ``variant`` is a short word here; the handler
    checks it names a variant the computer plays (:func:`bot.variants.computer_plays`)."""

    offer_id: GameId
    action: Literal["pick", "go"]
    variant: Word
    level: Literal["easy", "medium", "hard"]


class LangCb(CallbackData, prefix="lang"):
    """A press on the /lang keyboard."""

    code: Literal["ru", "en"]


class WatchCb(CallbackData, prefix="w"):
    """A press on a group board's Watch button: follow game ``game_id`` in the presser's private chat."""

    game_id: GameId


class HistoryCb(CallbackData, prefix="hs"):
    """A press on a ``/history`` line's button: ``replay`` or ``export`` the finished game ``game_id``."""

    game_id: GameId
    action: Literal["replay", "export"]


class ReplayCb(CallbackData, prefix="rp"):
    """A press on a replay's Back/Forward buttons: show frame ``frame`` of game ``game_id``."""

    game_id: GameId
    frame: Annotated[int, Field(ge=0, le=99_999)]


class InviteCb(CallbackData, prefix="il"):
    """A press on an inline-mode invitation (:mod:`bot.services.inline`): ``j`` joins it, ``x`` withdraws it (its
    host only). The invitation lives only in these fields — ``host`` invites to ``variant`` (a match to ``length``,
    0: one game) in ``lang``, made at ``minute`` (unix minutes) — so ``sig``, an HMAC of them under the bot's secret,
    proves the bot made them (callback data of an inline message can be forged by a client)."""

    action: Literal["j", "x"]
    variant: Word
    length: Annotated[int, Field(ge=0, le=99)]
    host: Annotated[int, Field(ge=1, le=10**13)]
    lang: Literal["ru", "en"]
    minute: Annotated[int, Field(ge=0, le=99_999_999)]
    sig: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{11}$")]


class LobbyCb(CallbackData, prefix="lb"):
    """A press on a lobby button (:mod:`bot.services.lobby`): ``cancel`` the presser's seek (``ref`` empty);
    after the lobby game ``ref``: ``rematch`` (both must press), ``new`` (seek a new opponent with the game's
    settings), ``block`` (never be paired with that opponent again), ``report`` (count a report of the opponent)."""

    action: Literal["cancel", "rematch", "new", "block", "report"]
    ref: Annotated[str, Field(pattern=r"^([A-Za-z0-9_-]{10})?$")] = ""


class MenuCb(CallbackData, prefix="m"):
    """A press on a menu button (e.g. ``new_long``, ``new_portes``, ``more``, ``rules``, ``help``)."""

    action: Word


class SettingsCb(CallbackData, prefix="s"):
    """A press on the /settings keyboard of a chat: set ``key`` to ``value``."""

    key: Word
    value: Word


AnyCallback = GameCb | ChallengeCb | ComputerCb | LangCb | MenuCb | SettingsCb | InviteCb | LobbyCb
"""Every callback data class of the bot."""

CALLBACK_CLASSES: Final[tuple[type[CallbackData], ...]] = (
    GameCb,
    ChallengeCb,
    ComputerCb,
    LangCb,
    MenuCb,
    SettingsCb,
    InviteCb,
    LobbyCb,
)
_BY_PREFIX: Final[dict[str, type[CallbackData]]] = {cls.__prefix__: cls for cls in CALLBACK_CLASSES}


def parse_callback(data: str | None) -> AnyCallback | None:
    """Return the callback object packed in ``data``, or None when it is missing, too long, of an unknown kind,
    or malformed in any way (wrong number of parts, bad id, version or action). Never raises."""
    if not data or len(data.encode("utf-8", errors="replace")) > MAX_CALLBACK_LENGTH:
        return None
    prefix, sep, _ = data.partition(":")
    cls = _BY_PREFIX.get(prefix)
    if cls is None or not sep:
        return None
    try:
        parsed = cls.unpack(data)
    except (ValueError, TypeError, ValidationError):
        return None
    if not isinstance(parsed, AnyCallback):  # pragma: no cover - every class above is in the union
        return None
    return parsed
