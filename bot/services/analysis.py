"""``/analyze``: the post-game analysis of a finished game (:mod:`nardy.ai.analysis`), run off the event loop,
with the worst plays of each player drawn as boards."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.model.game import GameRecord
from bot.services.boards import render_photo
from bot.services.export import visible_game
from bot.services.history import Frame, frame_match
from bot.storage.ids import is_valid_id
from bot.texts import tr
from nardy import NardyError
from nardy.ai import has_level
from nardy.ai.analysis import BLUNDER, INACCURACY, Analysis, CubeRating, PlayRating, analyze_match

if TYPE_CHECKING:
    from bot.services.game_config import GameConfig
    from bot.storage import GameRecords

WORST_PER_PLAYER = 3


@dataclass(frozen=True, slots=True)
class AnalysisAnswer:
    """What ``/analyze`` answers: a text (Telegram HTML) and the boards of the worst plays (JPEG, caption)."""

    text: str
    boards: tuple[tuple[bytes, str], ...] = ()


def _player_lines(record: GameRecord, analysis: Analysis, lang: str, key: str, cube: bool) -> list[str]:
    """One line per player: its checker-play figures, or (``cube``) its cube-decision figures."""
    lines: list[str] = []
    for player in (0, 1):
        figures = analysis.summary(player)
        values = (
            {
                "decisions": figures.cube_decisions,
                "rate": f"{figures.cube_error_rate:.1f}",
                "errors": figures.cube_errors,
            }
            if cube
            else {
                "plays": figures.plays,
                "rate": f"{figures.error_rate:.1f}",
                "inaccuracies": figures.inaccuracies,
                "blunders": figures.blunders,
            }
        )
        lines.append(tr(lang, key, mark="⚪⚫"[player], name=record.players[player].name, **values))
    return lines


def _cube_lines(record: GameRecord, analysis: Analysis, lang: str) -> list[str]:
    lines = _player_lines(record, analysis, lang, "analysis.cube", cube=True)
    for player in (0, 1):
        lines.extend(_cube_error_line(record, cube, lang) for cube in analysis.cube_errors(player)[:WORST_PER_PLAYER])
    lines.append(tr(lang, "analysis.cube_legend", inaccuracy=INACCURACY))
    return lines


def _cube_error_line(record: GameRecord, cube: CubeRating, lang: str) -> str:
    return tr(
        lang,
        "analysis.cube_error",
        name=record.players[cube.player].name,
        game=cube.game + 1,
        decision=tr(lang, f"analysis.cube.{cube.kind}"),
        proper=tr(lang, f"analysis.proper.{cube.proper}"),
        loss=f"{cube.loss:.3f}",
    )


def _play_caption(record: GameRecord, play: PlayRating, lang: str) -> str:
    return tr(
        lang,
        "analysis.play",
        name=record.players[play.player].name,
        game=play.game + 1,
        dice=f"{play.dice[0]}-{play.dice[1]}",
        played=play.played,
        best=play.best,
        loss=f"{play.loss:.3f}",
    )


async def analysis_answer(
    store: GameRecords, config: GameConfig, game_id: str, chat_id: int, user_id: int, lang: str
) -> AnalysisAnswer:
    """Return the analysis of a finished game for ``user_id`` asking in ``chat_id`` (a player of it, or anyone in a
    chat it was shown in), or a clear refusal. Raises: StoreUnavailableError."""
    if not is_valid_id(game_id):
        return AnalysisAnswer(tr(lang, "analysis.usage"))
    found = await visible_game(store, game_id, chat_id, user_id, lang)
    if isinstance(found, str):
        return AnalysisAnswer(found)
    stored, record = found
    if not stored.finished:
        return AnalysisAnswer(tr(lang, "analysis.running", game=game_id))
    variants = {g.get("variant") for g in record.match_games}
    if not all(isinstance(v, str) and has_level("hard", v) for v in variants):
        return AnalysisAnswer(tr(lang, "analysis.unsupported", game=game_id))
    try:
        analysis = await asyncio.to_thread(analyze_match, record.match)
    except (NardyError, ValueError):
        return AnalysisAnswer(tr(lang, "export.failed", game=game_id))
    lines = [
        tr(lang, "analysis.title", game=game_id),
        *_player_lines(record, analysis, lang, "analysis.player", cube=False),
    ]
    if analysis.cubes:
        lines.extend(_cube_lines(record, analysis, lang))
    lines.append(tr(lang, "analysis.legend", inaccuracy=INACCURACY, blunder=BLUNDER))
    boards: list[tuple[bytes, str]] = []
    record.pending_steps = []
    for player in (0, 1):
        for play in analysis.worst(player, WORST_PER_PLAYER):
            match = frame_match(record.match, Frame(play.game, play.record, play.player, ""))
            photo = await render_photo(config, record, match, play.player, lang)
            boards.append((photo, _play_caption(record, play, lang)))
    if not boards:
        lines.append(tr(lang, "analysis.flawless"))
    return AnalysisAnswer("\n".join(lines), tuple(boards))


class Analyses:
    """The answers of ``/analyze``, on the game records of the store, drawn with the shared game config."""

    def __init__(self, store: GameRecords, config: GameConfig) -> None:
        """Read the games in ``store``; draw the boards with ``config``'s renderer."""
        self._store = store
        self._config = config

    async def answer(self, game_id: str, chat_id: int, user_id: int, lang: str) -> AnalysisAnswer:
        """Return the analysis of game ``game_id`` for ``user_id`` asking in ``chat_id``, or a refusal (see
        :func:`analysis_answer`). Raises: StoreUnavailableError."""
        return await analysis_answer(self._store, self._config, game_id, chat_id, user_id, lang)
