"""``/history`` and the replay of a finished game: the list of a user's last games in a chat, and the frames of a
game shown one by one on one message (Back/Forward buttons, each frame rendered when it is asked for)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Final

from bot.model.game import GameRecord, RecordError
from bot.storage import GameRecords, StoredGame
from bot.texts import Html, esc, number, tr
from nardy import Match, NardyError
from nardy.game_record import replay_records
from nardy.move import point_name

HISTORY_SIZE: Final = 10
"""How many finished games ``/history`` lists."""
_SCAN: Final = 100
"""How many of the chat's finished games are looked at to find the user's."""
_SHOWN: Final = frozenset({"move", "pass", "drop", "accept", "abandon"})


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of a replay: the ``count`` first records of game ``game`` (0-based) of the match, and what the
    last of them did (``player`` −1 for the start of a game)."""

    game: int
    count: int
    player: int
    text: str


def _text(record: dict[str, Any], dice: tuple[int, int] | None) -> str:
    kind = record["t"]
    if kind == "move":
        steps = " ".join(f"{point_name(s)}/{point_name(d)}{'*' if h else ''}" for s, d, _die, h in record["steps"])
        return f"{dice[0]}-{dice[1]}: {steps}" if dice else steps
    if kind == "pass":
        return f"{dice[0]}-{dice[1]}: —" if dice else "—"
    return str(kind)


def replay_frames(match_data: dict[str, Any]) -> list[Frame]:
    """Return the frames of a saved match: for each game its start (after the opening roll) and the position after
    each move, forfeited roll and ending action. Raises: GameStateError when a game cannot be replayed."""
    frames: list[Frame] = []
    games = [*match_data.get("finished_games", []), match_data["game"]]
    for index, data in enumerate(games):
        started = False
        count = 0
        for count, (record, game) in enumerate(replay_records(data), start=1):
            kind = record["t"]
            if kind in _SHOWN:
                if not started:
                    frames.append(Frame(index, count - 1, -1, ""))
                    started = True
                player = game.roller if kind in ("move", "pass") else game.turn
                frames.append(Frame(index, count, player, _text(record, game.dice)))
        if not started and count:
            frames.append(Frame(index, count, -1, ""))
    return frames


def frame_match(match_data: dict[str, Any], frame: Frame) -> Match:
    """Return the match as it stood at ``frame``. Raises: GameStateError when it cannot be rebuilt."""
    games = [*match_data.get("finished_games", []), match_data["game"]]
    game = {key: value for key, value in games[frame.game].items() if key != "state"}
    game["history"] = list(games[frame.game].get("history", []))[: frame.count]
    data = {**match_data, "finished_games": games[: frame.game], "game": game}
    return Match.from_dict(data)


def frame_caption(record: GameRecord, frames: list[Frame], index: int, lang: str, game_id: str) -> str:
    """Return the caption of frame ``index`` (Telegram HTML)."""
    frame = frames[index]
    names = [p.name for p in record.players]
    head = tr(lang, "history.frame", game=game_id, n=index + 1, total=len(frames), number=frame.game + 1)
    lines: list[str] = [f"⚪ {esc(names[0])} — ⚫ {esc(names[1])}", head]
    if frame.player >= 0:
        lines.append(f"{'⚪⚫'[frame.player]} {esc(names[frame.player])}: {esc(frame.text)}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished game of ``/history``: its id and its line (Telegram HTML)."""

    game_id: str
    line: Html


def _describe(stored: StoredGame, record: GameRecord, user_id: int, lang: str) -> Html | None:
    me = record.player_index(user_id)
    if me is None:
        return None
    opponent = record.players[1 - me].name
    variant = tr(lang, f"variant.{record.variant}")
    score = record.final_score
    a, b = (score[me], score[1 - me])
    outcome = tr(lang, "history.won" if a > b else "history.lost" if a < b else "history.drawn")
    when = time.strftime("%Y-%m-%d", time.gmtime(record.last_action or 0))
    points = f"{number(lang, a)}:{number(lang, b)}"
    return tr(lang, "history.line", date=when, variant=variant, outcome=outcome, score=points, opponent=opponent)


async def history_entries(store: GameRecords, chat_id: int, user_id: int, lang: str) -> list[HistoryEntry]:
    """Return the user's last finished games shown in the chat, newest first (at most :data:`HISTORY_SIZE`).
    Raises: StoreUnavailableError."""
    entries: list[HistoryEntry] = []
    for game_id in await store.chat_history(chat_id, limit=_SCAN):
        stored = await store.get_game(game_id)
        if stored is None:
            continue
        try:
            record = GameRecord.from_stored(stored)
            line = _describe(stored, record, user_id, lang)
        except (RecordError, NardyError, KeyError, TypeError):
            continue
        if line is not None:
            entries.append(HistoryEntry(game_id, line))
            if len(entries) == HISTORY_SIZE:
                break
    return entries


class History:
    """A chat's finished games as ``/history`` lists them and replays them, on the game records of the store."""

    def __init__(self, store: GameRecords) -> None:
        """Read the games in ``store``."""
        self._store = store

    async def entries(self, chat_id: int, user_id: int, lang: str) -> list[HistoryEntry]:
        """Return the user's last finished games shown in the chat, newest first (see :func:`history_entries`).
        Raises: StoreUnavailableError."""
        return await history_entries(self._store, chat_id, user_id, lang)

    async def finished(self, game_id: str) -> GameRecord | None:
        """Return the record of the finished game ``game_id``, or None when it is gone or still running.

        Raises: RecordError when its record cannot be read; StoreUnavailableError."""
        stored = await self._store.get_game(game_id)
        if stored is None or not stored.finished:
            return None
        return GameRecord.from_stored(stored)
