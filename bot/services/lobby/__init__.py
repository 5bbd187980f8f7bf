"""The lobby (docs/rules.md "Lobby"): ``/play`` (and the Mini App's "Play" screen) seeks an opponent of the same
strength from any chat of the bot; the pair's game is played in both private chats on a clock, rated; after it a
rematch makes a series, and a player can seek a new opponent, block or report the last one.

One module a job (imported by their full names: this package imports nothing, so the captions and the boards can
read :mod:`.rules` without importing the service):

- :mod:`.rules` — pure: what ``/play`` reads, the seek's key, the cool-down after abandoned games, who abandoned a
  game (a game's winner and its series score are :mod:`bot.services.series`, which the captions read);
- :mod:`.entries` — a seek as the pool keeps it;
- :mod:`.status` — the typed answers: :class:`~.status.SeekOutcome`, :class:`~.status.LobbyStatus`;
- :mod:`.profiles` — what the users' settings keep: the players blocked, the abandoned games;
- :mod:`.seeking` — :class:`~.seeking.Lobby`: seek, cancel, status, the pairing pass and the seeks' expiry;
- :mod:`.games` — :class:`~.games.LobbyGames`: the game of a pairing, in both private chats (idempotent);
- :mod:`.ticker` — :class:`~.ticker.LobbyTicker`: a pairing pass every ~2 s while anyone waits;
- :mod:`.after_game` — :class:`~.after_game.AfterGame`: rematch by agreement, new opponent, block, report, and the
  abandonment of a finished game (its cool-down);
- :mod:`.reports` — :class:`~.reports.Reports`: reports counted per reported user, for the operator;
- :mod:`.service` — :func:`~.service.build_lobby` assembles the parts for the composition root.
"""
