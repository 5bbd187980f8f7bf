"""FIBS ratings of finished sessions (docs/rules.md §8): which sessions are rated, and applying them exactly once.

A finished session between two people in long or short nardy is rated: a match to N points, or a single game /
money session as N = 1 (:func:`rating_plan`, computed from the finishing record, stored with it as
``"rating_plan"`` next to ``"stats_plan"``). Not rated: games against the computer, draws, a match lost by forfeit
or by time (the deciding game ended by ``abandon``, or the record carries ``"forfeit"``), and a session decided by
a resignation or a dropped double before each player made at least :data:`MIN_MOVES` moves over the session.

:func:`apply_rating_plan` applies a plan with the store's ``apply_ratings`` (exactly once per ``(variant,
game id)``): it reads both ratings, computes the new ones with :func:`tournaments.rate_match`, and writes them if
neither player's rating changed meanwhile (the ``matches`` counter is the compare-and-set token); on a conflict it
reads and computes again. It is retried with the game's other finishing effects until it succeeds, so a crash
between reading and writing never loses nor doubles a rating change.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.model.game import GameRecord
from bot.storage import RatingRecords, StoredRating
from bot.storage.errors import StoreUnavailableError
from bot.variants import OFFERED
from nardy import Game, Match
from nardy.errors import NardyError
from nardy.events import event_from_dict
from nardy.records import read_record
from tournaments import Rating, rate_match

log = logging.getLogger(__name__)

RATED_VARIANTS: Final = OFFERED
"""The variants with a rating (one rating per variant): every offered variant."""
MIN_MOVES: Final = 3
"""A session decided by resignation (or a dropped double) is rated only when each player made this many moves."""
MAX_ATTEMPTS: Final = 8
"""How many read-compute-write rounds :func:`apply_rating_plan` tries before leaving it to a later retry."""
RETRY_PAUSE: Final = 0.02
"""The base pause (seconds, grown and jittered per attempt) between two rounds after a conflict."""


class RatingConflictError(StoreUnavailableError):
    """The players' ratings kept changing under :func:`apply_rating_plan`: nothing was written, retry later.

    A :class:`StoreUnavailableError`, so the game's finishing effects are retried (by the sweeper) instead of the
    game being taken out of service."""


def _moves_per_player(game_data: Mapping[str, Any], counts: list[int]) -> None:
    """Add the ``move`` records of each player in a saved game's history to ``counts`` (stops early once both
    players have :data:`MIN_MOVES`). A move record does not name its player, so the history is replayed.

    Raises: GameStateError (a NardyError) or KeyError/TypeError/ValueError for a history that cannot be replayed.
    """
    fresh = {key: value for key, value in game_data.items() if key != "state"}
    fresh["history"] = []
    game = Game.from_dict(fresh)
    for saved in game_data.get("history", []):
        if min(counts) >= MIN_MOVES:
            return
        record = read_record(saved)
        if record.get("t") == "move":
            counts[game.roller] += 1
        game._apply(event_from_dict(record))  # the engine's own replay step (as Game.from_dict does): linear


def session_moves(match_data: Mapping[str, Any]) -> tuple[int, int]:
    """Return how many moves each player made over a saved session (all its games), counted up to
    :data:`MIN_MOVES` each (enough to decide whether it is rated)."""
    counts = [0, 0]
    for game_data in [*match_data.get("finished_games", []), match_data["game"]]:
        _moves_per_player(game_data, counts)
    return counts[0], counts[1]


def _last_record_type(game: Game) -> str | None:
    if not game.history:
        return None
    last = game.history[-1]
    return str(last.get("t")) if isinstance(last, dict) else None


def _plan(record: GameRecord) -> dict[str, Any] | None:
    if record.forfeit is not None:  # player 0 or 1 lost by a tournament forfeit
        return None
    players = record.players
    if record.against_computer:
        return None
    ids = [p.id for p in players]
    if ids[0] == ids[1] or min(ids) <= 0:
        return None
    variant = record.match_kind
    if variant not in RATED_VARIANTS or (record.rotating and not record.kind_name):
        return None  # not offered, or an unnamed rotation (the bot makes none)
    match = Match.from_dict(dict(record.match))
    result = match.game.result
    if result is None:
        return None
    if not match.is_money:  # a match to N points, or of a fixed number of games (rated as a match of that length)
        winner = match.winner
        length = match.length or match.games
    else:
        winner = result.winner
        length = 1
    if winner is None:  # a draw, or a match not decided yet
        return None
    if result.reason == "abandon" or _last_record_type(match.game) == "abandon":
        return None  # lost by time or by leaving: a forfeit
    if result.reason not in ("bearoff", "draw") and min(session_moves(record.match)) < MIN_MOVES:
        return None  # resigned (or a double dropped) before both really played
    loser = 1 - winner
    return {
        "variant": variant,
        "length": length,
        "winner": {"id": ids[winner], "name": players[winner].name},
        "loser": {"id": ids[loser], "name": players[loser].name},
        # shared chats: the groups, and (as ever) the synthetic id of an inline message, which no one can list
        "chats": list(dict.fromkeys(chat.chat_id for chat in record.chats if chat.is_shared)),
    }


def rating_plan(record: GameRecord | Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the rating change a finished session's record (a :class:`GameRecord` or its stored dict) calls for,
    or None when the session is not rated.

    The plan (JSON-compatible, to be saved in the record): ``{"variant": "long" | "short", "length": N,
    "winner": {"id", "name"}, "loser": {"id", "name"}, "chats": [group chat ids, for their leaderboards]}``.
    Pure. A record that cannot be read is not rated (logged).
    """
    try:
        return _plan(record if isinstance(record, GameRecord) else GameRecord.from_dict(record))
    except (NardyError, KeyError, TypeError, ValueError, IndexError, AttributeError):
        log.exception("the rating of a finished session cannot be planned: not rated")
        return None


def _parse(plan: Mapping[str, Any]) -> tuple[str, int, tuple[int, str], tuple[int, str], list[int]]:
    variant = str(plan["variant"])
    length = int(plan["length"])
    winner = (int(plan["winner"]["id"]), str(plan["winner"].get("name", "")))
    loser = (int(plan["loser"]["id"]), str(plan["loser"].get("name", "")))
    chats = [int(chat) for chat in plan.get("chats") or []]
    if variant not in RATED_VARIANTS or length < 1 or winner[0] == loser[0]:
        raise ValueError(f"not a rating plan: {dict(plan)!r}")
    return variant, length, winner, loser, chats


def new_ratings(
    current: Mapping[int, StoredRating], winner: tuple[int, str], loser: tuple[int, str], length: int
) -> tuple[dict[int, int], dict[int, StoredRating]]:
    """Return (the ``matches`` tokens expected, the new ratings) of a match won by ``winner`` (id, name) against
    ``loser`` to ``length``, from their ``current`` ratings (a missing one: never rated)."""
    (w, w_name), (lo, l_name) = winner, loser
    before_w, before_l = current.get(w, StoredRating()), current.get(lo, StoredRating())
    after_w, after_l = rate_match(
        Rating(before_w.rating, before_w.experience), Rating(before_l.rating, before_l.experience), length
    )
    expected = {w: before_w.matches, lo: before_l.matches}
    new = {
        w: StoredRating(after_w.value, after_w.experience, before_w.matches + 1, w_name),
        lo: StoredRating(after_l.value, after_l.experience, before_l.matches + 1, l_name),
    }
    return expected, new


async def apply_rating_plan(store: RatingRecords, game_id: str, plan: Mapping[str, Any]) -> None:
    """Apply a plan of :func:`rating_plan` for the game ``game_id``: exactly once however often it is called
    (also concurrently), and the players join the leaderboard of each of the plan's chats. Returns nothing.

    A malformed plan is logged and skipped. Raises: StoreUnavailableError (RatingConflictError when the ratings
    kept changing for :data:`MAX_ATTEMPTS` rounds; nothing was written then).
    """
    try:
        variant, length, winner, loser, chats = _parse(plan)
    except (KeyError, TypeError, ValueError, AttributeError):
        log.exception("game %s has a malformed rating plan: not rated", game_id)
        return
    first = chats[0] if chats else None
    for attempt in range(MAX_ATTEMPTS):
        current = await store.get_ratings(variant, (winner[0], loser[0]))
        expected, new = new_ratings(current, winner, loser, length)
        outcome = await store.apply_ratings(variant, game_id, expected, new, chat_id=first)
        if outcome is not None:
            break
        await asyncio.sleep(RETRY_PAUSE * (attempt + 1) * (0.5 + random.random()))  # jitter, not security
    else:
        raise RatingConflictError(f"the ratings of game {game_id} kept changing: retry later")
    for chat in chats[1:]:  # already applied: these calls only add the players to the chat's leaderboard
        await store.apply_ratings(variant, game_id, expected, new, chat_id=chat)


async def ratings_of(store: RatingRecords, user_id: int) -> dict[str, StoredRating]:
    """Return the user's rating in each rated variant (``StoredRating()`` where never rated)."""
    result: dict[str, StoredRating] = {}
    for variant in RATED_VARIANTS:
        ratings = await store.get_ratings(variant, (user_id,))
        result[variant] = ratings.get(user_id, StoredRating())
    return result


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A user's rating in one variant as ``/rating`` and ``/top`` show it (docs/rules.md §8 FIBS).

    Attributes:
        rating: the FIBS rating (1500 when never rated).
        experience: the sum of the lengths of the rated matches played.
        matches: the number of rated matches played.
        name: the last display name given with a rating change ("" when never rated).
    """

    rating: float = 1500.0
    experience: int = 0
    matches: int = 0
    name: str = ""

    @classmethod
    def of(cls, stored: StoredRating) -> PlayerRating:
        """Return the rating the store keeps as ``stored``."""
        return cls(stored.rating, stored.experience, stored.matches, stored.name)


class Leaderboards:
    """The ratings ``/rating`` and ``/top`` show, on the rating records of the store."""

    def __init__(self, store: RatingRecords) -> None:
        """Read the ratings in ``store``."""
        self._store = store

    async def of_user(self, user_id: int) -> dict[str, PlayerRating]:
        """Return the user's rating in each rated variant (``PlayerRating()`` where never rated).
        Raises: StoreUnavailableError."""
        return {
            variant: PlayerRating.of(rating) for variant, rating in (await ratings_of(self._store, user_id)).items()
        }

    async def chat_ratings(self, chat_id: int, variant: str) -> dict[int, PlayerRating]:
        """Return the ratings in ``variant`` of the players shown on the chat's leaderboard, by user id (empty when
        none played a rated match there). Raises: StoreUnavailableError."""
        players = await self._store.chat_rated_players(chat_id, variant)
        ratings = await self._store.get_ratings(variant, players) if players else {}
        return {user: PlayerRating.of(rating) for user, rating in ratings.items()}
