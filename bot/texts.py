"""Every text the game flows show, in Russian and English, with a lookup by language.

The infra i18n (gettext catalogues in ``bot/locales``) can take these over message by message; until then
:func:`tr` is the one way game handlers produce user-visible text.
"""

from __future__ import annotations

from typing import Final

DEFAULT_LANG: Final = "ru"

_TEXTS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "variant.short": "short nardy",
        "variant.long": "long nardy",
        "turn.roll": "{name} to roll or double",
        "turn.move": "{name} to move",
        "turn.doubled": "{name}: take or pass the double to {value}?",
        "turn.resign": "{name}: accept the resignation ({level})?",
        "roll": "{name} rolled {d1}-{d2}",
        "roll.named": "{name} rolled {d1}-{d2} ({dname})",
        "forfeit": "{name} cannot move with {d1}-{d2}: the roll is forfeited",
        "played": "{name} played {move}",
        "cube": "Cube: {value}",
        "cube.owner": "Cube: {value} ({name})",
        "score": "Match to {length}: {a} – {b}",
        "crawford": "Crawford game",
        "pending": "Turn so far: {steps}",
        "over": "Game over: {name} wins {kind}, {points} pt.",
        "over.draw": "Game over: a draw.",
        "match.over": "{name} wins the match {a} – {b}!",
        "next.game": "Next game of the match.",
        "reason.resign": "(resigned)",
        "reason.drop": "(double passed)",
        "reason.abandon": "(time ran out)",
        "kind.single": "a single game",
        "kind.gammon": "a gammon",
        "kind.backgammon": "a backgammon",
        "kind.oin": "oin",
        "kind.mars": "mars",
        "kind.home_mars": "home mars",
        "kind.koks": "koks",
        "kind.drop": "(passed)",
        "kind.draw": "a draw",
        "btn.roll": "🎲 Roll",
        "btn.double": "Double ×{value}",
        "btn.take": "Take",
        "btn.pass": "Pass",
        "btn.beaver": "Beaver",
        "btn.raccoon": "Raccoon",
        "btn.undo": "↩ Undo",
        "btn.confirm": "✅ Confirm",
        "btn.accept": "Accept",
        "btn.decline": "Decline",
        "btn.rematch": "Rematch",
        "btn.new": "New game",
        "btn.join": "Join",
        "btn.cancel": "Cancel",
        "btn.resign": "Resign: {level}",
        "toast.not_player": "You are not playing this game.",
        "toast.not_turn": "It is not your turn.",
        "toast.stale": "The game has changed, try again.",
        "toast.gone": "This game is over or does not exist.",
        "toast.bad": "This button is not valid any more.",
        "toast.ok": "Done.",
        "toast.own_challenge": "You cannot join your own challenge.",
        "toast.not_for_you": "This challenge is not for you.",
        "toast.challenge_gone": "This challenge is no longer open.",
        "toast.not_challenger": "Only the challenger can cancel.",
        "challenge.card": "{name} challenges to {variant}{match}. Press Join to play!",
        "challenge.card.to": "{name} challenges {opponent} to {variant}{match}.",
        "challenge.match": ", match to {length}",
        "challenge.link": "Send this link to your opponent: {link}\n{variant}{match}",
        "challenge.cancelled": "The challenge was cancelled.",
        "challenge.declined": "{name} declined the challenge.",
        "challenge.started": "The game has started: {a} vs {b}.",
        "move.error": "Move not accepted: {reason}",
        "move.options": "Legal moves: {options}",
        "move.too_long": "That message is too long to be a move.",
        "move.roll_first": "Roll first (or double) with the buttons.",
        "no_game": "You have no game in this chat.",
        "resign.choose": "How do you resign?",
        "resign.offered": "{name} offers to resign ({level}).",
        "stats": "{name}: {wins} wins, {losses} losses, {draws} draws.",
        "stats.none": "No finished games yet.",
        "settings.title": "Chat settings:",
        "settings.admins_only": "Only chat admins can change the settings.",
        "settings.saved": "Saved.",
        "settings.variant": "Default: {variant}",
        "settings.confirm": "Confirm turns: {value}",
        "settings.cube_long": "Cube in long nardy: {value}",
        "on": "on",
        "off": "off",
        "reminder": "{name}, it is your move in the nardy game.",
        "private.only_group": "This command works in groups.",
        "rules.short": (
            "Short nardy (backgammon): 15 checkers each, moving in opposite directions. Hitting a lone checker "
            "sends it to the bar; it must re-enter before anything else moves. Bring all checkers home, then bear "
            "them off. A gammon counts 2, a backgammon 3. The doubling cube may be offered before rolling."
        ),
        "rules.long": (
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
    """Return ``"ru"`` or ``"en"`` for a Telegram language code (default Russian)."""
    if code and code.lower().startswith("en"):
        return "en"
    if code and code.lower().startswith(("ru", "uk", "be", "kk")):
        return "ru"
    return DEFAULT_LANG if not code else "en"


def tr(lang: str | None, key: str, **kwargs: object) -> str:
    """Return the text ``key`` in ``lang`` formatted with ``kwargs``; falls back to English, then to the key."""
    table = _TEXTS.get(norm_lang(lang), _TEXTS["en"])
    text = table.get(key) or _TEXTS["en"].get(key) or key
    try:
        return text.format(**kwargs)
    except (KeyError, IndexError, ValueError):
        return text


def has_text(key: str) -> bool:
    """Return whether ``key`` is a known text key."""
    return key in _TEXTS["en"]
