"""Handler routers and their order in the dispatcher.

Each module defines plain handler functions and a ``create_router()`` that returns a new
``Router(name=__name__)`` with them registered: a router can belong to only one Dispatcher, and tests (and a
restart within one process) build several dispatchers.
"""

from __future__ import annotations

from aiogram import Router

from . import fallback, lang, start


def routers() -> list[Router]:
    """Return new routers to include, in order. Game flow routers go before these (``extra_routers`` of
    ``create_dispatcher``); ``fallback`` must stay last (it answers every leftover callback query)."""
    return [lang.create_router(), start.create_router(), fallback.create_router()]
