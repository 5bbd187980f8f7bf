"""A block pressed while the blocker already seeks again keeps the two apart (docs/rules.md "Lobby": never paired
again, either way round)."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.helpers import board_message
from tests.bot.e2e.test_clock import Now
from tests.bot.e2e.test_lobby import finish, pair, store, worker  # noqa: F401 - the store fixture
from tests.bot.e2e.texts import EN, shown
from tests.bot.fake_telegram import FakeTelegram


async def test_a_block_after_new_opponent_applies_to_the_seek_already_made(store: Store) -> None:  # noqa: F811
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(791, "Alice", "en"), fake.user(792, "Bob", "en")
    game_id = await pair(one, two, alice, bob)
    await finish(one, game_id, loser=0)
    await two.h.press_button(bob, board_message(fake, bob.id), shown(EN, "btn.lobby_new"))  # Bob seeks again ...
    await two.h.press_button(bob, board_message(fake, bob.id), shown(EN, "btn.lobby_block"))  # ... then blocks
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "lobby.blocked")
    await one.h.press_button(alice, board_message(fake, alice.id), shown(EN, "btn.lobby_new"))
    for _ in range(3):
        now.now += 30
        await one.service.lobby.sweep()
    assert await store.user_games(alice.id) == [] and await store.user_games(bob.id) == []
    for env in (one, two):
        await env.close()
