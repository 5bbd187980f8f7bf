"""The registration commands on a real store, without Telegram: each returns its toast, a refusal writes nothing
and asks for no reconcile, and the withdrawal needs a second press within a minute."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.model.game import PlayerInfo
from bot.model.tournament import MIN_PLAYERS, TournamentRecord, TournamentSettings
from bot.services.game_config import GameConfig
from bot.services.tournaments.records import TournamentRecordKeeper
from bot.services.tournaments.registration import TournamentRegistration
from bot.storage import SqliteGameStore
from bot.texts import tr

GROUP = -500
ALICE = PlayerInfo(11, "Alice", "en")
BOB = PlayerInfo(22, "Bob", "en")
CAROL = PlayerInfo(33, "Carol", "en")


class Desk:
    """The registration on an SQLite store, with a clock the test moves and the reconcile requests it made."""

    def __init__(self, store: SqliteGameStore) -> None:
        self.now = 1_000_000.0
        self.requested: list[str] = []
        config = GameConfig(computer=_no_computer, clock=lambda: self.now)
        self.records = TournamentRecordKeeper(store, config, retry_after=20.0)
        self.registration = TournamentRegistration(self.records, store, config, self.requested.append)

    async def record(self, tournament_id: str) -> TournamentRecord:
        loaded = await self.records.load(tournament_id)
        assert loaded is not None
        return loaded[1]

    async def version(self, tournament_id: str) -> int:
        stored = await self.records.store.get_tournament(tournament_id)
        assert stored is not None
        return stored.version


def _no_computer(level: str, variant: str, seed: int) -> Any:
    raise AssertionError("no computer plays in these tests")


@pytest.fixture
async def desk(sqlite_path: str) -> AsyncIterator[Desk]:
    store = SqliteGameStore(sqlite_path)
    yield Desk(store)
    await store.close()


async def _open(desk: Desk, settings: TournamentSettings | None = None) -> str:
    tournament_id = await desk.registration.open_registration(GROUP, ALICE, settings or TournamentSettings(), 7)
    assert tournament_id is not None
    return tournament_id


async def test_open_registration_one_per_chat(desk: Desk) -> None:
    tournament_id = await _open(desk)
    assert desk.requested == [tournament_id]
    record = await desk.record(tournament_id)
    assert (record.status, record.organiser, record.card_message_id, record.created_at) == (
        "registration",
        ALICE.id,
        7,
        desk.now,
    )
    stored = await desk.records.store.get_tournament(tournament_id)
    assert stored is not None and stored.deadline == desk.now + 20.0
    assert await desk.registration.open_registration(GROUP, BOB, TournamentSettings(), 8) is None
    assert desk.requested == [tournament_id]
    running = await desk.records.running_in(GROUP)
    assert running is not None and running[0].tournament_id == tournament_id


async def test_join_and_leave_refusals_write_nothing(desk: Desk) -> None:
    tournament_id = await _open(desk)
    join = desk.registration.join
    assert await join(tournament_id, BOB) == tr("en", "tour.joined")
    version = await desk.version(tournament_id)
    assert await join(tournament_id, BOB) == tr("en", "tour.already")
    assert await desk.registration.leave(tournament_id, CAROL.id, "en") == tr("en", "tour.not_in")
    assert await desk.version(tournament_id) == version
    assert desk.requested == [tournament_id, tournament_id]
    assert await desk.registration.leave(tournament_id, BOB.id, "en") == tr("en", "tour.left")
    assert (await desk.record(tournament_id)).entrants == ()
    assert await join("nosuchtour", BOB) == tr("en", "tour.gone")


async def test_a_full_registration_refuses(desk: Desk) -> None:
    tournament_id = await _open(desk, TournamentSettings(limit=4))
    for user_id in range(100, 104):
        assert await desk.registration.join(tournament_id, PlayerInfo(user_id, f"P{user_id}", "en")) == tr(
            "en", "tour.joined"
        )
    assert await desk.registration.join(tournament_id, CAROL) == tr("en", "tour.full")
    assert len((await desk.record(tournament_id)).entrants) == 4


async def test_organiser_commands_refused_to_others(desk: Desk) -> None:
    tournament_id = await _open(desk)
    registration = desk.registration
    refused = tr("en", "tour.organiser_only")
    assert await registration.start(tournament_id, BOB.id, "en", admin=False) == refused
    assert await registration.cancel(tournament_id, BOB.id, "en", admin=False) == refused
    assert await registration.add_computer(tournament_id, BOB.id, "easy", "en", admin=False) == refused
    assert desk.requested == [tournament_id]
    too_few = tr("en", "tour.too_few", minimum=MIN_PLAYERS)
    assert await registration.start(tournament_id, ALICE.id, "en", admin=False) == too_few
    assert await registration.cancel(tournament_id, BOB.id, "en", admin=True) == tr("en", "tour.cancelled")
    record = await desk.record(tournament_id)
    assert record.status == "cancelled" and record.finished_at == desk.now
    assert await registration.join(tournament_id, CAROL) == tr("en", "tour.closed")
    assert await desk.records.running_in(GROUP) is None


async def test_withdrawal_needs_a_second_press_within_a_minute(desk: Desk) -> None:
    tournament_id = await _open(desk)
    registration = desk.registration
    for person in (ALICE, BOB, CAROL):
        await registration.join(tournament_id, person)
    assert await registration.withdraw(tournament_id, BOB.id, "en") == tr("en", "tour.not_in")  # not started
    assert await registration.start(tournament_id, ALICE.id, "en", admin=False) == tr("en", "tour.started")
    record = await desk.record(tournament_id)
    assert record.status == "running" and set(record.ratings_before) == {e.pid for e in record.entrants}

    confirm = tr("en", "tour.quit.confirm")
    assert await registration.withdraw(tournament_id, BOB.id, "en") == confirm
    desk.now += 61
    assert await registration.withdraw(tournament_id, BOB.id, "en") == confirm, "too late: asked again"
    version = await desk.version(tournament_id)
    desk.now += 30
    assert await registration.withdraw(tournament_id, BOB.id, "en") == tr("en", "tour.quit.done")
    assert await desk.version(tournament_id) == version + 1
    pid = next(e.pid for e in record.entrants if e.user_id == BOB.id)
    after = (await desk.record(tournament_id)).tournament()
    assert pid in after.withdrawn
    assert await registration.withdraw(tournament_id, BOB.id, "en") == tr("en", "tour.not_in")
