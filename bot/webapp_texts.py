"""The texts of the Mini App's arena view and "Play" screen (``webapp.arena.*`` and ``webapp.play.*`` keys of
:func:`bot.texts.tr`) as gettext message ids (English; the translations are in the catalogues alone).

The page reads them from ``GET /webapp/api/texts`` (:data:`bot.webapp.server.PAGE_TEXT_KEYS`) before it shows
either screen; a ``{name}`` placeholder is filled in by the page. Kept apart from :mod:`bot.texts` only for size;
:mod:`bot.texts` merges them into its table.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import Message, gettext_noop

WEBAPP_TEXTS: Final[dict[str, Message]] = {
    "webapp.arena.not_found": gettext_noop("There is no such arena."),
    "webapp.arena.link": gettext_noop("📱 Arena live"),
    "webapp.arena.time_left": gettext_noop("Time left"),
    "webapp.arena.over": gettext_noop("The arena is over"),
    "webapp.arena.late_games": gettext_noop("Games still running at the end do not count."),
    "webapp.arena.leaderboard": gettext_noop("Leaderboard"),
    "webapp.arena.score": gettext_noop("Pts"),
    "webapp.arena.games": gettext_noop("Games"),
    "webapp.arena.fire": gettext_noop("🔥 on fire: the next win scores double"),
    "webapp.arena.paused_mark": gettext_noop("paused"),
    "webapp.arena.withdrawn_mark": gettext_noop("left"),
    "webapp.arena.playing_mark": gettext_noop("in a game"),
    "webapp.arena.join": gettext_noop("Join"),
    "webapp.arena.leave": gettext_noop("Leave"),
    "webapp.arena.pause": gettext_noop("Pause"),
    "webapp.arena.back": gettext_noop("Back in the game"),
    "webapp.arena.my_game": gettext_noop("Your game is on"),
    "webapp.arena.open_game": gettext_noop("Open my game"),
    "webapp.arena.waiting": gettext_noop("Waiting for your next opponent…"),
    "webapp.arena.paused": gettext_noop("Paused: you are not paired until you press “Back in the game”."),
    "webapp.arena.not_joined": gettext_noop("You are not playing in this arena."),
    "webapp.play.title": gettext_noop("Play"),
    "webapp.play.variant": gettext_noop("Game"),
    "webapp.play.clock": gettext_noop("Clock"),
    "webapp.play.seek": gettext_noop("Find an opponent"),
    "webapp.play.seeking": gettext_noop("Seeking an opponent…"),
    "webapp.play.window": gettext_noop("rating window ±{window}"),
    "webapp.play.window_any": gettext_noop("any rating"),
    "webapp.play.waited": gettext_noop("waiting {time}"),
    "webapp.play.cancel": gettext_noop("Cancel"),
    "webapp.play.playing": gettext_noop("Your game is on."),
    "webapp.play.open_game": gettext_noop("Open the board"),
    "webapp.play.cooldown": gettext_noop("You can seek again at {time}."),
    "webapp.play.cooldown_left": gettext_noop("({time} left)"),
    "webapp.play.unavailable": gettext_noop("The lobby is not open on this bot."),
    "webapp.play.bad_seek": gettext_noop("Choose a game and a clock (D+r) to seek."),
    "webapp.play.entry": gettext_noop("🎲 Play"),
}
"""The Mini App's arena and lobby texts: key → English message id."""
