"""Group tournaments end to end: created in a group, joined by button, played to the end in private chats (or in
the group), with the group seeing the pairings, the results and the standings picture."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.tournament_drive import (
    active_games,
    open_bot,
    open_tournament,
    record_of,
    resign_game,
    running,
    tournament_env,
)


def _photos(env: Env, chat_id: int) -> list[object]:
    return [m for m in env.fake.messages(chat_id) if m.photo is not None]


async def test_four_player_round_robin_in_private_chats(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("rr-4")))
    fake, h = env.fake, env.h
    alice, bob, carol, dave = (fake.user(i, n, "en") for i, n in enumerate(("Alice", "Bob", "Carol", "Dave"), 1))
    stranger = fake.user(9, "Eve", "en")
    users = {u.id: u for u in (alice, bob, carol, dave)}
    group = fake.group_chat(-500, admins=[alice.id])

    # a member who is not an admin may not create one (the default)
    await h.send_text(bob, group, "/tournament")
    assert "Only the chat's admins" in fake.last_message(group.id).content

    card = await open_tournament(env, alice, group)
    assert "round robin" in card.content and "in private chats" in card.content
    tournament_id, _ = await running(env, group)
    assert any(b.url and f"start=t_{tournament_id}" in b.url for row in card.buttons() for b in row)

    # Bob joins without having opened the bot: the join is kept, and he is told to open it
    await h.press_button(bob, fake.chats[group.id][card.message_id], "Join")
    assert "open it once" in (fake.toasts_for(bob.id)[-1] or "")
    await open_bot(env, bob, tournament_id)
    for user in (alice, carol, dave):
        await open_bot(env, user, tournament_id)
        await h.press_button(user, fake.chats[group.id][card.message_id], "Join")
        assert fake.toasts_for(user.id)[-1] == "You are in!"
    await h.press_button(bob, fake.chats[group.id][card.message_id], "Join")
    assert fake.toasts_for(bob.id)[-1] == "You have already joined."
    card = fake.chats[group.id][card.message_id]
    assert "Players (4/16)" in card.content
    for name in ("Alice", "Bob", "Carol", "Dave"):
        assert f"{name} (1500)" in card.content

    # only the organiser starts it
    await h.press_button(bob, card, "Start")
    assert fake.toasts_for(bob.id)[-1] == "Only the organiser or an admin can do this."
    await h.press_button(stranger, card, "Join")  # anyone can still join before the start …
    await h.press_button(stranger, fake.chats[group.id][card.message_id], "Leave")  # … and leave
    assert fake.toasts_for(stranger.id)[-1] == "You have left the tournament."
    await h.press_button(alice, fake.chats[group.id][card.message_id], "Start")
    assert fake.toasts_for(alice.id)[-1] == "The tournament has started!"
    assert "Registration is closed: 4 players" in fake.chats[group.id][card.message_id].content

    rounds_seen = 0
    for round_number in (1, 2, 3):
        announcement = next(m for m in reversed(fake.messages(group.id)) if f"Round {round_number}" in m.content)
        assert "tg://user?id=" in (announcement.text or "")
        assert "boards are in your private chats" in announcement.content
        games = await active_games(env, tournament_id)
        assert len(games) == 2, games
        for user in users.values():  # every player has the board of their match in private
            assert _photos(env, user.id)
        for game_id in games.values():
            await resign_game(env, game_id, users)
        rounds_seen += 1
    assert rounds_seen == 3

    record = await record_of(env, tournament_id)
    assert record.status == "finished"
    assert await sqlite_store.chat_tournament(group.id) is None
    results = [m.content for m in fake.messages(group.id) if "beat" in m.content]
    assert len(results) == 6
    final = fake.last_message(group.id)
    assert "The tournament is over" in final.content and "Winner:" in final.content
    standings = _photos(env, group.id)
    assert standings, "the live standings picture is posted in the group"

    await h.send_text(carol, group, "/tournament last")
    assert fake.last_message(group.id).photo is not None
    await env.close()
