"""An arena end to end (issue 47, docs/rules.md "Arena"), on virtual time through the real Dispatcher over the fake
Bot API: six people in a group for ten virtual minutes — joins (two of them late), a leave, a berserk, a first move
missed (lost on time and paused, then back), games resigned as soon as they have lasted a little — and the result.
What each one sees is checked (the boards in their private chats, the notice to the paused player, the group's card
and standings and result), that nobody is ever in two games at once, and that the group's sends and edits stayed
within its budget of about twenty a minute. The group's standings and result are pictures (one standings message,
edited in place); in a group whose admins forbid the bot's media they are the text table, and the admins are told
once."""

from __future__ import annotations

import io
from typing import Any

import pytest
from aiogram.methods import TelegramMethod
from aiogram.types import User
from PIL import Image

from bot.model.arena import ArenaRecord
from bot.model.game import GameRecord
from bot.services.arena.table import standings
from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.test_clock import START, Now
from tests.bot.e2e.tournament_drive import resign_game

GROUP = -4700
END = 600.0
"""The arena's length: ten minutes."""
STEP = 5.0
RESIGN_AFTER = 20.0
"""A game is resigned by its player to act once it has lasted this long."""
LAST_RESIGN = END - 30.0
"""From then on nobody resigns: the games still running at the end finish later and do not count."""


class GroupCalls:
    """The sender's Bot API caller, logging (services' time, method, chat) of every call."""

    def __init__(self, bot: Any, now: Now) -> None:
        self.bot = bot
        self.now = now
        self.calls: list[tuple[float, str, Any]] = []

    async def __call__(self, method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        self.calls.append((self.now.now, method.__api_method__, getattr(method, "chat_id", None)))
        return await self.bot(method, request_timeout)


async def arena_of(env: Env) -> tuple[str, ArenaRecord]:
    """Return the id and record of the group's running (or last) arena."""
    arena_id = env.arena_id  # type: ignore[attr-defined]
    loaded = await env.service.arenas.records.load(arena_id)
    assert loaded is not None
    return arena_id, loaded[1]


async def make_first_move(env: Env, game_id: str, users: dict[int, User]) -> User:
    """Have the player to act play until the turn passes. Returns that player."""
    stored, match = await state(env, game_id)
    mover = awaited_user(stored, match, users)
    for _ in range(10):
        stored, match = await state(env, game_id)
        if stored.finished or awaited_user(stored, match, users) != mover:
            return mover
        board = board_message(env.fake, mover.id)
        await env.h.press(mover, mover.id, board.message_id, board.buttons()[0][0].callback_data or "")
    raise AssertionError("the turn did not pass")


@pytest.mark.parametrize("forbids_media", [False, True], ids=["pictures", "media-forbidden"])
async def test_an_arena_of_six_in_a_group_for_ten_minutes(sqlite_store: Store, forbids_media: bool) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("arena-1"), clock=now)
    env.service.arenas.reconciler.wave_delay = 0.0
    log = GroupCalls(env.sender._bot, now)
    env.sender._bot = log  # type: ignore[assignment]
    fake, h = env.fake, env.h
    names = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
    people = [fake.user(i, name, "en") for i, name in enumerate(names, 1)]
    alice, bob, carol, dave, erin, frank = people
    users = {u.id: u for u in people}
    group = fake.group_chat(GROUP, admins=[alice.id])
    if forbids_media:
        fake.media_forbidden.add(group.id)  # "Send media" is off for members, and the bot is no admin
    for user in people:  # each opens the bot in private, where the games come
        await h.send_text(user, fake.private_chat(user), "/start")

    await h.send_text(alice, group, "/arena short 10 clock 12+1")
    card = fake.last_message(group.id)
    assert "Arena" in card.content and "10 min" in card.content and "12+1" in card.content, card.content
    assert {"⚔️ Join", "🚪 Leave", "⏸ Pause", "▶️ Back"} <= set(card.button_texts())
    arena_id = await sqlite_store.chat_tournament(group.id)
    assert arena_id is not None
    env.arena_id = arena_id  # type: ignore[attr-defined]
    # a second arena (or tournament) in the same group is refused while this one runs: its standings instead
    await h.send_text(bob, group, "/arena")
    assert "Arena standings" in fake.last_message(group.id).content

    async def press_card(user: User, text: str) -> str | None:
        await h.press_button(user, fake.chats[group.id][card.message_id], text)
        return fake.toasts_for(user.id)[-1]

    berserk_game: str | None = None
    berserker: User | None = None
    time_loss_game: str | None = None
    paused: User | None = None
    games_seen: dict[int, set[str]] = {u.id: set() for u in people}
    bob_left_at: float | None = None

    async def step() -> None:
        """One step of virtual time: the periodic sweep, the players' moves, and the invariant."""
        nonlocal berserk_game, berserker, time_loss_game, paused
        now.now += STEP
        await env.service.periodic.sweep_once()
        await env.service.settle()
        _, record = await arena_of(env)
        playing = [u for game in record.running for u in game.players]
        assert len(playing) == len(set(playing)), record.running  # nobody in two games at once
        for game in record.running:
            for user_id in game.players:
                games_seen[user_id].add(game.game_id)
            stored = await sqlite_store.get_game(game.game_id)
            assert stored is not None
            if stored.finished:
                continue
            if berserk_game is None:  # the first game: its first player goes berserk, then wins
                berserk_game = game.game_id
                stored, match = await state(env, game.game_id)
                berserker = awaited_user(stored, match, users)
                board = board_message(fake, berserker.id)
                assert "Arena" in board.content
                await h.press_button(berserker, board, "Berserk")
                assert "Berserk!" in (fake.toasts_for(berserker.id)[-1] or "")
                record_now = GameRecord.from_stored((await state(env, game.game_id))[0])
                assert record_now.clock is not None and record_now.clock.berserk
                assert record_now.clock.reserves[record_now.clock.berserk[0]] == 30.0  # half of a minute
                assert f"Berserk: {berserker.first_name}" in board_message(fake, berserker.id).content
                await make_first_move(env, game.game_id, users)
                await resign_game(env, game.game_id, users)  # the opponent, to act now, resigns
                continue
            if time_loss_game is None and dave.id in game.players:
                time_loss_game = game.game_id  # nobody moves: the first move's window runs out
                continue
            if game.game_id == time_loss_game:
                continue
            if now.now - game.started_at >= RESIGN_AFTER and now.now < START + LAST_RESIGN:
                await resign_game(env, game.game_id, users)

    await press_card(alice, "Join")
    assert await press_card(bob, "Join") == "You are in! Your games come to your private chat with the bot."
    assert await press_card(bob, "Join") == "You are in already: wait for your opponent."
    _, record = await arena_of(env)
    (first,) = record.running
    assert set(first.players) == {alice.id, bob.id}
    for user in (alice, bob):  # the game's boards are in both private chats, none in the group
        assert "Arena" in board_message(fake, user.id).content
    await step()
    await press_card(carol, "Join")
    await press_card(dave, "Join")
    while now.now < START + END + STEP:
        at = now.now - START
        if at >= 60 and not (await arena_of(env))[1].player(erin.id):
            await press_card(erin, "Join")  # late
        if at >= 120 and bob_left_at is None:
            assert await press_card(bob, "Leave") == (
                "You left the arena. Your score stays; a game you are playing still counts."
            )
            bob_left_at = now.now
        if at >= 180 and not (await arena_of(env))[1].player(frank.id):
            await press_card(frank, "Join")  # later still
        if paused is None and time_loss_game is not None:
            _, record = await arena_of(env)
            paused = next((u for u in people if (p := record.player(u.id)) is not None and p.paused), None)
        if paused is not None and at >= 240 and (await arena_of(env))[1].player(paused.id).paused:  # type: ignore[union-attr]
            notice = next(m for m in fake.messages(paused.id) if "did not move within 60 seconds" in m.content)
            await h.press_button(paused, notice, "Back")
            assert fake.toasts_for(paused.id)[-1] == "Welcome back: you get an opponent as soon as one is free."
        await step()

    _, record = await arena_of(env)
    assert record.status == "finished" and record.result_posted
    assert record.late, "games were running at the end"
    # the berserk game: the berserker won it within 7 moves, so 2 points and no berserk point
    (counted,) = [g for g in record.games if g.game_id == berserk_game]
    assert berserker is not None and counted.players[counted.winner] == berserker.id
    assert counted.berserk[counted.winner] and counted.moves[counted.winner] < 7
    # the first move missed: lost on time, paused, told so in private with a Back button, and back afterwards
    (lost,) = [g for g in record.games if g.game_id == time_loss_game]
    assert lost.on_time and paused is not None and lost.players[1 - lost.winner] == paused.id
    notice = next(m for m in fake.messages(paused.id) if "did not move within 60 seconds" in m.content)
    assert notice.button_texts() == ["▶️ Back"]
    assert any(paused.id in g.players and g.ended_at > lost.ended_at for g in (*record.games, *record.late)) or any(
        paused.id in g.players for g in record.late
    )
    # the late joiners played; Bob, gone after two minutes, started no game afterwards
    for user in (erin, frank):
        assert games_seen[user.id], user.first_name
        assert any(m.photo is not None for m in fake.messages(user.id))
    assert bob_left_at is not None
    assert all(g.ended_at <= bob_left_at + 600 for g in record.games if bob.id in g.players)
    bob_player = record.player(bob.id)
    assert bob_player is not None and bob_player.withdrawn
    # the group: the card (now final, saying that the late games do not count), standings, the result — no boards
    card = fake.chats[group.id][card.message_id]
    assert "The arena is over" in card.content and "do not count" in card.content, card.content
    result = fake.last_message(group.id)
    assert "Arena result" in result.content and "games counted" in result.content, result.content
    assert result.reply_to == card.message_id
    assert record.standings_message_id is not None
    live = fake.chats[group.id][record.standings_message_id]
    assert "Arena standings" in live.content and "10 min" in live.content, live.content
    photos = [m for m in fake.messages(group.id) if m.photo is not None or m.photo_file_id is not None]
    notices = [m for m in fake.messages(group.id) if m.content == tr("en", "media.notice")]
    if forbids_media:  # the text table in the pictures' place, and the admins told once
        assert not photos and live.photo is None and result.photo is None
        assert "Alice" in result.content and "1. " in result.content, result.content
        assert len(notices) == 1
    else:  # the group's only pictures: the standings (one message, edited in place) and the result, no boards
        assert {m.message_id for m in photos} == {live.message_id, result.message_id}
        assert live.edits > 0
        for shown in (live, result):
            assert shown.photo is not None
            image = Image.open(io.BytesIO(shown.photo))
            assert image.format == "JPEG" and 400 <= image.width <= 860, image.size
        winner = record.player(int(standings(record)[0].player))
        assert winner is not None and f"🥇 {winner.name}" in result.content, result.content
        assert not notices
    in_group = sorted(t for t, _name, chat in log.calls if chat == GROUP)
    window = max(sum(1 for u in in_group if t <= u < t + 60.0) for t in in_group)
    print(f"group calls: {len(in_group)} in {END / 60:.0f} min, at most {window} in 60 s; games {len(record.games)}")
    assert window <= 20
    assert len(in_group) <= 40
    await env.close()
