"""Provably fair dice: commit to a secret seed, derive every die from it, reveal it at the end, let anyone check.

The scheme (``nardy-fair-v1``), fixed so that a game can be checked without the bot:

- **Server seed**: 32 random bytes, written as 64 hexadecimal digits. It stays secret until the game ends.
- **Commitment**: ``SHA-256(server seed bytes)`` as 64 hexadecimal digits, published when the game starts.
- **Client seed**: a public text fixed when the game starts (the bot uses ``<game id>:<player 0 id>:<player 1 id>``).
- **Die number i** (0, 1, 2, … over the whole match: the opening roll's dice, re-rolls after a tie included, then
  the two dice of every roll, in the order the engine records them): for ``c = 0, 1, …`` take
  ``HMAC-SHA256(key = server seed bytes, message = "<client seed>:<i>:<c>" in UTF-8)`` and read its 32 bytes in
  order; the first byte ``b < 252`` gives the die ``b % 6 + 1``. Bytes 252..255 are skipped (252 = 6 × 42), so every
  value is exactly equally likely: no modulo bias.

This module is the standalone verifier as well: it uses the standard library only and imports nothing else from
``nardy``, so it can be copied and run on its own. ``python -m nardy.fairness verify RECORD.json`` checks an
exported record (see :func:`verify_record` for its fields), prints one line per roll and exits with 0 only when
the commitment and every roll match (1 when something does not, 2 when the file cannot be read).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

SCHEME: Final = "nardy-fair-v1"
SEED_BYTES: Final = 32
_ACCEPT_BELOW: Final = 252  # the largest multiple of 6 not above 256
_ROLL_RECORDS: Final = frozenset({"open", "roll"})


class FairnessError(ValueError):
    """A seed, commitment or record that the scheme cannot use (the message says which and why)."""


def new_server_seed() -> str:
    """Return a fresh secret server seed: 32 bytes from the operating system's CSPRNG, as 64 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def _seed_bytes(server_seed: str) -> bytes:
    try:
        raw = bytes.fromhex(server_seed)
    except ValueError:
        raise FairnessError(f"server seed {server_seed[:8]}… is not hexadecimal") from None
    if len(raw) != SEED_BYTES:
        raise FairnessError(f"server seed has {len(raw)} bytes, not {SEED_BYTES}")
    return raw


def commitment(server_seed: str) -> str:
    """Return the commitment to ``server_seed``: SHA-256 of its bytes, as 64 hex digits.

    Raises:
        FairnessError: the seed is not 64 hex digits.
    """
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def derive_die(server_seed: str, client_seed: str, index: int) -> int:
    """Return die number ``index`` (0-based, over the whole match) of the scheme, a value in 1..6.

    Raises:
        FairnessError: the seed is not 64 hex digits, or the index is negative.
    """
    if index < 0:
        raise FairnessError(f"die index {index} is negative")
    key = _seed_bytes(server_seed)
    counter = 0
    while True:
        block = hmac.new(key, f"{client_seed}:{index}:{counter}".encode(), hashlib.sha256).digest()
        for byte in block:
            if byte < _ACCEPT_BELOW:
                return byte % 6 + 1
        counter += 1  # all 32 bytes rejected: probability (4/256)^32, but the scheme defines what follows


def derive_dice(server_seed: str, client_seed: str, start: int, count: int) -> list[int]:
    """Return dice number ``start`` .. ``start + count - 1``.

    Raises:
        FairnessError: as :func:`derive_die`.
    """
    return [derive_die(server_seed, client_seed, i) for i in range(start, start + count)]


def match_rolls(match: Mapping[str, Any]) -> list[list[int]]:
    """Return every roll of a saved match (``nardy.Match.to_dict``), in order: the dice of each ``open`` and
    ``roll`` record of its finished games (kept in their compact form, ``o51`` / ``r56``), then of its current
    game.

    Raises:
        FairnessError: a record's dice are not a list of dice.
    """
    games = [*match.get("finished_games", []), match.get("game", {})]
    rolls: list[list[int]] = []
    for game in games:
        for record in game.get("history", []):
            dice = _roll_of(record)
            if dice is not None:
                rolls.append(dice)
    return rolls


def _roll_of(record: object) -> list[int] | None:
    """Return the dice of a history record that rolled (``{"t": "open" | "roll", "dice": [a, b]}``, or in a
    finished game's compact form ``o<a><b>`` / ``r<a><b>``), None for any other record."""
    if isinstance(record, str):
        if record[:1] not in ("o", "r"):
            return None
        if len(record) != 3 or not (record[1:].isascii() and record[1:].isdigit()):  # "r²3" is no roll
            raise FairnessError(f"roll record {record[:20]!r} is not o<die><die> or r<die><die>")
        return [int(record[1]), int(record[2])]
    if not isinstance(record, Mapping) or record.get("t") not in _ROLL_RECORDS:
        return None
    dice = record.get("dice")
    if not isinstance(dice, list) or not all(isinstance(d, int) for d in dice):
        raise FairnessError(f"roll record {str(record)[:60]!r} has no list of dice")
    return list(dice)


def dice_rolled(match: Mapping[str, Any]) -> int:
    """Return how many dice a saved match has rolled so far (the index of its next die).

    Raises:
        FairnessError: as :func:`match_rolls`.
    """
    return sum(len(roll) for roll in match_rolls(match))


@dataclass(frozen=True, slots=True)
class RollCheck:
    """The check of one roll: its number (1-based), the dice recorded and the dice the seeds give."""

    number: int
    recorded: tuple[int, ...]
    derived: tuple[int, ...]

    @property
    def ok(self) -> bool:
        """Return whether the recorded dice are the derived ones."""
        return self.recorded == self.derived


@dataclass(frozen=True, slots=True)
class Verification:
    """The result of :func:`verify_rolls` or :func:`verify_record`."""

    commitment_ok: bool
    rolls: tuple[RollCheck, ...]
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Return whether the commitment, every roll and the record's consistency check passed."""
        return self.commitment_ok and not self.problems and all(r.ok for r in self.rolls)

    def lines(self) -> list[str]:
        """Return the report: the commitment's check, one line per roll, the problems, and a verdict."""
        out = [f"commitment: {'ok' if self.commitment_ok else 'DOES NOT MATCH the server seed'}"]
        for roll in self.rolls:
            recorded = "-".join(map(str, roll.recorded))
            if roll.ok:
                out.append(f"roll {roll.number}: {recorded} ok")
            else:
                derived = "-".join(map(str, roll.derived))
                out.append(f"roll {roll.number}: recorded {recorded}, the seeds give {derived}: MISMATCH")
        out.extend(self.problems)
        bad = sum(not r.ok for r in self.rolls)
        verdict = "every roll matches" if self.ok else f"NOT verified ({bad} mismatched roll(s))"
        out.append(f"{len(self.rolls)} rolls: {verdict}")
        return out


def verify_rolls(
    server_seed: str, client_seed: str, published_commitment: str, rolls: Sequence[Sequence[int]]
) -> Verification:
    """Return the check of ``rolls`` (in match order) against the seeds and the published commitment.

    Raises:
        FairnessError: the server seed is not 64 hex digits.
    """
    commitment_ok = hmac.compare_digest(commitment(server_seed), published_commitment.lower())
    checks: list[RollCheck] = []
    index = 0
    for number, roll in enumerate(rolls, start=1):
        derived = derive_dice(server_seed, client_seed, index, len(roll))
        checks.append(RollCheck(number, tuple(roll), tuple(derived)))
        index += len(roll)
    return Verification(commitment_ok, tuple(checks))


def verify_record(record: Mapping[str, Any]) -> Verification:
    """Return the check of an exported game record.

    Its fields: ``fairness`` = ``{"scheme": "nardy-fair-v1", "commitment", "server_seed", "client_seed"}``,
    ``rolls`` (every roll of the match in order, a list of dice lists) and, optionally, ``match`` (the saved
    match, whose rolls must then be the same as ``rolls``).

    Raises:
        FairnessError: a field is missing or malformed, the scheme is unknown, or the seed is not revealed.
    """
    fairness = record.get("fairness")
    if not isinstance(fairness, Mapping):
        raise FairnessError("the record has no 'fairness' object")
    if fairness.get("scheme") != SCHEME:
        raise FairnessError(f"unknown fairness scheme {fairness.get('scheme')!r} (this verifier knows {SCHEME})")
    fields = {name: fairness.get(name) for name in ("commitment", "server_seed", "client_seed")}
    for name, value in fields.items():
        if not isinstance(value, str) or not value:
            raise FairnessError(f"the record's fairness.{name} is missing (the seed is revealed when the game ends)")
    rolls = record.get("rolls")
    if not isinstance(rolls, list) or not all(
        isinstance(r, list) and r and all(isinstance(d, int) for d in r) for r in rolls
    ):
        raise FairnessError("the record's 'rolls' is not a list of dice lists")
    result = verify_rolls(str(fields["server_seed"]), str(fields["client_seed"]), str(fields["commitment"]), rolls)
    match = record.get("match")
    if isinstance(match, Mapping) and match_rolls(match) != rolls:
        problem = "the rolls of the record's match differ from its 'rolls' list"
        return Verification(result.commitment_ok, result.rolls, (problem,))
    return result


def _main(argv: Sequence[str]) -> int:
    if len(argv) != 2 or argv[0] != "verify":
        print("usage: python -m nardy.fairness verify RECORD.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as file:
            record = json.load(file)
        if not isinstance(record, dict):
            raise FairnessError("the file does not hold a JSON object")
        result = verify_record(record)
    except (OSError, json.JSONDecodeError, FairnessError) as error:
        print(f"cannot verify {argv[1]}: {error}", file=sys.stderr)
        return 2
    for line in result.lines():
        print(line)
    return 0 if result.ok else 1


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
