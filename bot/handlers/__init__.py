"""Handler routers and their order in the dispatcher: the built-in ones (:func:`routers`) and the game flows
(:func:`game_routers`, included before them by :mod:`bot.wiring`).

Each module defines plain handler functions and a ``create_router()`` that returns a new
``Router(name=__name__)`` with them registered: a router can belong to only one Dispatcher, and tests (and a
restart within one process) build several dispatchers.
"""

from __future__ import annotations

from aiogram import Router

from . import (
    analysis,
    arena,
    challenge,
    computer,
    cube,
    export,
    fairness,
    fallback,
    game,
    history,
    inline,
    lang,
    lobby,
    moves,
    ratings,
    rules,
    settings,
    start,
    stats,
    tournament,
)


def routers() -> list[Router]:
    """Return new routers to include, in order. Game flow routers go before these (``extra_routers`` of
    ``create_dispatcher``); ``fallback`` must stay last (it answers every leftover callback query)."""
    return [lang.create_router(), start.create_router(), fallback.create_router()]


def game_routers() -> list[Router]:
    """Return new game flow routers, in order (they come before :func:`routers`, so that a deep link
    ``/start c_<id>`` reaches the challenge flow; the computer's ``/new bot`` before the challenge's ``/new``;
    typed moves last). Each handler names in its signature the parts it uses (``replies``, ``actions``, ``boards``,
    ``inline_games``, ``tournaments``, ``arenas``, ``game_config``, ``preferences``, ``challenges``, ``chat_games``,
    ``history``, ``exports``, ``fairness``, ``analyses``, ``player_stats``, ``leaderboards``, ``lobby``, ``sender``,
    ``settings``) and ``locale``, the user's language; aiogram passes them from the Dispatcher's data
    (:mod:`bot.wiring`). No handler takes the store: what they read and write goes through those services."""
    modules = (
        tournament,
        arena,
        computer,
        challenge,
        lobby,
        game,
        cube,
        settings,
        stats,
        ratings,
        rules,
        fairness,
        export,
        history,
        analysis,
        inline,
        moves,
    )
    return [module.create_router() for module in modules]
