"""Playing games through the fake Telegram: whose action is awaited, and pressing the first offered button."""

from __future__ import annotations

from aiogram.types import User

from bot.model.game import GameRecord
from bot.services.engine_flow import load_match
from bot.storage import Store, StoredGame
from nardy import Match
from tests.bot.e2e.helpers import Env, board_message


async def state(env: Env, game_id: str) -> tuple[StoredGame, Match]:
    """Return the stored game and its match."""
    stored = await env.store.get_game(game_id)
    assert stored is not None
    return stored, load_match(GameRecord.from_stored(stored), game_id, env.service.config.dice)


async def only_game(store: Store, chat_id: int) -> str:
    """Return the id of the chat's only active game."""
    games = await store.chat_games(chat_id)
    assert len(games) == 1, games
    return games[0]


def awaited_user(stored: StoredGame, match: Match, users: dict[int, User]) -> User:
    """Return the user whose action the game awaits."""
    return users[stored.data["players"][match.game.turn]["id"]]


async def press_first(env: Env, user: User, chat_id: int) -> None:
    """Press the first button of the chat's board as ``user``."""
    board = board_message(env.fake, chat_id)
    assert board.buttons(), f"no buttons on the board: {board.content}"
    await env.h.press(user, chat_id, board.message_id, board.buttons()[0][0].callback_data or "")
