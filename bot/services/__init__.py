"""Game services: load a game, check an action with the engine, save it atomically, render and send the boards.

Each part is a class of its own module (``bot.services.actions.GameActions``, ``bot.services.boards.BoardPresenter``,
``bot.services.tournaments.reconcile.TournamentReconciler``, …) that gets its collaborators in its constructor; the
composition root (:mod:`bot.wiring`) builds them once and hands the handlers the parts they use. No service imports
``bot.wiring``, a handler or ``bot.jobs``. Each module is imported by its own name; the package itself imports
nothing, so that loading one service does not load them all.
"""
