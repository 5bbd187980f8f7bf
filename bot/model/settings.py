"""A user's and a chat's settings, typed: the small documents the stores keep per user and per chat.

Both are partial: a key is stored only once it was set, and the readers fall back to the defaults (classic theme,
the default variant, no confirmation, ...). Each known key has a declared type; a stored value of another type is
ignored by the typed field (it reads as unset) but kept as it was, like every key this version does not know, so
a save never loses what a newer (or older) release wrote. The JSON shape is the stores' as before:

- user settings: ``{"lang"?: "ru" | "en", "theme"?: str, "dm"?: true, "name"?: str, "blocked"?: [user ids],
  "lobby_abandons"?: {"count", "last", "games"}}`` — the chosen language (``/lang``), the board theme of the user's
  private chats, whether the user has written to the bot in private, the display name of the host of inline
  invitations, the players the user blocked in the lobby (never paired with them again) and the lobby games the
  user abandoned (their cool-down, :class:`bot.model.lobby.Abandons`);
- chat settings: ``{"variant"?: str, "confirm"?: bool, "cube_long"?: bool, "tournaments"?: "admins" | "anyone",
  "tour_topic"?: int, "theme"?: str, "media_refused"?: int}`` — a group's defaults, chosen by its admins in
  ``/settings``, and what the bot learnt of the chat: when it last refused the bot's pictures (Unix time; see
  :mod:`bot.services.media`).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Self, get_type_hints

from pydantic import (
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)
from pydantic.dataclasses import dataclass

from bot.model.codec import JsonObject, dump, load
from bot.model.lobby import Abandons


class SettingsError(ValueError):
    """Settings that are not a JSON object at all (a value of a wrong type is kept aside, never refused)."""


_FIELD_ADAPTERS: dict[tuple[type[Any], str], TypeAdapter[Any]] = {}


def _sort_out(cls: type[Any], data: Any) -> Any:
    """Return the constructor arguments of a settings document: each known key whose value has its field's type,
    and ``extra`` holding every other key (unknown, or of another type) unchanged."""
    if not isinstance(data, dict):
        return data
    known: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in data.items():
        adapter = _FIELD_ADAPTERS.get((cls, key))
        if adapter is None and key != "extra" and key in cls.__dataclass_fields__:
            adapter = _FIELD_ADAPTERS[(cls, key)] = TypeAdapter(get_type_hints(cls, include_extras=True)[key])
        if adapter is None or value is None:
            extra[key] = value
            continue
        try:
            known[key] = adapter.validate_python(value)
        except ValidationError:
            extra[key] = value
    return {**known, "extra": extra}


def _write(data: JsonObject) -> JsonObject:
    extra = data.pop("extra")
    return {**{k: v for k, v in data.items() if v is not None}, **extra}


class _SettingsDocument:
    """The codec of both settings documents (pydantic takes the validator and serializer of a plain base class):
    each known key read into its typed field when its value has that type, everything else kept in ``extra``;
    written back as set keys plus ``extra``. A subclass is a pydantic dataclass with an ``extra`` field."""

    __slots__ = ()

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        return _sort_out(cls, data)

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        return _write(handler(self))

    def to_dict(self) -> JsonObject:
        """Return the settings as the store keeps them (set keys only, then the kept ones)."""
        return dump(self)

    @classmethod
    def from_dict(cls, data: object) -> Self:
        """Return the settings of a stored document. Raises: SettingsError when it is not a JSON object."""
        return load(cls, data, SettingsError)


@dataclass(slots=True)
class UserSettings(_SettingsDocument):
    """A user's settings (see the module docstring); None: not set."""

    lang: StrictStr | None = None
    theme: StrictStr | None = None
    dm: StrictBool | None = None
    name: StrictStr | None = None
    blocked: list[StrictInt] | None = None
    """The users this user blocked in the lobby (docs/rules.md "Lobby"): never paired with them again."""
    lobby_abandons: Abandons | None = None
    """The lobby games this user abandoned lately (their cool-down before the next seek)."""
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Keys this version does not know, and known keys stored with a value of another type, written back as read."""


@dataclass(slots=True)
class ChatSettings(_SettingsDocument):
    """A chat's settings (see the module docstring); None: not set, the default applies."""

    variant: StrictStr | None = None
    confirm: StrictBool | None = None
    cube_long: StrictBool | None = None
    tournaments: StrictStr | None = None
    tour_topic: StrictInt | None = None
    theme: StrictStr | None = None
    media_refused: StrictInt | None = None
    """When (Unix time, whole seconds) the chat last refused a picture of the bot because it forbids media
    (:mod:`bot.services.media`); None: no refusal is known, pictures are sent."""
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Keys this version does not know, and known keys stored with a value of another type, written back as read."""

    @property
    def anyone_creates_tournaments(self) -> bool:
        """Whether anyone in the group may create a tournament (else only its admins)."""
        return self.tournaments == "anyone"


SETTINGS_TYPES: Final = (UserSettings, ChatSettings)
