"""Provably fair dice in the bot (:mod:`nardy.fairness`): the exported record of a game and the answer of
``/verify``.

Every game the bot creates with its production dice gets fresh seeds (``bot.services.engine_flow.new_fair_seeds``);
its dice are derived from them (``engine_flow.dice_for``). The server seed stays in the stored record only: the
caption shows the commitment, and :func:`export_record` reveals the seed only for a finished game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from bot.model.game import GameRecord, RecordError
from bot.storage import GameRecords
from bot.storage.ids import is_valid_id
from bot.texts import code, tr
from nardy.fairness import SCHEME, match_rolls, verify_record

RECORD_FORMAT: Final = "nardy-game-record"


def export_record(game_id: str, record: GameRecord, *, finished: bool) -> dict[str, Any]:
    """Return the exported record of a game with fair dice: ``format``, ``game_id``, ``variant``, ``players``,
    ``fairness`` (scheme, commitment, client seed, and the server seed once ``finished``), ``rolls`` and the saved
    ``match`` (the fields :func:`nardy.fairness.verify_record` reads).

    A game without seeds (one from before fair dice) has ``"fairness": null``.
    """
    seeds = record.fairness
    fairness: dict[str, str] | None = None
    if seeds is not None:
        fairness = {"scheme": SCHEME, "commitment": seeds.commitment, "client_seed": seeds.client_seed}
        if finished:
            fairness["server_seed"] = seeds.server_seed
    return {
        "format": RECORD_FORMAT,
        "version": 1,
        "game_id": game_id,
        "variant": record.variant,
        "players": [p.name for p in record.players],
        "fairness": fairness,
        "rolls": match_rolls(record.match),
        "match": record.match,
    }


@dataclass(frozen=True, slots=True)
class VerifyAnswer:
    """What ``/verify`` answers: a text (Telegram HTML) and, for a finished game, its record as a file."""

    text: str
    file: bytes | None = None
    filename: str | None = None


async def verify_answer(store: GameRecords, game_id: str, lang: str) -> VerifyAnswer:
    """Return the answer of ``/verify <game_id>``: the commitment while the game runs; once it is over the revealed
    seeds, the check of every roll and the exported record. Raises: StoreUnavailableError."""
    if not is_valid_id(game_id):
        return VerifyAnswer(tr(lang, "fair.usage"))
    stored = await store.get_game(game_id)
    if stored is None:
        return VerifyAnswer(tr(lang, "fair.unknown", game=game_id))
    try:
        record = GameRecord.from_stored(stored)
    except RecordError:
        return VerifyAnswer(tr(lang, "fair.unknown", game=game_id))
    seeds = record.fairness
    if seeds is None:
        return VerifyAnswer(tr(lang, "fair.none", game=game_id))
    if not stored.finished:
        text = tr(
            lang,
            "fair.running",
            game=game_id,
            scheme=SCHEME,
            hash=code(seeds.commitment),
            client=code(seeds.client_seed),
        )
        return VerifyAnswer(text)
    exported = export_record(game_id, record, finished=True)
    result = verify_record(exported)
    if not result.ok:
        bad = sum(not r.ok for r in result.rolls) + len(result.problems) + (not result.commitment_ok)
        return VerifyAnswer(tr(lang, "fair.bad", game=game_id, bad=bad, n=len(result.rolls)))
    filename = f"nardy-{game_id}.json"
    text = tr(
        lang,
        "fair.ok",
        game=game_id,
        n=len(result.rolls),
        seed=code(seeds.server_seed),
        client=code(seeds.client_seed),
        hash=code(seeds.commitment),
        command=code(f"python -m nardy.fairness verify {filename}"),
    )
    data = json.dumps(exported, ensure_ascii=False, indent=1).encode()
    return VerifyAnswer(text, data, filename)


class Fairness:
    """The answers of ``/verify``, on the game records of the store."""

    def __init__(self, store: GameRecords) -> None:
        """Read the games in ``store``."""
        self._store = store

    async def answer(self, game_id: str, lang: str) -> VerifyAnswer:
        """Return the answer of ``/verify`` for game ``game_id`` (see :func:`verify_answer`).
        Raises: StoreUnavailableError."""
        return await verify_answer(self._store, game_id, lang)
