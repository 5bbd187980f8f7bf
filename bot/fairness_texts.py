"""The texts of provably fair dice and ``/verify`` (``fair.*`` keys of :func:`bot.texts.tr`), English (gettext ids)
and Russian. Kept apart from :mod:`bot.texts` only for size; :mod:`bot.texts` merges them into its tables."""

from __future__ import annotations

from typing import Final

from bot.i18n import gettext_noop

FAIRNESS_EN: Final[dict[str, str]] = {
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
    "fair.ok": gettext_noop(
        "✅ Game {game}: all {n} rolls match the revealed seed.\n"
        "Server seed: {seed}\n"
        "Client seed: {client}\n"
        "Commitment (SHA-256 of the seed): {hash}\n"
        "Check the attached record without the bot: {command}"
    ),
    "fair.bad": gettext_noop(
        "❌ Game {game}: {bad} of {n} rolls do NOT match the seeds. Please report this game to the bot's operator."
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
        "{mark} {name}: {plays} plays rated, error rate {rate}, {inaccuracies} inaccuracies, {blunders} blunders"
    ),
    "analysis.legend": gettext_noop(
        "Error rate: equity lost per play × 1000. Inaccuracy: a loss of {inaccuracy} or more; blunder: {blunder} or "
        "more. The worst plays follow."
    ),
    "analysis.flawless": gettext_noop("No play lost any equity."),
    "analysis.play": gettext_noop("{name}, game {game}, {dice}: played {played}, better {best} (lost {loss})"),
    "analysis.cube": gettext_noop(
        "{mark} {name}: {decisions} cube decisions rated, error rate {rate}, {errors} errors"
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

FAIRNESS_RU: Final[dict[str, str]] = {
    "fair.caption.start": "🔐 Честные кости: SHA-256 {hash}. После партии: {command}",
    "fair.caption.over": "🔓 Зерно костей раскрыто: {command} проверит каждый бросок",
    "fair.usage": (
        "Отправьте /verify и номер партии (он есть в первой и последней подписи её доски) или просто /verify для "
        "вашей партии в этом чате. До конца партии команда покажет обязательство по костям, после — раскроет зерно "
        "и проверит каждый бросок."
    ),
    "fair.unknown": "Партии {game} нет (законченные партии хранятся ограниченное время).",
    "fair.none": "У партии {game} нет зёрен честных костей: она началась до того, как бот стал их фиксировать.",
    "fair.running": (
        "🔐 Партия {game}: каждая кость выводится из секретного зерна сервера через HMAC-SHA256 (схема {scheme}).\n"
        "Обязательство, SHA-256 этого зерна: {hash}\n"
        "Зерно клиента: {client}\n"
        "Зерно раскрывается в конце партии; тогда /verify {game} проверит каждый бросок."
    ),
    "fair.ok": (
        "✅ Партия {game}: все {n} бросков совпадают с раскрытым зерном.\n"
        "Зерно сервера: {seed}\n"
        "Зерно клиента: {client}\n"
        "Обязательство (SHA-256 зерна): {hash}\n"
        "Проверьте приложенную запись без бота: {command}"
    ),
    "fair.bad": (
        "❌ Партия {game}: {bad} из {n} бросков НЕ совпадают с зёрнами. Сообщите об этой партии владельцу бота."
    ),
    "export.usage": (
        "Отправьте /export и номер партии (он есть в первой и последней подписи её доски) или просто /export для "
        "вашей партии в этом чате: бот пришлёт её запись (.mat для GNU Backgammon и XG в коротких нардах, "
        "наккгаммоне и гипергаммоне, текстовую запись в остальных играх) и запись в JSON."
    ),
    "export.not_yours": "Партию {game} играли не вы и не в этом чате.",
    "export.failed": "Запись партии {game} не удалось составить.",
    "export.done": "Запись партии {game}:",
    "export.running": "Запись партии {game} на этот момент (зерно костей раскроется в конце):",
    "fair.caption.record": "📄 Запись партии: {command} · разбор: {analysis}",
    "history.title": "Ваши последние законченные партии здесь (▶ просмотр, 📄 запись):",
    "history.none": "В этом чате у вас ещё нет законченных партий (законченные партии хранятся ограниченное время).",
    "history.line": "{date} · {variant} · {outcome} {score} против {opponent}",
    "history.won": "победа",
    "history.lost": "поражение",
    "history.drawn": "ничья",
    "history.frame": "Просмотр партии {game}, партия {number} матча · {n}/{total}",
    "history.gone": "Эта партия больше не хранится.",
    "analysis.usage": "Отправьте /analyze и номер законченной партии (он есть в последней подписи доски).",
    "analysis.running": "Партия {game} ещё не окончена: разбор доступен после её конца.",
    "analysis.unsupported": "Для игры партии {game} разбора пока нет (нет обученной сети).",
    "analysis.title": "📊 Разбор партии {game} сильной сетью бота (0-ply):",
    "analysis.player": (
        "{mark} {name}: оценено ходов {plays}, процент ошибок {rate}, неточностей {inaccuracies}, грубых ошибок "
        "{blunders}"
    ),
    "analysis.legend": (
        "Процент ошибок: потерянное эквити на ход × 1000. Неточность: потеря от {inaccuracy}; грубая ошибка: от "
        "{blunder}. Ниже худшие ходы."
    ),
    "analysis.flawless": "Ни один ход не потерял эквити.",
    "analysis.play": "{name}, партия {game}, {dice}: сыграно {played}, лучше {best} (потеря {loss})",
    "analysis.cube": "{mark} {name}: оценено решений с кубом {decisions}, процент ошибок {rate}, ошибок {errors}",
    "analysis.cube_error": "🎲 {name}, партия {game}: {decision}, правильно: {proper} (потеря {loss})",
    "analysis.cube_legend": (
        "Решения с кубом: эквити с кубом по модели Яновского по той же сети (в матче — при его счёте, по таблице "
        "шансов Kazaross-XG2), потеря в единицах куба; ошибка — потеря от {inaccuracy}."
    ),
    "analysis.cube.double": "удвоил",
    "analysis.cube.no_double": "не удвоил",
    "analysis.cube.take": "принял",
    "analysis.cube.pass": "сдался",
    "analysis.proper.no_double": "не удваивать",
    "analysis.proper.double_take": "удвоить, принять",
    "analysis.proper.double_pass": "удвоить, сдаться",
    "analysis.proper.too_good": "слишком хорошо для удвоения, сдаться",
}
