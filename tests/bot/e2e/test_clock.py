"""Games on a clock end to end (docs/rules.md §1 "Time control"), on virtual time through the real Dispatcher over
the fake Bot API: ``/new … clock 12+1`` starts a clocked game; an action within the delay costs nothing, the time
beyond it comes off the reserve; the caption shows the reserves as of the last action (no extra edits while the
clock runs); running out loses the match exactly once (two sweeps at once, a late press, a restart in between);
the flag falls at the clock's deadline itself, without a sweep (a wake-up of the game: an early, stale or
doubled one changes nothing); a bad clock is refused with the limits; a tournament on a clock records a match lost
on time as a forfeit."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram.types import User

from bot.model.clock import FIRST_MOVE_WINDOW, format_reserve
from bot.model.game import GameRecord
from bot.storage import RedisGameStore, SqliteGameStore, Store
from tests.bot.e2e.drive import awaited_user, press_first, state
from tests.bot.e2e.group_play import board_of, start_game, users
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.e2e.test_vs_computer import fixed_seed
from tests.bot.e2e.texts import EN, has_entry, shown
from tests.bot.e2e.tournament_drive import active_games, open_bot, record_of, running, tournament_env

START = 1_000_000.0


class Now:
    """The services' clock, moved by hand; its :meth:`sleep` (when the services are given it) waits until the clock
    is moved past the sleep's end by :meth:`advance`."""

    def __init__(self) -> None:
        self.now = START
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock reaches ``seconds`` from now (at once for none)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, woken))
        await woken

    async def advance(self, to: float) -> None:
        """Move the clock to ``to`` and wake the sleeps that end by then (letting the woken tasks start)."""
        self.now = to
        due = [(at, woken) for at, woken in self._sleepers if at <= to]
        self._sleepers = [(at, woken) for at, woken in self._sleepers if at > to]
        for _, woken in due:
            if not woken.done():
                woken.set_result(None)
        for _ in range(10):
            await asyncio.sleep(0)


async def _record(env: Env, game_id: str) -> GameRecord:
    stored, _ = await state(env, game_id)
    return GameRecord.from_stored(stored)


async def open_both(env: Env, game_id: str, people: dict[int, User], chat_id: int) -> None:
    """Make each player's first action of the session at once (a first action is timed by the first-move window,
    not the clock), pressing the first button of the awaited player's board as often as that takes."""
    for _ in range(12):
        record = await _record(env, game_id)
        if record.clock is None or not record.clock.first:
            return
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, people), chat_id)
    raise AssertionError("the first actions were not made")


def _clock_line(record: GameRecord) -> str:
    assert record.clock is not None
    first, second = (format_reserve(r) for r in record.clock.reserves)
    return shown(EN, "clock.line", first=first, second=second)


@pytest.fixture(params=["sqlite", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """Yield each real store in turn (SQLite on a fresh file, Redis on a flushed database)."""
    if request.param == "sqlite":
        sqlite: Store = SqliteGameStore(request.getfixturevalue("sqlite_path"))
        yield sqlite
        await sqlite.close()
    else:
        redis: Store = RedisGameStore.from_url(request.getfixturevalue("redis_url"))
        yield redis
        await redis.close()


async def test_the_reserve_runs_down_only_beyond_the_delay_and_running_out_loses_the_match_once(store: Store) -> None:
    """On either back end (the same compare-and-set)."""
    now = Now()
    env = Env(store, seeded("clock-1"), clock=now)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-3401)
    await env.h.send_text(alice, group, "/new short clock 12+1")
    card = fake.last_message(group.id)
    assert shown(EN, "challenge.clock", control="12+1") in card.content
    await env.h.press_button(bob, card, shown(EN, "btn.join"))
    (game_id,) = await store.chat_games(group.id)
    record = await _record(env, game_id)
    clock = record.clock
    assert clock is not None and clock.reserves == (60.0, 60.0)  # a single game: 1 minute per point × 1
    stored, match = await state(env, game_id)
    assert clock.running == match.game.turn and clock.started == START  # the board came at once
    assert _clock_line(record) in board_of(fake, stored, group.id).content

    # each player's first action has the first-move window, and costs nothing from the reserve
    assert clock.opening and clock.deadline() == START + FIRST_MOVE_WINDOW
    now.now += 40
    await open_both(env, game_id, people, group.id)
    record = await _record(env, game_id)
    assert record.clock is not None and record.clock.reserves == (60.0, 60.0) and record.clock.first == ()
    stored, match = await state(env, game_id)

    # an action within the delay costs nothing
    side = record.clock.running
    now.now += 11
    await press_first(env, awaited_user(stored, match, people), group.id)
    record = await _record(env, game_id)
    assert record.clock is not None and record.clock.reserves[side] == 60.0
    # the time beyond the delay comes off the reserve when the action is made
    stored, match = await state(env, game_id)
    side = record.clock.running
    assert side is not None and record.clock.started == now.now
    before = record.clock.reserves[side]
    now.now += 30
    await press_first(env, awaited_user(stored, match, people), group.id)
    record = await _record(env, game_id)
    assert record.clock is not None and record.clock.reserves[side] == before - 18
    stored, match = await state(env, game_id)
    board = board_of(fake, stored, group.id)
    assert _clock_line(record) in board.content  # the caption shows the reserves of the last action

    # while the clock runs, nothing is edited: the caption changes with a saved action only
    edits, sent = board.edits, len(fake.messages(group.id))
    stale = (board.message_id, board.buttons()[0][0].callback_data or "")
    deadline = record.clock.deadline()
    assert deadline is not None and stored.deadline is not None
    now.now = deadline - 1
    await env.service.sweep(now.now)
    await env.service.sweep(now.now)
    assert board_of(fake, stored, group.id).edits == edits and len(fake.messages(group.id)) == sent
    assert not (await state(env, game_id))[0].finished

    # the time runs out: two sweeps at once end the match once, for the player whose clock ran
    now.now = deadline
    loser_side = record.clock.running
    assert loser_side is not None
    loser = people[record.players[loser_side].id]
    results = await asyncio.gather(env.service.sweep(now.now), env.service.sweep(now.now))
    assert sum(results) >= 1
    stored, match = await state(env, game_id)
    assert stored.finished and match.game.result is not None and match.game.result.winner == 1 - loser_side
    record = GameRecord.from_stored(stored)
    assert record.clock is not None and record.clock.flag == loser_side and record.rating_plan is None
    board = board_of(fake, stored, group.id)
    winner_name = record.players[1 - loser_side].name
    assert has_entry(board.content, EN, "over.time", name=winner_name, loser=loser.first_name), board.content
    assert not any(line.startswith("⏱") for line in board.content.splitlines())
    lost_on_time = [m for m in fake.messages(group.id) if "ran out of time on the clock" in m.content]
    assert lost_on_time == [board]  # one message says so: the final board
    version = stored.version

    # a late press, another sweep, and a restart change nothing
    data = stored.data
    for user in (alice, bob):  # a press of a button of the running game comes too late
        await env.h.press(user, group.id, *stale)
    await env.service.sweep(now.now + 10_000)  # at most completes the finished game's effects (idempotent)
    restarted = Env(store, seeded("clock-1"), clock=now, fake=fake)
    assert await restarted.service.sweep(now.now + 20_000) == 0
    stored, _ = await state(env, game_id)
    assert (stored.version, stored.data) == (version, data)
    assert [m for m in fake.messages(group.id) if "ran out of time on the clock" in m.content] == [board]
    stats = await store.chat_stats(group.id)
    assert (stats[loser.id].losses, stats[people[record.players[1 - loser_side].id].id].wins) == (1, 1)
    await restarted.close()
    await env.close()


async def test_an_action_after_the_time_ran_out_loses_on_time_instead(sqlite_store: Store) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("clock-2"), clock=now)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-3402)
    game_id = await start_game(env, group, alice, bob, "short match 3 clock 0+0.25")
    assert game_id
    record = await _record(env, game_id)
    assert record.clock is not None and record.clock.reserves == (45.0, 45.0)  # 0.25 min per point × 3
    await open_both(env, game_id, people, group.id)
    stored, match = await state(env, game_id)
    late = awaited_user(stored, match, people)
    now.now += 46  # no sweep ran yet: the press itself finds the flag fallen
    await press_first(env, late, group.id)
    stored, match = await state(env, game_id)
    assert stored.finished
    record = GameRecord.from_stored(stored)
    assert record.clock is not None and record.players[record.clock.flag or 0].id == late.id
    assert record.clock.flag is not None
    assert has_entry(board_of(fake, stored, group.id).content, EN, "over.time")
    await env.close()


async def test_a_clock_out_of_its_limits_is_refused_and_nothing_is_created(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("clock-3"))
    fake = env.fake
    (alice,) = users(fake, "Alice")
    group = fake.group_chat(-3403)
    await env.h.send_text(alice, group, "/new short clock 90+1")
    assert fake.last_message(group.id).content == shown(EN, "clock.invalid", value="90+1")
    assert not any(m.buttons() for m in fake.messages(group.id))
    await env.h.send_text(alice, fake.private_chat(alice), "/new long контроль 5+2")
    assert shown(EN, "challenge.clock", control="5+2") in fake.last_message(alice.id).content
    await env.close()


async def test_a_tournament_on_a_clock_records_a_match_lost_on_time_as_a_forfeit(sqlite_store: Store) -> None:
    now = Now()
    env = tournament_env(Env(sqlite_store, seeded("clock-t"), clock=now))
    fake, h = env.fake, env.h
    alice, bob = (fake.user(i, n, "en") for i, n in enumerate(("Alice", "Bob"), 1))
    group = fake.group_chat(-3404, admins=[alice.id])
    await h.send_text(alice, group, "/tournament clock 99")
    assert fake.last_message(group.id).content == shown(EN, "clock.invalid", value="99")
    await h.send_text(alice, group, "/tournament clock 10+0.5")
    card = fake.last_message(group.id)
    assert shown(EN, "tour.clock", control="10+0.5") in card.content
    await h.press_button(alice, card, "Format")  # an option changed on the card keeps the clock
    card = fake.chats[group.id][card.message_id]
    assert shown(EN, "tour.clock", control="10+0.5") in card.content
    await h.press_button(alice, card, "Open registration")
    tournament_id, _ = await running(env, group)
    for user in (alice, bob):
        await open_bot(env, user, tournament_id)
        await h.press_button(user, fake.chats[group.id][card.message_id], "Join")
    await h.press_button(alice, fake.chats[group.id][card.message_id], "Start")
    tour = await record_of(env, tournament_id)
    assert tour.settings.clock is not None and tour.settings.clock.label == "10+0.5"
    ((match_id, game_id),) = (await active_games(env, tournament_id)).items()
    record = await _record(env, game_id)
    assert record.clock is not None and record.clock.reserves == (30.0, 30.0)
    deadline = record.clock.deadline()  # the first move's window: missed, it loses a tournament's match
    assert deadline == START + FIRST_MOVE_WINDOW and record.clock.running is not None
    loser = record.players[record.clock.running]
    now.now = deadline
    await env.service.sweep(now.now)
    await env.service.settle()
    tour = await record_of(env, tournament_id)
    (result,) = [r for r in tour.tournament().results if r.match_id == match_id]
    assert result.forfeit and result.winner != f"u{loser.id}"
    assert await env.service.sweep(now.now + 1) >= 0
    tour_again = await record_of(env, tournament_id)
    assert len(tour_again.tournament().results) == len(tour.tournament().results)
    stored, _ = await state(env, game_id)
    assert stored.finished and stored.data["stats_plan"] == []
    name = GameRecord.from_stored(stored).players[1 - record.clock.running].name
    text = shown(EN, "over.first_move.lost", loser=loser.name, name=name, seconds=int(FIRST_MOVE_WINDOW))
    for user in (alice, bob):  # the boards are in the players' private chats
        assert any(text in m.content for m in fake.messages(user.id)), [m.content for m in fake.messages(user.id)]
    await env.close()


async def test_a_restart_between_the_start_and_the_deadline_loses_nothing(sqlite_store: Store) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("clock-4"), clock=now)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-3405)
    game_id = await start_game(env, group, alice, bob, "short clock 0+0.25")
    assert game_id
    await env.close()
    stored, _ = await state(env, game_id)
    record = GameRecord.from_stored(stored)
    deadline = record.clock.deadline() if record.clock else None
    assert deadline == START + FIRST_MOVE_WINDOW and stored.deadline is not None and stored.deadline <= deadline
    restarted = Env(sqlite_store, seeded("clock-4"), clock=now, fake=fake)  # a new process: only the record
    now.now = deadline
    assert await restarted.service.sweep(now.now) == 1
    stored, _ = await state(restarted, game_id)
    assert stored.finished and GameRecord.from_stored(stored).clock is not None
    # the first move's window missed in a casual game: cancelled, counted for nobody
    assert has_entry(board_of(fake, stored, group.id).content, EN, "over.first_move.cancelled")
    assert stored.data["stats_plan"] == [] and await sqlite_store.chat_stats(group.id) == {}
    await restarted.close()


async def test_against_the_computer_only_the_person_s_clock_runs(sqlite_store: Store) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("clock-c"), clock=now, computer=fixed_seed, computer_delay=0)
    fake = env.fake
    (alice,) = users(fake, "Alice")
    await env.h.send_text(alice, fake.private_chat(alice), "/new bot short clock 10+1")
    await env.service.settle()
    (game_id,) = await sqlite_store.user_games(alice.id)
    presses = 0
    for _ in range(6):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        record = GameRecord.from_stored(stored)
        assert record.clock is not None and record.players[1].ai
        assert record.clock.reserves[1] == 60.0  # the computer's reserve is never used
        assert record.clock.running == (0 if match.game.turn == 0 else None)
        if record.clock.running is None:
            break
        now.now += 5
        await press_first(env, alice, alice.id)
        presses += 1
        await env.service.settle()
    assert presses >= 3
    await env.close()


def _ran_out_messages(env: Env, chat_id: int) -> list[str]:
    return [m.content for m in env.fake.messages(chat_id) if "ran out of time on the clock" in m.content]


async def test_the_flag_falls_at_the_clock_s_deadline_without_a_sweep(store: Store) -> None:
    """On either back end; the services sleep on the virtual clock, and no sweep runs."""
    now = Now()
    env = Env(store, seeded("clock-w"), clock=now, sleep=now.sleep)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-3406)
    game_id = await start_game(env, group, alice, bob, "short clock 0+0.25")
    assert game_id
    watch = env.service.clock_watch
    assert watch.alarms.pending(game_id)  # the new game's clock is watched
    await open_both(env, game_id, {alice.id: alice, bob.id: bob}, group.id)
    record = await _record(env, game_id)
    assert record.clock is not None and record.clock.running is not None
    deadline = record.clock.deadline()
    assert deadline == START + 15
    loser_side = record.clock.running
    await now.advance(deadline - 0.5)
    await env.service.settle()
    assert not (await state(env, game_id))[0].finished
    await now.advance(deadline)
    await env.service.settle()
    stored, match = await state(env, game_id)
    assert stored.finished and match.game.result is not None and match.game.result.winner == 1 - loser_side
    record = GameRecord.from_stored(stored)
    assert record.clock is not None and record.clock.flag == loser_side
    assert has_entry(board_of(fake, stored, group.id).content, EN, "over.time")
    assert len(_ran_out_messages(env, group.id)) == 1
    assert not watch.alarms.pending(game_id)  # a finished game is not watched
    await env.service.stop_computer()
    await env.close()


async def test_a_move_just_before_the_deadline_moves_the_wake_up_and_a_stale_one_changes_nothing(
    sqlite_store: Store,
) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("clock-m"), clock=now, sleep=now.sleep)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-3407)
    game_id = await start_game(env, group, alice, bob, "short clock 12+0.25")
    assert game_id
    watch = env.service.clock_watch
    await open_both(env, game_id, people, group.id)
    record = await _record(env, game_id)
    assert record.clock is not None
    first_deadline = record.clock.deadline()
    assert first_deadline == START + 27
    # an action a second before the deadline charges the clock and starts the next: a later deadline
    await now.advance(first_deadline - 1)
    stored, match = await state(env, game_id)
    await press_first(env, awaited_user(stored, match, people), group.id)
    record = await _record(env, game_id)
    assert record.clock is not None and record.clock.flag is None
    second_deadline = record.clock.deadline()
    assert second_deadline is not None and second_deadline > first_deadline
    assert watch.alarms.pending(game_id)
    # the old deadline passes: nothing happens
    await now.advance(first_deadline)
    await env.service.settle()
    version = (await state(env, game_id))[0].version
    # a stale wake-up (a job queued for the old deadline, another worker's timer) finds time left: nothing changes,
    # and the game stays watched
    assert await watch.check(game_id) is False
    watch.run_in_process(game_id)
    await env.service.settle()
    stored, _ = await state(env, game_id)
    assert stored.version == version and not stored.finished and watch.alarms.pending(game_id)
    assert _ran_out_messages(env, group.id) == []
    # the new deadline: the flag falls for the side whose clock runs now
    running = record.clock.running
    await now.advance(second_deadline)
    await env.service.settle()
    stored, _ = await state(env, game_id)
    assert stored.finished
    record = GameRecord.from_stored(stored)
    assert record.clock is not None and record.clock.flag == running
    assert len(_ran_out_messages(env, group.id)) == 1
    await env.service.stop_computer()
    await env.close()


async def test_two_wake_ups_at_the_deadline_end_the_match_once(store: Store) -> None:
    now = Now()
    env = Env(store, seeded("clock-2w"), clock=now, sleep=now.sleep)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-3408)
    game_id = await start_game(env, group, alice, bob, "short clock 0+0.25")
    assert game_id
    watch = env.service.clock_watch
    await open_both(env, game_id, {alice.id: alice, bob.id: bob}, group.id)
    record = await _record(env, game_id)
    deadline = record.clock.deadline() if record.clock else None
    assert deadline is not None
    now.now = deadline  # the timer is still asleep: two wake-ups from elsewhere come at once
    results = await asyncio.gather(watch.check(game_id), watch.check(game_id))
    assert sorted(results) == [False, True]
    await now.advance(deadline)  # then this process's own wake-up
    await env.service.settle()
    stored, _ = await state(env, game_id)
    assert stored.finished
    version, data = stored.version, stored.data
    assert await watch.check(game_id) is False
    await env.service.settle()
    stored, _ = await state(env, game_id)
    assert (stored.version, stored.data) == (version, data)
    assert len(_ran_out_messages(env, group.id)) == 1
    stats = await store.chat_stats(group.id)
    assert sum(s.losses for s in stats.values()) == 1 and sum(s.wins for s in stats.values()) == 1
    await env.service.stop_computer()
    await env.close()
