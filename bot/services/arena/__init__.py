"""Arenas in groups (docs/rules.md "Arena"): a tournament of a fixed length where a player is paired again as soon as
their game ends, their games played in the players' private chats on a clock.

One module a job: :mod:`~bot.services.arena.service` assembles the parts for the composition root;
:mod:`~bot.services.arena.records` reads and changes the records (compare-and-set with the wake-up deadline);
:mod:`~bot.services.arena.actions` runs the people's commands (create, join, leave, pause, back: each returns the
toast); :mod:`~bot.services.arena.reconcile` is the state machine (the end, notices, the games' creation, the card,
the standings, the result) and :mod:`~bot.services.arena.pairing` the pairing waves through the matchmaker;
:mod:`~bot.services.arena.outcome` reads a finished game for the arena; :mod:`~bot.services.arena.messages` says
everything in the chats with the texts of :mod:`~bot.services.arena.texts` and the standings picture of
:mod:`~bot.services.arena.pictures`; :mod:`~bot.services.arena.view_model` is
the arena as typed data (the Mini App's view); :mod:`~bot.services.arena.router` sends the tournaments' shared
work (the job, the sweep, a finished game) to the tournaments or the arenas by the record's format. Each module is
imported by its own name; the package itself imports nothing.
"""
