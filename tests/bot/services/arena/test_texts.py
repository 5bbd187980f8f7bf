"""The arena's words: the players counted at the end in a plural form, the usage naming the ``status`` word, and a
paused player pressing Join told to press Back."""

from __future__ import annotations

from bot.model.arena import ArenaPlayer, ArenaRecord, ArenaSettings
from bot.model.game import PlayerInfo
from bot.services.arena.texts import card_text
from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.helpers import Env, seeded


def _over(players: int) -> ArenaRecord:
    people = tuple(ArenaPlayer(i, f"P{i}") for i in range(1, players + 1))
    return ArenaRecord(-1, 1, ArenaSettings(), status="finished", ends_at=10.0, finished_at=10.0, players=people)


def test_the_end_counts_players_and_games_in_plural_forms() -> None:
    assert "The arena is over: 1 player, 0 games." in card_text("en", _over(1), 20.0)
    assert "The arena is over: 3 players, 0 games." in card_text("en", _over(3), 20.0)
    assert "Арена окончена: 1 игрок, 0 партий." in card_text("ru", _over(1), 20.0)
    assert "Арена окончена: 3 игрока, 0 партий." in card_text("ru", _over(3), 20.0)
    assert "Арена окончена: 5 игроков, 0 партий." in card_text("ru", _over(5), 20.0)


def test_the_usage_names_the_status_word() -> None:
    assert "[status]" in tr("en", "arena.usage")
    assert "[статус]" in tr("ru", "arena.usage")


async def test_a_paused_player_pressing_join_is_told_to_press_back(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("arena-texts"))
    arenas = env.service.arenas
    ann = PlayerInfo(1, "Ann", "en")
    arena_id = await arenas.actions.create(env.fake.group_chat(-4734).id, ann, ArenaSettings(minutes=10))
    assert arena_id is not None
    await arenas.join(arena_id, ann)
    assert await arenas.join(arena_id, ann) == tr("en", "arena.already")
    await arenas.pause(arena_id, ann)
    toast = await arenas.join(arena_id, ann)
    assert "paused" in toast and "Back" in toast, toast
    await env.service.settle()
    await env.close()
