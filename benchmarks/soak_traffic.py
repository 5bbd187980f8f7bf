"""Telegram's side of a soak run (``benchmarks/soak.py``): deliveries to the workers and people playing.

:class:`Telegram` POSTs updates to the workers as Telegram does through a load balancer: to a worker chosen at
random, again (to any worker) after a 503, a refused connection or a broken one, until one answers 200; sometimes
to two workers at once (Telegram's redelivery). It remembers every press and typed move with how its delivery went:
an attempt *broken* after it reached a worker (the worker died or did not answer in time) leaves it unknown whether
that worker applied it.

:class:`PlayedGame` is the people of one game: they look at what their chat shows (the newest board photo of their
game that carries buttons) and, after a random think time, the person the caption names presses one of its buttons
at random (Undo, Double and Pass seldom), or types the notation of a turn or a made-up move, while now and then the
other person presses (not their turn), someone presses a keyboard seen earlier, or the update is delivered twice.
After a press that was taken they wait for the board to change (at most ``patience`` seconds). A finished game is
played again with Rematch. A person whose presses are refused as stale again and again while the board does not
change types ``/board``, as people do (counted: :attr:`PlayedGame.board_commands`).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.texts import tr
from tests.bot.fake_bot_api_server import SECRET_HEADER, WORKER_SECRET, ChatMessage, FakeBotApiServer

GIVE_UP_AFTER = 300.0
"""Seconds after which Telegram's side stops redelivering an update (it is then counted as undelivered)."""
POST_TIMEOUT = 120.0
"""Seconds one POST may take before Telegram's side takes the attempt as broken and delivers again."""
ANSWER_WAIT = 30.0
"""Seconds a person waits for the toast of a press before going on."""
STUCK_REFUSALS = 8
"""Stale refusals in a row (with the board unchanged for :data:`STUCK_SECONDS`) after which a person types /board."""
STUCK_SECONDS = 30.0
REMATCH_TRIES = 3
"""Rematch presses the people of a finished game make at most (a refused one is tried again)."""
STALE_TOASTS = frozenset(tr("en", key) for key in ("toast.stale", "toast.old_board", "toast.synced"))
"""The toasts of a press made on a board that is not the game's current one (the people's language is English)."""
RARE = {"undo": 0.15, "double": 0.03, "pass": 0.2, "beaver": 0.1, "raccoon": 0.1}
"""Buttons people press less often than the others (weights; the others weigh 1): a double, or a pass that ends
the game, is a rare choice."""
TAG = re.compile(r"<[^>]+>")
GAME_BUTTON = re.compile(r"^g:([A-Za-z0-9_-]{10}):(\d+):(.+)$")


@dataclass
class Delivery:
    """How one update reached the workers."""

    update_id: int
    started: float
    copies: int = 1
    handled: float | None = None
    """When a worker first answered 200 (None: never)."""
    broken: int = 0
    """Attempts that reached a worker which died or did not answer in time: it may have handled the update."""
    refused: int = 0
    """Attempts nobody took (connection refused: the worker was down)."""
    statuses: Counter[int] = field(default_factory=Counter)
    gave_up: bool = False

    @property
    def uncertain(self) -> bool:
        """Whether a worker may have handled the update without its outcome reaching Telegram's side."""
        return self.broken > 0 or self.handled is None


@dataclass
class Press:
    """A button press sent to the workers."""

    delivery: Delivery
    query_id: str
    data: str
    user_id: int
    chat_id: int
    kind: str
    """``play`` (the person the board names), ``wrong`` (the other person), ``old`` (a keyboard seen earlier),
    ``burst``, ``rematch`` or ``join``."""
    sent: float

    @property
    def game(self) -> tuple[str, int] | None:
        """The game id and version the button carries (None: not a game button)."""
        found = GAME_BUTTON.match(self.data)
        return (found.group(1), int(found.group(2))) if found else None


@dataclass
class TypedMove:
    """A move typed in a chat (``game_id``: the game whose board the person looked at)."""

    delivery: Delivery
    message_id: int
    chat_id: int
    user_id: int
    game_id: str | None
    text: str
    sent: float


@dataclass(frozen=True)
class Mix:
    """How people behave: think time range (seconds), patience for a board change after a taken press, and the
    chances of a typed move, a press by the wrong person, a press on a keyboard seen earlier and a double
    delivery."""

    think: tuple[float, float] = (0.3, 2.0)
    patience: float = 20.0
    typed: float = 0.04
    wrong: float = 0.08
    old: float = 0.04
    twice: float = 0.08


class Telegram:
    """Telegram's side of the webhook (see the module docstring)."""

    def __init__(
        self, api: FakeBotApiServer, urls: list[str], session: aiohttp.ClientSession, rng: random.Random
    ) -> None:
        """Deliver to the webhook ``urls`` (a worker slot each) through ``session``; choose workers with ``rng``."""
        self.api = api
        self.urls = urls
        self.session = session
        self.rng = rng
        self.presses: list[Press] = []
        self.typed: list[TypedMove] = []
        self.commands: list[Delivery] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coroutine`` in a task kept until it is done (see :meth:`drain`). Returns: the task."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for the deliveries under way, then cancel the rest. Returns: how many
        were cancelled."""
        pending = list(self._tasks)
        if pending:
            _, left = await asyncio.wait(pending, timeout=timeout)
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            return len(left)
        return 0

    async def deliver(
        self, update: dict[str, Any], delivery: Delivery | None = None, *, twice: bool = False
    ) -> Delivery:
        """Deliver ``update`` until a worker answers 200 (to two workers at once when ``twice``), noting how it went
        in ``delivery`` (a new one by default). Returns: the delivery (never raises for a worker's failure; gives up
        after :data:`GIVE_UP_AFTER` seconds)."""
        delivery = delivery or Delivery(int(update["update_id"]), time.monotonic())
        delivery.copies = 2 if twice and len(self.urls) > 1 else 1
        slots = self.rng.sample(range(len(self.urls)), delivery.copies)
        await asyncio.gather(*(self._until_handled(update, delivery, slot) for slot in slots))
        return delivery

    async def _until_handled(self, update: dict[str, Any], delivery: Delivery, slot: int) -> None:
        headers = {SECRET_HEADER: WORKER_SECRET}
        timeout = aiohttp.ClientTimeout(total=POST_TIMEOUT)
        while time.monotonic() - delivery.started < GIVE_UP_AFTER:
            status: int | None = None
            try:
                async with self.session.post(self.urls[slot], json=update, headers=headers, timeout=timeout) as answer:
                    status = answer.status
                    await answer.read()
            except aiohttp.ClientConnectorError:  # nobody listens on the port: the update never reached a worker
                delivery.refused += 1
            except (aiohttp.ClientError, TimeoutError):  # it reached a worker that died or hung
                delivery.broken += 1
            if status is not None:
                delivery.statuses[status] += 1
                if status == 200:
                    delivery.handled = delivery.handled or time.monotonic()
                    return
            if delivery.handled is not None:  # the other copy got through: Telegram stops here
                return
            await asyncio.sleep(self.rng.uniform(0.2, 0.8))  # Telegram tries again a little later
            slot = self.rng.randrange(len(self.urls))
        delivery.gave_up = delivery.handled is None

    def press(self, user: dict[str, Any], message: ChatMessage, data: str, kind: str, *, twice: bool = False) -> Press:
        """Press the button ``data`` on ``message`` as ``user`` (delivered in the background). Returns: the press."""
        update = self.api.press_update(user, message, data)
        delivery = Delivery(int(update["update_id"]), time.monotonic())
        press = Press(
            delivery, update["callback_query"]["id"], data, user["id"], message.chat_id, kind, delivery.started
        )
        self.presses.append(press)
        self.spawn(self.deliver(update, delivery, twice=twice))
        return press

    def type(
        self, user: dict[str, Any], chat: dict[str, Any], text: str, game_id: str | None, *, twice: bool = False
    ) -> TypedMove:
        """Send ``text`` as ``user`` in ``chat`` (delivered in the background: a refusal's reply may wait for the
        chat's pace; to two workers at once when ``twice``). Returns: the typed move."""
        update = self.api.message_update(user, chat, text)
        delivery = Delivery(int(update["update_id"]), time.monotonic())
        typed = TypedMove(
            delivery, update["message"]["message_id"], chat["id"], user["id"], game_id, text, delivery.started
        )
        self.typed.append(typed)
        self.spawn(self.deliver(update, delivery, twice=twice))
        return typed

    def command(self, user: dict[str, Any], chat: dict[str, Any], text: str) -> Delivery:
        """Send the command ``text`` as ``user`` in ``chat`` (delivered in the background). Returns: its delivery."""
        update = self.api.message_update(user, chat, text)
        delivery = Delivery(int(update["update_id"]), time.monotonic())
        self.commands.append(delivery)
        self.spawn(self.deliver(update, delivery))
        return delivery

    async def answer(self, press: Press, timeout: float = ANSWER_WAIT) -> str | None:
        """Wait for the toast of ``press``. Returns: its text ("" when the press was taken), or None when no answer
        came within ``timeout`` seconds."""
        if not await self.wait_for(lambda: press.query_id in self.api.answers, timeout):
            return None
        return str(self.api.answers[press.query_id].fields.get("text") or "")

    async def wait_for(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``condition()`` holds. Returns: whether it did within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.api.changed.wait(), timeout=min(0.25, left))
        return True


def plain_lines(caption: str | None) -> list[str]:
    """Return the lines of an HTML caption without its tags."""
    return [TAG.sub("", line).strip() for line in (caption or "").splitlines()]


def game_buttons(message: ChatMessage) -> list[tuple[str, str]]:
    """Return the (callback data, label) of the game buttons (``g:``) of a message."""
    return [
        (str(b["callback_data"]), str(b.get("text", "")))
        for row in message.keyboard
        for b in row
        if str(b.get("callback_data", "")).startswith("g:")
    ]


class PlayedGame:
    """The people of one game (see the module docstring)."""

    def __init__(
        self,
        telegram: Telegram,
        chat: dict[str, Any],
        people: list[dict[str, Any]],
        *,
        variant: str,
        computer: bool,
        rng: random.Random,
    ) -> None:
        """Play in ``chat`` as ``people`` (one against the computer, else two) a game of ``variant``."""
        self.telegram = telegram
        self.api = telegram.api
        self.chat = chat
        self.people = people
        self.variant = variant
        self.computer = computer
        self.rng = rng
        self.names = [p["first_name"] for p in people]
        self.seen: deque[tuple[ChatMessage, tuple[str, ...]]] = deque(maxlen=6)
        self.board_commands = 0
        self.started = False
        self.stale_in_row = 0
        self.rematches: Counter[str] = Counter()

    @property
    def group(self) -> bool:
        """Whether the game is played in a group."""
        return int(self.chat["id"]) < 0

    def board(self) -> ChatMessage | None:
        """Return the newest board photo of this game in the chat that carries game buttons, or None."""
        for message in reversed(self.api.chat(self.chat["id"])):
            first = plain_lines(message.caption)[:1]  # "⚪ A001 — ⚫ B001 · Short nardy"
            if message.photo and first and all(name in first[0] for name in self.names) and game_buttons(message):
                return message
        return None

    def awaited(self, board: ChatMessage) -> dict[str, Any] | None:
        """Return the person the board's caption names as the one to act, or None (the game is over, or the
        caption names nobody: the computer)."""
        if self.computer:
            return self.people[0]
        for line in plain_lines(board.caption):
            for person in self.people:
                name = person["first_name"]
                if line.startswith((f"{name} to ", f"{name}: ", f"{name} played the 1-2")):
                    return person
        return None

    async def start(self, timeout: float = 180.0) -> bool:
        """Start the game (``/new bot <variant> easy`` in a private chat, else ``/new <variant>`` and Join).
        Returns: whether its board appeared within ``timeout`` seconds."""
        telegram = self.telegram
        if self.computer:
            telegram.command(self.people[0], self.chat, f"/new bot {self.variant} easy")
        else:
            known = {m.message_id for m in self.api.chat(self.chat["id"])}
            telegram.command(self.people[0], self.chat, f"/new {self.variant}")

            def card() -> ChatMessage | None:
                for message in reversed(self.api.chat(self.chat["id"])):
                    joins = [d for d in message.callbacks() if d.endswith(":join")]
                    if message.message_id not in known and joins and self.names[0] in (message.text or ""):
                        return message
                return None

            if not await telegram.wait_for(lambda: card() is not None, timeout):
                return False
            found = card()
            assert found is not None
            join = next(d for d in found.callbacks() if d.endswith(":join"))
            telegram.press(self.people[1], found, join, "join")
        self.started = await telegram.wait_for(lambda: self.board() is not None, timeout)
        return self.started

    async def play(self, stop: asyncio.Event, mix: Mix) -> None:
        """Play until ``stop`` is set (see the module docstring). Returns nothing."""
        changed_at = time.monotonic()
        last_shown: tuple[int, tuple[str, ...]] | None = None
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.rng.uniform(*mix.think))
            if stop.is_set():
                return
            board = self.board()
            if board is None:
                continue
            shown = (board.message_id, tuple(board.callbacks()))
            if shown != last_shown:
                last_shown, changed_at = shown, time.monotonic()
                self.seen.append((board, shown[1]))
            await self._act(board, mix)
            if self.stale_in_row >= STUCK_REFUSALS and time.monotonic() - changed_at > STUCK_SECONDS:
                self.board_commands += 1
                self.stale_in_row = 0
                self.telegram.command(self.rng.choice(self.people), self.chat, "/board")

    async def _act(self, board: ChatMessage, mix: Mix) -> None:
        buttons = game_buttons(board)
        rematch = [data for data, _ in buttons if data.endswith(":rematch")]
        if rematch:
            found = GAME_BUTTON.match(rematch[0])
            if found and self.rematches[found.group(1)] < REMATCH_TRIES:
                self.rematches[found.group(1)] += 1
                await self._press(self.rng.choice(self.people), board, rematch[0], "rematch", mix)
            return
        awaited = self.awaited(board)
        other = next((p for p in self.people if p is not awaited), None) if awaited is not None else None
        chance = self.rng.random()
        if awaited is not None and self.group and chance < mix.typed:
            self._type(awaited, board, mix.twice)
            return
        chance -= mix.typed
        if other is not None and chance < mix.wrong:
            await self._press(other, board, self.pick(buttons), "wrong", mix)
            return
        chance -= mix.wrong
        presser = awaited or self.rng.choice(self.people)
        older = [(m, keys) for m, keys in self.seen if keys != tuple(board.callbacks())]
        if older and chance < mix.old:
            message, keys = self.rng.choice(older)
            data = self.rng.choice([k for k in keys if k.startswith("g:")] or list(keys))
            await self._press(presser, message, data, "old", mix)
            return
        await self._press(presser, board, self.pick(buttons), "play", mix)

    def pick(self, buttons: list[tuple[str, str]]) -> str:
        """Return the callback data of a button chosen at random (the :data:`RARE` ones seldom)."""
        weights = [RARE.get(data.rsplit(":", 1)[-1], 1.0) for data, _ in buttons]
        return self.rng.choices([data for data, _ in buttons], weights)[0]

    def _type(self, person: dict[str, Any], board: ChatMessage, twice: float) -> None:
        turns = [label for data, label in game_buttons(board) if re.search(r":t\d+$", data) and "/" in label]
        if turns and self.rng.random() < 0.6:
            text = self.rng.choice(turns)
        else:
            start = self.rng.randint(2, 24)
            text = f"{start}/{max(1, start - self.rng.randint(1, 6))}"
        found = GAME_BUTTON.match(game_buttons(board)[0][0])
        self.telegram.type(person, self.chat, text, found.group(1) if found else None, twice=self.rng.random() < twice)

    async def _press(self, person: dict[str, Any], message: ChatMessage, data: str, kind: str, mix: Mix) -> None:
        before = (message.message_id, tuple(message.callbacks()))
        press = self.telegram.press(person, message, data, kind, twice=self.rng.random() < mix.twice)
        toast = await self.telegram.answer(press)
        if toast is None or kind not in ("play", "old"):
            return
        if toast:
            self.stale_in_row += toast in STALE_TOASTS
            return
        self.stale_in_row = 0

        def moved() -> bool:
            board = self.board()
            return board is None or (board.message_id, tuple(board.callbacks())) != before

        await self.telegram.wait_for(moved, mix.patience)


async def burst(telegram: Telegram, games: list[PlayedGame], count: int, seconds: float, rng: random.Random) -> int:
    """Press ``count`` buttons within ``seconds``, spread evenly in time and over the games that show a board (each
    on the game's current board, by the person the board names or, one time in three, by anyone of the game).
    Returns: how many were pressed (fewer only when no game shows a board)."""
    began = time.monotonic()
    pressed = 0
    for turn in range(count * 3 if games else 0):
        if pressed == count:
            break
        await asyncio.sleep(max(0.0, began + pressed * seconds / count - time.monotonic()))
        game = games[turn % len(games)]
        board = game.board() if game.started else None
        if board is None:
            continue
        awaited = game.awaited(board)
        person = awaited if awaited is not None and rng.random() < 2 / 3 else rng.choice(game.people)
        telegram.press(person, board, game.pick(game_buttons(board)), "burst")
        pressed += 1
    return pressed
