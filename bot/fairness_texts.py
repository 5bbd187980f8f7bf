"""The texts of provably fair dice, /verify, /export, /history and /analyze (``fair.*``, ``export.*``, ``history.*``,
``analysis.*`` keys of :func:`bot.texts.tr`) as gettext message ids (English; the translations are in the catalogues
alone). Kept apart from :mod:`bot.texts` only for size; :mod:`bot.texts` merges them into its table."""

from __future__ import annotations

from typing import Final

from bot.i18n import Message, gettext_noop, ngettext_noop

FAIRNESS_TEXTS: Final[dict[str, Message]] = {
    "fair.caption.start": gettext_noop("🔐 Fair dice, committed: SHA-256 {hash}. After the game: {command}"),
    "fair.caption.over": gettext_noop("🔓 The dice seed is revealed: {command} checks every roll"),
    "fair.usage": gettext_noop(
        "Send /verify and a game's id (the first and the last caption of its board give it), or /verify alone "
        "for your game in this chat. Before the end it shows the dice commitment; after it, it reveals the seed and "
        "checks every roll."
    ),
    "fair.unknown": gettext_noop("There is no game {game} (finished games are kept for a limited time)."),
    "fair.none": gettext_noop("Game {game} has no fair-dice seeds: it started before the bot committed to its dice."),
    "fair.running": gettext_noop(
        "🔐 Game {game}: every die is derived from a secret server seed by HMAC-SHA256 (scheme {scheme}).\n"
        "Commitment, the SHA-256 of that seed: {hash}\n"
        "Client seed: {client}\n"
        "The seed is revealed when the game ends; then /verify {game} checks every roll."
    ),
    "fair.ok": ngettext_noop(
        "n",
        "✅ Game {game}: its {n} roll matches the revealed seed.\n"
        "Server seed: {seed}\n"
        "Client seed: {client}\n"
        "Commitment (SHA-256 of the seed): {hash}\n"
        "Check the attached record without the bot: {command}",
        "✅ Game {game}: all {n} rolls match the revealed seed.\n"
        "Server seed: {seed}\n"
        "Client seed: {client}\n"
        "Commitment (SHA-256 of the seed): {hash}\n"
        "Check the attached record without the bot: {command}",
    ),
    "fair.bad": gettext_noop(
        "❌ Game {game}: rolls that do NOT match the seeds: {bad} of {n}. Please report this game to the bot's "
        "operator."
    ),
    "export.usage": gettext_noop(
        "Send /export and a game's id (the first and the last caption of its board give it), or /export alone for "
        "your game in this chat: the bot sends its record (.mat for GNU Backgammon and XG in short nardy, "
        "Nackgammon and Hypergammon; a text transcript otherwise) and its JSON record."
    ),
    "export.not_yours": gettext_noop("Game {game} was not played by you or in this chat."),
    "export.failed": gettext_noop("The record of game {game} cannot be written."),
    "export.done": gettext_noop("The record of game {game}:"),
    "export.running": gettext_noop("The record of game {game} so far (the dice seed is revealed when it ends):"),
    "fair.caption.record": gettext_noop("📄 Its record: {command} · analysis: {analysis}"),
    "history.title": gettext_noop("Your last finished games here (▶ replay, 📄 record):"),
    "history.none": gettext_noop(
        "You have no finished game in this chat yet (finished games are kept for a limited time)."
    ),
    "history.line": gettext_noop("{date} · {variant} · {outcome} {score} against {opponent}"),
    "history.won": gettext_noop("won"),
    "history.lost": gettext_noop("lost"),
    "history.drawn": gettext_noop("drawn"),
    "history.frame": gettext_noop("Replay of game {game}, game {number} of the match · {n}/{total}"),
    "history.gone": gettext_noop("This game is no longer kept."),
    "analysis.usage": gettext_noop("Send /analyze and the id of a finished game (its last caption gives it)."),
    "analysis.running": gettext_noop("Game {game} is not over: it is analysed once it has ended."),
    "analysis.unsupported": gettext_noop("There is no analysis for the game of {game} yet (no trained network)."),
    "analysis.title": gettext_noop("📊 Analysis of game {game} by the bot's hard network (0-ply):"),
    "analysis.player": gettext_noop(
        "{mark} {name} — plays rated: {plays}, error rate: {rate}, inaccuracies: {inaccuracies}, blunders: {blunders}"
    ),
    "analysis.legend": gettext_noop(
        "Error rate: equity lost per play × 1000. Inaccuracy: a loss of {inaccuracy} or more; blunder: {blunder} or "
        "more. The worst plays follow."
    ),
    "analysis.flawless": gettext_noop("No errors: no play lost any equity."),
    "analysis.play": gettext_noop("{name}, game {game}, {dice}: played {played}, better {best} (lost {loss})"),
    "analysis.cube": gettext_noop(
        "{mark} {name} — cube decisions rated: {decisions}, error rate: {rate}, errors: {errors}"
    ),
    "analysis.cube_error": gettext_noop("🎲 {name}, game {game}: {decision}, right: {proper} (lost {loss})"),
    "analysis.cube_legend": gettext_noop(
        "Cube decisions: cubeful equities by Janowski's model from the same network (in a match at its score, with "
        "the Kazaross-XG2 match equity table), lost equity in units of the cube; an error loses {inaccuracy} or more."
    ),
    "analysis.cube.double": gettext_noop("doubled"),
    "analysis.cube.no_double": gettext_noop("did not double"),
    "analysis.cube.take": gettext_noop("took"),
    "analysis.cube.pass": gettext_noop("passed"),
    "analysis.proper.no_double": gettext_noop("no double"),
    "analysis.proper.double_take": gettext_noop("double, take"),
    "analysis.proper.double_pass": gettext_noop("double, pass"),
    "analysis.proper.too_good": gettext_noop("too good to double, pass"),
}
