"""Group tournaments of the other formats end to end, each played to the end through the real Dispatcher: a Swiss
with an odd field (a bye each round) and a withdrawal, a single elimination to its final, and a double elimination
through the losers' bracket to the grand final. People play computer players (added on the registration card) in
their private chats, resigning; matches between two computer players are simulated by the bot."""

from __future__ import annotations

import re
from collections import Counter

from aiogram.types import Chat, User

from bot.model.tournament import TournamentRecord
from bot.storage import Store
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.tournament_drive import (
    active_games,
    open_bot,
    open_tournament,
    record_of,
    resign_game,
    running,
    tournament_env,
)
from tests.bot.fake_telegram import ShownMessage
from tournaments import Elimination, Swiss


def _texts(env: Env, chat_id: int) -> list[str]:
    """Return the texts of the bot's messages in the chat (not the pictures' captions)."""
    return [m.content for m in env.fake.messages(chat_id) if m.photo is None]


async def _people_of(env: Env, game_id: str) -> list[int]:
    """Return the user ids of the people playing a game."""
    stored = await env.store.get_game(game_id)
    assert stored is not None
    return [int(p["id"]) for p in stored.data["players"] if not p.get("ai")]


def _announcement(env: Env, group: Chat, label: str) -> ShownMessage:
    """Return the group's only announcement of the matches of the round called ``label``."""
    found = [m for m in env.fake.messages(group.id) if m.content.startswith(f"{label}\n")]
    assert len(found) == 1, [m.content for m in env.fake.messages(group.id)]
    return found[0]


def _announced_rounds(env: Env, group: Chat, name: str) -> list[str]:
    """Return the round labels under which the group's announcements list a match of the player ``name``."""
    labels = []
    for message in env.fake.messages(group.id):
        lines = message.content.splitlines()
        if not lines or not lines[-1].startswith("Every match has started"):
            continue
        label = ""
        for line in lines:
            if " – " not in line:
                label = line
            elif name in line.split(" – "):
                labels.append(label)
    return labels


def _photos(env: Env, chat_id: int) -> list[ShownMessage]:
    return [m for m in env.fake.messages(chat_id) if m.photo is not None]


async def _register(
    env: Env, organiser: User, group: Chat, people: list[User], computers: int, presses: tuple[str, ...]
) -> tuple[str, ShownMessage]:
    """Open a tournament with the option ``presses``, have ``people`` open the bot and join, the organiser add
    ``computers`` easy computer players, and start it. Returns the tournament id and the card."""
    fake, h = env.fake, env.h
    card = await open_tournament(env, organiser, group, presses)
    tournament_id, _ = await running(env, group)
    for user in people:
        await open_bot(env, user, tournament_id)
        await h.press_button(user, fake.chats[group.id][card.message_id], "Join")
        assert fake.toasts_for(user.id)[-1] == "You are in!"
    for _ in range(computers):
        await h.press_button(organiser, fake.chats[group.id][card.message_id], "easy")
        assert fake.toasts_for(organiser.id)[-1] == "Computer player added."
    total = len(people) + computers
    card = fake.chats[group.id][card.message_id]
    assert f"Players ({total}/" in card.content, card.content
    assert "Computer 1 (easy)" in card.content
    await h.press_button(organiser, card, "Start")
    assert fake.toasts_for(organiser.id)[-1] == "The tournament has started!"
    card = fake.chats[group.id][card.message_id]
    assert f"Registration is closed: {total} players" in card.content
    return tournament_id, card


async def _play_round(env: Env, tournament_id: str, users: dict[int, User]) -> list[str]:
    """Resign every running game of the tournament (the person to act resigns). Returns the losers' names."""
    losers = []
    for game_id in (await active_games(env, tournament_id)).values():
        losers.append((await resign_game(env, game_id, users)).first_name)
    return losers


async def _play_out(env: Env, tournament_id: str, users: dict[int, User], *, limit: int = 40) -> TournamentRecord:
    """Play the tournament's games until it is over. Returns the finished record."""
    for _ in range(limit):
        record = await record_of(env, tournament_id)
        if record.status == "finished":
            return record
        assert await active_games(env, tournament_id), f"stuck: nothing to play in {record}"
        await _play_round(env, tournament_id, users)
    raise AssertionError("the tournament did not end")


def _check_end(env: Env, group: Chat, winner_names: list[str]) -> str:
    final = env.fake.last_message(group.id)
    assert "The tournament is over" in final.content, final.content
    assert "Winner:" in final.content
    assert any(f"Winner: {name}" in final.content for name in winner_names), final.content
    return final.content


async def test_seven_player_swiss_with_byes_and_a_withdrawal(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("swiss-7")))
    fake, h = env.fake, env.h
    alice, bob, carol = (fake.user(i, n, "en") for i, n in enumerate(("Alice", "Bob", "Carol"), 1))
    users = {u.id: u for u in (alice, bob, carol)}
    group = fake.group_chat(-700, admins=[alice.id])

    tournament_id, card = await _register(env, alice, group, [alice, bob, carol], 4, ("Format:", "Format:"))
    assert "Swiss" in card.content and "Rounds: auto" in card.content
    record = await record_of(env, tournament_id)
    tournament = record.tournament()
    assert isinstance(tournament, Swiss) and tournament.rounds == 4  # ⌈log2 7⌉ + 1

    # round 1: announced with mentions and the bye; every person's board is in their private chat
    announcement = _announcement(env, group, "Round 1")
    assert "tg://user?id=" in (announcement.text or "")
    assert "Bye (1 point):" in announcement.content
    assert "boards are in your private chats" in announcement.content
    games = await active_games(env, tournament_id)
    assert games
    playing = {user_id for g in games.values() for user_id in await _people_of(env, g)}
    for user in users.values():
        if user.id in playing:
            assert board_message(fake, user.id).photo is not None
    await _play_round(env, tournament_id, users)
    assert _photos(env, group.id), "the standings picture is in the group"

    # round 2: a person with a game withdraws from the menu under the standings (two presses)
    announcement = _announcement(env, group, "Round 2")
    assert "Bye (1 point):" in announcement.content
    games = await active_games(env, tournament_id)
    quitter_game = ""
    for game_id in games.values():
        if people := await _people_of(env, game_id):
            quitter_game, quitter = game_id, users[people[0]]
            break
    assert quitter_game, "a person plays in round 2"
    quitter_pid = f"u{quitter.id}"
    await h.send_text(quitter, group, "/tournament")
    menu = fake.last_message(group.id)
    assert menu.photo is not None and "Standings" in menu.content
    await h.press_button(quitter, menu, "Withdraw")
    assert "again" in (fake.toasts_for(quitter.id)[-1] or ""), fake.toasts_for(quitter.id)[-1]
    assert quitter_pid not in (await record_of(env, tournament_id)).tournament().withdrawn
    await h.press_button(quitter, menu, "Withdraw")
    assert fake.toasts_for(quitter.id)[-1] == "You have withdrawn from the tournament."
    stored = await sqlite_store.get_game(quitter_game)
    assert stored is not None and stored.finished, "the withdrawn player's game is ended"
    assert stored.data.get("forfeit") is not None
    forfeits = [t for t in _texts(env, group.id) if "by forfeit" in t]
    assert len(forfeits) == 1 and f"beat {quitter.first_name} by forfeit" in forfeits[0], forfeits
    assert "Round 2:" in forfeits[0]
    await h.press_button(quitter, menu, "Withdraw")  # a third press: no longer playing
    assert fake.toasts_for(quitter.id)[-1] == "You are not playing in this tournament."

    record = await _play_out(env, tournament_id, users)
    tournament = record.tournament()
    assert isinstance(tournament, Swiss) and tournament.is_over
    assert len(tournament.paired) == 4
    pairs = [frozenset((m.first, m.second)) for r in tournament.paired for m in r.matches]
    assert len(pairs) == len(set(pairs)), "no rematch"
    byes = Counter(b.player for b in tournament.byes())
    assert max(byes.values()) == 1, byes  # at most one bye per player
    # a bye in each round of the odd field (rounds 1–2); after the withdrawal six are left: no bye
    assert [b.round for b in tournament.byes()] == [1, 2]
    assert quitter_pid in tournament.withdrawn
    for later in tournament.paired[2:]:
        assert all(quitter_pid not in (m.first, m.second) for m in later.matches)
        assert len(later.matches) == 3 and not later.byes
    for number in (3, 4):
        announced = _announcement(env, group, f"Round {number}").content
        assert "Bye" not in announced and quitter.first_name not in announced, announced
    results = [t for t in _texts(env, group.id) if " beat " in t]
    assert sum(t.count(" beat ") for t in results) == sum(len(r.matches) for r in tournament.paired)
    winners = [record.entrant(p).name for p in tournament.winners()]  # type: ignore[union-attr]
    _check_end(env, group, winners)
    assert record.status == "finished"
    assert await sqlite_store.chat_tournament(group.id) is None
    await env.close()


async def test_eight_player_single_elimination_to_the_final(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("se-8")))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {u.id: u for u in (alice, bob)}
    group = fake.group_chat(-800, admins=[alice.id])

    # Alice joins first and Bob after the six computers: seeds 1 and 8 (equal ratings keep the joining order),
    # who meet in the first round (1 v 8)
    presses = ("Format:",) * 3
    card = await open_tournament(env, alice, group, presses)
    assert "single elimination" in card.content
    tournament_id, _ = await running(env, group)
    await open_bot(env, alice, tournament_id)
    await h.press_button(alice, fake.chats[group.id][card.message_id], "Join")
    for _ in range(6):
        await h.press_button(alice, fake.chats[group.id][card.message_id], "easy")
    await open_bot(env, bob, tournament_id)
    await h.press_button(bob, fake.chats[group.id][card.message_id], "Join")
    assert fake.toasts_for(bob.id)[-1] == "You are in!"
    card = fake.chats[group.id][card.message_id]
    assert "Players (8/16)" in card.content and "8. Bob (1500)" in card.content
    assert "· easy" not in card.content  # the computer's name says its level once
    await h.press_button(alice, card, "Start")
    record = await record_of(env, tournament_id)
    tournament = record.tournament()
    assert isinstance(tournament, Elimination) and not tournament.double and not tournament.byes()

    first = _announcement(env, group, "Quarterfinal")  # knock-out rounds named as players say them
    assert "Alice – Bob" in first.content, first.content
    assert first.text is not None and "tg://user?id=1" in first.text and "tg://user?id=2" in first.text
    assert "Winners'" not in first.content and "Losers'" not in first.content
    games = await active_games(env, tournament_id)
    assert len(games) == 1
    game_id = next(iter(games.values()))
    assert board_message(fake, alice.id).photo is not None and board_message(fake, bob.id).photo is not None
    loser = await resign_game(env, game_id, users)
    winner = bob if loser is alice else alice
    results = [
        t for t in _texts(env, group.id) if f"Quarterfinal: {winner.first_name} beat {loser.first_name} 1–0" in t
    ]
    assert results, _texts(env, group.id)
    # the other first-round matches are between computers: simulated and reported, with no board
    assert sum(t.count("Quarterfinal: Computer") for t in _texts(env, group.id)) == 3

    # the loser is out: withdrawing is refused; the winner plays on (against a computer, and resigns)
    await h.send_text(loser, group, "/tournament")
    menu = fake.last_message(group.id)
    assert menu.photo is not None
    await h.press_button(loser, menu, "Withdraw")
    assert fake.toasts_for(loser.id)[-1] == "You are not playing in this tournament."
    await h.press_button(winner, menu, "My match")
    assert "Your match: against Computer" in (fake.toasts_for(winner.id)[-1] or "")
    assert any(t.startswith("Semifinal\n") and winner.first_name in t for t in _texts(env, group.id))

    record = await _play_out(env, tournament_id, users)
    tournament = record.tournament()
    assert isinstance(tournament, Elimination) and tournament.is_over
    assert len(tournament.played()) == 7 and not any(r.forfeit for _, r in tournament.played())
    final_result = next(r for m, r in tournament.played() if m.round == 3)
    assert final_result.winner is not None and tournament.winners() == (final_result.winner,)
    champion = record.entrant(final_result.winner)
    assert champion is not None
    texts = _texts(env, group.id)
    assert sum(t.count(" beat ") for t in texts) == 7
    assert any(f"Final: {champion.name} beat " in t for t in texts), texts
    standings = _photos(env, group.id)
    assert standings and any("Final:" in m.content for m in standings)  # the bracket's results in the caption
    _check_end(env, group, [champion.name])
    assert record.status == "finished" and await sqlite_store.chat_tournament(group.id) is None
    await env.close()


async def test_five_player_double_elimination_through_the_losers_bracket(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("de-5")))
    fake, h = env.fake, env.h
    alice = fake.user(1, "Alice", "en")
    users = {alice.id: alice}
    group = fake.group_chat(-900, admins=[alice.id])

    tournament_id, card = await _register(env, alice, group, [alice], 4, ("Format:",) * 4)
    assert "double elimination" in card.content
    record = await record_of(env, tournament_id)
    tournament = record.tournament()
    assert isinstance(tournament, Elimination) and tournament.double
    assert len(tournament.byes()) == 3 and "u1" in {b.player for b in tournament.byes()}  # top seeds: byes

    # Alice (seed 1, a bye) plays her first match in the winners' bracket's second round, loses, drops to the
    # losers' bracket, plays there and loses again: she is out
    boards = []
    for _ in range(4):
        games = await active_games(env, tournament_id)
        if not games:
            break
        assert len(games) == 1
        boards.append(board_message(fake, alice.id).message_id)
        await h.send_text(alice, group, "/tournament")  # the menu's pairings name the bracket's round
        await h.press_button(alice, fake.last_message(group.id), "Pairings")
        pairings = fake.last_message(group.id).content
        assert pairings.startswith("Matches being played:") and "Alice" in pairings
        assert "Winners' semifinal: " in pairings or "Losers' round 3: " in pairings, pairings
        await resign_game(env, next(iter(games.values())), users)
    assert _announced_rounds(env, group, "Alice") == ["Winners' semifinal", "Losers' round 3"]
    assert len(set(boards)) == 2, "each match has its own board in her private chat"
    record = await _play_out(env, tournament_id, users)
    tournament = record.tournament()
    assert isinstance(tournament, Elimination) and tournament.is_over
    texts = _texts(env, group.id)
    lines = [line for t in texts for line in t.splitlines()]
    assert any(line.startswith("Winners' quarterfinal: ") and " beat " in line for line in lines), lines
    assert any(line.startswith("Losers' round ") and " beat " in line for line in lines), lines
    assert any(line.startswith("Losers' round 3: ") and "beat Alice 1–0" in line for line in lines), lines
    grand = [line for line in lines if line.startswith(("Grand final: ", "Grand final, deciding match: "))]
    finals = [m for m, _ in tournament.played() if m.bracket == "final"]
    assert 1 <= len(finals) == len(grand) <= 2, (finals, grand)
    champion = record.entrant(tournament.winners()[0])
    assert champion is not None and f": {champion.name} beat " in grand[-1]
    if len(finals) == 2:  # the bracket reset: the deciding match has its own name
        assert grand[-1].startswith("Grand final, deciding match: ")
    assert not any(re.match(r"Round \d", line) for line in lines), lines  # every label names its bracket
    # every player but the champion lost twice, the champion at most once
    losses = Counter(m.opponent(r.winner) for m, r in tournament.played() if r.winner is not None)
    assert all(losses[e.pid] == 2 for e in record.entrants if e.pid != champion.pid), losses
    assert losses[champion.pid] <= 1
    assert _photos(env, group.id)
    _check_end(env, group, [champion.name])
    assert record.status == "finished" and await sqlite_store.chat_tournament(group.id) is None
    await env.close()
