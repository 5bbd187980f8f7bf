"""Tournaments survive restarts and crashes, forfeit matches at their deadline, and take results arriving together.

- a restart in the middle of a round (SQLite and Redis): a new process on the same store recovers, the round goes
  on, nothing is lost or doubled;
- a crash between a result's save and its announcement: the sweeper posts the line and starts the next round;
- a round deadline on virtual time: a reminder at 3/4 of it, then a forfeit lost by the player to move, unrated;
- two matches ending at the same moment: both recorded once, one next round, one batched message.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from aiogram.types import Chat, User

from bot.model.tournament import TournamentRecord
from bot.storage import Store
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.tournament_drive import active_games, open_bot, record_of, resign_game, running, tournament_env
from tests.bot.fake_telegram import FakeTelegram, ShownMessage

FAR = 10**12
"""A sweep "now" at which every wake-up deadline is due."""


def _people(fake: FakeTelegram) -> dict[int, User]:
    return {u.id: u for u in (fake.user(i, n, "en") for i, n in enumerate(("Alice", "Bob", "Carol", "Dave"), 1))}


async def _open_card(env: Env, organiser: User, group: Chat, *, deadline: str | None = None) -> ShownMessage:
    """Send /tournament, press "Round deadline" until it shows ``deadline`` (when given), open the registration."""
    fake, h = env.fake, env.h
    await h.send_text(organiser, group, "/tournament")
    card = fake.last_message(group.id)
    assert "New tournament" in card.content, card.content
    if deadline is not None:
        for _ in range(10):
            card = fake.chats[group.id][card.message_id]
            if f"Round deadline {deadline}" in card.content:
                break
            await h.press_button(organiser, card, "Round deadline")
        assert f"Round deadline {deadline}" in fake.chats[group.id][card.message_id].content
    await h.press_button(organiser, fake.chats[group.id][card.message_id], "Open registration")
    return fake.chats[group.id][card.message_id]


async def _start_four(env: Env, group_id: int, *, deadline: str | None = None) -> tuple[str, dict[int, User], Chat]:
    """Create, fill (four people who opened the bot) and start a round robin in a new group."""
    fake, h = env.fake, env.h
    users = _people(fake)
    alice = users[1]
    group = fake.group_chat(group_id, admins=[alice.id])
    card = await _open_card(env, alice, group, deadline=deadline)
    tournament_id, _ = await running(env, group)
    for user in users.values():
        await open_bot(env, user, tournament_id)
        await h.press_button(user, fake.chats[group.id][card.message_id], "Join")
    await h.press_button(alice, fake.chats[group.id][card.message_id], "Start")
    assert fake.toasts_for(alice.id)[-1] == "The tournament has started!"
    return tournament_id, users, group


def _announcements(env: Env, group_id: int, round_number: int) -> list[ShownMessage]:
    """Return the group's announcements of the round's pairings."""
    return [
        m
        for m in env.fake.messages(group_id)
        if m.content.splitlines()[:1] == [f"Round {round_number}"] and "Deadline:" in m.content
    ]


def _result_lines(env: Env, group_id: int) -> list[str]:
    return [line for m in env.fake.messages(group_id) for line in m.content.splitlines() if " beat " in line]


def _assert_exactly_once(record: TournamentRecord, env: Env, group_id: int, matches: int) -> None:
    tournament = record.tournament()
    ids = [r.match_id for r in tournament.results]
    assert len(ids) == matches and len(set(ids)) == matches, ids
    lines = _result_lines(env, group_id)
    assert len(lines) == matches, lines
    assert max(Counter(lines).values()) == 1, lines
    assert not record.outbox


async def _offer_resign(env: Env, game_id: str, users: dict[int, User]) -> tuple[User, ShownMessage, str]:
    """Have the player to act offer to resign the (single-game) match in private; return the opponent, the board
    they see and the callback data of its "Accept" button."""
    fake, h = env.fake, env.h
    stored, match = await state(env, game_id)
    loser = awaited_user(stored, match, users)
    chat = fake.private_chat(loser)
    await h.send_text(loser, chat, "/resign")
    menu = fake.last_message(chat.id)
    if "Which game" in menu.content:
        button = next(b for row in menu.buttons() for b in row if b.callback_data and game_id in b.callback_data)
        await h.press(loser, chat.id, menu.message_id, button.callback_data or "")
        menu = fake.last_message(chat.id)
    await h.press_button(loser, menu, "single game")
    opponent = next(users[p["id"]] for p in stored.data["players"] if p["id"] != loser.id)
    board = board_message(fake, opponent.id)
    accept = board.button("Accept").callback_data
    assert accept is not None
    return opponent, board, accept


# ====================================================================== restart in the middle of a round


async def _restart_in_the_middle_of_a_round(store: Store, group_id: int) -> None:
    env = tournament_env(Env(store, seeded("restart-rr")))
    tournament_id, users, _group = await _start_four(env, group_id)
    games = await active_games(env, tournament_id)
    assert len(games) == 2
    _first_match, first_game = sorted(games.items())[0]
    await resign_game(env, first_game, users)
    assert len(_result_lines(env, group_id)) == 1
    assert len(_announcements(env, group_id, 1)) == 1

    # the bot restarts: the old process stops, a new one on the same store (and the same Telegram) recovers
    await env.service.stop_computer()
    await env.close()
    env2 = tournament_env(Env(store, seeded("restart-rr"), fake=env.fake))
    await env2.service.recover()
    await env2.service.tournaments.reconciler.sweep(FAR)
    await env2.service.settle()
    assert len(_result_lines(env2, group_id)) == 1, "nothing is posted again after the restart"
    assert len(_announcements(env2, group_id, 2)) == 0

    for _ in range(3):
        games = await active_games(env2, tournament_id)
        assert games, "a round is running"
        for game_id in games.values():
            await resign_game(env2, game_id, users)
    await env2.service.tournaments.reconciler.sweep(FAR)
    await env2.service.settle()

    record = await record_of(env2, tournament_id)
    assert record.status == "finished"
    _assert_exactly_once(record, env2, group_id, 6)
    for round_number in (1, 2, 3):
        assert len(_announcements(env2, group_id, round_number)) == 1, round_number
    contents = [m.content for m in env2.fake.messages(group_id)]
    # every round's results come before the next round's pairings
    last_result_of_round_1 = max(i for i, c in enumerate(contents) if c.startswith("Round 1:"))
    assert last_result_of_round_1 < contents.index(_announcements(env2, group_id, 2)[0].content)
    finals = [m for m in env2.fake.messages(group_id) if "The tournament is over" in m.content]
    assert len(finals) == 1
    assert await store.chat_tournament(group_id) is None
    await env2.close()


async def test_restart_in_the_middle_of_a_round_sqlite(sqlite_store: Store) -> None:
    await _restart_in_the_middle_of_a_round(sqlite_store, -610)


async def test_restart_in_the_middle_of_a_round_redis(redis_store: Store) -> None:
    await _restart_in_the_middle_of_a_round(redis_store, -614)


async def test_crash_after_a_result_is_saved_is_converged_by_the_sweeper(sqlite_store: Store) -> None:
    group_id = -611
    env = tournament_env(Env(sqlite_store, seeded("crash-rr")))
    tournament_id, users, _group = await _start_four(env, group_id)
    games = sorted((await active_games(env, tournament_id)).items())
    await resign_game(env, games[0][1], users)

    # the process dies right after the result's save: no background reconcile runs
    service = env.service.tournaments.reconciler
    requested: list[str] = []
    original_request = service.request
    service.request = lambda tournament_id, *, delay=0.0: requested.append(tournament_id)  # type: ignore[method-assign]
    await resign_game(env, games[1][1], users)
    service.request = original_request  # type: ignore[method-assign]
    assert requested == [tournament_id]
    record = await record_of(env, tournament_id)
    assert len(record.tournament().results) == 2 and record.outbox == (games[1][0],)
    assert len(_result_lines(env, group_id)) == 1
    assert not _announcements(env, group_id, 2)

    # the sweeper finds the tournament due and converges: the line is posted, round 2 starts
    assert await service.sweep(FAR) == 1
    await env.service.settle()
    assert len(_result_lines(env, group_id)) == 2
    assert len(_announcements(env, group_id, 2)) == 1
    assert len(await active_games(env, tournament_id)) == 2
    assert await service.sweep(FAR) <= 1
    assert len(_result_lines(env, group_id)) == 2 and len(_announcements(env, group_id, 2)) == 1

    # posting fails once (a crash in the middle of the reconcile): the sweeper posts it later, once
    games = sorted((await active_games(env, tournament_id)).items())
    failing = {"left": 1}
    post = service._post_results

    async def post_once_failing(*args: Any) -> bool:
        if failing["left"]:
            failing["left"] -= 1
            raise RuntimeError("simulated crash before the result line")
        return await post(*args)

    service._post_results = post_once_failing  # type: ignore[method-assign]
    await resign_game(env, games[0][1], users)
    assert failing["left"] == 0
    assert len(_result_lines(env, group_id)) == 2
    assert (await record_of(env, tournament_id)).outbox == (games[0][0],)
    await service.sweep(FAR)
    await env.service.settle()
    assert len(_result_lines(env, group_id)) == 3
    assert not (await record_of(env, tournament_id)).outbox
    await env.close()


# ====================================================================== a deadline forfeit on virtual time


async def test_round_deadline_reminds_then_forfeits(sqlite_store: Store) -> None:
    now = [1_000_000.0]
    group_id = -612
    env = tournament_env(Env(sqlite_store, seeded("deadline-rr"), clock=lambda: now[0]))
    fake = env.fake
    tournament_id, users, _group = await _start_four(env, group_id, deadline="1 hour")
    record = await record_of(env, tournament_id)
    assert record.settings.deadline_seconds == 3600
    games = sorted((await active_games(env, tournament_id)).items())
    _finished_match, finished_game = games[0]
    late_match, late_game = games[1]
    await resign_game(env, finished_game, users)
    stored, _ = await state(env, late_game)
    late_players = [users[p["id"]] for p in stored.data["players"]]
    finished_players = [users[p["id"]] for p in (await state(env, finished_game))[0].data["players"]]
    ratings_before = await sqlite_store.get_ratings(record.settings.variant, [u.id for u in late_players])

    def reminders(user: User) -> list[ShownMessage]:
        return [m for m in fake.messages(user.id) if "⏰" in m.content]

    now[0] += 30 * 60
    await env.service.tournaments.reconciler.sweep()
    assert not any(reminders(u) for u in users.values()), "not reminded before 3/4 of the deadline"
    now[0] += 15 * 60
    assert await env.service.tournaments.reconciler.sweep() == 1
    await env.service.settle()
    for user in late_players:
        assert len(reminders(user)) == 1, user.first_name
    for user in finished_players:
        assert not reminders(user)
    await env.service.tournaments.reconciler.sweep()
    assert all(len(reminders(u)) == 1 for u in late_players), "reminded once"

    stored, match = await state(env, late_game)
    to_move = stored.data["players"][match.game.turn]["id"]
    now[0] += 16 * 60
    assert await env.service.tournaments.reconciler.sweep() >= 1
    await env.service.settle()
    stored, match = await state(env, late_game)
    assert stored.finished and match.game.result is not None
    assert stored.data["players"][match.game.result.winner]["id"] != to_move
    record = await record_of(env, tournament_id)
    result = next(r for r in record.tournament().results if r.match_id == late_match)
    assert result.forfeit
    loser_pid = next(e.pid for e in record.entrants if e.user_id == to_move)
    assert result.winner != loser_pid
    forfeits = [m for m in fake.messages(group_id) if "by forfeit" in m.content]
    assert len(forfeits) == 1
    loser_name = users[to_move].first_name
    assert f"beat {loser_name} by forfeit" in forfeits[0].content
    for user in late_players:
        board_state = stored.boards[user.id]
        assert board_state.message_id is not None and board_state.shown_version >= stored.version
        board = fake.chats[user.id][board_state.message_id]
        assert "forfeits the tournament match" in board.content, board.content
        assert "Accept" not in {b.text for row in board.buttons() for b in row}
    ratings_after = await sqlite_store.get_ratings(record.settings.variant, [u.id for u in late_players])
    assert {k: v.rating for k, v in ratings_after.items()} == {k: v.rating for k, v in ratings_before.items()}
    assert len(_announcements(env, group_id, 2)) == 1, "round 2 starts after the forfeit"
    await env.close()


# ====================================================================== two results at the same moment


async def test_two_matches_ending_together(sqlite_store: Store) -> None:
    group_id = -613
    env = Env(sqlite_store, seeded("together-rr"))
    env.service.tournaments.reconciler.batch_window = 0.5
    fake = env.fake
    tournament_id, users, _group = await _start_four(env, group_id)
    await env.service.settle()
    games = sorted((await active_games(env, tournament_id)).items())
    assert len(games) == 2
    updates = []
    for _match_id, game_id in games:
        opponent, board, accept = await _offer_resign(env, game_id, users)
        updates.append(fake.callback_update(opponent, opponent.id, board.message_id, accept))
    before = len(fake.messages(group_id))
    await asyncio.gather(env.h.feed(updates[0]), env.h.feed(updates[1]))
    await env.service.settle()
    for _match_id, game_id in games:
        assert (await state(env, game_id))[0].finished

    record = await record_of(env, tournament_id)
    ids = [r.match_id for r in record.tournament().results]
    assert sorted(ids) == sorted(m for m, _ in games)
    assert not record.outbox
    new = fake.messages(group_id)[before:]
    with_results = [m for m in new if " beat " in m.content]
    assert len(with_results) == 1, [m.content for m in new]
    assert len(with_results[0].content.splitlines()) == 2
    assert len(_result_lines(env, group_id)) == 2
    assert len(_announcements(env, group_id, 2)) == 1
    assert len(await active_games(env, tournament_id)) == 2
    await env.service.tournaments.reconciler.sweep(FAR)
    await env.service.settle()
    assert len(_announcements(env, group_id, 2)) == 1 and len(_result_lines(env, group_id)) == 2
    await env.close()
