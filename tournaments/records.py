"""Saving a tournament as a JSON-compatible record and loading it back by replaying its events.

A record is a plain dict (``json.dumps`` / ``json.loads`` round-trip it)::

    {"schema": 1, "format": "swiss",
     "players": [{"id": "ann", "rating": 1612.5}, ...],
     "options": {"length": 1, "rounds": 4},
     "events": [{"type": "result", "match": "S1-1", "winner": "ann", "first_points": 1, "second_points": 0,
                 "forfeit": false},
                {"type": "withdraw", "player": "bob"}, ...]}

``format`` is ``round_robin``, ``double_round_robin``, ``swiss``, ``single_elimination`` or ``double_elimination``;
``options`` holds ``length`` always, ``rounds`` for a Swiss and ``bracket_reset`` for a double elimination. The events
are the recorded results and the withdrawals, in the order they were applied; forfeits that follow from a withdrawal
are not saved (the replay produces them again). Loading rebuilds the tournament with its factory and re-applies every
event through ``record`` / ``withdraw``, so a loaded tournament is always a legal state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from tournaments.elimination import Elimination, double_elimination, single_elimination
from tournaments.errors import InvalidRecordError, TournamentError
from tournaments.model import Player, Result
from tournaments.round_robin import RoundRobin, double_round_robin, round_robin
from tournaments.swiss import Swiss, swiss

Tournament: TypeAlias = RoundRobin | Swiss | Elimination
"""A tournament of any format."""

SCHEMA_VERSION = 1
"""The version of the record layout written by :func:`tournament_to_dict` (and the only one read back)."""

FORMATS = ("round_robin", "double_round_robin", "swiss", "single_elimination", "double_elimination")
"""The format names of a record."""

_OPTIONS: dict[str, frozenset[str]] = {
    "round_robin": frozenset({"length"}),
    "double_round_robin": frozenset({"length"}),
    "swiss": frozenset({"length", "rounds"}),
    "single_elimination": frozenset({"length"}),
    "double_elimination": frozenset({"length", "bracket_reset"}),
}
_KEYS = frozenset({"schema", "format", "players", "options", "events"})
_RESULT_KEYS = frozenset({"type", "match", "winner", "first_points", "second_points", "forfeit"})
_WITHDRAW_KEYS = frozenset({"type", "player"})


def format_name(tournament: Tournament) -> str:
    """Return the record format name of ``tournament`` (one of :data:`FORMATS`). Raises nothing."""
    if isinstance(tournament, RoundRobin):
        return "double_round_robin" if tournament.cycles == 2 else "round_robin"
    if isinstance(tournament, Swiss):
        return "swiss"
    return "double_elimination" if tournament.double else "single_elimination"


def _event_to_dict(event: Result | str) -> dict[str, Any]:
    if isinstance(event, str):
        return {"type": "withdraw", "player": event}
    return {
        "type": "result",
        "match": event.match_id,
        "winner": event.winner,
        "first_points": event.first_points,
        "second_points": event.second_points,
        "forfeit": event.forfeit,
    }


def _check_events(tournament: Tournament) -> None:
    """Raise :class:`InvalidRecordError` unless ``events`` accounts for the results and withdrawals of the value."""
    withdrawals = tuple(e for e in tournament.events if isinstance(e, str))
    recorded = [e for e in tournament.events if isinstance(e, Result)]
    matched = 0
    for result in tournament.results:  # the recorded events in order; anything else only forfeits of withdrawals
        if matched < len(recorded) and result == recorded[matched]:
            matched += 1
        elif not result.forfeit:
            break
    else:
        if withdrawals == tournament.withdrawn and matched == len(recorded):
            return
    raise InvalidRecordError(
        "the tournament's events do not match its results and withdrawals (was it built without record/withdraw?)"
    )


def tournament_to_dict(tournament: Tournament) -> dict[str, Any]:
    """Return the JSON-compatible record of ``tournament``: schema, format, players, options and events.

    Raises :class:`InvalidRecordError` if the value was not reached by ``record`` / ``withdraw`` from a factory (its
    ``events`` do not account for its results and withdrawals), since such a value could not be replayed.
    """
    _check_events(tournament)
    name = format_name(tournament)
    options: dict[str, Any] = {"length": tournament.length}
    if isinstance(tournament, Swiss):
        options["rounds"] = tournament.rounds
    if isinstance(tournament, Elimination) and tournament.double:
        options["bracket_reset"] = tournament.bracket_reset
    return {
        "schema": SCHEMA_VERSION,
        "format": name,
        "players": [{"id": p.id, "rating": p.rating} for p in tournament.players],
        "options": options,
        "events": [_event_to_dict(e) for e in tournament.events],
    }


def _mapping(value: object, what: str, keys: frozenset[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidRecordError(f"{what} must be an object, not {type(value).__name__}")
    missing, unknown = keys - value.keys(), value.keys() - keys
    if missing:
        raise InvalidRecordError(f"{what} lacks {', '.join(sorted(missing))}")
    if unknown:
        raise InvalidRecordError(f"{what} has unknown fields {', '.join(sorted(map(repr, unknown)))}")
    return value


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecordError(f"{what} must be an integer, not {value!r}")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidRecordError(f"{what} must be a string, not {value!r}")
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidRecordError(f"{what} must be true or false, not {value!r}")
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise InvalidRecordError(f"{what} must be a list, not {type(value).__name__}")
    return list(value)


def _player(value: object, index: int) -> Player:
    what = f"player {index}"
    data = _mapping(value, what, frozenset({"id", "rating"}))
    rating = data["rating"]
    if isinstance(rating, bool) or not isinstance(rating, int | float):
        raise InvalidRecordError(f"{what}: rating must be a number, not {rating!r}")
    return Player(_str(data["id"], f"{what}: id"), rating)


def _event(value: object, index: int) -> Result | str:
    what = f"event {index}"
    if not isinstance(value, Mapping):
        raise InvalidRecordError(f"{what} must be an object, not {type(value).__name__}")
    kind = value.get("type")
    if kind == "withdraw":
        data = _mapping(value, what, _WITHDRAW_KEYS)
        return _str(data["player"], f"{what}: player")
    if kind == "result":
        data = _mapping(value, what, _RESULT_KEYS)
        winner = data["winner"]
        return Result(
            _str(data["match"], f"{what}: match"),
            None if winner is None else _str(winner, f"{what}: winner"),
            _int(data["first_points"], f"{what}: first_points"),
            _int(data["second_points"], f"{what}: second_points"),
            _bool(data["forfeit"], f"{what}: forfeit"),
        )
    raise InvalidRecordError(f"{what}: unknown type {kind!r} (expected 'result' or 'withdraw')")


def _factory(name: str, options: Mapping[str, Any]) -> Callable[[list[Player]], Tournament]:
    length = _int(options["length"], "options: length")
    if name == "round_robin":
        return lambda players: round_robin(players, length=length)
    if name == "double_round_robin":
        return lambda players: double_round_robin(players, length=length)
    if name == "swiss":
        rounds = _int(options["rounds"], "options: rounds")
        return lambda players: swiss(players, rounds=rounds, length=length)
    if name == "single_elimination":
        return lambda players: single_elimination(players, length=length)
    reset = _bool(options["bracket_reset"], "options: bracket_reset")
    return lambda players: double_elimination(players, bracket_reset=reset, length=length)


def tournament_from_dict(data: object) -> Tournament:
    """Return the tournament saved in ``data`` (a record of :func:`tournament_to_dict`, e.g. from ``json.loads``).

    The tournament is built by its factory and every event is re-applied with ``record`` / ``withdraw``. Raises
    :class:`InvalidRecordError` for an unknown schema version or format, a missing, unknown or mistyped field, a
    field or option the factory refuses, or an event that does not apply (the message names it; the original
    :class:`TournamentError` is the ``__cause__``).
    """
    record = _mapping(data, "a tournament record", _KEYS)
    schema = record["schema"]
    if isinstance(schema, bool) or schema != SCHEMA_VERSION:
        raise InvalidRecordError(f"unknown record schema {schema!r} (this version reads schema {SCHEMA_VERSION})")
    name = record["format"]
    if not isinstance(name, str) or name not in _OPTIONS:
        raise InvalidRecordError(f"unknown tournament format {name!r} (expected one of {', '.join(FORMATS)})")
    options = _mapping(record["options"], f"the options of a {name} record", _OPTIONS[name])
    players = [_player(p, i) for i, p in enumerate(_list(record["players"], "players"))]
    events = [_event(e, i) for i, e in enumerate(_list(record["events"], "events"))]
    build = _factory(name, options)
    try:
        tournament = build(players)
    except TournamentError as error:
        raise InvalidRecordError(f"cannot build the {name}: {error}") from error
    for index, event in enumerate(events):
        try:
            tournament = tournament.withdraw(event) if isinstance(event, str) else tournament.record(event)
        except TournamentError as error:
            raise InvalidRecordError(f"event {index} does not apply: {error}") from error
    return tournament
