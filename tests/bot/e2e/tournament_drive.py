"""Running tournaments through the fake Telegram: creating one, joining, and finishing its matches."""

from __future__ import annotations

from aiogram.types import Chat, User

from bot.model.tournament import TournamentRecord
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.helpers import Env, board_message
from tests.bot.fake_telegram import ShownMessage


def tournament_env(env: Env) -> Env:
    """Return ``env`` with results announced at once (no batching pause on the test's real clock)."""
    env.service.tournaments.reconciler.batch_window = 0.0
    return env


async def open_tournament(env: Env, organiser: User, group: Chat, presses: tuple[str, ...] = ()) -> ShownMessage:
    """Send /tournament as ``organiser``, press the option buttons named in ``presses`` (by text), open the
    registration, and return the card (now the registration card)."""
    await env.h.send_text(organiser, group, "/tournament")
    card = env.fake.last_message(group.id)
    assert "New tournament" in card.content, card.content
    for text in presses:
        await env.h.press_button(organiser, env.fake.chats[group.id][card.message_id], text)
    await env.h.press_button(organiser, env.fake.chats[group.id][card.message_id], "Open registration")
    card = env.fake.chats[group.id][card.message_id]
    assert "Players (0/" in card.content, card.content
    return card


async def running(env: Env, group: Chat) -> tuple[str, TournamentRecord]:
    """Return the id and record of the group's unfinished tournament."""
    tournament_id = await env.store.chat_tournament(group.id)
    assert tournament_id is not None
    loaded = await env.service.tournaments.records.load(tournament_id)
    assert loaded is not None
    return tournament_id, loaded[1]


async def record_of(env: Env, tournament_id: str) -> TournamentRecord:
    """Return the tournament's record."""
    loaded = await env.service.tournaments.records.load(tournament_id)
    assert loaded is not None
    return loaded[1]


async def open_bot(env: Env, user: User, tournament_id: str) -> None:
    """Open the bot in private by the registration card's deep link."""
    await env.h.send_text(user, env.fake.private_chat(user), f"/start t_{tournament_id}")
    assert "tournament games will come here" in env.fake.last_message(user.id).content


async def active_games(env: Env, tournament_id: str) -> dict[str, str]:
    """Return match id → game id of the tournament's matches whose games are still being played."""
    record = await record_of(env, tournament_id)
    if record.core is None:
        return {}
    playable = {m.id for m in record.tournament().playable()}
    result = {}
    for match_id, game_id in record.games.items():
        stored = await env.store.get_game(game_id)
        if match_id in playable and stored is not None and not stored.finished:
            result[match_id] = game_id
    return result


async def resign_game(env: Env, game_id: str, users: dict[int, User], *, group: Chat | None = None) -> User:
    """Have the player to act resign the game (a single game) and the opponent accept (a computer opponent
    decides itself). ``group``: the game is played there, else in the players' private chats. Returns the loser."""
    fake, h = env.fake, env.h
    stored, match = await state(env, game_id)
    loser = awaited_user(stored, match, users)
    chat = group or fake.private_chat(loser)
    await h.send_text(loser, chat, "/resign")
    menu = fake.last_message(chat.id)
    if "Which game" in menu.content:
        button = next(b for row in menu.buttons() for b in row if b.callback_data and game_id in b.callback_data)
        await h.press(loser, chat.id, menu.message_id, button.callback_data or "")
        menu = fake.last_message(chat.id)
    await h.press_button(loser, menu, "single game")
    stored, _ = await state(env, game_id)
    if not stored.finished:
        opponent = next(users[p["id"]] for p in stored.data["players"] if p["id"] != loser.id and not p.get("ai"))
        board_chat = group.id if group else opponent.id
        await h.press_button(opponent, board_message(fake, board_chat), "Accept")
    stored, _ = await state(env, game_id)
    assert stored.finished, stored.data["events"]
    return loser
