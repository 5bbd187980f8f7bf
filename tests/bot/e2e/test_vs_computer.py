"""Games against the computer: a full private game from the start menu, ``/new bot`` in a group, strangers, the
computer's answers to doubles and resignations, its think off the event loop, and recovery of a lost reply."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from aiogram.types import User

from bot.handlers.computer import BOT_ARGS, parse_bot_args
from bot.model.game import GameRecord
from bot.services.computer import computer_to_act
from bot.services.players import COMPUTER_ID, COMPUTER_STATS_CHAT
from bot.storage import Store
from bot.texts import tr
from bot.variants import MAIN, computer_variants
from nardy import Game, Move, Phase
from nardy.ai import ComputerPlayer, get_player
from tests.bot.e2e.drive import only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, GAME_OVER, RU, has_entry, resign_button, shown

MAX_ACTIONS = 800


def fixed_seed(level: str, variant: str, _seed: int) -> ComputerPlayer:
    """Return the computer player of ``level`` with a fixed seed (reproducible games)."""
    return get_player(level, variant, seed=7)


def test_parse_bot_args() -> None:
    assert parse_bot_args("bot") == ("short", "medium", 0)
    assert parse_bot_args("bot long easy") == ("long", "easy", 0)
    assert parse_bot_args("бот длинные сложный матч 3") == ("long", "hard", 3)
    assert parse_bot_args("bot HARD", "long") == ("long", "hard", 0)
    assert all(BOT_ARGS.match(a) for a in ("bot", "bot long", "Computer hard", "бот"))
    assert not any(BOT_ARGS.match(a) for a in ("long", "bots", "short match 5", "robot"))


def _computer(lang: str, level: str) -> str:
    """Return the computer's name at ``level`` in ``lang``."""
    return shown(lang, "computer.name", level=tr(lang, f"level.{level}"))


def _chooser_buttons(variant: str, level: str) -> list[str]:
    """Return the labels of the computer chooser's buttons with ``variant`` and ``level`` ticked."""
    variants = [*MAIN, *(v for v in computer_variants() if v not in MAIN)]  # the two main games, then the others
    return [
        *(("✓ " if v == variant else "") + shown(EN, f"btn.{v}") for v in variants),
        *(("✓ " if lv == level else "") + shown(EN, f"btn.{lv}") for lv in ("easy", "medium", "hard")),
        shown(EN, "btn.start"),
    ]


async def human_turn(env: Env, user: User, chat_id: int, game_id: str, *, type_move: bool) -> None:
    """Act once as ``user``: type the first legal move (when ``type_move`` and a move is awaited without a step
    chosen yet), else press the first button of the board."""
    stored, match = await state(env, game_id)
    game = match.game
    if type_move and game.phase is Phase.MOVE and not stored.data.get("pending_steps"):
        chat = env.fake.chat_objects[chat_id]
        await env.h.send_text(user, chat, game.legal_moves()[0].notation)
    else:
        await press_first(env, user, chat_id)


async def test_full_private_game_against_the_computer(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("vs-computer-1"), computer=fixed_seed)
    env.service.config.sleep = env.clock.sleep  # BOT_MOVE_DELAY (1 s by default) on virtual time
    assert env.service.config.computer_delay == 1.0
    fake, h = env.fake, env.h
    alice = fake.user(21, "Alice", "en")
    chat = fake.private_chat(alice)

    # the start menu → the chooser (short and medium by default) → Start
    await h.send_text(alice, chat, "/start")
    await h.press_button(alice, fake.last_message(alice.id), "Play against the computer")
    chooser = fake.last_message(alice.id)
    assert chooser.content == shown(EN, "computer.choose")
    assert chooser.button_texts() == _chooser_buttons("short", "medium")
    await h.press_button(alice, chooser, shown(EN, "btn.long"))
    await h.press_button(alice, chooser, shown(EN, "btn.hard"))
    assert chooser.button_texts() == _chooser_buttons("long", "hard")
    await h.press_button(alice, chooser, shown(EN, "btn.short"))
    await h.press_button(alice, chooser, shown(EN, "btn.medium"))
    start_data = chooser.button(shown(EN, "btn.start")).callback_data or ""
    await h.press_button(alice, chooser, shown(EN, "btn.start"))
    await h.press(alice, alice.id, chooser.message_id, start_data)  # a double press starts one game only
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.challenge_gone")
    assert shown(EN, "btn.start") in chooser.history[-1]["buttons"] and chooser.buttons() == []
    medium = _computer(EN, "medium")
    started = shown(EN, "computer.started", name="Alice", computer=medium, variant=tr(EN, "variant.short"))
    assert chooser.content == started
    await env.service.settle()
    game_id = await only_game(sqlite_store, alice.id)
    assert await sqlite_store.user_games(alice.id) == [game_id]
    assert await sqlite_store.user_games(COMPUTER_ID) == []
    stored, _ = await state(env, game_id)
    assert stored.data["players"][1] == {"id": COMPUTER_ID, "name": medium, "lang": "en", "ai": "medium"}
    assert len([m for m in fake.messages(alice.id) if m.photo_file_id]) == 1  # one board, edited in place

    computer_moves = replies = 0
    doubled = typed = False
    for action in range(MAX_ACTIONS):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        record = GameRecord.from_stored(stored)
        assert computer_to_act(record, match) is None  # after settling, the person acts
        board = board_message(fake, alice.id)
        assert board.buttons() or match.game.phase is Phase.MOVE, board.content
        edits, version = board.edits, stored.version
        if match.game.phase is Phase.ROLL and not doubled:
            await h.press_button(
                alice, board, shown(EN, "btn.double", value=2)
            )  # the computer answers with take_decision
            doubled = True
        else:
            type_move = action % 3 == 0
            typed = typed or (type_move and match.game.phase is Phase.MOVE)
            await human_turn(env, alice, alice.id, game_id, type_move=type_move)
        await env.service.settle()
        after, after_match = await state(env, game_id)
        saves = after.version - version
        assert saves in (1, 2), saves  # the person's action, and maybe the computer's reply
        board = board_message(fake, alice.id)
        # one board update per save, or one for both when the computer's reply was saved before the person's board
        # went out (a board only ever shows the saved version: the older one is not drawn any more)
        updates = board.edits - edits
        assert 1 <= updates <= saves, (updates, saves)
        if saves == 2:
            replies += 1
            if updates == 2:
                shown_first = board.history[-1]  # the board after the person's action, before the computer's reply
                assert shown(EN, "turn.thinking", name=medium) in (shown_first["caption"] or "").splitlines()
                assert shown_first["buttons"] == []
            events = after.data["events"]
            assert events or after_match.game.phase is Phase.DOUBLED, board.content  # a move, a take … or a double
            if any(e["t"] == "played" and e["player"] == 1 for e in events):
                computer_moves += 1
                assert has_entry(board.content, EN, "played", name=medium), board.content
            if after_match.game.phase is not Phase.OVER:
                assert not has_entry(board.content, EN, "turn.thinking"), board.content
    else:
        raise AssertionError("the game did not end")
    assert doubled and typed and computer_moves > 5 and replies >= computer_moves
    assert 1.0 in env.clock.sleeps  # the computer's pause

    final = board_message(fake, alice.id)
    assert has_entry(final.content, EN, *GAME_OVER), final.content
    assert final.button_texts() == [shown(EN, "btn.rematch"), shown(EN, "btn.new"), shown(EN, "btn.record")]
    vs_computer = await sqlite_store.get_stats(COMPUTER_STATS_CHAT, alice.id)
    assert vs_computer.played == 1
    assert (await sqlite_store.get_stats(alice.id, alice.id)).played == 0  # the chat's counters stay between people
    assert (await sqlite_store.get_stats(COMPUTER_STATS_CHAT, COMPUTER_ID)).played == 0
    await h.send_text(alice, chat, "/stats")
    line = shown(EN, "stats.computer", wins=vs_computer.wins, losses=vs_computer.losses, draws=vs_computer.draws)
    assert line in fake.last_message(alice.id).content

    # New game opens the chooser again; Rematch starts the next game against the same computer
    await h.press_button(alice, final, shown(EN, "btn.new"))
    assert fake.last_message(alice.id).button_texts()[-1] == shown(EN, "btn.start")
    await h.press_button(alice, final, shown(EN, "btn.rematch"))
    await env.service.settle()
    rematch = await only_game(sqlite_store, alice.id)
    stored, _ = await state(env, rematch)
    assert stored.data["players"][0]["ai"] == "medium" and stored.data["players"][1]["id"] == alice.id
    await env.close()


async def test_new_bot_long_easy_in_a_group(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("vs-computer-group"), computer=fixed_seed, computer_delay=0)
    fake, h = env.fake, env.h
    alice, carol = fake.user(31, "Alice", "en"), fake.user(33, "Carol", "en")
    group = fake.group_chat(-900)
    await h.send_text(alice, group, "/new bot long easy")
    await env.service.settle()
    game_id = await only_game(sqlite_store, group.id)
    stored, match = await state(env, game_id)
    assert match.variant.name == "long"
    easy = _computer(EN, "easy")
    assert [p["name"] for p in stored.data["players"]] == ["Alice", easy]
    assert stored.data["kind"] == "group"
    board = board_message(fake, group.id)
    assert shown(EN, "variant.long") in board.content and easy in board.content
    assert not fake.messages(alice.id)  # nothing went to the private chat
    replies = 0
    for _ in range(12):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        version = stored.version
        await human_turn(env, alice, group.id, game_id, type_move=False)
        await env.service.settle()
        after, _ = await state(env, game_id)
        replies += after.version - version - 1
    assert replies > 0
    captions = [h_["caption"] or "" for h_ in board_message(fake, group.id).history]
    assert has_entry("\n".join([*captions, board_message(fake, group.id).content]), EN, "played", name=easy)
    # a typed move in a group from a stranger is ignored; /new bot without a level is medium, short by default
    before = await sqlite_store.get_game(game_id)
    await h.send_text(carol, group, "13/7 8/7")
    assert await sqlite_store.get_game(game_id) == before
    await h.send_text(carol, group, "/new bot")
    await env.service.settle()
    games = await sqlite_store.chat_games(group.id)
    assert len(games) == 2
    newest = next(g for g in games if g != game_id)
    stored, match = await state(env, newest)
    assert match.variant.name == "short" and stored.data["players"][1]["ai"] == "medium"
    assert stored.data["players"][0]["id"] == carol.id
    await env.close()


async def test_a_stranger_cannot_press_in_a_game_against_the_computer(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("vs-computer-stranger"), computer=fixed_seed, computer_delay=0)
    fake, h = env.fake, env.h
    alice, carol = fake.user(41, "Alice", "en"), fake.user(43, "Carol", "ru")
    group = fake.group_chat(-901)
    await h.send_text(alice, group, "/new bot short medium")
    await env.service.settle()
    game_id = await only_game(sqlite_store, group.id)
    for _ in range(3):
        stored, _ = await state(env, game_id)
        board = board_message(fake, group.id)
        assert board.buttons()
        for button in [b for row in board.buttons() for b in row]:
            env.clock.now += 1.0  # a person's pace (faster presses are throttled: THROTTLE_RATE)
            await h.press(carol, group.id, board.message_id, button.callback_data or "")
            assert fake.toasts_for(carol.id)[-1] == shown(RU, "toast.not_player")
        await env.service.settle()
        after = await sqlite_store.get_game(game_id)
        assert after is not None and (after.version, after.data) == (stored.version, stored.data)
        await press_first(env, alice, group.id)
        await env.service.settle()
    # a stranger's /resign and /board find no game of theirs
    await h.send_text(carol, group, "/resign")
    assert fake.last_message(group.id).content == shown(RU, "no_game")
    await env.close()


async def test_the_computer_answers_a_resignation(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("vs-computer-resign"), computer=fixed_seed, computer_delay=0)
    fake, h = env.fake, env.h
    alice = fake.user(51, "Alice", "en")
    chat = fake.private_chat(alice)
    await h.send_text(alice, chat, "/new bot short easy")
    await env.service.settle()
    game_id = await only_game(sqlite_store, alice.id)
    await press_first(env, alice, alice.id)
    await env.service.settle()
    await h.send_text(alice, chat, "/resign")
    menu = fake.last_message(alice.id)
    await h.press_button(alice, menu, resign_button(EN, "backgammon"))  # the computer cannot lose by accepting the most
    await env.service.settle()
    stored, match = await state(env, game_id)
    board = board_message(fake, alice.id)
    if stored.finished:
        assert match.game.phase is Phase.OVER and has_entry(board.content, EN, "over.resign", loser="Alice")
        assert (await sqlite_store.get_stats(COMPUTER_STATS_CHAT, alice.id)).losses == 1
    else:
        assert shown(EN, "computer.declined", name=_computer(EN, "easy")) in board.content.splitlines()
    await env.close()


class SlowPlayer:
    """A computer player whose first decision blocks until the test releases it (it records where it ran)."""

    level = "medium"

    def __init__(self, variant: str, started: threading.Event, release: threading.Event) -> None:
        self.inner = get_player("medium", variant, seed=3)
        self.started, self.release = started, release
        self.threads: list[threading.Thread] = []
        self.released: bool | None = None

    def _think(self) -> None:
        self.threads.append(threading.current_thread())
        if self.released is None:
            self.started.set()
            # a safety net only (never asserted on): if the think ran on the event loop, the test could not release it
            self.released = self.release.wait(timeout=60)

    def choose_move(self, game: Game) -> Move:
        self._think()
        return self.inner.choose_move(game)

    def cube_action(self, game: Game) -> Any:
        self._think()
        return self.inner.cube_action(game)

    def take_decision(self, game: Game) -> Any:
        self._think()
        return self.inner.take_decision(game)

    def accept_resignation(self, game: Game) -> bool:
        self._think()
        return self.inner.accept_resignation(game)


async def test_the_computer_thinks_off_the_event_loop(sqlite_store: Store) -> None:
    started, release = threading.Event(), threading.Event()
    players: list[SlowPlayer] = []

    def slow(level: str, variant: str, _seed: int) -> ComputerPlayer:
        players.append(SlowPlayer(variant, started, release))
        return players[-1]

    env = Env(sqlite_store, seeded("vs-computer-slow"), computer=slow, computer_delay=0)
    fake, h = env.fake, env.h
    h.settle = env.service.boards.settle  # a person does not wait for the computer's think before acting
    alice, bob = fake.user(61, "Alice", "en"), fake.user(62, "Bob", "en")
    await h.send_text(alice, fake.private_chat(alice), "/new bot")
    game_id = await only_game(sqlite_store, alice.id)
    for _ in range(40):
        stored, match = await state(env, game_id)
        if computer_to_act(GameRecord.from_stored(stored), match) is not None:
            break
        await press_first(env, alice, alice.id)
    await asyncio.to_thread(started.wait, 60)
    before, _ = await state(env, game_id)
    # while the computer thinks, another chat is answered, and the game waits for the computer
    await h.send_text(bob, fake.private_chat(bob), "/start")
    assert "Hi, Bob!" in fake.last_message(bob.id).content
    assert board_message(fake, alice.id).buttons() == []  # no buttons while the computer is to act
    assert (await state(env, game_id))[0].version == before.version
    release.set()
    await env.service.settle()
    after, match = await state(env, game_id)
    assert players[0].released is True
    assert all(t is not threading.main_thread() for p in players for t in p.threads)
    assert after.version == before.version + 1
    assert computer_to_act(GameRecord.from_stored(after), match) is None
    await env.close()


async def test_a_hard_computer_replies_and_a_lost_reply_is_recovered(redis_store: Store) -> None:
    env = Env(redis_store, seeded("vs-computer-hard"), computer_delay=0, computer_retry_after=3000)
    fake, h = env.fake, env.h
    alice = fake.user(71, "Alice", "ru")
    await h.send_text(alice, fake.private_chat(alice), "/new bot short hard")
    await env.service.settle()
    game_id = await only_game(redis_store, alice.id)
    stored, _ = await state(env, game_id)
    assert stored.data["players"][1]["name"] == _computer(RU, "hard")
    replies = 0
    for _ in range(6):
        stored, _ = await state(env, game_id)
        if stored.finished:
            break
        await human_turn(env, alice, alice.id, game_id, type_move=True)
        await env.service.settle()
        replies += (await state(env, game_id))[0].version - stored.version - 1
    assert replies > 0
    # the computer's reply is lost (e.g. a restart): the timeout sweeper plays it
    wake = env.service.computer_turns.request
    env.service.computer_turns.request = lambda game_id: None  # type: ignore[method-assign]
    for _ in range(20):
        stored, match = await state(env, game_id)
        if computer_to_act(GameRecord.from_stored(stored), match) is not None:
            break
        await press_first(env, alice, alice.id)
    env.service.computer_turns.request = wake  # type: ignore[method-assign]
    assert not stored.finished and computer_to_act(GameRecord.from_stored(stored), match) is not None
    assert await env.service.sweep(now=time.time() + 1000) == 0  # not due yet
    assert await env.service.sweep(now=time.time() + 10_000) == 1  # due (the person's reminder comes after 6 h)
    await env.service.settle()
    after, match = await state(env, game_id)
    assert after.version == stored.version + 1
    assert computer_to_act(GameRecord.from_stored(after), match) is None
    await env.close()


async def test_the_production_computer_thinks_in_a_worker_process(sqlite_store: Store) -> None:
    """With the production wiring (system dice, the built-in players) the computer's replies are computed in the
    service's process pool, not on the event loop's process, and they reach the board."""
    env = Env(sqlite_store, None)
    env.service.config.computer_delay = 0.0
    fake, h = env.fake, env.h
    alice = fake.user(81, "Alice", "en")
    await h.send_text(alice, fake.private_chat(alice), "/new bot short medium")
    game_id = await only_game(sqlite_store, alice.id)
    computer_turns = 0
    for _ in range(30):
        await env.service.settle()
        stored, _ = await state(env, game_id)
        computer = next(i for i, p in enumerate(stored.data["players"]) if p.get("ai"))
        computer_turns += sum(
            1 for e in stored.data.get("events", []) if e.get("player") == computer and e.get("t") == "played"
        )
        if stored.finished or computer_turns >= 2:
            break
        await press_first(env, alice, alice.id)
    assert computer_turns >= 2
    assert isinstance(env.service.computer_turns._pool, ProcessPoolExecutor)
    await env.service.stop_computer()
    assert env.service.computer_turns._pool is None
    await env.close()
