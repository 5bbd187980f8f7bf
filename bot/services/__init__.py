"""Game services: load a game, check an action with the engine, save it atomically, render and send the boards.

Each module is imported by its own name (``bot.services.game_service``, ``bot.services.boards``, …); the package
itself imports nothing, so that loading one service does not load them all.
"""
