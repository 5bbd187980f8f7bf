"""What every versioned record of the storage shares: JSON documents and the "keep this value" marker."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]
"""A JSON-compatible dictionary (str keys; values are dicts, lists, str, int, float, bool or None)."""


@dataclass(frozen=True, slots=True)
class _Unset:
    """Marker type for "leave this value unchanged"."""

    tag: str = field(default="UNSET")


UNSET: Any = _Unset()
"""Pass as ``deadline`` to ``update_game``/``update_tournament`` to keep the current deadline (the default)."""
