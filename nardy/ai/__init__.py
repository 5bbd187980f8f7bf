"""Computer players for long and short nardy and the variants of docs/rules.md §6 (Hypergammon, Nackgammon, Portes,
Misère, Plakoto, Acey-deucey, Dutch backgammon, Fevga, Gul bara) behind one protocol (numpy allowed here only).

Use :func:`get_player` (``easy``, ``medium``, ``hard``) and ask the player, on a :class:`~nardy.game.Game`; the hard
level exists only where a network ships (:func:`has_level`, :func:`levels_for`):

- :meth:`~ComputerPlayer.choose_move` when the game waits for the roller's move (phase ``move``);
- :meth:`~ComputerPlayer.cube_action` before rolling (phase ``roll``): ``double`` or ``no_double``;
- :meth:`~ComputerPlayer.take_decision` when a double waits for its answer: ``take`` or ``drop``;
- :meth:`~ComputerPlayer.accept_resignation` when a resignation waits for its answer;
- after an Acey-deucey 1-2 (phase ``choose``), :func:`nardy.ai.bonus.choose_double` names the double for a player.

All calls are synchronous, pure CPU, and safe to run in a worker thread (``asyncio.to_thread``); build one player per
game or per thread. The hard level's network weights ship in ``nardy/ai/weights`` and are loaded once per process.
"""

from __future__ import annotations

from nardy.ai.levels import LEVELS, get_player, has_level, levels_for
from nardy.ai.players import EasyPlayer, HardPlayer, MediumPlayer, RandomPlayer
from nardy.ai.protocol import ComputerPlayer, CubeAction, TakeDecision
from nardy.ai.selfplay import play_game

__all__ = [
    "LEVELS",
    "ComputerPlayer",
    "CubeAction",
    "EasyPlayer",
    "HardPlayer",
    "MediumPlayer",
    "RandomPlayer",
    "TakeDecision",
    "get_player",
    "has_level",
    "levels_for",
    "play_game",
]
