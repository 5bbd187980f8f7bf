"""Boards drawn in worker processes are the same JPEG as in a thread, and the service sends its renders there."""

from __future__ import annotations

from bot.services.render_pool import render_in_processes, shutdown_pools
from bot.texts import board_labels
from nardy.variants import get_variant
from rendering import render_board


async def test_a_board_drawn_in_a_worker_process_is_the_same() -> None:
    position = get_variant("long").initial_position()
    kwargs = {"dice": (6, 5), "names": ("Алиса", "Bob"), "width": 640, "labels": board_labels("ru")}
    try:
        drawn = await render_in_processes(1, position, "long", **kwargs)
        again = await render_in_processes(1, position, "long", **kwargs)  # the pool is reused
    finally:
        shutdown_pools()
    assert drawn == again == render_board(position, "long", **kwargs)
    assert drawn[:2] == b"\xff\xd8"  # a JPEG
