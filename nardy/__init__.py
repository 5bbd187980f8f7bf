"""nardy: a pure rules engine for long nardy and short nardy (backgammon).

Standard library only, synchronous, immutable values. Start with :func:`get_variant`, :class:`Position`,
:func:`legal_moves`, :class:`TurnPlan` (step-wise API for button UIs) and :class:`Game`.

Its hot path (positions, move generation, the variants) runs compiled when ``pip install`` could build it with mypyc
and from the pure-Python sources otherwise, with identical results: see :mod:`nardy._build` (``NARDY_PURE=1``
forces the sources; :func:`compiled_engine` tells which runs).
"""

from nardy._build import compiled as compiled_engine
from nardy.dice import DiceSource, FairDice, FixedDice, SeededDice, SystemDice, dice_name
from nardy.errors import (
    AmbiguousMoveError,
    GameStateError,
    IllegalMoveError,
    IncompleteMoveError,
    InvalidIdError,
    InvalidMoveError,
    InvalidPositionError,
    MatchOverError,
    NardyError,
)
from nardy.game import Game, GameResult, Phase
from nardy.ids import position_from_any_id, variant_position_id
from nardy.match import Match
from nardy.matching import match_move
from nardy.move import Move, Step, format_steps
from nardy.movegen import TurnPlan, count_legal_moves, legal_moves
from nardy.notation import parse_segments
from nardy.options import InvalidOptionError, Options
from nardy.position import Position
from nardy.variants import UnknownVariantError, Variant, get_variant

__all__ = [
    "AmbiguousMoveError",
    "DiceSource",
    "FairDice",
    "FixedDice",
    "Game",
    "GameResult",
    "GameStateError",
    "IllegalMoveError",
    "IncompleteMoveError",
    "InvalidIdError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Match",
    "MatchOverError",
    "Move",
    "NardyError",
    "Options",
    "Phase",
    "Position",
    "SeededDice",
    "Step",
    "SystemDice",
    "TurnPlan",
    "UnknownVariantError",
    "Variant",
    "compiled_engine",
    "count_legal_moves",
    "dice_name",
    "format_steps",
    "get_variant",
    "legal_moves",
    "match_move",
    "parse_segments",
    "position_from_any_id",
    "variant_position_id",
]
