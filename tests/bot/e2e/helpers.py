"""Building a real Dispatcher with the game flows on the fake Telegram, and driving games by their buttons."""

from __future__ import annotations

from typing import Any

from aiogram.types import Chat

from bot.config import Settings
from bot.model.game import GameRecord
from bot.sender import Sender, SenderLimits
from bot.services.engine_flow import DiceFactory
from bot.services.fairness import export_record
from bot.storage import Store
from bot.wiring import build_dispatcher
from nardy import DiceSource, SeededDice
from nardy.fairness import verify_record
from tests.bot.fake_telegram import FakeTelegram, ShownMessage, TelegramHarness
from tests.bot.virtual_time import VirtualClock


def seeded(seed: str) -> DiceFactory:
    """Return a dice factory giving deterministic dice for each state of each game."""

    def factory(game_id: str, count: int) -> DiceSource:
        return SeededDice(f"{seed}:{count}")

    return factory


class SettlingHarness(TelegramHarness):
    """A harness that, after each update, waits for the work the update started in the background (board syncs,
    computer replies), as a person would wait for the board before pressing again."""

    def __init__(self, *args: Any, settle: Any, **kwargs: Any) -> None:
        """Like :class:`TelegramHarness`; ``settle`` is awaited after every update."""
        super().__init__(*args, **kwargs)
        self.settle = settle

    async def feed(self, update: Any) -> Any:
        """Return the dispatcher's result for ``update``, once its background work is done."""
        result = await super().feed(update)
        await self.settle()
        return result


class Env:
    """A store, a fake Telegram, a Bot, a Dispatcher with the game flows, and a harness feeding it."""

    def __init__(
        self,
        store: Store,
        dice: DiceFactory | None,
        *,
        fake: FakeTelegram | None = None,
        sender_clock: Any = None,
        **service: Any,
    ) -> None:
        """Build everything on ``store`` through the composition root (:func:`bot.wiring.build_dispatcher`) with the
        dice factory ``dice`` (None: the production wiring exactly, system dice and the settings' render processes;
        otherwise boards are drawn in a thread unless ``render_processes`` is given). ``sender_clock``: the
        sender's clock and sleep (default a :class:`VirtualClock`); ``service`` overrides the options of the game
        services (:func:`bot.wiring.build_services`: its ``clock``, ``sleep``, …). ``self.service`` is the
        :class:`bot.wiring.Services` container built."""

        self.store = store
        self.fake = fake or FakeTelegram()
        self.bot = self.fake.make_bot()
        self.clock = sender_clock or VirtualClock()
        # the production pacing (1 s per chat, 20/min in groups, 429 retries) on virtual time
        self.sender = Sender(self.bot, SenderLimits(), clock=self.clock, sleep=self.clock.sleep)
        self.settings = Settings(bot_token="42:TEST", _env_file=None)  # type: ignore[call-arg]
        if dice is not None:
            service = {"dice": dice, "render_processes": 0, **service}
        self.dp, self.service = build_dispatcher(self.settings, store, self.sender, **service)
        self.h = SettlingHarness(self.fake, self.bot, self.dp, settle=self.service.settle)
        self.fair_games = 0
        """How many games with fair dice :meth:`close` verified."""

    async def close(self) -> None:
        """Check the dice of every game with fairness seeds in the chats of the run, then stop the sender."""
        try:
            self.fair_games = await verify_fair_games(self.store, list(self.fake.chats))
        finally:
            await self.sender.drain()
            await self.sender.close()


async def verify_fair_games(store: Store, chat_ids: list[int]) -> int:
    """Run the fairness verifier on every game with seeds (the production dice) in the chats, finished or not
    (the rolls so far, checked with the seed the store keeps). Returns: how many games were checked.
    Raises: AssertionError naming a game whose rolls do not verify."""
    game_ids: set[str] = set()
    for chat_id in chat_ids:
        game_ids.update(await store.chat_games(chat_id))
        game_ids.update(await store.chat_history(chat_id, limit=1000))
    checked = 0
    for game_id in sorted(game_ids):
        stored = await store.get_game(game_id)
        if stored is None:
            continue
        record = GameRecord.from_stored(stored)
        if record.fairness is None:
            continue
        result = verify_record(export_record(game_id, record, finished=True))
        assert result.ok, (game_id, [line for line in result.lines() if "ok" not in line])
        checked += 1
    return checked


def game_buttons(message: ShownMessage) -> list[tuple[str, str]]:
    """Return (text, callback data) of the message's game buttons."""
    return [(b.text, b.callback_data or "") for row in message.buttons() for b in row]


async def record_of(store: Store, game_id: str) -> tuple[int, dict[str, Any]] | None:
    """Return (version, data) of a stored game."""
    stored = await store.get_game(game_id)
    return None if stored is None else (stored.version, stored.data)


def board_message(fake: FakeTelegram, chat_id: int) -> ShownMessage:
    """Return the newest board (photo) message of the chat."""
    photos = [m for m in fake.messages(chat_id) if m.photo is not None or m.photo_file_id is not None]
    assert photos, f"no board in chat {chat_id}"
    return photos[-1]


__all__ = ["Chat", "Env", "board_message", "game_buttons", "record_of", "seeded"]
