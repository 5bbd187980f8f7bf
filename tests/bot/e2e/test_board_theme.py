"""The board theme chosen in /settings: a user picks dark in their private chat and their own boards are drawn dark
(after a restart too: the choice is in the store) while the other player's private board stays classic; a group's
board follows the group's theme, chosen by its admins, whatever its players chose."""

from __future__ import annotations

import io
import re

from PIL import Image

from bot.services.boards import winner_mark
from bot.storage import Store
from bot.texts import tr
from rendering.layout import layout
from rendering.theme import get_theme
from tests.bot.e2e.drive import only_game, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.test_export import play_and_resign
from tests.bot.e2e.texts import EN, RU, shown
from tests.rendering.render_helpers import share_near

RGB = tuple[int, int, int]


def frame_colour(photo: bytes | None) -> RGB:
    """Return the colour of the board's frame left of the points, half way down, in a JPEG board."""
    assert photo is not None
    image = Image.open(io.BytesIO(photo)).convert("RGB")
    geo = layout(image.width)
    value = image.getpixel((geo.left_half_x // 2, geo.mid_y))
    assert isinstance(value, tuple)
    return int(value[0]), int(value[1]), int(value[2])


def _board(lang: str, theme: str) -> str:
    """Return the settings line (and button label) naming the board ``theme`` in ``lang``."""
    return shown(lang, "settings.theme", value=tr(lang, f"settings.theme.{theme}"))


def is_dark(colour: RGB) -> bool:
    """Return whether a frame pixel is the dark theme's frame (the classic wood is far lighter and redder)."""
    dark, classic = get_theme("dark").frame, get_theme("classic").frame
    assert max(abs(a - b) for a, b in zip(dark, classic, strict=True)) > 60
    return max(abs(a - b) for a, b in zip(colour, dark, strict=True)) <= 24


async def test_a_user_picks_dark_and_only_their_own_boards_turn_dark(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("theme-1"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(21, "Alice", "en"), fake.user(22, "Bob", "ru")
    await h.send_text(alice, fake.private_chat(alice), "/settings")
    panel = fake.last_message(alice.id)
    assert panel.content.startswith(f"{shown(EN, 'settings.user_title')}\n{_board(EN, 'classic')}"), panel.content
    assert panel.button_texts() == [_board(EN, "dark")]
    # bad presses change nothing: a group's setting or an unknown theme in a private chat
    await h.press(alice, alice.id, panel.message_id, "s:confirm:on")
    await h.press(alice, alice.id, panel.message_id, "s:theme:neon")
    assert fake.toasts_for(alice.id)[-2:] == [shown(EN, "toast.bad")] * 2
    assert "theme" not in await sqlite_store.get_user_settings(alice.id)
    await h.press_button(alice, panel, _board(EN, "dark"))
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "settings.saved")
    assert (await sqlite_store.get_user_settings(alice.id))["theme"] == "dark"
    panel = fake.last_message(alice.id)
    assert _board(EN, "dark") in panel.content.splitlines() and panel.button_texts() == [_board(EN, "classic")]
    await h.send_text(bob, fake.private_chat(bob), "/settings")
    assert fake.last_message(bob.id).content.startswith(f"{shown(RU, 'settings.user_title')}\n{_board(RU, 'classic')}")
    await env.close()

    # a restart: a new dispatcher and service on the same store
    env = Env(sqlite_store, seeded("theme-2"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(21, "Alice", "en"), fake.user(22, "Bob", "ru")
    await h.send_text(alice, fake.private_chat(alice), "/new short")
    found = re.search(r"start=(c_[A-Za-z0-9_-]{10})", fake.last_message(alice.id).content)
    assert found
    await h.send_text(bob, fake.private_chat(bob), f"/start {found.group(1)}")
    alice_board, bob_board = board_message(fake, alice.id), board_message(fake, bob.id)
    assert is_dark(frame_colour(alice_board.photo)), frame_colour(alice_board.photo)
    assert not is_dark(frame_colour(bob_board.photo)), frame_colour(bob_board.photo)
    await env.close()


async def test_the_choice_survives_a_restart_on_redis(redis_store: Store) -> None:
    """The same choice on the Redis store: kept across a restart, only the chooser's board is dark."""
    env = Env(redis_store, seeded("theme-redis"))
    alice = env.fake.user(41, "Alice", "en")
    await env.h.send_text(alice, env.fake.private_chat(alice), "/settings")
    await env.h.press_button(alice, env.fake.last_message(alice.id), _board(EN, "dark"))
    await env.close()
    env = Env(redis_store, seeded("theme-redis-2"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(41, "Alice", "en"), fake.user(42, "Bob", "en")
    await h.send_text(alice, fake.private_chat(alice), "/new short")
    found = re.search(r"start=(c_[A-Za-z0-9_-]{10})", fake.last_message(alice.id).content)
    assert found
    await h.send_text(bob, fake.private_chat(bob), f"/start {found.group(1)}")
    assert is_dark(frame_colour(board_message(fake, alice.id).photo))
    assert not is_dark(frame_colour(board_message(fake, bob.id).photo))
    await env.close()


async def test_a_group_board_follows_the_groups_theme(sqlite_store: Store) -> None:
    await sqlite_store.set_user_settings(32, {"theme": "dark"})  # a player's own choice does not rule the group
    env = Env(sqlite_store, seeded("theme-3"))
    fake, h = env.fake, env.h
    admin, member = fake.user(31, "Admin", "en"), fake.user(32, "Member", "en")
    group = fake.group_chat(-620, admins=[admin.id])
    await h.send_text(admin, group, "/new short")
    await h.press_button(member, fake.last_message(group.id), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    assert not is_dark(frame_colour(board_message(fake, group.id).photo))
    await h.send_text(admin, group, "/settings")
    panel = fake.last_message(group.id)
    assert _board(EN, "classic") in panel.content.splitlines()
    await h.press_button(member, panel, _board(EN, "dark"))
    assert fake.toasts_for(member.id)[-1] == shown(EN, "settings.admins_only")
    assert await sqlite_store.get_chat_settings(group.id) == {}
    await h.press_button(admin, panel, _board(EN, "dark"))
    assert await sqlite_store.get_chat_settings(group.id) == {"theme": "dark"}
    await h.send_text(admin, group, "/board")
    await env.service.settle()
    stored = await sqlite_store.get_game(game_id)
    assert stored is not None
    assert is_dark(frame_colour(board_message(fake, group.id).photo))
    await env.close()


async def test_a_finished_board_marks_the_winner(sqlite_store: Store) -> None:
    """Once a game is over its board lights the winner's strip with a crown and "Won N points." (the bot passes the
    winner and the label to the renderer); the loser's strip has no such mark."""
    env = Env(sqlite_store, seeded("theme-winner"))
    game_id = await play_and_resign(env, -630, "short")
    _, match = await state(env, game_id)
    result = match.game.result
    assert result is not None and result.winner in (0, 1)
    label = tr(EN, "board.winner", points=f"{result.points:g}")
    assert winner_mark(match, EN) == {"winner": result.winner, "winner_label": label}
    photo = board_message(env.fake, -630).photo
    assert photo is not None
    image = Image.open(io.BytesIO(photo)).convert("RGB")
    geo = layout(image.width)
    bottom = match.game.roller  # a group's board is drawn from the side to move
    winner_strip = geo.bottom_strip() if result.winner == bottom else geo.top_strip()
    loser_strip = geo.top_strip() if result.winner == bottom else geo.bottom_strip()
    accent = get_theme("classic").accent

    def accent_share(strip: tuple[int, int, int, int]) -> float:
        box = (0, strip[1] + 4, image.width // 2, strip[3] - 4)
        return share_near(image, box, accent, 40)

    assert accent_share(winner_strip) > 0.03
    assert accent_share(loser_strip) < 0.005
    await env.close()
