"""A compact text form of a game's history records, for the finished games a match keeps.

A history record is a dict such as ``{"t": "move", "steps": [[13, 8, 5, False], [6, 5, 1, False]]}``. Its compact
form is a short string: ``o51`` (opening roll 5-1), ``r56`` (roll 5-6), ``m13.8.5,6.5.1`` (a move: steps
``src.dst.die``, ``*`` after a hit), ``p`` (forfeited roll), ``d`` / ``t`` / ``x`` / ``b`` / ``c`` (double, take,
drop, beaver, raccoon), ``s0gammon`` (player 0 offers to resign a gammon), ``a`` / ``n`` (the offer accepted or
declined), ``q1`` (player 1 abandoned), ``k3`` (the double 3-3 named after an Acey-deucey 1-2). A match to N
points holds at most 2N−1 games, so with this form its saved record stays small (a finished game takes about a
third of its full size).
"""

from __future__ import annotations

from typing import Any, Final

from nardy.errors import GameStateError

_PLAIN: Final = {"pass": "p", "double": "d", "take": "t", "drop": "x", "beaver": "b", "raccoon": "c"}
_PLAIN.update({"accept": "a", "decline": "n"})
_PLAIN_BACK: Final = {code: kind for kind, code in _PLAIN.items()}


def encode_record(record: dict[str, Any]) -> str:
    """Return the compact form of one history record.

    Raises: GameStateError when the record is not one a game writes.
    """
    kind = record.get("t")
    try:
        if kind in ("open", "roll"):
            a, b = record["dice"]
            return f"{'o' if kind == 'open' else 'r'}{int(a)}{int(b)}"
        if kind == "move":
            return "m" + ",".join(f"{int(s)}.{int(d)}.{int(die)}{'*' if h else ''}" for s, d, die, h in record["steps"])
        if kind == "resign":
            return f"s{int(record['player'])}{record['level']}"
        if kind == "abandon":
            return f"q{int(record['player'])}"
        if kind == "choose":
            return f"k{int(record['die'])}"
    except (KeyError, TypeError, ValueError) as error:
        raise GameStateError(f"history record {record!r} cannot be encoded: {error}") from error
    if isinstance(kind, str) and kind in _PLAIN:
        return _PLAIN[kind]
    raise GameStateError(f"unknown history record {record!r}")


def decode_record(text: str) -> dict[str, Any]:
    """Return the history record of a compact form made by :func:`encode_record`.

    Raises: GameStateError when ``text`` is not such a form.
    """
    head, body = text[:1], text[1:]
    try:
        if head in ("o", "r") and len(body) == 2:
            return {"t": "open" if head == "o" else "roll", "dice": [int(body[0]), int(body[1])]}
        if head == "m":
            steps: list[list[int | bool]] = []
            for part in body.split(",") if body else []:
                hit = part.endswith("*")
                src, dst, die = (int(n) for n in part.rstrip("*").split("."))
                steps.append([src, dst, die, hit])
            return {"t": "move", "steps": steps}
        if head == "s" and body[:1] in ("0", "1") and body[1:]:
            return {"t": "resign", "player": int(body[0]), "level": body[1:]}
        if head == "q" and body in ("0", "1"):
            return {"t": "abandon", "player": int(body)}
        if head == "k" and body in ("1", "2", "3", "4", "5", "6"):
            return {"t": "choose", "die": int(body)}
    except ValueError as error:
        raise GameStateError(f"history record {text!r} cannot be read: {error}") from error
    if not body and head in _PLAIN_BACK:
        return {"t": _PLAIN_BACK[head]}
    raise GameStateError(f"history record {text!r} cannot be read")


def read_record(value: Any) -> dict[str, Any]:
    """Return a history record saved either as a dict or in its compact form.

    Raises: GameStateError when ``value`` is neither.
    """
    if isinstance(value, str):
        return decode_record(value)
    if isinstance(value, dict):
        return dict(value)
    raise GameStateError(f"history record {value!r} is neither a record nor its compact form")
