"""The Mini App's tournament view: ``GET /webapp/api/tournaments/{id}`` on a tournament run by the bot's services
(registration over the fake Telegram, computer players), its standings, pairings and bracket, the poll's
``?version=``, the viewer's language, and the refusals."""

from __future__ import annotations

from typing import Any

from aiogram.types import User
from aiohttp.test_utils import TestClient, TestServer

from bot.model.tournament import Entrant, TournamentRecord, TournamentSettings
from bot.services.tournaments.view_model import TournamentViews, build_view, score
from bot.storage import Store
from bot.texts import table_labels
from bot.webapp.parts import WebAppParts
from tests.bot.e2e.test_tournament_formats import _register
from tests.bot.e2e.tournament_drive import record_of, tournament_env
from tests.bot.webapp.appkit import AppEnv, create_webapp_mounted
from tests.bot.webapp.initdata import TOKEN, signed_init_data
from tournaments import Player, Result, Tournament, round_robin, single_elimination, swiss
from tournaments.records import tournament_to_dict


class TournamentAppEnv(AppEnv):
    """:class:`AppEnv` whose Mini App server also has the tournament views (as :func:`bot.wiring.webapp_parts`
    gives them)."""

    def __init__(self, store: Store, seed: str = "webapp-tour", **kwargs: Any) -> None:
        super().__init__(store, seed, **kwargs)
        tournament_env(self.env)
        services = self.env.service
        parts = WebAppParts(
            token=TOKEN,
            max_age=86400.0,
            views=services.views,
            actions=services.actions,
            live=self.live,
            tournaments=TournamentViews(services.tournaments.records),
            **({"static_dir": kwargs["static_dir"]} if kwargs.get("static_dir") is not None else {}),
        )
        self.unused = self.client
        self.client = TestClient(TestServer(create_webapp_mounted(parts)))

    async def __aenter__(self) -> TournamentAppEnv:
        await super().__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.unused.close()
        await super().__aexit__(*exc)

    async def tournament(self, tournament_id: str, user: User | None, **query: str) -> tuple[int, dict[str, Any]]:
        """GET the tournament as ``user`` (None: no init data). Returns: the status and the JSON."""
        headers = (
            {"Authorization": "tma " + signed_init_data(user.id, user.first_name, language=user.language_code or "en")}
            if user is not None
            else {}
        )
        url = f"/webapp/api/tournaments/{tournament_id}"
        async with self.client.get(url, headers=headers, params=query) as response:
            return response.status, await response.json()


async def start_elimination(app: TournamentAppEnv, people: list[User], computers: int) -> str:
    """Open a single elimination in a group with ``people`` (the first organises) and ``computers`` easy computer
    players, and start it. Returns the tournament id."""
    fake = app.env.fake
    group = fake.group_chat(-4400, admins=[people[0].id])
    tournament_id, _ = await _register(app.env, people[0], group, people, computers, ("Format:",) * 3)
    await app.env.service.settle()
    return tournament_id


async def test_a_running_elimination_shows_standings_pairings_and_the_bracket(sqlite_store: Store) -> None:
    async with TournamentAppEnv(sqlite_store) as app:
        fake = app.env.fake
        alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
        carol, dmitri = fake.user(3, "Carol", "en"), fake.user(4, "Dmitri", "ru")
        tournament_id = await start_elimination(app, [alice, bob], 2)
        record = await record_of(app.env, tournament_id)

        status, view = await app.tournament(tournament_id, alice)
        assert status == 200, view
        assert view["format"] == "se" and view["status"] == "running" and view["round"] == 1
        assert view["title"].startswith("single elimination") or "elimination" in view["title"]
        assert view["columns"] == ["Rating", "Round", "Status"]
        names = {row["name"] for row in view["standings"]}
        assert names == {e.name for e in record.entrants}
        assert [row["you"] for row in view["standings"] if row["name"] == "Alice"] == [True]
        # the first round: two matches, each with its game once started
        assert [p["label"] for p in view["pairings"]] == ["Semifinal", "Semifinal"]
        for pairing in view["pairings"]:
            assert pairing["state"] in ("playing", "result", "forfeit", "to_play")
            if pairing["state"] == "playing":
                assert pairing["game_id"] == record.games[pairing["id"]]
        playing = [p for p in view["pairings"] if p["state"] == "playing"]
        assert any("Alice" in (p["first"], p["second"]) for p in playing), view["pairings"]
        # the bracket: the semifinals and the final (its players still to come)
        bracket = view["bracket"]
        assert [r["label"] for r in bracket] == ["Semifinal", "Final"]
        assert len(bracket[0]["matches"]) == 2 and len(bracket[1]["matches"]) == 1
        final = bracket[1]["matches"][0]
        assert final["game_id"] is None and not final["playing"]
        assert any(m["playing"] and m["game_id"] for m in bracket[0]["matches"])
        assert view["texts"]["standings"] == "Standings"

        # a stranger may look too (the chat card shows the same), in their language
        status, seen = await app.tournament(tournament_id, carol)
        assert status == 200 and not any(row["you"] for row in seen["standings"])
        status, russian = await app.tournament(tournament_id, dmitri)
        assert status == 200 and russian["texts"]["standings"] == "Таблица"
        assert [p["label"] for p in russian["pairings"]] == ["Полуфинал", "Полуфинал"]

        # the poll: unchanged → current; after a change → the new view
        status, same = await app.tournament(tournament_id, alice, version=str(view["version"]))
        assert (status, same) == (200, {"current": True})
        status, older = await app.tournament(tournament_id, alice, version=str(view["version"] - 1))
        assert status == 200 and older["version"] == view["version"]


async def test_refusals_unknown_tournament_and_untrusted_callers(sqlite_store: Store) -> None:
    async with TournamentAppEnv(sqlite_store) as app:
        alice = app.env.fake.user(1, "Alice", "en")
        status, body = await app.tournament("AAAAAAAAAA", alice)
        assert status == 404 and body == {"error": "not_found", "reason": "There is no such tournament."}
        status, body = await app.tournament("AAAAAAAAAA", None)
        assert status == 401 and body["error"] == "missing"
        forged = {"Authorization": "tma " + signed_init_data(1, "Alice", token="1:other")}
        async with app.client.get("/webapp/api/tournaments/AAAAAAAAAA", headers=forged) as response:
            assert response.status == 401
            assert (await response.json())["error"] == "forged"


def test_a_decided_bracket_match_has_its_winner_and_score() -> None:
    players = [Player(f"p{i}", 1500.0 - i) for i in range(4)]
    tournament = single_elimination(players)
    first = tournament.playable()[0]
    tournament = tournament.record(Result(first.id, first.first, 3, 1))
    second = tournament.playable()[0]
    tournament = tournament.record(Result(second.id, second.second, 0, 0, forfeit=True))
    record = TournamentRecord(
        chat_id=-1,
        organiser=1,
        settings=TournamentSettings(format="se", length=3),
        status="running",
        entrants=tuple(Entrant(p.id, f"Name {p.id}", p.rating) for p in players),
        core=tournament_to_dict(tournament),
        lang="en",
    )
    view = build_view("T123456789", 7, record, None, "en")
    assert view.version == 7 and view.round == 2
    semis = {m.id: m for m in (view.bracket or ())[0].matches}
    assert semis[first.id].winner == 0 and semis[first.id].score == "3–1"
    assert semis[second.id].winner == 1
    states = {p.id: p.state for p in view.pairings}
    assert states[(view.bracket or ())[1].matches[0].id] == "to_play"
    assert list(view.to_json()["bracket"][1]["matches"][0]["players"]) == [
        f"Name {first.first}",
        f"Name {second.second}",
    ]
    assert [score(x) for x in (0, 0.5, 2, 2.5, -1.5)] == ["0", "½", "2", "2½", "−1½"]


def test_a_tournament_in_registration_lists_its_entrants() -> None:
    record = TournamentRecord(
        chat_id=-1,
        organiser=1,
        settings=TournamentSettings(format="rr"),
        entrants=(Entrant("a", "Anna", 1600.0, user_id=5), Entrant("b", "Boris", 1500.0)),
    )
    view = build_view("T123456789", 1, record, 5, "ru")
    assert view.status_text == "Регистрация" and view.pairings == () and view.bracket is None
    assert [(r.place, r.name, r.you) for r in view.standings] == [(1, "Anna", True), (2, "Boris", False)]


def _record(fmt: str, tournament: Tournament, players: list[Player]) -> TournamentRecord:
    return TournamentRecord(
        chat_id=-1,
        organiser=1,
        settings=TournamentSettings(format=fmt),
        status="running",
        entrants=tuple(Entrant(p.id, p.id.upper(), p.rating, user_id=10 + n) for n, p in enumerate(players)),
        core=tournament_to_dict(tournament),
    )


def test_round_robin_and_swiss_show_the_columns_of_their_standings_pictures() -> None:
    players = [Player(f"p{i}", 1500.0 + i) for i in range(5)]
    robin: Tournament = round_robin(players)
    first = robin.playable()[0]
    robin = robin.record(Result(first.id, None, 1, 1))
    view = build_view("T123456789", 3, _record("rr", robin, players), 10, "en")
    assert view.columns == ("Pl", "W", "D", "L", "Pts", "SB", "+/−") and view.bracket is None
    drawn = [r for r in view.standings if r.cells[0] == "1"]
    assert len(drawn) == 2 and all(r.cells[2] == "1" and r.cells[4] == "½" for r in drawn)
    assert {p.state for p in view.pairings} == {"result", "to_play"} and view.round == 1
    assert [r.name for r in view.standings if r.you] == ["P0"]

    tour: Tournament = swiss(players, rounds=3)
    view = build_view("T123456789", 1, _record("sw", tour, players), None, "ru")
    assert view.columns == tuple(
        getattr(table_labels("ru"), name) for name in ("rating", "points", "cut1", "buchholz", "sb")
    )
    assert len(view.standings) == 5 and view.title
    assert len(view.pairings) == 2 and all(p.state == "to_play" and p.game_id is None for p in view.pairings)
