"""Board rendering in worker processes, so that drawing a board (about 60 % of a press) never holds the event
loop's GIL and one bot process uses every core.

One pool per size is shared by every game service of the process (started on first use with the ``spawn``
context, each process importing the renderer and its fonts once). Only the package's own renderer runs there
(:func:`rendering.render_board`: its arguments and the JPEG it returns are plain picklable values); an injected
renderer (tests, tools) runs in a thread instead.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from nardy import Position
from rendering import render_board

_pools: dict[int, ProcessPoolExecutor] = {}
_lock = threading.Lock()


def _warm_up() -> None:
    """Draw one board in a fresh worker process (fonts and caches loaded before the first real press)."""
    from nardy.variants import get_variant

    render_board(get_variant("short").initial_position(), "short", width=320)


def _pool(processes: int) -> ProcessPoolExecutor:
    with _lock:
        pool = _pools.get(processes)
        if pool is None:
            pool = _pools[processes] = ProcessPoolExecutor(
                max_workers=processes, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up
            )
        return pool


async def render_in_processes(processes: int, position: Position, variant: str, **kwargs: Any) -> bytes:
    """Return :func:`rendering.render_board` of the arguments, drawn in the shared pool of ``processes`` worker
    processes. Raises: whatever the renderer raises; ``BrokenProcessPool`` when a worker process died (the pool is
    replaced for the next call)."""
    loop = asyncio.get_running_loop()
    pool = _pool(processes)
    try:
        return await loop.run_in_executor(pool, functools.partial(render_board, position, variant, **kwargs))
    except Exception:
        if getattr(pool, "_broken", False):
            with _lock:
                if _pools.get(processes) is pool:
                    del _pools[processes]
            pool.shutdown(wait=False, cancel_futures=True)
        raise


def shutdown_pools() -> None:
    """Stop every render process of this process (at shutdown). Returns nothing."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)
