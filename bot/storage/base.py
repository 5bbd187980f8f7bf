"""The ``GameStore`` protocol: what the bot keeps, and the guarantees every implementation gives.

A game is stored as an opaque JSON-compatible ``dict`` (the engine's ``Game.to_dict()`` plus bot metadata)
together with an integer *version*. ``create_game`` gives version 1; every successful ``update_game`` or
``finish_game`` increments it by one and only succeeds when the caller names the current version
(compare-and-set), so a change based on a stale read is refused instead of overwriting a concurrent one.

Indices (which games a chat or a user has, which turns are overdue, which challenges are open in a chat) are
maintained by the store. On Redis they live outside the game's hash tag and are updated right after the game
itself, so after a crash they can briefly name a finished or vanished game: callers always re-read the game
(``get_game``) before acting on an id taken from an index.

The deadline index is crash-safe in one direction: its entry for a game is never LATER than the deadline stored
with the game (an earlier deadline is written to the index before the game, a later one after it), so a crash
can only wake a game early (``due_games`` then repairs the entry), never lose its wake-up. Game creation writes
the indices first, so a crash or a lost reply during creation never leaves a game no index names; with a
caller-chosen ``game_id`` a retried creation is idempotent.

Board states (which message shows a game in a chat, and which version it shows) and the quarantine flag are kept
with the game record but are not part of its version.

A tournament is stored the same way (opaque JSON ``data`` and a compare-and-set *version*), under its chat: a chat
has at most ONE running (unfinished) tournament, which ``create_tournament`` enforces atomically; finishing it
(``update_tournament(..., finished=True)``) frees the chat and moves the tournament to the chat's history, from
which it expires after :data:`TOURNAMENT_HISTORY_RETENTION`. Its deadline index keeps the guarantee of the game
deadline index (never later than the record).

Ratings (RULES §8, FIBS) are kept per variant and user; ``apply_ratings`` changes the ratings of one match's players
at once, exactly once per match key, and only when nobody changed them since the caller read them (each rating's
``matches`` counter is the compare-and-set token).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

JSONDict = dict[str, Any]
"""A JSON-compatible dictionary (str keys; values are dicts, lists, str, int, float, bool or None)."""


@dataclass(frozen=True, slots=True)
class BoardState:
    """The board message of a game in one chat, as last recorded by ``set_board``.

    Attributes:
        chat_id: the chat.
        message_id: the board message's id, or None when the board is not (or no longer) posted there.
        shown_version: the game version that message shows.
    """

    chat_id: int
    message_id: int | None
    shown_version: int


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as read from a store.

    Attributes:
        game_id: the id given by ``create_game`` (short, URL- and callback-safe: ``[A-Za-z0-9_-]``).
        version: the current version; pass it to ``update_game``/``finish_game`` as ``expected_version``.
        data: the record (a fresh copy; mutating it changes nothing in the store).
        finished: True once ``finish_game`` has been applied (the game then expires after its TTL).
        chat_ids: the chats the game is shown in (as given to ``create_game``).
        user_ids: the players' user ids (as given to ``create_game``).
        deadline: the unix time after which the turn counts as overdue (for a finished game: when the
            sweeper should look at it again), or None.
        boards: the recorded board state per chat id (``set_board``), read together with the record.
        quarantined: True once ``quarantine_game`` was applied (the game is in no index any more).
    """

    game_id: str
    version: int
    data: JSONDict
    finished: bool = False
    chat_ids: tuple[int, ...] = ()
    user_ids: tuple[int, ...] = ()
    deadline: float | None = None
    boards: Mapping[int, BoardState] = field(default_factory=dict)
    quarantined: bool = False


@dataclass(frozen=True, slots=True)
class StoredChallenge:
    """An open challenge: opaque ``data`` and the chat it was posted in (``chat_id``; None for a link)."""

    challenge_id: str
    data: JSONDict
    chat_id: int | None = None


@dataclass(frozen=True, slots=True)
class Stats:
    """Per-chat, per-user result counters."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        """Return the number of finished games counted (wins + losses + draws)."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """One tournament as read from a store.

    Attributes:
        tournament_id: the id given by ``create_tournament`` (``[A-Za-z0-9_-]{10}``).
        version: the current version; pass it to ``update_tournament`` as ``expected_version``.
        data: the record (a fresh copy; mutating it changes nothing in the store).
        chat_id: the chat the tournament runs in.
        finished: True once ``update_tournament(..., finished=True)`` was applied (it then expires after
            :data:`TOURNAMENT_HISTORY_RETENTION`).
        deadline: the tournament's wake-up time (unix time; it is listed by ``due_tournaments`` from then on),
            or None.
    """

    tournament_id: str
    version: int
    data: JSONDict
    chat_id: int
    finished: bool = False
    deadline: float | None = None


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A user's rating in one variant (RULES §8 FIBS): start 1500, experience 0.

    Attributes:
        rating: the FIBS rating.
        experience: the experience (sum of the lengths of the rated matches played).
        matches: the number of rated matches applied so far: the compare-and-set token of ``apply_ratings``.
        name: the last display name given with a rating change ("" when never rated).
    """

    rating: float = 1500.0
    experience: int = 0
    matches: int = 0
    name: str = ""


@dataclass(frozen=True, slots=True)
class _Unset:
    """Marker type for "leave this value unchanged"."""

    tag: str = field(default="UNSET")


COUNTED_GAMES_RETENTION = 90 * 24 * 3600.0
"""Seconds for which ``add_game_stats`` remembers that a game was counted in a chat."""

TOURNAMENT_HISTORY_RETENTION = 365 * 24 * 3600.0
"""Seconds for which a finished tournament is kept (then it expires and leaves the chat's history)."""

RATED_MATCHES_RETENTION = 90 * 24 * 3600.0
"""Seconds for which ``apply_ratings`` remembers (at least) that a match key was applied."""

VARIANT_PATTERN = re.compile(r"[a-z_]{1,16}")
"""A well-formed rating variant name, e.g. ``long`` or ``short`` (use ``fullmatch``)."""

UNSET: Any = _Unset()
"""Pass as ``deadline`` to ``update_game``/``update_tournament`` to keep the current deadline (the default)."""


def check_variant(variant: str) -> str:
    """Return ``variant`` when it is a well-formed rating variant name (:data:`VARIANT_PATTERN`).

    Raises: ValueError when it is not.
    """
    if not isinstance(variant, str) or VARIANT_PATTERN.fullmatch(variant) is None:
        raise ValueError(f"malformed variant {variant!r}: expected 1 to 16 characters of [a-z_]")
    return variant


def check_rating_change(expected: Mapping[int, int], new: Mapping[int, StoredRating]) -> list[int]:
    """Return the user ids of an ``apply_ratings`` change (the keys of ``new``, as ints).

    Raises: ValueError when ``expected`` and ``new`` do not name the same users, or a new rating is not finite.
    """
    users = [int(u) for u in new]
    if {int(u) for u in expected} != set(users) or len(set(users)) != len(users):
        raise ValueError("apply_ratings: expected and new must name the same users")
    if not all(math.isfinite(float(r.rating)) for r in new.values()):
        raise ValueError("apply_ratings: a new rating is not a finite number")
    return users


UpdateClaim = Literal["new", "running", "done"]
"""What :meth:`GameStore.claim_update` says of an incoming update."""


@runtime_checkable
class GameStore(Protocol):
    """Persistent storage of games, challenges, settings and stats. All methods are coroutines.

    Every method raises :class:`~bot.storage.errors.StoreUnavailableError` when the back end cannot be
    reached; nothing else is raised for connection trouble.
    """

    # ---- games -------------------------------------------------------------------------------------------
    async def create_game(
        self,
        data: JSONDict,
        *,
        game_id: str | None = None,
        chat_ids: Iterable[int] = (),
        user_ids: Iterable[int] = (),
        deadline: float | None = None,
    ) -> str:
        """Store a new game at version 1 and index it under its chats and users (and the deadline).

        The indices are written before the record, so an interrupted creation never leaves an unindexed game.
        ``game_id``: an id made beforehand with :func:`bot.storage.ids.new_id`; when a game with this id already
            exists nothing is overwritten (its indices are rewritten idempotently) and the same id is returned,
            so retrying a creation whose reply was lost creates nothing twice. None: the store picks a new id.
        Returns: the game id (unique, ``[A-Za-z0-9_-]{10}``).
        Raises: ValueError when ``game_id`` is not a well-formed id.
        """
        ...

    async def get_game(self, game_id: str) -> StoredGame | None:
        """Return the game, or None when no such game exists (or it expired)."""
        ...

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
    ) -> int | None:
        """Replace the record if the stored version equals ``expected_version`` (atomic compare-and-set).

        ``deadline``: a new turn deadline (unix time), None to clear it, or omitted to keep it.
        Returns: the new version (``expected_version + 1``) on success, None when the version differs
            (someone else changed the game first; nothing was written).
        Raises: GameNotFoundError when the game does not exist.
        """
        ...

    async def finish_game(
        self,
        game_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        ttl: float,
        deadline: float | None = None,
    ) -> int | None:
        """Like ``update_game``, and also mark the game finished: it leaves the active indices of its users
        and chats, joins its chats' history, and expires ``ttl`` seconds from now.

        ``deadline``: None clears the deadline (the game leaves the deadline index); a time keeps the finished
            game in the deadline index until that deadline is cleared (``set_deadline(..., None)``), so that
            work still owed after finishing (the final board, the stats) is found again after a crash.
        Returns: the new version on success, None on a version conflict or when already finished.
        Raises: GameNotFoundError when the game does not exist.
        """
        ...

    async def set_deadline(self, game_id: str, expected_version: int, deadline: float | None) -> bool:
        """Change only the game's deadline (the version is not bumped) if its version equals
        ``expected_version``; works on finished games too. None clears it (the game leaves the deadline index).

        Returns: True when written; False on a version conflict or when the game does not exist (or expired).
        """
        ...

    async def set_board(self, game_id: str, chat_id: int, message_id: int | None, shown_version: int) -> bool:
        """Record which message shows the game in ``chat_id`` and which version it shows, without bumping the
        game's version. Atomic and monotonic: written only when ``shown_version`` is at least the recorded
        one (or nothing is recorded for that chat yet). Works on finished games until they expire.

        Returns: True when written; False when a newer state is recorded (nothing written) or there is no such
            game.
        """
        ...

    async def claim_board(self, game_id: str, chat_id: int, message_id: int | None, owner: str, lease: float) -> bool:
        """Claim the right to replace the game's board message in ``chat_id`` (to post a new one) while the
        recorded board message is ``message_id`` (None: no message recorded); with ``lease`` 0, only check that
        right. Compare-and-set: granted when the message recorded by ``set_board`` is ``message_id`` (or nothing is
        recorded for the chat) and no other ``owner`` holds an unexpired claim to replace that message; a grant with
        ``lease`` > 0 makes ``owner`` the holder until ``lease`` seconds of the store's clock from now (a holder
        renews it by claiming again). A claim is void once another message is recorded. The version is not bumped.
        Works on finished games until they expire.

        Returns: True when granted; False otherwise or when there is no such game.
        """
        ...

    async def quarantine_game(self, game_id: str, reason: str) -> None:
        """Take a game out of service: it leaves the deadline index and the active chat, user and user-in-chat
        indices for good, and is listed by ``quarantined_games``; ``get_game`` still returns it (with
        ``quarantined=True`` and ``finished`` unchanged) for inspection. Does nothing for a missing game.
        """
        ...

    async def quarantined_games(self) -> list[str]:
        """Return the ids of quarantined games that still exist, earliest quarantined first."""
        ...

    async def chat_games(self, chat_id: int) -> list[str]:
        """Return the ids of the chat's active (unfinished) games, oldest first (ties in any order)."""
        ...

    async def chat_history(self, chat_id: int, limit: int = 20) -> list[str]:
        """Return the ids of the chat's finished, unexpired games, most recently finished first."""
        ...

    async def user_games(self, user_id: int) -> list[str]:
        """Return the ids of the user's active (unfinished) games, oldest first (ties in any order)."""
        ...

    async def user_chat_games(self, chat_id: int, user_id: int) -> list[str]:
        """Return the ids of the user's active games shown in the chat, oldest first (ties in any order).

        Answered from an index of (user, chat), so it stays fast however many games the chat has.
        """
        ...

    async def count_chat_games(self, chat_id: int) -> int:
        """Return the number of the chat's active (unfinished, not quarantined) games (for caps).

        Redis counts exactly up to 500 games per chat; beyond that it may overcount by games whose index
        update a crash interrupted (see ``RedisGameStore.count_chat_games``).
        """
        ...

    async def due_games(self, now: float, limit: int = 100) -> list[str]:
        """Return ids of games whose deadline is at or before ``now``, earliest deadline first.

        Active games, and finished (unexpired) games that were given a deadline by ``finish_game`` or
        ``set_deadline``: check ``StoredGame.finished`` after re-reading. Quarantined, expired and vanished games
        are never returned. An index entry earlier than the stored deadline is repaired, not returned; so a call
        may return fewer than ``limit`` ids even though more are due (the next call returns them).
        """
        ...

    # ---- tournaments -------------------------------------------------------------------------------------
    async def create_tournament(
        self,
        chat_id: int,
        data: JSONDict,
        *,
        tournament_id: str | None = None,
        deadline: float | None = None,
    ) -> str | None:
        """Store a new tournament at version 1 as the chat's one running (unfinished) tournament.

        Of concurrent creations in one chat at most one succeeds. A chat whose running tournament was left
        half-created by a crash (or finished, or expired) counts as free.
        ``tournament_id``: an id made beforehand with :func:`bot.storage.ids.new_id`; when a tournament with this id
            already exists nothing is overwritten and the same id is returned, so retrying a creation whose reply
            was lost creates nothing twice. None: the store picks a new id.
        ``deadline``: puts the tournament in the tournament deadline index (``due_tournaments``).
        Returns: the tournament id; None (nothing written) when the chat already has another unfinished
            tournament.
        Raises: ValueError when ``tournament_id`` is not a well-formed id.
        """
        ...

    async def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        """Return the tournament, or None when no such tournament exists (or it expired)."""
        ...

    async def update_tournament(
        self,
        tournament_id: str,
        expected_version: int,
        data: JSONDict,
        *,
        deadline: float | None = UNSET,
        finished: bool = False,
    ) -> int | None:
        """Replace the record if the stored version equals ``expected_version`` (atomic compare-and-set).

        ``deadline``: a new wake-up time (unix time), None to clear it, or omitted to keep it.
        ``finished``: True marks the tournament finished: the chat's running slot is released, the tournament
            joins the chat's tournament history and expires after :data:`TOURNAMENT_HISTORY_RETENTION`. A finished
            tournament can still be updated (e.g. to clear an outbox); it stays finished (False never reopens it).
        Returns: the new version (``expected_version + 1``) on success, None when the version differs (nothing
            was written).
        Raises: GameNotFoundError when the tournament does not exist (or expired).
        """
        ...

    async def set_tournament_deadline(self, tournament_id: str, expected_version: int, deadline: float | None) -> bool:
        """Change only the tournament's deadline (the version is not bumped) if its version equals
        ``expected_version``; works on finished tournaments too. None clears it (it leaves the deadline index).

        Returns: True when written; False on a version conflict or when the tournament does not exist.
        """
        ...

    async def chat_tournament(self, chat_id: int) -> str | None:
        """Return the id of the chat's running (unfinished) tournament, or None when it has none."""
        ...

    async def chat_tournament_history(self, chat_id: int, limit: int = 10) -> list[str]:
        """Return the ids of the chat's finished, unexpired tournaments, most recently finished first (at most
        ``limit``)."""
        ...

    async def due_tournaments(self, now: float, limit: int = 100) -> list[str]:
        """Return ids of tournaments whose deadline is at or before ``now``, earliest deadline first.

        Finished (unexpired) tournaments too while they have a deadline: check ``StoredTournament.finished`` after
        re-reading. As with ``due_games``, a call may return fewer than ``limit`` ids while repairing the index.
        """
        ...

    # ---- ratings -----------------------------------------------------------------------------------------
    async def get_ratings(self, variant: str, user_ids: Iterable[int]) -> dict[int, StoredRating]:
        """Return the ratings of the users in ``variant`` (e.g. "long", "short"), keyed by user id.

        Every asked user is in the answer: ``StoredRating()`` for a user never rated in this variant.
        Raises: ValueError when ``variant`` is not 1 to 16 characters of ``[a-z_]``.
        """
        ...

    async def apply_ratings(
        self,
        variant: str,
        match_key: str,
        expected: Mapping[int, int],
        new: Mapping[int, StoredRating],
        *,
        chat_id: int | None = None,
    ) -> bool | None:
        """Atomically write the new ratings of one rated match, exactly once per (variant, match key).

        ``expected``: per user, the ``matches`` counter the new rating was computed from (0 for a user never
            rated); ``new``: the ratings to write (normally with ``matches`` one higher). Same keys.
        ``chat_id``: when given and the result is not None, the users join the chat's leaderboard of this variant
            (``chat_rated_players``; idempotent, so a retried call completes it).
        Returns: True when written now (the match key is remembered for at least
            :data:`RATED_MATCHES_RETENTION`); False when this match key was applied before (nothing changed);
            None when a user's ``matches`` differs from ``expected`` (nothing written: re-read and recompute).
        Raises: ValueError when ``variant`` is malformed or ``expected`` and ``new`` have different keys.
        """
        ...

    async def chat_rated_players(self, chat_id: int, variant: str) -> list[int]:
        """Return the user ids that ``apply_ratings`` added to the chat's leaderboard of ``variant`` (any order).

        Raises: ValueError when ``variant`` is malformed.
        """
        ...

    # ---- challenges --------------------------------------------------------------------------------------
    async def create_challenge(self, data: JSONDict, *, ttl: float, chat_id: int | None = None) -> str:
        """Store an open challenge that expires ``ttl`` seconds from now.

        Returns: the challenge id (``[A-Za-z0-9_-]{10}``, fit for a ``?start=`` deep link payload).
        """
        ...

    async def get_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """Return the open challenge, or None when it does not exist, expired or was claimed."""
        ...

    async def claim_challenge(self, challenge_id: str) -> StoredChallenge | None:
        """Atomically take the challenge out of the store (accept, decline or cancel it).

        Of any number of concurrent claims exactly one gets the challenge; the others get None.
        Returns: the challenge, or None when it does not exist, expired or was already claimed.
        """
        ...

    async def chat_challenges(self, chat_id: int) -> list[StoredChallenge]:
        """Return the open, unexpired challenges posted in the chat, soonest expiry first."""
        ...

    # ---- settings ----------------------------------------------------------------------------------------
    async def get_chat_settings(self, chat_id: int) -> JSONDict:
        """Return the chat's settings (an empty dict when none were stored)."""
        ...

    async def set_chat_settings(self, chat_id: int, settings: Mapping[str, Any]) -> None:
        """Replace the chat's settings with ``settings``."""
        ...

    async def get_user_settings(self, user_id: int) -> JSONDict:
        """Return the user's settings, e.g. ``{"lang": "en"}`` (an empty dict when none were stored)."""
        ...

    async def set_user_settings(self, user_id: int, settings: Mapping[str, Any]) -> None:
        """Replace the user's settings with ``settings``."""
        ...

    # ---- stats -------------------------------------------------------------------------------------------
    async def add_stats(self, chat_id: int, user_id: int, *, wins: int = 0, losses: int = 0, draws: int = 0) -> Stats:
        """Atomically add to the user's counters in the chat.

        Returns: the counters after the increment.
        """
        ...

    async def add_game_stats(self, chat_id: int, game_id: str, deltas: Mapping[int, tuple[int, int, int]]) -> bool:
        """Atomically add ``(wins, losses, draws)`` to each user's counters in the chat, exactly once per
        (chat, game): nothing is added when this game was already counted in this chat (the record of counted
        games is kept for at least :data:`COUNTED_GAMES_RETENTION` seconds).

        Returns: True when applied now, False when the game had been counted already (nothing changed).
        """
        ...

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        """Return the user's counters in the chat (zeros when none)."""
        ...

    async def chat_stats(self, chat_id: int) -> dict[int, Stats]:
        """Return every user's counters in the chat, keyed by user id."""
        ...

    async def active_game_count(self) -> int:
        """Return about how many games are unfinished (Redis: the games with a pending deadline, which every
        unfinished game has; SQLite: exactly), for the metrics."""
        ...

    # ---- incoming updates (webhook workers) ---------------------------------------------------------------
    async def claim_update(self, update_id: int, *, lease: float) -> UpdateClaim:
        """Claim Telegram update ``update_id`` for this worker, so that a redelivered update (Telegram retries after
        a timeout, an error or a crash, possibly to another worker) is handled at most once.

        Returns: ``"new"`` when this call claimed it (for ``lease`` seconds: a claim of a worker that dies
        mid-update lapses then, and a later redelivery is handled); ``"running"`` while another claim holds;
        ``"done"`` once :meth:`finish_update` recorded it.
        """
        ...

    async def finish_update(self, update_id: int, *, ttl: float) -> None:
        """Record update ``update_id`` as handled for ``ttl`` seconds (redeliveries meanwhile get ``"done"``)."""
        ...

    async def release_update(self, update_id: int) -> None:
        """Drop this worker's claim of an update it could not handle, so a redelivery is handled at once."""
        ...

    # ---- lifecycle ---------------------------------------------------------------------------------------
    async def purge_expired(self, batch: int = 500) -> int:
        """Delete expired records and trim stale index entries, in transactions of at most ``batch`` rows so
        that other operations are served in between. Meant to be called periodically (e.g. by the sweeper);
        no other operation purges.

        Returns: the number of records or index entries removed (0 when there was nothing to do).
        """
        ...

    async def ping(self) -> None:
        """Check that the back end answers.

        Raises: StoreUnavailableError when it does not.
        """
        ...

    async def close(self) -> None:
        """Release connections and threads. The store must not be used afterwards."""
        ...
