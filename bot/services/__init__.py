"""Game services: load a game, check an action with the engine, save it atomically, render and send the boards."""

from bot.services.game_service import GameService, PlayerInfo

__all__ = ["GameService", "PlayerInfo"]
