"""Giving memory back to the system after a burst: a full garbage collection, then glibc's ``malloc_trim(0)``.

Thousands of connections closing at once leave their objects to the garbage collector (those in reference cycles wait
for a full collection, which the bot's thresholds make rare: :func:`bot.app.freeze_startup_objects`) and their
buffers to the C allocator, which keeps freed memory for the next allocations instead of returning it: the process's
resident memory stays at its peak. :func:`give_back` collects the cycles and asks glibc to return the free pages at
the top of its heaps and inside them (``malloc_trim(0)``, which madvises whole free pages away). Elsewhere than glibc
(musl, macOS) only the collection is done.

This module imports nothing from the bot, so any layer can use it.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path


@dataclass(frozen=True, slots=True)
class GivenBack:
    """What :func:`give_back` did: the objects the collection freed, whether ``malloc_trim`` ran, the resident
    memory before and after (MB; 0 where ``/proc`` cannot be read), and the seconds the collection took (the event
    loop waits for it) and the trim took (in a thread: the loop runs meanwhile)."""

    collected: int
    trimmed: bool
    rss_before: float
    rss_after: float
    collect_seconds: float
    trim_seconds: float


def resident_mb() -> float:
    """Return this process's resident memory in MB (``VmRSS`` of ``/proc/self/status``; 0.0 where there is none)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """Return glibc's ``malloc_trim``, or None when the C library has none."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


async def give_back() -> GivenBack:
    """Collect every generation of garbage, then return the allocator's free pages to the system (glibc only).
    Returns: what was done (:class:`GivenBack`). The collection holds the interpreter for its duration (tens to
    hundreds of milliseconds for a heap of hundreds of MB); ``malloc_trim`` runs in a thread, as ctypes lets other
    threads run during a foreign call."""
    before = resident_mb()
    started = time.perf_counter()
    collected = gc.collect()
    collected_at = time.perf_counter()
    trim = _malloc_trim()
    if trim is not None:
        await asyncio.to_thread(trim, 0)
    trimmed_at = time.perf_counter()
    return GivenBack(
        collected, trim is not None, before, resident_mb(), collected_at - started, trimmed_at - collected_at
    )
