"""``/export``: the files of a game's record — the ``.mat`` file gnubg and XG import (short nardy, Nackgammon,
Hypergammon) or a plain-text transcript (every other variant), and the documented JSON record
(:func:`bot.services.fairness.export_record`; the server seed only once the game is over)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.model.game import GameRecord, RecordError
from bot.services.fairness import export_record
from bot.storage import GameRecords, StoredGame
from bot.storage.ids import is_valid_id
from bot.texts import tr
from nardy import NardyError
from nardy.mat import MAT_VARIANTS, match_to_mat, match_transcript


@dataclass(frozen=True, slots=True)
class ExportFile:
    """One file to send: its name and bytes."""

    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class ExportAnswer:
    """What ``/export`` answers: a text (Telegram HTML) and the files (none when refused)."""

    text: str
    files: tuple[ExportFile, ...] = ()


def record_files(game_id: str, record: GameRecord, *, finished: bool) -> tuple[ExportFile, ...]:
    """Return the files of a game's record: ``nardy-<id>.mat`` (a gnubg variant, not rotating) or
    ``nardy-<id>.txt``, then ``nardy-<id>.json``. Raises: GameStateError when the match cannot be replayed."""
    names = [p.name for p in record.players]
    match = record.match
    if record.variant in MAT_VARIANTS and not record.rotating:
        text = ExportFile(f"nardy-{game_id}.mat", match_to_mat(match, names).encode())
    else:
        text = ExportFile(f"nardy-{game_id}.txt", match_transcript(match, names).encode())
    data = json.dumps(export_record(game_id, record, finished=finished), ensure_ascii=False, indent=1).encode()
    return text, ExportFile(f"nardy-{game_id}.json", data)


async def visible_game(
    store: GameRecords, game_id: str, chat_id: int, user_id: int, lang: str
) -> tuple[StoredGame, GameRecord] | str:
    """Return the stored game and its record when ``user_id`` asking in ``chat_id`` may see it (a player of it, or
    anyone in a chat it was shown in), else the refusal to answer. Raises: StoreUnavailableError."""
    stored = await store.get_game(game_id)
    try:
        record = GameRecord.from_stored(stored) if stored is not None else None
    except RecordError:
        record = None
    if stored is None or record is None:
        return tr(lang, "fair.unknown", game=game_id)
    if record.chat(chat_id) is None and all(p.id != user_id or p.ai for p in record.players):
        return tr(lang, "export.not_yours", game=game_id)
    return stored, record


async def export_answer(store: GameRecords, game_id: str, chat_id: int, user_id: int, lang: str) -> ExportAnswer:
    """Return the answer of ``/export <game_id>`` asked by ``user_id`` in ``chat_id``: the record's files when the
    user played the game or the game was shown in this chat; a clear refusal otherwise. Raises:
    StoreUnavailableError."""
    if not is_valid_id(game_id):
        return ExportAnswer(tr(lang, "export.usage"))
    found = await visible_game(store, game_id, chat_id, user_id, lang)
    if isinstance(found, str):
        return ExportAnswer(found)
    stored, record = found
    try:
        files = record_files(game_id, record, finished=stored.finished)
    except NardyError:
        return ExportAnswer(tr(lang, "export.failed", game=game_id))
    key = "export.done" if stored.finished else "export.running"
    return ExportAnswer(tr(lang, key, game=game_id), files)


class Exports:
    """The answers of ``/export`` (and of a 📄 button), on the game records of the store."""

    def __init__(self, store: GameRecords) -> None:
        """Read the games in ``store``."""
        self._store = store

    async def answer(self, game_id: str, chat_id: int, user_id: int, lang: str) -> ExportAnswer:
        """Return the answer to ``user_id`` asking in ``chat_id`` for game ``game_id``'s record (see
        :func:`export_answer`). Raises: StoreUnavailableError."""
        return await export_answer(self._store, game_id, chat_id, user_id, lang)
