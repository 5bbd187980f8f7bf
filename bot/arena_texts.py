"""The texts of arenas (``arena.*`` keys of :func:`bot.texts.tr`) as gettext message ids (English; the translations
are in the catalogues alone).

Kept apart from :mod:`bot.texts` only for size; :mod:`bot.texts` merges them into its table.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import Message, gettext_noop, ngettext_noop

ARENA_TEXTS: Final[dict[str, Message]] = {
    "arena.name": gettext_noop("Arena"),
    "arena.caption": gettext_noop("Arena"),
    "arena.title": gettext_noop("⚔️ Arena"),
    "arena.summary": gettext_noop("{variant} · {minutes} min · clock {control}"),
    "arena.summary.status": gettext_noop("{summary} · gammon +1, backgammon +2"),
    "tour.format.ar": gettext_noop("arena"),
    "arena.btn.start": gettext_noop("⚔️ Start the arena"),
    "arena.setup.hint": gettext_noop(
        "An arena starts at once and lasts {minutes} minutes; players join and leave at any time. Other lengths and "
        "clocks: /arena short 30 clock 12+1."
    ),
    "arena.left": ngettext_noop("count", "About {count} minute left.", "About {count} minutes left."),
    "arena.players": ngettext_noop(
        "count", "{count} player in, {playing} playing now.", "{count} players in, {playing} playing now."
    ),
    "arena.hint": gettext_noop(
        "Join: you get an opponent as soon as one is free, again and again until the end. Games come to your private "
        "chat with the bot. Win 2, a win after two wins in a row doubles. Pause or leave at any time."
    ),
    "arena.over": ngettext_noop(
        "count", "The arena is over: {count} player, {games}.", "The arena is over: {count} players, {games}."
    ),
    "arena.over.games": ngettext_noop("games", "{games} game", "{games} games"),
    "arena.late": ngettext_noop(
        "count",
        "{count} game still running at the end does not count.",
        "{count} games still running at the end do not count.",
    ),
    "arena.standings.title": ngettext_noop(
        "count", "⚔️ Arena standings · about {count} minute left", "⚔️ Arena standings · about {count} minutes left"
    ),
    "arena.result.title": gettext_noop("🏁 Arena result"),
    "arena.picture.title": gettext_noop("⚔️ Arena standings"),
    "arena.table.score": gettext_noop("Score"),
    "arena.table.games": gettext_noop("Games"),
    "arena.table.sheet": gettext_noop("Score sheet"),
    "arena.table.fire": gettext_noop("on fire: a win scores double"),
    "arena.table.berserk": gettext_noop("berserk"),
    "arena.table.paused": gettext_noop("paused"),
    "arena.table.left": gettext_noop("left the arena"),
    "arena.result.games": ngettext_noop("games", "{games} game counted.", "{games} games counted."),
    "arena.nobody": gettext_noop("Nobody has played yet."),
    "arena.btn.join": gettext_noop("⚔️ Join"),
    "arena.btn.leave": gettext_noop("🚪 Leave"),
    "arena.btn.pause": gettext_noop("⏸ Pause"),
    "arena.btn.back": gettext_noop("▶️ Back"),
    "arena.btn.berserk": gettext_noop("🔥 Berserk: half the time, +1 for a win"),
    "arena.berserk.done": gettext_noop("Berserk! Half your reserve and no delay; a win of 7 moves or more scores +1."),
    "arena.berserk.late": gettext_noop("Berserk only before your first move."),
    "arena.berserk.line": gettext_noop("🔥 Berserk: {names}"),
    "arena.gone": gettext_noop("This arena is gone."),
    "arena.closed": gettext_noop("This arena is over."),
    "arena.already": gettext_noop("You are in already: wait for your opponent."),
    "arena.already.paused": gettext_noop("You are in, but paused: press ▶️ Back to get opponents again."),
    "arena.full": gettext_noop("The arena is full."),
    "arena.not_member": gettext_noop("Only members of the arena's group can join it: join the group first."),
    "arena.member_unknown": gettext_noop(
        "Telegram could not say whether you are in the arena's group: try again, or press Join on the card in the "
        "group."
    ),
    "arena.joined": gettext_noop("You are in! Your games come to your private chat with the bot."),
    "arena.joined.open_bot": gettext_noop(
        "You are in! Open the bot in private (the button under the card) so that your games can come there."
    ),
    "arena.not_in": gettext_noop("You are not in this arena."),
    "arena.left_it": gettext_noop("You left the arena. Your score stays; a game you are playing still counts."),
    "arena.paused": gettext_noop("Paused: you get no new opponent until you press Back."),
    "arena.paused.already": gettext_noop("You are paused already."),
    "arena.back": gettext_noop("Welcome back: you get an opponent as soon as one is free."),
    "arena.back.already": gettext_noop("You are not paused."),
    "arena.paused.notice": gettext_noop(
        "⏸ You did not move within {window} seconds, so you lost that arena game on time and are paused: you get no "
        "new opponent. Press Back when you are ready to play again."
    ),
    "arena.usage": gettext_noop(
        "Usage: /arena [game] [minutes] [clock D+r] [status], e.g. /arena short 60 clock 12+2 — an arena of this "
        "group: everyone who joins plays game after game until the time is up. With status, a gammon scores 1 more "
        "and a backgammon 2 more."
    ),
    "arena.private": gettext_noop("An arena is played by a group: send /arena in the group."),
    "arena.one_at_a_time": gettext_noop("This chat has a tournament or an arena already; one at a time."),
    "arena.started": gettext_noop("The arena is on! Join with the button."),
}
