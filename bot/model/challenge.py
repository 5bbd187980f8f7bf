"""An open challenge, typed: what the store keeps for a challenge until it is accepted or expires.

Three kinds share the challenge store (:mod:`bot.storage.challenges`), told apart by ``"kind"`` (one discriminated
union, :data:`StoredChallengeData`; a challenge names an offered variant, :data:`bot.variants.OFFERED`):

- ``{"kind": "private", "challenger": player, "variant", "length", "clock"?}`` — a deep link sent in a private chat;
- ``{"kind": "group", "challenger": player, "variant", "length", "chat_id", "opponent"?: player}`` — a card in a
  group, open to anyone or addressed to ``opponent``; both take an optional ``"clock": {"delay", "per_point"}``
  (:class:`~bot.model.clock.TimeControl`);
- ``{"kind": "computer", "chat_id"}`` — an open "play against the computer" chooser.

A player is stored as :class:`~bot.model.game.PlayerInfo` is. A stored challenge that is none of these (a forged or
garbled one) is refused with :class:`ChallengeError`; unknown keys are ignored, as they always were.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, SerializerFunctionWrapHandler, StrictInt, model_serializer
from pydantic.dataclasses import dataclass

from bot.model.clock import TimeControl
from bot.model.codec import JsonObject, dump, load
from bot.model.game import PlayerInfo
from bot.variants import OFFERED


class ChallengeError(ValueError):
    """A stored challenge that is none of the kinds a challenge can be (see the module docstring)."""


def _known_variant(value: str) -> str:
    if value not in OFFERED:
        raise ValueError(f"unknown variant {value!r}"[:100])
    return value


Variant = Annotated[str, AfterValidator(_known_variant)]


@dataclass(frozen=True, slots=True)
class PrivateChallenge:
    """A challenge by deep link: whoever opens the link plays ``challenger``."""

    challenger: PlayerInfo
    variant: Variant
    length: StrictInt = 0
    kind: Literal["private"] = "private"
    clock: TimeControl | None = None

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        if data["clock"] is None:
            del data["clock"]
        return data

    def to_dict(self) -> JsonObject:
        """Return the challenge as the store keeps it (``clock``: the time control, only when chosen)."""
        return dump(self)


@dataclass(frozen=True, slots=True)
class GroupChallenge:
    """A challenge card in the group ``chat_id``, open to anyone or addressed to ``opponent``."""

    challenger: PlayerInfo
    variant: Variant
    chat_id: StrictInt
    length: StrictInt = 0
    opponent: PlayerInfo | None = None
    kind: Literal["group"] = "group"
    clock: TimeControl | None = None

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        data: JsonObject = handler(self)
        for key in ("opponent", "clock"):
            if data[key] is None:
                del data[key]
        return data

    def to_dict(self) -> JsonObject:
        """Return the challenge as the store keeps it (``opponent`` only when addressed, ``clock`` when chosen)."""
        return dump(self)


@dataclass(frozen=True, slots=True)
class ComputerOffer:
    """An open "play against the computer" chooser in the chat ``chat_id``."""

    chat_id: StrictInt
    kind: Literal["computer"] = "computer"

    def to_dict(self) -> JsonObject:
        """Return the offer as the store keeps it."""
        return dump(self)


Challenge = PrivateChallenge | GroupChallenge | ComputerOffer
StoredChallengeData = Annotated[Challenge, Field(discriminator="kind")]
"""Every document of the challenge store, told apart by ``"kind"``."""


@dataclass(frozen=True, slots=True)
class _Envelope:
    challenge: StoredChallengeData


def load_challenge(data: object) -> Challenge:
    """Return the challenge of a stored document. Raises: ChallengeError when it is none of the three kinds."""
    envelope: Any = load(_Envelope, {"challenge": data}, ChallengeError, "stored")
    challenge: Challenge = envelope.challenge
    return challenge
