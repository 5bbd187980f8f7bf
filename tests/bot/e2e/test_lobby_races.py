"""The lobby's races (docs/rules.md "Lobby"): a cancel or a new ``/play`` that comes while the seek's pair is being
made (claimed, its game not yet created) is too late — the pair stands and the game comes, nobody is left with a
game they were told was cancelled (and a cool-down for not moving in it); a rematch never puts a player into a
second game."""

from __future__ import annotations

import asyncio

from bot.services.lobby.rules import LOBBY_POOL
from bot.storage import Store
from tests.bot.e2e.helpers import Env, board_message
from tests.bot.e2e.test_clock import Now
from tests.bot.e2e.test_lobby import (  # noqa: F401 - the store fixture
    finish,
    game_of,
    lobby_messages,
    pair,
    seeking_message,
    store,
    worker,
)
from tests.bot.e2e.texts import EN, shown
from tests.bot.fake_telegram import FakeTelegram


def hold_games(env: Env) -> asyncio.Event:
    """Make ``env``'s games wait, once claimed, until the returned event is set (a slow worker mid-pairing)."""
    gate = asyncio.Event()
    real_start = env.service.actions.start_game

    async def slow(*args: object, **kwargs: object) -> str | None:
        await gate.wait()
        return await real_start(*args, **kwargs)  # type: ignore[arg-type]

    env.service.actions.start_game = slow  # type: ignore[method-assign]
    return gate


async def claimed(pools: Store, now: Now) -> None:
    """Wait until a pairing of the lobby is open (claimed, its game not made yet)."""
    for _ in range(5000):
        if await pools.open_pairings(LOBBY_POOL, now.now + 1):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("no pairing was claimed")


async def test_a_cancel_while_the_pair_is_being_made_is_too_late_and_the_game_comes(store: Store) -> None:  # noqa: F811
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(801, "Alice", "en"), fake.user(802, "Bob", "en")
    await two.h.send_text(alice, fake.private_chat(alice), "/play")
    seeking = seeking_message(fake, alice)
    gate = hold_games(one)
    pairing = asyncio.create_task(one.h.send_text(bob, fake.private_chat(bob), "/play"))
    await claimed(store, now)
    # Alice cancels on the other worker while her game is being made: too late, and she is told so
    await two.h.press_button(alice, seeking, shown(EN, "btn.lobby_cancel"))
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "lobby.cancel_too_late")
    # a new /play meanwhile neither seeks again nor frees her from the pair
    await two.h.send_text(alice, fake.private_chat(alice), "/play long")
    assert lobby_messages(fake, alice)[-1].content == shown(EN, "lobby.just_found")
    assert await store.pool_binding(LOBBY_POOL, str(alice.id)) is not None
    gate.set()
    await pairing
    await one.service.settle()
    game_id = await game_of(store, alice)
    assert await store.user_games(bob.id) == [game_id]
    assert await store.pool_entries(LOBBY_POOL, now.now) == []
    assert await store.open_pairings(LOBBY_POOL, now.now + 1) == []
    found = shown(EN, "lobby.found", name="Bob", rating=1500, variant=shown(EN, "variant.short"), clock="12+2")
    assert seeking_message(fake, alice).content == found  # never "cancelled"
    # the passes after it make nothing more
    await asyncio.gather(one.service.lobby.sweep(), two.service.lobby.sweep())
    assert await store.user_games(alice.id) == [game_id]
    for env in (one, two):
        await env.close()


async def test_a_cancel_before_the_pair_is_claimed_makes_no_game(store: Store) -> None:  # noqa: F811
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob = fake.user(811, "Alice", "en"), fake.user(812, "Bob", "en")
    await one.h.send_text(alice, fake.private_chat(alice), "/play")
    await two.h.press_button(alice, seeking_message(fake, alice), shown(EN, "btn.lobby_cancel"))
    assert seeking_message(fake, alice).content == shown(EN, "lobby.cancelled")
    await two.h.send_text(bob, fake.private_chat(bob), "/play")
    now.now += 31
    await asyncio.gather(one.service.lobby.sweep(), two.service.lobby.sweep())
    assert await store.user_games(alice.id) == [] and await store.user_games(bob.id) == []
    assert [e.member for e in await store.pool_entries(LOBBY_POOL, now.now)] == [str(bob.id)]
    for env in (one, two):
        await env.close()


async def test_a_rematch_is_refused_while_either_player_plays_another_game(store: Store) -> None:  # noqa: F811
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob, carol = (fake.user(820 + i, name, "en") for i, name in enumerate(("Alice", "Bob", "Carol"), 1))
    first = await pair(one, two, alice, bob)
    await finish(one, first, loser=1)
    final = board_message(fake, alice.id)
    # Alice offers a rematch, then presses New opponent and is paired with Carol
    await one.h.press_button(alice, final, shown(EN, "btn.lobby_rematch"))
    offer = lobby_messages(fake, bob)[-1]
    await one.h.press_button(alice, final, shown(EN, "btn.lobby_new"))
    await two.h.send_text(carol, fake.private_chat(carol), "/play")
    with_carol = await game_of(store, alice)
    # Bob accepts: refused, Alice plays another game; nothing is made
    await two.h.press_button(bob, offer, shown(EN, "btn.lobby_rematch"))
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "lobby.rematch_busy", name="Alice")
    assert await store.user_games(alice.id) == [with_carol] and await store.user_games(bob.id) == []
    # Alice pressing it again is told it is her
    await one.h.press_button(alice, final, shown(EN, "btn.lobby_rematch"))
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "lobby.rematch_you_busy")
    # once the other game is over, Bob's press makes the rematch (Alice's offer stands)
    await finish(one, with_carol, loser=1)
    await two.h.press_button(bob, offer, shown(EN, "btn.lobby_rematch"))
    await two.service.settle()
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "lobby.rematch_started")
    rematch = await game_of(store, alice)
    assert await store.user_games(bob.id) == [rematch] and rematch not in (first, with_carol)
    for env in (one, two):
        await env.close()


async def test_a_rematch_cancels_both_players_seeks(store: Store) -> None:  # noqa: F811
    now = Now()
    fake = FakeTelegram()
    one, two = worker(store, fake, now), worker(store, fake, now)
    alice, bob, carol = (fake.user(830 + i, name, "en") for i, name in enumerate(("Alice", "Bob", "Carol"), 1))
    first = await pair(one, two, alice, bob)
    await finish(one, first, loser=1)
    await one.h.press_button(alice, board_message(fake, alice.id), shown(EN, "btn.lobby_rematch"))
    offer = lobby_messages(fake, bob)[-1]
    await one.h.press_button(alice, board_message(fake, alice.id), shown(EN, "btn.lobby_new"))  # short 12+2
    await two.h.send_text(bob, fake.private_chat(bob), "/play long")
    assert {e.member for e in await store.pool_entries(LOBBY_POOL, now.now)} == {str(alice.id), str(bob.id)}
    await two.h.press_button(bob, offer, shown(EN, "btn.lobby_rematch"))
    await two.service.settle()
    rematch = await game_of(store, alice)
    assert await store.user_games(bob.id) == [rematch]
    assert await store.pool_entries(LOBBY_POOL, now.now) == []
    assert seeking_message(fake, alice).content == shown(EN, "lobby.cancelled_rematch", name="Bob")
    assert seeking_message(fake, bob).content == shown(EN, "lobby.cancelled_rematch", name="Alice")
    # a newcomer is not paired with either of them
    dan = fake.user(834, "Dan", "en")
    await one.h.send_text(carol, fake.private_chat(carol), "/play")
    await one.h.send_text(dan, fake.private_chat(dan), "/play long")
    assert await store.user_games(alice.id) == [rematch] and await store.user_games(bob.id) == [rematch]
    assert await store.user_games(carol.id) == [] and await store.user_games(dan.id) == []
    for env in (one, two):
        await env.close()
