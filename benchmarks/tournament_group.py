"""Benchmark of tournament play within Telegram's group limits (figures, never pass/fail on time):
``python benchmarks/tournament_group.py [--players 8] [--turns 12] [--reaction 1.0]``.

An 8-player round robin (short nardy, matches to 1) is created in a group by its buttons, joined and started; then
every round's matches are played at once, as fast as people would: each player presses one ``--reaction`` second
after their board shows their turn (rolling, then the move the medium computer would choose), and after
``--turns`` presses of a game (0: play it to the end) the player to act resigns (/resign, "single game") and the
opponent accepts. Everything runs through the real Dispatcher and the production ``Sender`` pacing (1 s per chat,
20 calls a minute in a group, on an event-driven virtual clock, so concurrent waits overlap as in real time), on
the fake Telegram. Boards are rendered by a stub (the call counts do not depend on the picture).

Printed for games in the group (the creation card's "Games: in this group") and in private chats (the default):
Bot API calls to the group per minute (the maximum over any 60 s window; Telegram allows 20), calls per finished
match (to the group, and to every chat), and the virtual time each round took.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiogram.methods import TelegramMethod
from aiogram.types import Chat, User
from PIL import Image

from bot.keyboards.callbacks import GameCb, parse_callback
from bot.model.actions import StepAction
from bot.model.game import GameRecord
from bot.services.engine_flow import load_match
from bot.storage import SqliteGameStore
from nardy import Phase
from nardy.ai import get_player
from tests.bot.e2e.helpers import Env, seeded
from tests.bot.event_clock import EventClock
from tests.bot.fake_telegram import FakeTelegram

GROUP = -950
SEED = "tour-group"
PLAYER = get_player("medium", "short", seed=5)
POLL = 0.5
"""Virtual seconds between two looks at a board that is not up to date yet."""


def _tiny_jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, format="JPEG")
    return buffer.getvalue()


_STUB_JPEG = _tiny_jpeg()


def _stub_renderer(*_args: Any, **_kwargs: Any) -> bytes:
    return _STUB_JPEG


class CallLog:
    """The sender's Bot API caller, logging (virtual time, method, chat) of every call."""

    def __init__(self, bot: Any, clock: EventClock) -> None:
        """Wrap ``bot``."""
        self.bot = bot
        self.clock = clock
        self.calls: list[tuple[float, str, Any]] = []

    async def __call__(self, method: TelegramMethod[Any], request_timeout: int | None = None) -> Any:
        self.calls.append((self.clock.now, method.__api_method__, getattr(method, "chat_id", None)))
        return await self.bot(method, request_timeout)


class Run:
    """One tournament on its own store, clock and fake Telegram."""

    def __init__(self, store: SqliteGameStore, venue: str, players: int, turns: int, reaction: float) -> None:
        """Build the process (Dispatcher, Sender, services) on ``store``."""
        self.clock = EventClock()
        self.fake = FakeTelegram()
        self.env = Env(
            store,
            seeded(SEED),
            fake=self.fake,
            sender_clock=self.clock,
            sleep=self.clock.sleep,
            clock=self.clock,
            computer_delay=0.0,
            renderer=_stub_renderer,
        )
        self.log = CallLog(self.env.sender._bot, self.clock)
        self.env.sender._bot = self.log  # type: ignore[assignment]
        self.env.h.settle = _no_settle
        self.store = store
        self.venue = venue
        self.turns = turns
        self.reaction = reaction
        self.users = {i: self.fake.user(i, f"Player{i}", "en") for i in range(1, players + 1)}
        self.group = self.fake.group_chat(GROUP, admins=[1])
        self.round_starts: list[float] = []
        self.finished_at = 0.0
        self.matches = 0

    async def wait_for(self, check: Any, what: str, limit: float = 24 * 3600.0) -> Any:
        """Wait (virtual time) until ``check()`` returns something true; return it."""
        deadline = self.clock.now + limit
        while self.clock.now < deadline:
            found = await check()
            if found:
                return found
            await self.clock.sleep(POLL)
        raise AssertionError(f"timed out waiting for {what}")

    async def card_shows(self, message_id: int, text: str) -> bool:
        return text in self.fake.chats[GROUP][message_id].content

    # ------------------------------------------------------------------ the tournament

    async def create(self) -> str:
        """Create, fill and start the tournament by its buttons. Returns: its id."""
        h, fake, organiser = self.env.h, self.fake, self.users[1]
        await h.send_text(organiser, self.group, "/tournament")

        async def card() -> int | None:
            found = [m for m in fake.messages(GROUP) if "New tournament" in m.content]
            return found[-1].message_id if found else None

        card_id: int = await self.wait_for(card, "the creation card")
        if self.venue == "group":
            for _ in range(5):
                if await self.card_shows(card_id, "games in this group"):
                    break
                version = fake.chats[GROUP][card_id].content
                await h.press_button(organiser, fake.chats[GROUP][card_id], "Games:")

                async def changed(before: str = version) -> bool:
                    return fake.chats[GROUP][card_id].content != before

                await self.wait_for(changed, "the card to change")
            assert await self.card_shows(card_id, "games in this group")
        await h.press_button(organiser, fake.chats[GROUP][card_id], "Open registration")

        async def opened() -> bool:
            return await self.card_shows(card_id, "Players (0/")

        await self.wait_for(opened, "the registration card")
        tournament_id = await self.store.chat_tournament(GROUP)
        assert tournament_id is not None
        join = fake.chats[GROUP][card_id].button("Join").callback_data or ""
        for user in self.users.values():
            if self.venue == "private":
                await h.send_text(user, fake.private_chat(user), f"/start t_{tournament_id}")
            await h.press(user, GROUP, card_id, join)
        count = len(self.users)

        async def full() -> bool:
            return await self.card_shows(card_id, f"Players ({count}/")

        await self.wait_for(full, "every player on the card")
        start = fake.chats[GROUP][card_id].button("Start").callback_data or ""
        await h.press(organiser, GROUP, card_id, start)
        return tournament_id

    async def play(self, tournament_id: str) -> None:
        """Play every round's matches at once until the tournament is over."""
        service = self.env.service.tournaments
        played: set[str] = set()
        while True:
            loaded = await service.records.load(tournament_id)
            assert loaded is not None
            record = loaded[1]
            if record.status == "finished":
                finals = [m for m in self.fake.messages(GROUP) if "The tournament is over" in m.content]
                if finals:
                    break
            new: list[str] = []
            ready = True  # every match of the round has its game (they are created one after another)
            if record.core is not None:
                for match in record.tournament().playable():
                    game_id = record.games.get(match.id)
                    if game_id is None or await self.store.get_game(game_id) is None:
                        ready = False
                    elif game_id not in played:
                        new.append(game_id)
            if not new or not ready:
                await self.clock.sleep(POLL)
                continue
            self.round_starts.append(self.clock.now)
            played.update(new)
            await asyncio.gather(*(self.play_game(game_id) for game_id in new))
            self.matches += len(new)
        self.finished_at = self.clock.now

    # ------------------------------------------------------------------ one game

    async def shown(self, game_id: str, chat_id: int) -> Any:
        stored = await self.store.get_game(game_id)
        assert stored is not None
        state = stored.boards.get(chat_id)
        if state is not None and state.message_id is not None and state.shown_version >= stored.version:
            return stored
        return None

    def board_actions(self, chat_id: int, message_id: int) -> dict[str, str]:
        message = self.fake.chats[chat_id][message_id]
        found: dict[str, str] = {}
        for row in message.buttons():
            for button in row:
                parsed = parse_callback(button.callback_data)
                if isinstance(parsed, GameCb):
                    found[parsed.action] = button.callback_data or ""
                    found[f"label:{button.text}"] = button.callback_data or ""
        return found

    def chat_of(self, stored: Any, index: int) -> int:
        chat = next(c for c in stored.data["chats"] if c.get("viewer") in (None, index))
        return int(chat["chat_id"])

    async def play_game(self, game_id: str) -> None:
        presses = 0
        while True:
            stored = await self.store.get_game(game_id)
            assert stored is not None
            if stored.finished:
                return
            index = load_match(GameRecord.from_stored(stored), game_id, self.env.service.config.dice).game.turn
            chat_id = self.chat_of(stored, index)
            stored = await self.wait_for(lambda chat=chat_id: self.shown(game_id, chat), "a board")
            if stored.finished:
                return
            match = load_match(GameRecord.from_stored(stored), game_id, self.env.service.config.dice)
            game = match.game
            if game.turn != index:
                continue
            user = self.users[stored.data["players"][index]["id"]]
            if self.turns and presses >= self.turns:
                await self.resign(game_id, stored, index, user)
                return
            message_id = stored.boards[chat_id].message_id
            actions = self.board_actions(chat_id, message_id)
            await self.clock.sleep(self.reaction)
            if game.phase is Phase.ROLL:
                data = actions["roll"]
            elif game.phase is Phase.MOVE:
                target = PLAYER.choose_move(game)
                data = actions.get(f"label:{target.notation}", "")
                if not data:
                    pending = len(stored.data.get("pending_steps", []))
                    data = actions[StepAction.of(target.steps[pending]).pack()]
            else:
                data = next(iter(v for k, v in actions.items() if not k.startswith("label:")))
            await self.env.h.press(user, chat_id, message_id, data)
            presses += 1

    async def resign(self, game_id: str, stored: Any, index: int, loser: User) -> None:
        """The player to act resigns the game; the opponent accepts on their board."""
        fake, h = self.fake, self.env.h
        chat_id = self.chat_of(stored, index)
        chat: Chat = self.group if chat_id == GROUP else fake.private_chat(loser)
        await self.clock.sleep(self.reaction)
        before = max((m.message_id for m in fake.messages(chat_id)), default=0)
        await h.send_text(loser, chat, "/resign")

        async def menu() -> Any:
            found = [
                m
                for m in fake.messages(chat_id)
                if m.message_id > before
                and any(game_id in (b.callback_data or "") and "single game" in b.text for r in m.buttons() for b in r)
            ]
            return found[-1] if found else None

        shown = await self.wait_for(menu, "the resign menu")
        await self.clock.sleep(self.reaction)
        await h.press_button(loser, shown, "single game")
        opponent_index = 1 - index
        opponent = self.users[stored.data["players"][opponent_index]["id"]]
        board_chat = self.chat_of(stored, opponent_index)

        async def offered() -> Any:
            after = await self.shown(game_id, board_chat)
            if after is None or after.finished:
                return after
            message_id = after.boards[board_chat].message_id
            return (
                after
                if "resign" in str(self.board_actions(board_chat, message_id)).lower()
                or any("Accept" in b.text for row in fake.chats[board_chat][message_id].buttons() for b in row)
                else None
            )

        after = await self.wait_for(offered, "the resignation offer")
        if after.finished:
            return
        await self.clock.sleep(self.reaction)
        message_id = after.boards[board_chat].message_id
        await h.press_button(opponent, fake.chats[board_chat][message_id], "Accept")

        async def over() -> bool:
            final = await self.store.get_game(game_id)
            return final is not None and final.finished

        await self.wait_for(over, "the game's end")


async def _no_settle() -> None:
    return None


def _max_window(times: list[float], width: float = 60.0) -> int:
    times = sorted(times)
    best, start = 0, 0
    for end, t in enumerate(times):
        while times[start] <= t - width:
            start += 1
        best = max(best, end - start + 1)
    return best


async def _run(venue: str, players: int, turns: int, reaction: float) -> None:
    with tempfile.TemporaryDirectory() as directory:
        store = SqliteGameStore(str(Path(directory) / f"{venue}.sqlite3"))
        run = Run(store, venue, players, turns, reaction)
        run.clock.start()
        began = time.perf_counter()
        try:
            tournament_id = await run.create()
            start = run.clock.now
            await run.play(tournament_id)
            await run.env.sender.drain()
        finally:
            await run.env.service.stop_computer()
            await run.clock.stop()
            await run.env.close()
            await store.close()
        wall = time.perf_counter() - began
    calls = [c for c in run.log.calls if c[0] >= start]
    group = [t for t, _name, chat in calls if chat == GROUP]
    every = [t for t, _name, _chat in calls]
    ends = [*run.round_starts[1:], run.finished_at]
    rounds = [end - begin for begin, end in zip(run.round_starts, ends, strict=True)]
    matches = max(run.matches, 1)
    print(
        f"games {'in the group' if venue == 'group' else 'in private chats'}: {players} players, {run.matches} matches"
    )
    print(
        f"  group calls: max {_max_window(group)} in any 60 s (limit 20), {len(group) / matches:.1f} per match; "
        f"all calls: {len(calls) / matches:.1f} per match, max {_max_window(every)} in any 60 s overall"
    )
    print(
        f"  rounds: {len(rounds)}, {' '.join(f'{r / 60:.1f}' for r in rounds)} min each "
        f"(mean {sum(rounds) / max(len(rounds), 1) / 60:.1f} min); "
        f"whole tournament {(run.finished_at - start) / 60:.1f} min virtual, {wall:.1f} s real"
    )


def main() -> None:
    """Parse the arguments and print the figures for both venues."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--turns", type=int, default=12, help="presses per game before resigning (0: to the end)")
    parser.add_argument("--reaction", type=float, default=1.0, help="seconds a person takes to press")
    parser.add_argument("--venue", choices=("group", "private", "both"), default="both")
    args = parser.parse_args()
    venues = ("group", "private") if args.venue == "both" else (args.venue,)
    for venue in venues:
        asyncio.run(_run(venue, args.players, args.turns, args.reaction))


if __name__ == "__main__":
    main()
