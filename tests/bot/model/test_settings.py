"""User and chat settings: the documents the code before the typed model wrote load and write back the same;
values of another type and unknown keys are kept as they were (never lost, never read as a setting)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.model.settings import ChatSettings, SettingsError, UserSettings

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("user_settings_*.json")), ids=lambda p: p.stem)
def test_stored_user_settings_load_and_write_back(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text())
    settings = UserSettings.from_dict(data)
    assert settings.extra == {}
    assert settings.to_dict() == data


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("chat_settings_*.json")), ids=lambda p: p.stem)
def test_stored_chat_settings_load_and_write_back(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text())
    settings = ChatSettings.from_dict(data)
    assert settings.extra == {}
    assert settings.to_dict() == data


def test_the_typed_fields_read_what_the_handlers_wrote() -> None:
    chat = ChatSettings.from_dict({"variant": "long", "confirm": True, "tournaments": "anyone", "tour_topic": 7})
    assert (chat.variant, chat.confirm, chat.cube_long, chat.tour_topic) == ("long", True, None, 7)
    assert chat.anyone_creates_tournaments
    user = UserSettings.from_dict({"lang": "en", "theme": "dark", "dm": True, "name": "Alice"})
    assert (user.lang, user.theme, user.dm, user.name) == ("en", "dark", True, "Alice")


def test_a_value_of_another_type_reads_as_unset_and_is_kept() -> None:
    data = {"confirm": "yes", "tour_topic": "here", "theme": "dark", "later": [1]}
    chat = ChatSettings.from_dict(data)
    assert chat.confirm is None and chat.tour_topic is None and chat.theme == "dark"
    assert chat.to_dict() == data


def test_settings_that_are_no_object_are_refused() -> None:
    with pytest.raises(SettingsError):
        UserSettings.from_dict(["lang", "ru"])


_values = st.none() | st.booleans() | st.integers() | st.text(max_size=6) | st.lists(st.integers(), max_size=2)
_keys = st.sampled_from(["lang", "theme", "dm", "name", "variant", "confirm", "cube_long", "tour_topic", "x", "extra"])


@given(st.dictionaries(_keys, _values, max_size=6))
def test_any_settings_document_writes_back_as_it_was(data: dict[str, Any]) -> None:
    assert UserSettings.from_dict(data).to_dict() == data
    assert ChatSettings.from_dict(data).to_dict() == data


def test_both_documents_share_one_codec_and_keep_their_slots() -> None:
    user, chat = UserSettings.from_dict({"name": "Alice", "x": 1}), ChatSettings.from_dict({"tour_topic": 3, "x": 1})
    assert type(user) is UserSettings and type(chat) is ChatSettings
    assert not hasattr(user, "__dict__") and not hasattr(chat, "__dict__")
    assert (user.to_dict(), chat.to_dict()) == ({"name": "Alice", "x": 1}, {"tour_topic": 3, "x": 1})
    with pytest.raises(SettingsError):
        ChatSettings.from_dict("theme")
