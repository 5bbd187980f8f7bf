"""What every game service reads at call time: the sources of dice and time, the renderer, and the timings and caps
of ``Settings``. One :class:`GameConfig` is built by the composition root and shared by the services (tests change
its fields, e.g. the clock or the computer's delay, and every service sees the change)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.services.engine_flow import DiceFactory, system_dice
from rendering import render_board

Renderer = Callable[..., bytes]
"""Draws a board: ``render_board``'s signature (position, variant name, keyword options) → JPEG bytes."""


@dataclass
class GameConfig:
    """The services' shared settings (see the module docstring); the defaults are the Settings' defaults."""

    computer: Callable[[str, str, int], Any]
    """Builds computer players (level, variant name, seed) → a player: ``bot.services.computer.default_computer``
    or a test's factory."""
    dice: DiceFactory = system_dice
    clock: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    renderer: Renderer = render_board
    board_width: int = 1280
    render_processes: int = 0
    turn_reminder_after: float = 6 * 3600.0
    turn_timeout: float = 24 * 3600.0
    finished_game_ttl: float = 30 * 24 * 3600.0
    computer_delay: float = 1.0
    computer_retry_after: float = 60.0
    board_retry_after: float = 20.0
    max_games_per_user: int = 20
    max_games_per_chat: int = 500
