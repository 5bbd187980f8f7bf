"""The texts of the lobby (``lobby.*`` and ``btn.lobby_*`` keys of :func:`bot.texts.tr`) as gettext message ids
(English; the translations are in the catalogues alone).

Kept apart from :mod:`bot.texts` only for size; :mod:`bot.texts` merges them into its table.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import Message, gettext_noop

LOBBY_TEXTS: Final[dict[str, Message]] = {
    "lobby.seeking": gettext_noop(
        "🔎 Looking for an opponent: {variant}, clock {clock}, your rating {rating}. The seek lasts {minutes} min; "
        "the board comes here as soon as someone is found."
    ),
    "lobby.found": gettext_noop(
        "✅ Opponent found: {name} (rating {rating}) · {variant}, clock {clock}. Your board follows."
    ),
    "lobby.expired": gettext_noop(
        "⌛ No opponent was found within {minutes} min: the seek has expired. Send /play to look again."
    ),
    "lobby.cancelled": gettext_noop("The seek was cancelled. Send /play to look again."),
    "lobby.busy": gettext_noop(
        "The seek was cancelled: you started another game meanwhile. Send /play more to look for a game beside it."
    ),
    "lobby.already": gettext_noop(
        "You are looking for an opponent already. To change the game or the clock, cancel that seek first (the "
        "button under it)."
    ),
    "lobby.just_found": gettext_noop(
        "An opponent has just been found for your seek: the game is starting, its board comes here."
    ),
    "lobby.cancel_too_late": gettext_noop(
        "Too late to cancel: an opponent has just been found. The game is starting; its board comes here."
    ),
    "lobby.playing": gettext_noop(
        "You are playing a game. Finish it first, or send /play more to look for another game beside it."
    ),
    "lobby.cooldown": gettext_noop(
        "You left lobby games without moving, so you can look for an opponent again at {until} UTC (in {left})."
    ),
    "lobby.bad": gettext_noop(
        "I cannot read «{word}». Write /play, then a game (short, long, …: not tavli or mixed), a clock D+r and "
        "more to play beside a running game, e.g. /play long 12+2."
    ),
    "lobby.group": gettext_noop(
        "The lobby plays in private chats: open the chat with me and send /play there. The board comes there too."
    ),
    "lobby.too_many": gettext_noop(
        "You play as many games as one may at once (limit: {limit}): finish one before looking for another."
    ),
    "lobby.left.minutes": gettext_noop("{minutes} min"),
    "lobby.left.hours": gettext_noop("{hours} h {minutes} min"),
    "lobby.series": gettext_noop("Series {a}:{b}"),
    "lobby.rematch_offer": gettext_noop(
        "{name} wants a rematch ({series}). Press Rematch under the board to play again."
    ),
    "lobby.rematch_waiting": gettext_noop("Rematch offered: waiting for your opponent."),
    "lobby.rematch_started": gettext_noop("The rematch has started."),
    "lobby.rematch_refused": gettext_noop("No rematch: one of you blocked the other."),
    "lobby.rematch_busy": gettext_noop("No rematch now: {name} is playing another game."),
    "lobby.rematch_you_busy": gettext_noop("No rematch now: you are playing another game."),
    "lobby.cancelled_rematch": gettext_noop("The seek was cancelled: your rematch with {name} has started."),
    "lobby.blocked": gettext_noop("Blocked: the lobby will never pair you with this player again."),
    "lobby.blocked_already": gettext_noop("This player is blocked already."),
    "lobby.reported": gettext_noop("Thank you: the report was counted for the operator."),
    "lobby.reported_already": gettext_noop("You have reported this game already."),
    "lobby.not_seeking": gettext_noop("You are not looking for an opponent."),
    "lobby.reports.title": gettext_noop("Reported lobby players (most reports first):"),
    "lobby.reports.line": gettext_noop("{user}: {count}"),
    "lobby.reports.none": gettext_noop("No lobby player has been reported."),
    "lobby.operator_only": gettext_noop("Only the bot's operator can see this."),
    "btn.lobby_cancel": gettext_noop("✖ Cancel the seek"),
    "btn.lobby_rematch": gettext_noop("🔁 Rematch"),
    "btn.lobby_new": gettext_noop("🔎 New opponent"),
    "btn.lobby_block": gettext_noop("🚫 Block"),
    "btn.lobby_report": gettext_noop("⚠️ Report"),
    "btn.lobby_open": gettext_noop("Open the private chat"),
}
"""Every lobby text key and its English message id."""
