"""Records the contract suites store: a game, a tournament, and the expiry used by the expiry tests."""

from __future__ import annotations

SHORT_TTL = 0.3
"""Expiry used in the expiry tests (seconds); Redis expires keys on its own clock, so it must really pass."""

GAME = {"variant": "long", "board": [0, 1, 2], "players": {"white": 1, "black": 2}, "text": "нарды"}
"""A game record (opaque to the store)."""

TOURNAMENT = {"format": "swiss", "players": [5, 6, 7], "title": "Кубок чата", "outbox": []}
"""A tournament record (opaque to the store)."""
