"""Every text the game flows show, with a lookup by language (:func:`tr`).

The English texts are the gettext message ids (marked with ``gettext_noop`` so ``pybabel extract`` finds them):
:func:`tr` translates them with the bot's ``I18n`` (the ``bot/locales`` catalogues) when one is active, and falls
back to the Russian texts kept here when the catalogue has no translation yet (also outside a handler).
"""

from __future__ import annotations

from typing import Final

from aiogram.utils.i18n import I18n

from bot.i18n import SUPPORTED_LANGUAGES, gettext_noop, normalize_language

DEFAULT_LANG: Final = "ru"

_TEXTS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "variant.short": gettext_noop("short nardy"),
        "variant.long": gettext_noop("long nardy"),
        "turn.roll": gettext_noop("{name} to roll or double"),
        "turn.move": gettext_noop("{name} to move"),
        "turn.doubled": gettext_noop("{name}: take or pass the double to {value}?"),
        "turn.resign": gettext_noop("{name}: accept the resignation ({level})?"),
        "roll": gettext_noop("{name} rolled {d1}-{d2}"),
        "roll.named": gettext_noop("{name} rolled {d1}-{d2} ({dname})"),
        "forfeit": gettext_noop("{name} cannot move with {d1}-{d2}: the roll is forfeited"),
        "played": gettext_noop("{name} played {move}"),
        "cube": gettext_noop("Cube: {value}"),
        "cube.owner": gettext_noop("Cube: {value} ({name})"),
        "score": gettext_noop("Match to {length}: {a} – {b}"),
        "crawford": gettext_noop("Crawford game"),
        "pending": gettext_noop("Turn so far: {steps}"),
        "over": gettext_noop("Game over: {name} wins {kind}, {points} pt."),
        "over.draw": gettext_noop("Game over: a draw."),
        "match.over": gettext_noop("{name} wins the match {a} – {b}!"),
        "next.game": gettext_noop("Next game of the match."),
        "reason.resign": gettext_noop("(resigned)"),
        "reason.drop": gettext_noop("(double passed)"),
        "reason.abandon": gettext_noop("(time ran out)"),
        "kind.single": gettext_noop("a single game"),
        "kind.gammon": gettext_noop("a gammon"),
        "kind.backgammon": gettext_noop("a backgammon"),
        "kind.oin": gettext_noop("oin"),
        "kind.mars": gettext_noop("mars"),
        "kind.home_mars": gettext_noop("home mars"),
        "kind.koks": gettext_noop("koks"),
        "kind.drop": gettext_noop("(passed)"),
        "kind.draw": gettext_noop("a draw"),
        "btn.roll": gettext_noop("🎲 Roll"),
        "btn.double": gettext_noop("Double ×{value}"),
        "btn.take": gettext_noop("Take"),
        "btn.pass": gettext_noop("Pass"),
        "btn.beaver": gettext_noop("Beaver"),
        "btn.raccoon": gettext_noop("Raccoon"),
        "btn.undo": gettext_noop("↩ Undo"),
        "btn.confirm": gettext_noop("✅ Confirm"),
        "btn.accept": gettext_noop("Accept"),
        "btn.decline": gettext_noop("Decline"),
        "btn.rematch": gettext_noop("Rematch"),
        "btn.new": gettext_noop("New game"),
        "btn.join": gettext_noop("Join"),
        "btn.cancel": gettext_noop("Cancel"),
        "btn.resign": gettext_noop("Resign: {level}"),
        "toast.not_player": gettext_noop("You are not playing this game."),
        "toast.not_turn": gettext_noop("It is not your turn."),
        "toast.stale": gettext_noop("The game has changed, try again."),
        "toast.gone": gettext_noop("This game is over or does not exist."),
        "toast.bad": gettext_noop("This button is not valid any more."),
        "toast.ok": gettext_noop("Done."),
        "toast.own_challenge": gettext_noop("You cannot join your own challenge."),
        "toast.not_for_you": gettext_noop("This challenge is not for you."),
        "toast.not_yours": gettext_noop("This button is not for you."),
        "toast.challenge_gone": gettext_noop("This challenge is no longer open."),
        "toast.not_challenger": gettext_noop("Only the challenger can cancel."),
        "challenge.card": gettext_noop("{name} challenges to {variant}{match}. Press Join to play!"),
        "challenge.card.to": gettext_noop("{name} challenges {opponent} to {variant}{match}."),
        "challenge.match": gettext_noop(", match to {length}"),
        "challenge.link": gettext_noop("Send this link to your opponent: {link}\n{variant}{match}"),
        "challenge.cancelled": gettext_noop("The challenge was cancelled."),
        "challenge.declined": gettext_noop("{name} declined the challenge."),
        "challenge.started": gettext_noop("The game has started: {a} vs {b}."),
        "move.error": gettext_noop("Move not accepted: {reason}"),
        "move.options": gettext_noop("Legal moves: {options}"),
        "move.too_long": gettext_noop("That message is too long to be a move."),
        "move.roll_first": gettext_noop("Roll first (or double) with the buttons."),
        "no_game": gettext_noop("You have no game in this chat."),
        "resign.choose": gettext_noop("How do you resign?"),
        "resign.offered": gettext_noop("{name} offers to resign ({level})."),
        "stats": gettext_noop("{name}: {wins} wins, {losses} losses, {draws} draws."),
        "stats.none": gettext_noop("No finished games yet."),
        "settings.title": gettext_noop("Chat settings:"),
        "settings.admins_only": gettext_noop("Only chat admins can change the settings."),
        "settings.saved": gettext_noop("Saved."),
        "settings.variant": gettext_noop("Default: {variant}"),
        "settings.confirm": gettext_noop("Confirm turns: {value}"),
        "settings.cube_long": gettext_noop("Cube in long nardy: {value}"),
        "on": gettext_noop("on"),
        "off": gettext_noop("off"),
        "reminder": gettext_noop("{name}, it is your move in the nardy game."),
        "private.only_group": gettext_noop("This command works in groups."),
        "computer.name": gettext_noop("Computer ({level})"),
        "level.easy": gettext_noop("easy"),
        "level.medium": gettext_noop("medium"),
        "level.hard": gettext_noop("hard"),
        "turn.thinking": gettext_noop("{name} is thinking…"),
        "computer.took": gettext_noop("{name} takes the double."),
        "computer.declined": gettext_noop("{name} declines the resignation."),
        "computer.choose": gettext_noop("Play against the computer: choose the game and the level, then press Start."),
        "computer.started": gettext_noop("The game has started: {name} vs {computer}, {variant}."),
        "btn.start": gettext_noop("▶ Start"),
        "btn.short": gettext_noop("Short nardy"),
        "btn.long": gettext_noop("Long nardy"),
        "btn.easy": gettext_noop("Easy"),
        "btn.medium": gettext_noop("Medium"),
        "btn.hard": gettext_noop("Hard"),
        "stats.computer": gettext_noop("Against the computer: {wins} wins, {losses} losses, {draws} draws."),
        "rules.short": gettext_noop(
            "Short nardy (backgammon): 15 checkers each, moving in opposite directions. Hitting a lone checker "
            "sends it to the bar; it must re-enter before anything else moves. Bring all checkers home, then bear "
            "them off. A gammon counts 2, a backgammon 3. The doubling cube may be offered before rolling."
        ),
        "rules.long": gettext_noop(
            "Long nardy: 15 checkers each start on the head and move the same way round the board. No hitting: a "
            "point with one checker is taken. Only one checker leaves the head per turn (except 6-6, 4-4, 3-3 on "
            "the first turn). You may not build six points in a row unless an opponent checker is ahead of them. "
            "Bring all home, then bear off. Mars (the loser bore off nothing) counts 2."
        ),
    },
    "ru": {
        "variant.short": "короткие нарды",
        "variant.long": "длинные нарды",
        "turn.roll": "{name}: бросок или удвоение",
        "turn.move": "Ходит {name}",
        "turn.doubled": "{name}: принять удвоение до {value} или сдаться?",
        "turn.resign": "{name}: принять сдачу ({level})?",
        "roll": "{name} выбросил(а) {d1}-{d2}",
        "roll.named": "{name} выбросил(а) {d1}-{d2} ({dname})",
        "forfeit": "{name} не может сходить на {d1}-{d2}: ход пропущен",
        "played": "{name} сходил(а) {move}",
        "cube": "Куб: {value}",
        "cube.owner": "Куб: {value} ({name})",
        "score": "Матч до {length}: {a} – {b}",
        "crawford": "Игра Кроуфорда",
        "pending": "Ход: {steps}",
        "over": "Игра окончена: {name} выигрывает — {kind}, {points} оч.",
        "over.draw": "Игра окончена: ничья.",
        "match.over": "{name} выигрывает матч {a} – {b}!",
        "next.game": "Следующая игра матча.",
        "reason.resign": "(сдача)",
        "reason.drop": "(удвоение не принято)",
        "reason.abandon": "(время вышло)",
        "kind.single": "простая победа",
        "kind.gammon": "гаммон",
        "kind.backgammon": "бэкгаммон",
        "kind.oin": "оин",
        "kind.mars": "марс",
        "kind.home_mars": "домашний марс",
        "kind.koks": "кокс",
        "kind.drop": "(отказ)",
        "kind.draw": "ничья",
        "btn.roll": "🎲 Бросить",
        "btn.double": "Удвоить ×{value}",
        "btn.take": "Принять",
        "btn.pass": "Сдаться",
        "btn.beaver": "Бобёр",
        "btn.raccoon": "Енот",
        "btn.undo": "↩ Отменить",
        "btn.confirm": "✅ Готово",
        "btn.accept": "Принять",
        "btn.decline": "Отклонить",
        "btn.rematch": "Реванш",
        "btn.new": "Новая игра",
        "btn.join": "Играть",
        "btn.cancel": "Отменить",
        "btn.resign": "Сдаться: {level}",
        "toast.not_player": "Вы не участвуете в этой игре.",
        "toast.not_turn": "Сейчас не ваш ход.",
        "toast.stale": "Игра изменилась, попробуйте ещё раз.",
        "toast.gone": "Эта игра окончена или не существует.",
        "toast.bad": "Эта кнопка больше не действует.",
        "toast.ok": "Готово.",
        "toast.own_challenge": "Нельзя принять свой собственный вызов.",
        "toast.not_for_you": "Этот вызов не вам.",
        "toast.not_yours": "Эта кнопка не для вас.",
        "toast.challenge_gone": "Этот вызов уже не действует.",
        "toast.not_challenger": "Отменить может только автор вызова.",
        "challenge.card": "{name} вызывает сыграть в {variant}{match}. Нажмите «Играть»!",
        "challenge.card.to": "{name} вызывает {opponent} сыграть в {variant}{match}.",
        "challenge.match": ", матч до {length}",
        "challenge.link": "Отправьте эту ссылку сопернику: {link}\n{variant}{match}",
        "challenge.cancelled": "Вызов отменён.",
        "challenge.declined": "{name} отклонил(а) вызов.",
        "challenge.started": "Игра началась: {a} против {b}.",
        "move.error": "Ход не принят: {reason}",
        "move.options": "Возможные ходы: {options}",
        "move.too_long": "Слишком длинное сообщение для хода.",
        "move.roll_first": "Сначала бросьте кости (или удвойте) кнопками.",
        "no_game": "У вас нет игры в этом чате.",
        "resign.choose": "Как вы сдаётесь?",
        "resign.offered": "{name} предлагает сдачу ({level}).",
        "stats": "{name}: побед {wins}, поражений {losses}, ничьих {draws}.",
        "stats.none": "Законченных игр пока нет.",
        "settings.title": "Настройки чата:",
        "settings.admins_only": "Настройки могут менять только администраторы чата.",
        "settings.saved": "Сохранено.",
        "settings.variant": "По умолчанию: {variant}",
        "settings.confirm": "Подтверждение хода: {value}",
        "settings.cube_long": "Куб в длинных нардах: {value}",
        "on": "вкл",
        "off": "выкл",
        "reminder": "{name}, ваш ход в нардах.",
        "private.only_group": "Эта команда работает в группах.",
        "computer.name": "Компьютер ({level})",
        "level.easy": "лёгкий",
        "level.medium": "средний",
        "level.hard": "сложный",
        "turn.thinking": "{name} думает…",
        "computer.took": "{name} принимает удвоение.",
        "computer.declined": "{name} отклоняет сдачу.",
        "computer.choose": "Игра с компьютером: выберите игру и уровень, затем нажмите «Начать».",
        "computer.started": "Игра началась: {name} против: {computer}, {variant}.",
        "btn.start": "▶ Начать",
        "btn.short": "Короткие нарды",
        "btn.long": "Длинные нарды",
        "btn.easy": "Лёгкий",
        "btn.medium": "Средний",
        "btn.hard": "Сложный",
        "stats.computer": "Против компьютера: побед {wins}, поражений {losses}, ничьих {draws}.",
        "rules.short": (
            "Короткие нарды (бэкгаммон): по 15 шашек, игроки ходят навстречу друг другу. Одинокую шашку можно "
            "побить — она уходит на бар и должна войти в игру прежде других ходов. Соберите все шашки в доме и "
            "выбрасывайте их. Гаммон — 2 очка, бэкгаммон — 3. Перед броском можно предложить удвоение (куб)."
        ),
        "rules.long": (
            "Длинные нарды: по 15 шашек стоят на голове и идут в одну сторону по кругу. Бить нельзя: пункт с "
            "одной шашкой занят. С головы за ход снимается одна шашка (кроме 6-6, 4-4, 3-3 первым броском). "
            "Нельзя строить шесть пунктов подряд, если впереди нет шашки соперника. Соберите все шашки в доме и "
            "выбрасывайте их. Марс (проигравший не выбросил ни одной) — 2 очка, кокс — 3."
        ),
    },
}


def norm_lang(code: str | None) -> str:
    """Return ``"ru"`` or ``"en"`` for a language or Telegram language code, by the bot's one rule
    (:func:`bot.i18n.normalize_language`); without a usable code, the active I18n's default language
    (``DEFAULT_LANGUAGE``), or Russian outside a handler."""
    normalized = normalize_language(code)
    if normalized is not None:
        return normalized
    i18n = I18n.get_current(no_error=True)
    default = i18n.default_locale if i18n is not None else DEFAULT_LANG
    return default if default in SUPPORTED_LANGUAGES else DEFAULT_LANG


def tr(lang: str | None, key: str, **kwargs: object) -> str:
    """Return the text ``key`` in ``lang`` formatted with ``kwargs``; unknown keys are returned as they are."""
    code = norm_lang(lang)
    source = _TEXTS["en"].get(key)
    if source is None:
        return key
    text: str | None = None
    i18n = I18n.get_current(no_error=True)
    if i18n is not None and code in i18n.available_locales:
        translated = i18n.gettext(source, locale=code)
        if code == "en" or translated != source:
            text = translated
    if text is None:
        text = _TEXTS.get(code, {}).get(key) or source
    try:
        return text.format(**kwargs)
    except (KeyError, IndexError, ValueError):
        return text


def catalogue(lang: str) -> dict[str, str]:
    """Return ``{English message id: text in lang}`` for filling the gettext catalogue of ``lang``."""
    return {source: _TEXTS[lang].get(key, source) for key, source in _TEXTS["en"].items()}


def has_text(key: str) -> bool:
    """Return whether ``key`` is a known text key."""
    return key in _TEXTS["en"]
