"""Time the game record's codec: decode a stored document into a ``GameRecord`` and encode it back, as every
button press does, on the committed fixtures (tests/bot/model/fixtures/game_*.json).

Usage: ``python benchmarks/record_codec.py [ROUNDS]``. Prints, per fixture, its size and the microseconds of
``from_dict`` + ``to_dict`` (the stores' dict form), of the same plus ``json.loads``/``json.dumps`` (the text a
store keeps) and, with the typed model, of ``from_json`` + ``to_json`` (pydantic's own JSON). Runs on the code
before the typed model too (it falls back to ``bot.services.record``), so the two can be compared on one machine.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

try:
    from bot.model.game import GameRecord
except ImportError:  # the code before bot/model (commit a4eeea7)
    from bot.services.record import GameRecord  # type: ignore[no-redef]

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "bot" / "model" / "fixtures"


def _time(step: Any, rounds: int) -> float:
    best = float("inf")
    for _ in range(5):  # the best of five runs: the least disturbed by other work on the machine
        start = time.perf_counter()
        for _ in range(rounds):
            step()
        best = min(best, (time.perf_counter() - start) / rounds)
    return best * 1e6


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(f"{GameRecord.__module__}: best of 5 x {rounds} rounds, microseconds per decode+encode")
    for path in sorted(FIXTURES.glob("game_*.json")):
        text = path.read_text()
        data = json.loads(text)
        dicts = _time(lambda data=data: GameRecord.from_dict(data).to_dict(), rounds)
        texts = _time(lambda text=text: json.dumps(GameRecord.from_dict(json.loads(text)).to_dict()), rounds)
        line = f"{path.stem:28} {len(text):7} bytes  dict {dicts:8.1f}  json module {texts:8.1f}"
        if hasattr(GameRecord, "from_json"):  # the typed model reads and writes JSON text itself too
            codec = _time(lambda text=text: GameRecord.from_json(text).to_json(), rounds)
            line += f"  from_json/to_json {codec:8.1f}"
        print(line)


if __name__ == "__main__":
    main()
