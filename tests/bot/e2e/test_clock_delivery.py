"""A clock runs only once its board is out (docs/rules.md §1 "Time control"), end to end through the real Dispatcher
over the fake Bot API:

- a group whose minute of Telegram's budget is spent (the production pacing): a clocked game's first board comes
  ~40 s after Join, and nobody's time counts until it is there — the first-move window runs from the board, and a
  later action's clock starts when the paced edit of its board lands, then runs out exactly D + reserve after it;
- a clocked tournament round of 8 boards sent one by one to the players' private chats: each game's clock counts
  from the moment its awaited player's own board landed, and only those whose window really passed are lost.

Time is virtual and moved by the test alone (the game services and the sender share it), so what happens between
two moves of the clock is exactly what a busy bot would do in that time.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable
from typing import Any, TypeVar

from aiogram.methods import SendMessage, TelegramMethod

from bot.model.clock import FIRST_MOVE_WINDOW
from bot.model.game import GameRecord
from bot.storage import Store
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, state
from tests.bot.e2e.group_play import board_of, start_game, users
from tests.bot.e2e.helpers import Env, game_buttons, seeded
from tests.bot.e2e.test_clock import START, Now
from tests.bot.e2e.texts import EN, has_entry, shown
from tests.bot.e2e.tournament_drive import active_games, open_bot, running, tournament_env

T = TypeVar("T")

STEP = 1.0
"""Seconds of virtual time moved at a time while waiting for something."""


async def _no_settle() -> None:
    return None


class Timeline:
    """The test's hold on virtual time: ``now`` (the services' and the sender's clock) moves only in
    :meth:`until`, a step at a time, after the bot has done all it can at the current time."""

    def __init__(self, env: Env, now: Now) -> None:
        self.env = env
        self.now = now

    async def idle(self) -> None:
        """Let the bot do everything it can without time moving (boards are drawn in a thread: real waits)."""
        for _ in range(4):
            await asyncio.sleep(0.02)

    async def until(self, work: Awaitable[T], *, limit: float = 600.0, check: Any = None) -> T:
        """Return the result of ``work``, moving time a step at a time until it is done; ``check()`` (a coroutine
        function) is awaited before every step. Raises: AssertionError after ``limit`` virtual seconds."""
        task = asyncio.ensure_future(work)
        end = self.now.now + limit
        while True:
            await self.idle()
            if task.done():
                return task.result()
            if check is not None:
                await check()
            assert self.now.now < end, "virtual time ran out"
            await self.now.advance(self.now.now + STEP)

    async def to(self, when: float) -> None:
        """Move time to ``when`` a step at a time (the bot working at each)."""
        while self.now.now < when:
            await self.now.advance(min(when, self.now.now + STEP))
            await self.idle()


def _record_calls(env: Env, now: Now) -> list[tuple[float, str, Any, TelegramMethod[Any]]]:
    """Record (virtual time when answered, method name, chat id, method) of every Bot API call of ``env``."""
    calls: list[tuple[float, str, Any, TelegramMethod[Any]]] = []
    make_request = env.fake.make_request

    async def recorded(bot: Any, method: TelegramMethod[Any], timeout: int | None = None) -> Any:
        result = await make_request(bot, method, timeout)
        calls.append((now.now, method.__api_method__, getattr(method, "chat_id", None), method))
        return result

    env.fake.make_request = recorded  # type: ignore[method-assign]
    return calls


async def _board_current(env: Env, game_id: str, chat_id: int) -> None:
    """Wait (in real time, as time moves) until the chat's board shows the saved version."""
    while True:
        stored, _ = await state(env, game_id)
        board = stored.boards.get(chat_id)
        if board is not None and board.shown_version >= stored.version:
            return
        await asyncio.sleep(0.01)


async def _spend_the_minute(env: Env, line: Timeline, calls: list[Any], chat_id: int) -> None:
    """Send the group plain messages (one a second) until the bot's calls to it in the last 60 s reach Telegram's
    budget: its next call waits until the oldest of them is a minute old."""
    budget = env.sender.limits.group_per_minute
    sent = sum(1 for t, _, chat, _ in calls if chat == chat_id and t > line.now.now - 60.0)
    notes = [env.sender.submit(SendMessage(chat_id=chat_id, text=f"news {n}")) for n in range(budget - sent)]
    await line.until(asyncio.gather(*notes))


def _env(store: Store, seed: str) -> tuple[Env, Now, Timeline, list[Any]]:
    """An Env whose services and sender share a clock the test moves (nothing waits for the bot to settle)."""
    now = Now()
    env = Env(store, seeded(seed), sender_clock=now, clock=now, sleep=now.sleep)
    env.h.settle = _no_settle
    return env, now, Timeline(env, now), _record_calls(env, now)


def _waits_for_board(env: Env, game_id: str, chat_id: int) -> Any:
    """Return a check that, while the chat has no board of the game, the game runs and its clock waits."""

    async def check() -> None:
        stored, _ = await state(env, game_id)
        record = GameRecord.from_stored(stored)
        assert not stored.finished and record.clock is not None
        board = stored.boards.get(chat_id)
        if board is None or board.shown_version < stored.version:
            assert record.clock.waiting and record.clock.deadline() is None, record.clock

    return check


def _at_most_the_budget(env: Env, calls: list[Any], chat_id: int) -> None:
    """Assert the group never got more calls in a minute than Telegram's budget."""
    times = sorted(t for t, _, chat, _ in calls if chat == chat_id)
    assert max(sum(1 for u in times if t - 60.0 < u <= t) for t in times) <= env.sender.limits.group_per_minute


async def test_the_first_board_held_back_by_a_spent_minute_starts_the_first_move_window(sqlite_store: Store) -> None:
    env, now, line, calls = _env(sqlite_store, "deliver-1")
    fake, h = env.fake, env.h
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-4501)

    # the challenge card, then the bot's other messages: the group's minute is spent when Bob joins
    await line.until(h.send_text(alice, group, "/new short clock 0+0.25"))
    card = fake.last_message(group.id)
    assert shown(EN, "challenge.clock", control="0+0.25") in card.content
    await _spend_the_minute(env, line, calls, group.id)
    joined = now.now
    join = asyncio.ensure_future(h.press_button(bob, card, shown(EN, "btn.join")))  # answered while paced
    while not await sqlite_store.chat_games(group.id):
        await asyncio.sleep(0.01)
    (game_id,) = await sqlite_store.chat_games(group.id)
    await line.until(_board_current(env, game_id, group.id), check=_waits_for_board(env, game_id, group.id))
    await line.until(join)
    ((posted, *_),) = [c for c in calls if c[1] == "sendPhoto" and c[2] == group.id]
    assert posted - joined >= 30.0, (joined, posted)  # the board waited for the group's budget (0+0.25: 15 s)
    record = GameRecord.from_stored((await state(env, game_id))[0])
    clock = record.clock
    assert clock is not None and clock.began == joined and clock.started is not None
    assert posted <= clock.started <= posted + STEP  # counted from the board (within the step that landed it)
    assert clock.opening and clock.deadline() == clock.started + FIRST_MOVE_WINDOW
    assert clock.reserves == (15.0, 15.0)

    # nobody moves: the window ends 60 s after the board, not after Join; a casual game is then cancelled
    await line.to(clock.started + FIRST_MOVE_WINDOW - 1.0)
    assert not (await state(env, game_id))[0].finished
    await line.to(clock.started + FIRST_MOVE_WINDOW + STEP)
    await line.until(_board_current(env, game_id, group.id))
    stored, _ = await state(env, game_id)
    assert stored.finished and stored.data["stats_plan"] == [] and await sqlite_store.chat_stats(group.id) == {}
    assert has_entry(board_of(fake, stored, group.id).content, EN, "over.first_move.cancelled")
    _at_most_the_budget(env, calls, group.id)
    await line.until(env.close())


async def test_a_later_action_s_clock_starts_when_the_paced_edit_of_its_board_lands(sqlite_store: Store) -> None:
    env, now, line, calls = _env(sqlite_store, "deliver-2")
    fake, h = env.fake, env.h
    alice, bob = users(fake, "Alice", "Bob")
    people = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-4502)
    await line.until(h.send_text(alice, group, "/new short clock 0+1"))
    await line.until(h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join")))
    (game_id,) = await sqlite_store.chat_games(group.id)
    await line.until(_board_current(env, game_id, group.id))

    # each player's first action, then moves until a player is to roll, the board current every time
    for _ in range(40):
        stored, match = await state(env, game_id)
        record = GameRecord.from_stored(stored)
        assert not stored.finished and record.clock is not None
        if not record.clock.first and match.game.phase is Phase.ROLL:
            break
        board = board_of(fake, stored, group.id)
        mover = awaited_user(stored, match, people)
        await line.until(h.press(mover, group.id, board.message_id, game_buttons(board)[0][1]))
        await line.until(_board_current(env, game_id, group.id))
    else:
        raise AssertionError("no roll came")

    # the rest of the group's minute is spent (the roller's clock runs meanwhile), then the player rolls: their
    # move's clock waits for the edit that shows the dice
    await _spend_the_minute(env, line, calls, group.id)
    stored, match = await state(env, game_id)
    roller = awaited_user(stored, match, people)
    side = match.game.turn
    board = board_of(fake, stored, group.id)
    roll = [data for text, data in game_buttons(board) if text == shown(EN, "btn.roll")]
    assert roll, game_buttons(board)
    rolled_at = now.now
    edits_before = sum(1 for c in calls if c[1] == "editMessageMedia" and c[2] == group.id)
    await line.until(h.press(roller, group.id, board.message_id, roll[0]))
    await line.until(_board_current(env, game_id, group.id), check=_waits_for_board(env, game_id, group.id))
    edited = [c[0] for c in calls if c[1] == "editMessageMedia" and c[2] == group.id][edits_before:]
    landed = edited[-1]
    assert landed - rolled_at >= 20.0, (rolled_at, landed)  # the edit waited for the group's budget
    record = GameRecord.from_stored((await state(env, game_id))[0])
    clock = record.clock
    assert clock is not None and clock.running == side and not clock.opening
    assert clock.began == rolled_at and clock.started is not None and landed <= clock.started <= landed + STEP
    started, reserve = clock.started, clock.reserves[side]
    assert landed - rolled_at > 0 < reserve < 60.0  # the spend took time off the roll, the wait for the dice none

    # the reserve (no delay) runs from the board: still playing a second before, lost on time at it
    await line.to(started + reserve - 1.0)
    assert not (await state(env, game_id))[0].finished
    await line.to(started + reserve + STEP)
    await line.until(_board_current(env, game_id, group.id))
    stored, match = await state(env, game_id)
    record = GameRecord.from_stored(stored)
    assert stored.finished and record.clock is not None and record.clock.flag == side
    assert match.game.result is not None and match.game.result.winner == 1 - side
    assert has_entry(board_of(fake, stored, group.id).content, EN, "over.time")
    _at_most_the_budget(env, calls, group.id)
    await line.until(env.close())


async def _landed_and_marked(
    env: Env, delivered: list[int], count: int, landed: dict[tuple[int, str], float], before: set[tuple[int, str]]
) -> None:
    """Wait until ``count`` boards have landed and, when the last is the awaited player's (the only board with the
    game's buttons), until its clock counts (the delivery mark written), so that virtual time moves on only
    afterwards, however slow the machine is."""
    for _ in range(4000):
        if len(delivered) >= count:
            pending = False
            for chat_id, part in set(landed) - before:
                stored = await env.store.get_game(part)
                if stored is None:
                    continue  # a part of the callback data that is not a game id
                clock = GameRecord.from_stored(stored).clock
                players = stored.data["players"]
                awaited = clock is not None and clock.running is not None and players[clock.running]["id"] == chat_id
                pending = pending or (awaited and clock is not None and clock.started is None)
            if not pending:
                return
        await asyncio.sleep(0.005)
    raise AssertionError(f"board {count} did not land, or its clock did not start")


async def test_a_clocked_round_of_eight_boards_starts_each_clock_when_its_own_board_lands(sqlite_store: Store) -> None:
    now = Now()
    env = tournament_env(Env(sqlite_store, seeded("deliver-8"), clock=now, sleep=now.sleep))
    fake, h = env.fake, env.h
    players = [fake.user(index, f"Player {index}", "en") for index in range(1, 17)]
    group = fake.group_chat(-4508, admins=[players[0].id])
    landed: dict[tuple[int, str], float] = {}  # (private chat, game id) -> when its first board landed
    held: list[asyncio.Future[None]] = []
    delivered: list[int] = []  # the private chats whose board landed, in order
    make_request = fake.make_request

    async def boards_one_by_one(bot: Any, method: TelegramMethod[Any], timeout: int | None = None) -> Any:
        chat_id = getattr(method, "chat_id", None)
        if method.__api_method__ != "sendPhoto" or not isinstance(chat_id, int) or chat_id < 0:
            return await make_request(bot, method, timeout)
        release: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        held.append(release)
        await release  # a slow upload: the test lets the boards through one by one, 4 s apart
        result = await make_request(bot, method, timeout)
        delivered.append(chat_id)
        markup = getattr(method, "reply_markup", None)
        data = [b.callback_data or "" for row in getattr(markup, "inline_keyboard", []) for b in row]
        for game_id in {part for each in data for part in each.split(":")}:
            landed.setdefault((chat_id, game_id), now.now)
        return result

    await h.send_text(players[0], group, "/tournament clock 0+0.5")
    card = fake.last_message(group.id)
    await h.press_button(players[0], card, "Open registration")
    tournament_id, _ = await running(env, group)
    for user in players:
        await open_bot(env, user, tournament_id)
        await h.press_button(user, fake.chats[group.id][card.message_id], "Join")
    fake.make_request = boards_one_by_one  # type: ignore[method-assign]
    started_round = now.now
    start = asyncio.ensure_future(h.press_button(players[0], fake.chats[group.id][card.message_id], "Start"))
    released = 0
    while released < 16:
        for _ in range(500):
            if len(held) > released:
                break
            await asyncio.sleep(0.01)
        assert len(held) > released, f"only {released} boards came"
        now.now += 4.0
        before = set(landed)
        held[released].set_result(None)
        released += 1
        await _landed_and_marked(
            env, delivered, released, landed, before
        )  # its clock starts at this moment of virtual time
    await start
    games = await active_games(env, tournament_id)
    assert len(games) == 8

    starts: dict[str, float] = {}
    for game_id in games.values():
        record = GameRecord.from_stored((await state(env, game_id))[0])
        clock = record.clock
        assert clock is not None and clock.running is not None and clock.began is not None
        awaited = record.players[clock.running].id
        assert clock.started == landed[(awaited, game_id)]  # the moment the awaited player's own board landed
        assert started_round <= clock.began < clock.started  # (games of a round are created one after another)
        assert clock.deadline() == clock.started + FIRST_MOVE_WINDOW
        starts[game_id] = clock.started
    assert len(set(starts.values())) == 8 and max(starts.values()) - min(starts.values()) >= 28.0

    # half-way between the first and the last board's window: only the windows that really passed are missed
    cut = (min(starts.values()) + max(starts.values())) / 2 + FIRST_MOVE_WINDOW
    now.now = cut
    await env.service.sweep(now.now)
    await env.service.settle()
    for game_id, begun in starts.items():
        stored, _ = await state(env, game_id)
        assert stored.finished == (begun + FIRST_MOVE_WINDOW <= cut), (begun, cut, stored.finished)
    assert 0 < sum(1 for begun in starts.values() if begun + FIRST_MOVE_WINDOW <= cut) < 8
    await env.close()


async def test_a_release_that_read_the_game_before_its_clock_started_leaves_the_flag_s_wake_up(
    sqlite_store: Store,
) -> None:
    """Two workers: one releases the game's wake-up (to the turn reminder, hours away) from a read made before the
    other recorded that the board reached the player; the wake-up still comes at the flag, so a restart of both
    loses nothing."""
    now = Now()
    env = Env(sqlite_store, seeded("deliver-r"), clock=now, sleep=now.sleep)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    game_id = await start_game(env, fake.group_chat(-4509), alice, bob, "short clock 0+0.25")
    assert game_id
    stored, _ = await state(env, game_id)
    record = GameRecord.from_stored(stored)
    assert record.clock is not None and record.clock.began is not None
    # as read by the first worker before the board landed: the clock waits
    before = dataclasses.replace(stored, seen=None)
    waiting = GameRecord.from_dict(stored.data)
    assert waiting.clock is not None and waiting.clock.waiting
    assert waiting.turn_deadline is not None and waiting.turn_deadline > START + 3600
    await env.service.saver.release(before, waiting)
    flag = START + FIRST_MOVE_WINDOW
    again = await sqlite_store.get_game(game_id)
    assert again is not None and again.deadline is not None and again.deadline <= flag
    assert await sqlite_store.due_games(flag) == [game_id]
    await env.close()


async def test_a_board_that_never_went_out_before_a_restart_starts_the_clock_when_the_new_process_sends_it(
    sqlite_store: Store,
) -> None:
    now = Now()
    env = Env(sqlite_store, seeded("deliver-k"), clock=now, sleep=now.sleep)
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-4510)
    for _ in range(4):  # Telegram fails the board's every attempt, then the process dies
        fake.fail_next("sendPhoto", error_code=502, description="Bad Gateway")
    env.h.settle = _no_settle  # its retry sleeps on the test's clock: nobody waits for it
    game_id = await start_game(env, group, alice, bob, "short clock 0+0.25")
    assert game_id
    for _ in range(300):
        if env.service.boards.failures:
            break
        await asyncio.sleep(0.01)
    assert env.service.boards.failures
    stored, _ = await state(env, game_id)
    assert group.id not in stored.boards and GameRecord.from_stored(stored).clock.waiting  # type: ignore[union-attr]
    await env.close()

    now.now = START + 300  # long after the window would have ended had it started at Join
    restarted = Env(sqlite_store, seeded("deliver-k"), clock=now, sleep=now.sleep, fake=fake)
    await restarted.service.sweep(now.now)
    await restarted.service.settle()
    stored, _ = await state(restarted, game_id)
    clock = GameRecord.from_stored(stored).clock
    assert not stored.finished and stored.boards[group.id].shown_version == stored.version
    assert clock is not None and clock.began == START and clock.started == START + 300
    assert clock.deadline() == START + 300 + FIRST_MOVE_WINDOW
    await restarted.close()


async def test_a_board_that_landed_before_a_crash_starts_its_clock_at_the_next_wake_up(sqlite_store: Store) -> None:
    """The process dies between the board's landing and the record of its sight (and before its release): the
    game's wake-up, a few seconds on, finds the clock waiting with its board current and starts it then."""
    now = Now()
    env = Env(sqlite_store, seeded("deliver-c"), clock=now, sleep=now.sleep)
    env.service.boards.clock_starts = None  # it dies right after the landing: no sight recorded
    fake = env.fake
    alice, bob = users(fake, "Alice", "Bob")
    group = fake.group_chat(-4511)
    game_id = await start_game(env, group, alice, bob, "short clock 0+0.25")
    assert game_id
    stored, _ = await state(env, game_id)
    assert stored.boards[group.id].shown_version == stored.version
    wake = START + env.service.config.board_retry_after
    assert await sqlite_store.set_deadline(game_id, stored.version, wake)  # as the save left it: no release
    await env.close()

    restarted = Env(sqlite_store, seeded("deliver-c"), clock=now, sleep=now.sleep, fake=fake)
    now.now = wake
    assert await restarted.service.sweep(now.now) == 1
    await restarted.service.settle()
    stored, _ = await state(restarted, game_id)
    clock = GameRecord.from_stored(stored).clock
    assert clock is not None and clock.started == wake and clock.deadline() == wake + FIRST_MOVE_WINDOW
    assert stored.deadline is not None and stored.deadline <= wake + FIRST_MOVE_WINDOW
    now.now = wake + FIRST_MOVE_WINDOW
    await restarted.service.sweep(now.now)
    await restarted.service.settle()
    assert (await state(restarted, game_id))[0].finished  # the window ran out: the flag fell at its time
    await restarted.close()
