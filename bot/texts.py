"""Every text the game flows show, with a lookup by language (:func:`tr`).

Each key maps to its English gettext message id (marked with ``gettext_noop``, ``ngettext_noop`` or
``pgettext_noop`` so ``pybabel extract`` finds it); the translations live only in the ``bot/locales`` catalogues.
:func:`tr` translates with the active ``I18n`` (the bot's own catalogues outside a handler, so a text reads the
same wherever it is made). A message with plural forms takes the form its count placeholder's value asks for.

Every text is Telegram HTML. :func:`tr` escapes every value it inserts (names, moves, reasons …) unless the value
is :class:`Html` — a string already in Telegram HTML, such as the result of another :func:`tr` or of :func:`esc`.
The texts themselves contain no ``<``, ``>`` or ``&``, so a text without user values reads the same as plain text
(toasts, button labels).
"""

from __future__ import annotations

import dataclasses
import gettext
import html
from functools import cache
from typing import Final

from aiogram.utils.i18n import I18n

from bot.arena_texts import ARENA_TEXTS
from bot.fairness_texts import FAIRNESS_TEXTS
from bot.i18n import (
    SUPPORTED_LANGUAGES,
    Contextual,
    Message,
    Plural,
    create_i18n,
    gettext_noop,
    ngettext_noop,
    normalize_language,
    pgettext_noop,
)
from bot.lobby_texts import LOBBY_TEXTS
from bot.tournament_texts import TOURNAMENT_TEXTS
from bot.webapp_texts import WEBAPP_TEXTS
from nardy.errors import ILLEGAL_MOVE_CODES as ENGINE_ILLEGAL_MOVE_CODES
from rendering.board import BoardLabels
from rendering.standings import TableLabels

DEFAULT_LANG: Final = "ru"

TEXTS: Final[dict[str, Message]] = {
    "variant.short": gettext_noop("short nardy"),
    "variant.long": gettext_noop("long nardy"),
    "variant.nackgammon": gettext_noop("nackgammon"),
    "variant.hypergammon": gettext_noop("hypergammon"),
    "variant.portes": gettext_noop("Portes"),
    "variant.misere": gettext_noop("misère (backgammon to lose)"),
    "variant.plakoto": gettext_noop("Plakoto"),
    "variant.fevga": gettext_noop("Fevga"),
    "variant.gulbara": gettext_noop("Gul bara"),
    "variant.acey_deucey": gettext_noop("acey-deucey"),
    "variant.dutch": gettext_noop("Dutch backgammon"),
    "variant.tavli": gettext_noop("Tavli"),
    "variant.mixed": gettext_noop("mixed match"),
    "menu.more": gettext_noop("More games: choose one to start a game. The rules: /rules and the game's name."),
    "turn.roll": gettext_noop("{name} to roll or double"),
    "turn.move": gettext_noop("{name} to move"),
    "turn.choose": gettext_noop("{name} played the 1-2: name a double to play, then roll again"),
    "chose": gettext_noop("{name} named the double {d}-{d}"),
    "pools.next": gettext_noop("Then: {parts}"),
    "pools.part": gettext_noop("{name} plays {d} × {count}"),
    "pools.handover": gettext_noop("{name} plays the moves {other} could not play"),
    "over.mother": ngettext_noop(
        "points",
        "Game over: the mother checker of {loser} is pinned; {name} wins {points} point.",
        "Game over: the mother checker of {loser} is pinned; {name} wins {points} points.",
    ),
    "turn.doubled": gettext_noop("{name}: take or pass the double to {value}?"),
    "turn.resign": gettext_noop("{name}: accept the resignation ({level})?"),
    "roll": gettext_noop("{name} rolled {d1}-{d2}"),
    "roll.named": gettext_noop("{name} rolled {d1}-{d2} ({dname})"),
    "forfeit": gettext_noop("{name} cannot move with {d1}-{d2}: the roll is forfeited"),
    "played": gettext_noop("{name} played {move}"),
    "cube": gettext_noop("Cube: {value}"),
    "cube.owner": gettext_noop("Cube: {value} ({name})"),
    "score": gettext_noop("Match to {length}: {a} – {b}"),
    "score.games": ngettext_noop(
        "games",
        "Match of {games} game: {a} – {b}",
        "Match of {games} games: {a} – {b}",
    ),
    "crawford": gettext_noop("Crawford game"),
    "pending": gettext_noop("Turn so far: {steps}"),
    "over": ngettext_noop(
        "points",
        "Game over: {name} wins {kind}, {points} point.",
        "Game over: {name} wins {kind}, {points} points.",
    ),
    "over.resign": ngettext_noop(
        "points",
        "Game over: {loser} resigned; {name} wins {kind}, {points} point.",
        "Game over: {loser} resigned; {name} wins {kind}, {points} points.",
    ),
    "over.drop": ngettext_noop(
        "points",
        "Game over: {loser} passed the double; {name} wins {points} point.",
        "Game over: {loser} passed the double; {name} wins {points} points.",
    ),
    "over.abandon": ngettext_noop(
        "points",
        "Game over: {loser} ran out of time; {name} wins {points} point.",
        "Game over: {loser} ran out of time; {name} wins {points} points.",
    ),
    "over.draw": gettext_noop("Game over: a draw."),
    "over.time": gettext_noop("Match over: {loser} ran out of time on the clock; {name} wins the match."),
    "over.first_move.cancelled": gettext_noop(
        "{loser} did not make a first move within {seconds} s: the game is cancelled and counts for nobody."
    ),
    "over.first_move.lost": gettext_noop(
        "{loser} did not make a first move within {seconds} s: {name} wins the match."
    ),
    "clock.line": gettext_noop("⏱ time left: {first} · {second}"),
    "clock.invalid": gettext_noop(
        "The clock {value} cannot be used. Write it as D+r: D seconds free on every move (0 to 60), then a reserve "
        "of r minutes per point of the match (0.25 to 10; a single game counts as one point). Example: /new short "
        "match 5 clock 12+1 (12 s per move plus 5 minutes in all)."
    ),
    "match.over": gettext_noop("{name} wins the match {won} – {lost}!"),
    "next.game": gettext_noop("Next game of the match."),
    "kind.single": gettext_noop("a single game"),
    "kind.gammon": gettext_noop("a gammon"),
    "kind.backgammon": gettext_noop("a backgammon"),
    "kind.oin": gettext_noop("an oin (single game)"),
    "kind.mars": gettext_noop("a mars (double game)"),
    "kind.home_mars": gettext_noop("a home mars"),
    "kind.koks": gettext_noop("a koks (triple game)"),
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
    "btn.record": gettext_noop("📄 Record"),
    "export.restarting": gettext_noop(
        "The bot is restarting and could not send the record of game {game}: send /export {game} again in a minute."
    ),
    "btn.watch": gettext_noop("👁 Watch"),
    "toast.watching": gettext_noop(
        "The board now follows the game in your private chat with the bot (write to the bot first if it cannot "
        "reach you)."
    ),
    "toast.watch_player": gettext_noop("You are in this game: its board is here."),
    "toast.watch_already": gettext_noop("You are already watching this game."),
    "watch.choose": gettext_noop("Which game do you want to watch? Its board will follow in your private chat."),
    "watch.none": gettext_noop("No game is being played in this chat right now."),
    "btn.new": gettext_noop("New game"),
    "btn.join": gettext_noop("Join"),
    "settings.tour_topic": gettext_noop("Tournaments: {value}"),
    "settings.tour_topic.here": gettext_noop("in this topic"),
    "settings.tour_topic.own": gettext_noop("in a topic of their own"),
    "settings.tour_topic.where_created": gettext_noop("in the topic where they are created"),
    "settings.tour_topic.set_here": gettext_noop("🏆 Tournaments in this topic"),
    "settings.tour_topic.set_off": gettext_noop("🏆 Tournaments where they are created"),
    "tour.in_topic": gettext_noop("The tournament card is in the tournaments' topic."),
    "btn.withdraw": gettext_noop("Withdraw"),
    "btn.back": gettext_noop("↩ Back"),
    "btn.resign_menu": gettext_noop("🏳 Resign"),
    "inline.description": gettext_noop("Post an invitation here: the first to press Join plays you."),
    "inline.invite": gettext_noop("🎲 {name} invites you to play {what}. Press Join to play."),
    "inline.own": gettext_noop("This is your invitation: wait for someone to join."),
    "inline.taken": gettext_noop("The game has already started."),
    "inline.expired": gettext_noop("This invitation has expired."),
    "inline.withdrawn": gettext_noop("The invitation was withdrawn."),
    "inline.host": gettext_noop("Player"),
    "stats.inline": gettext_noop("In inline games — wins: {wins}, losses: {losses}, draws: {draws}."),
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
    "challenge.clock": gettext_noop(", clock {control}"),
    "challenge.link": gettext_noop("Send this link to your opponent: {link}\n{variant}{match}"),
    "challenge.cancelled": gettext_noop("The challenge was cancelled."),
    "challenge.declined": gettext_noop("{name} declined the challenge."),
    "challenge.started": gettext_noop("The game has started: {a} vs {b}."),
    "move.error": gettext_noop("Move not accepted: {reason}"),
    "illegal.blocked": gettext_noop("that point is held by the opponent."),
    "illegal.head_rule": gettext_noop("only one checker may leave the head per turn."),
    "illegal.block_rule": gettext_noop(
        "you may not build six points in a row unless an opponent checker is ahead of them."
    ),
    "illegal.die_not_rolled": gettext_noop("no die shows that number."),
    "illegal.must_use_both": gettext_noop("both dice must be played when that is possible."),
    "illegal.must_use_larger": gettext_noop("when only one die can be played, it must be the larger one."),
    "illegal.bear_off_early": gettext_noop("checkers may be borne off only when all of them are home."),
    "illegal.bear_off_higher": gettext_noop(
        "a die higher than the point bears a checker off only when no checker stands on a higher point."
    ),
    "illegal.bar_first": gettext_noop("a checker on the bar must enter first."),
    "illegal.start_rule": gettext_noop(
        "no second checker may leave your 24 before the first has passed the opponent's start (your 12)."
    ),
    "illegal.start_quarter": gettext_noop("you may not hold all six points of your starting quarter at once."),
    "illegal.no_hit": gettext_noop("you may hit only once you have a checker in your home board."),
    "illegal.pinned": gettext_noop("that checker is pinned and cannot move until it is freed."),
    "illegal.bear_off_pinned": gettext_noop("no bearing off while one of your checkers is pinned."),
    "illegal.wrong_direction": gettext_noop("checkers move forward only."),
    "illegal.not_a_digit": gettext_noop("write the points with ordinary digits, like 13/8 6/5."),
    "illegal.no_checker": gettext_noop("you have no checker on that point."),
    "illegal.incomplete": gettext_noop("the move is incomplete: play every die you can."),
    "illegal.generic": gettext_noop("this move is not possible in this position."),
    "move.sender_chat": gettext_noop(
        "Games are played by people: write as yourself, not on behalf of a channel or as an anonymous admin."
    ),
    "move.options": gettext_noop("Legal moves: {options}"),
    "move.too_long": gettext_noop("That message is too long to be a move."),
    "move.roll_first": gettext_noop("Roll first (or double) with the buttons."),
    "no_game": gettext_noop("You have no game in this chat."),
    "toast.old_board": gettext_noop("This is an old board: play on the newest one."),
    "toast.synced": gettext_noop("The board was behind: it is being updated, press again."),
    "webapp.open": gettext_noop("📱 Live board"),
    "webapp.you": gettext_noop("you"),
    "webapp.spectator": gettext_noop("You are watching this game."),
    "webapp.computer": gettext_noop("The computer is thinking…"),
    "webapp.your_turn": gettext_noop("Your turn"),
    "webapp.waiting": gettext_noop("Waiting for the opponent"),
    "webapp.clock.delay": gettext_noop("delay"),
    "webapp.clock.flag": gettext_noop("lost on time"),
    "webapp.clock.first": gettext_noop("first move"),
    "webapp.not_found": gettext_noop("There is no such game."),
    "webapp.no_game": gettext_noop("No game to open: open the board from its message in Telegram."),
    "webapp.bad_request": gettext_noop("The request is malformed: send the board's version and one action."),
    "webapp.auth.missing": gettext_noop("Open the board from Telegram: the request carries no sign-in data."),
    "webapp.auth.forged": gettext_noop("The sign-in data is not Telegram's: reopen the board from Telegram."),
    "webapp.auth.stale": gettext_noop("The sign-in data has expired: reopen the board from Telegram."),
    "webapp.auth.no_user": gettext_noop("The sign-in data names no user: open the board from a chat."),
    "webapp.rate_limited": gettext_noop("Too many requests at once: wait a moment and try again."),
    "match.bad_length": gettext_noop(
        "“{value}” is not a match length: write it in digits, e.g. /new long match 5 (1 to {most} points)."
    ),
    "webapp.too_many_sockets": gettext_noop(
        "This board is open in too many windows at once: close the ones you do not need and reopen it."
    ),
    "choose.game": gettext_noop("You have several games here. Which one?"),
    "move.ambiguous": gettext_noop(
        "You are to move in several games here: use the buttons of the board you mean (or /board)."
    ),
    "limit.user": ngettext_noop(
        "limit",
        "{name} already plays {limit} game: finish it before starting another.",
        "{name} already plays {limit} games: finish one before starting another.",
    ),
    "limit.chat": ngettext_noop(
        "limit",
        "This chat already has {limit} running game: finish it before starting more.",
        "This chat already has {limit} running games: finish some before starting more.",
    ),
    "too_fast": gettext_noop("Too fast: please wait a moment."),
    "resign.choose": gettext_noop("Choose how to resign:"),
    "resign.offered": gettext_noop("{name} offers to resign ({level})."),
    "stats": gettext_noop("{name} — wins: {wins}, losses: {losses}, draws: {draws}."),
    "stats.none": gettext_noop("No finished games yet."),
    "settings.title": gettext_noop("Chat settings:"),
    "settings.admins_only": gettext_noop("Only chat admins can change the settings."),
    "settings.saved": gettext_noop("Saved."),
    "settings.variant": gettext_noop("Default: {variant}"),
    "settings.confirm": gettext_noop("Confirm turns: {value}"),
    "settings.cube_long": gettext_noop("Cube in long nardy: {value}"),
    "settings.theme": gettext_noop("Board: {value}"),
    "settings.theme.classic": gettext_noop("classic (wood)"),
    "settings.theme.dark": gettext_noop("dark"),
    "settings.user_title": gettext_noop("Your settings:"),
    "settings.theme.whose": gettext_noop(
        "Boards in your private chats are drawn in your theme; a group's board in the theme its admins chose "
        "(/settings in the group)."
    ),
    "board.winner": ngettext_noop(
        "points",
        "Won {points} point.",
        "Won {points} points.",
    ),
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
    "btn.short": pgettext_noop("button", "Short nardy"),
    "btn.long": pgettext_noop("button", "Long nardy"),
    "btn.nackgammon": pgettext_noop("button", "Nackgammon"),
    "btn.hypergammon": pgettext_noop("button", "Hypergammon"),
    "btn.portes": pgettext_noop("button", "Portes"),
    "btn.misere": pgettext_noop("button", "Misère"),
    "btn.plakoto": pgettext_noop("button", "Plakoto"),
    "btn.fevga": pgettext_noop("button", "Fevga"),
    "btn.gulbara": pgettext_noop("button", "Gul bara"),
    "btn.acey_deucey": pgettext_noop("button", "Acey-deucey"),
    "btn.dutch": pgettext_noop("button", "Dutch"),
    "btn.tavli": pgettext_noop("button", "Tavli"),
    "btn.mixed": pgettext_noop("button", "Mixed match"),
    "computer.unsupported": gettext_noop("The computer does not play {variant} yet. It plays: {variants}."),
    "btn.easy": gettext_noop("Easy"),
    "btn.medium": gettext_noop("Medium"),
    "btn.hard": gettext_noop("Hard"),
    "stats.computer": gettext_noop("Against the computer — wins: {wins}, losses: {losses}, draws: {draws}."),
    "rating.title": gettext_noop("Rating of {name}:"),
    "rating.line": gettext_noop("{variant}: {rating} (experience: {experience}, rated matches: {matches})"),
    "rating.unrated": gettext_noop("{variant}: {rating}, no rated matches yet"),
    "rating.note": gettext_noop(
        "Finished matches between people are rated (FIBS formula); games against the computer, forfeits "
        "and very short resigned games are not. The leaderboard of a group: /top."
    ),
    "top.title": gettext_noop("Leaderboard of this group: {variant}"),
    "top.player": gettext_noop("Player"),
    "top.rating": gettext_noop("Rating"),
    "top.matches": gettext_noop("Matches"),
    "top.empty": gettext_noop("Nobody has played a rated game of {variant} in this chat yet."),
    "top.private": gettext_noop(
        "The leaderboard belongs to a group: send /top there (/top long, /top short, /top portes …). Your own "
        "rating: /rating."
    ),
    "top.usage": gettext_noop("Usage: /top or /top and a game: {games}."),
    "rules.short": gettext_noop(
        "Short nardy (backgammon): 15 checkers each, moving in opposite directions. Hitting a lone checker "
        "sends it to the bar; it must re-enter before anything else moves. Bring all checkers home, then bear "
        "them off. A single win counts 1, a gammon (the loser has borne off none) 2, a backgammon (none borne off "
        "and a checker still on the bar or in the winner's home board) 3. The doubling cube may be offered before "
        "rolling."
    ),
    "rules.long": gettext_noop(
        "Long nardy: 15 checkers each start on the head and move the same way round the board. No hitting: a "
        "point with one checker is taken. Only one checker leaves the head per turn (except 6-6, 4-4, 3-3 on "
        "the first turn). You may not build six points in a row unless an opponent checker is ahead of them. "
        "Bring all home, then bear off. A win counts 1 (oin) when the loser has borne off a checker, 2 (mars) when "
        "it has borne off none; there is no koks. No doubling cube unless the chat turns it on (/settings)."
    ),
    "rules.nackgammon": gettext_noop(
        "Nackgammon: short nardy (backgammon) with another start: 2 checkers on your 24-point, 2 on the 23, 4 on "
        "the 13, 3 on the 8 and 4 on the 6. Everything else as in short nardy: hitting, the bar, bearing off, a "
        "gammon counts 2, a backgammon 3, and the doubling cube."
    ),
    "rules.hypergammon": gettext_noop(
        "Hypergammon: short nardy with only 3 checkers each, starting on your 24, 23 and 22 points. Hitting, the "
        "bar, bearing off and the doubling cube as in short nardy. Every win counts 1 point (times the cube): "
        "there are no gammons or backgammons."
    ),
    "rules.portes": gettext_noop(
        "Portes (the first game of Greek tavli): moves as in short nardy, with the same start, hitting, the bar "
        "and bearing off. There is no doubling cube, and the winner of the opening roll rolls both dice afresh. "
        "A win counts 1, a gammon (the loser has borne off nothing) 2; there is no backgammon."
    ),
    "rules.misere": gettext_noop(
        "Misère (backgammon to lose): the start and the moves of short nardy, but the aim is reversed. Whoever "
        "bears off all their checkers first loses, and the other side wins 1 point (times the cube; no gammons). "
        "If the player who moved first in the game finishes first, the other gets one more turn: bearing off "
        "all the remaining checkers in it makes the game a draw."
    ),
    "rules.plakoto": gettext_noop(
        "Plakoto (the second game of tavli): all 15 checkers start on your 24 and move as in short nardy, but "
        "nobody hits. A checker landing on a lone opposing checker pins it: the pinned checker stays under it "
        "and cannot move until every pinning checker has left. Two checkers close a point. Bear off once all 15 "
        "are home and none is pinned. The last checker on your 24 is the mother: if it is pinned there you lose "
        "2 at once, unless the pinner still has checkers on its own 24; both mothers pinned is a draw. No cube; "
        "a win counts 1, a gammon 2."
    ),
    "rules.fevga": gettext_noop(
        "Fevga (the third game of tavli): the start and the direction of long nardy, no hitting, and one "
        "checker holds a point. No second checker may leave your 24 until the first has passed the opponent's "
        "start (your 12). You may never hold all six points of your starting quarter at once, and a six-point "
        "prime is allowed only while an opponent checker is ahead of it. No cube; a win counts 1, a gammon 2."
    ),
    "rules.gulbara": gettext_noop(
        "Gul bara («бешеный гюльбар»): long nardy in everything but doubles. After each player's first three "
        "turns a double d-d is played as four d, then four d+1 and so on up to four 6. The first number you "
        "cannot play all four of ends your part, and the unplayed moves pass to your opponent, who plays as many "
        "of them as it can, in order, before rolling for its own turn."
    ),
    "rules.acey_deucey": gettext_noop(
        "Acey-deucey: all 15 checkers start off the board and enter as from the bar (a 5 enters on your 20); "
        "you may move entered checkers before all are in. Hits and the bar as in short nardy; bear off once all "
        "15 are home. A roll of 1-2: play it, then name any double and play it, then roll again; the bonus ends "
        "when a part cannot be played in full. No cube by default; single 1, gammon 2, backgammon 3."
    ),
    "rules.dutch": gettext_noop(
        "Dutch backgammon: short nardy with all 15 checkers starting off the board and entering as from the bar. "
        "Nobody may hit before having a checker in their home board. Cube, gammons and backgammons as in short "
        "nardy."
    ),
    "rules.tavli": gettext_noop(
        "Tavli: a match (to 7 points unless you ask for 3 or 5: /new tavli match 5) whose games rotate Portes, "
        "Plakoto and Fevga, in that order. The winner of a game rolls first in the next; a drawn Plakoto scores "
        "nothing and the rotation goes on. No cube."
    ),
    "rules.mixed": gettext_noop(
        "Mixed match: one game each of hypergammon, long nardy and short nardy, each scored by its own rules; "
        "the higher score wins, and while the score is level a game of hypergammon decides."
    ),
    "rules.more": gettext_noop("Other games: {commands}."),
    "dice.1-1": pgettext_noop("dice name", "1-1"),
    "dice.2-1": pgettext_noop("dice name", "2-1"),
    "dice.2-2": pgettext_noop("dice name", "2-2"),
    "dice.3-1": pgettext_noop("dice name", "3-1"),
    "dice.3-2": pgettext_noop("dice name", "3-2"),
    "dice.3-3": pgettext_noop("dice name", "3-3"),
    "dice.4-1": pgettext_noop("dice name", "4-1"),
    "dice.4-2": pgettext_noop("dice name", "4-2"),
    "dice.4-3": pgettext_noop("dice name", "4-3"),
    "dice.4-4": pgettext_noop("dice name", "4-4"),
    "dice.5-1": pgettext_noop("dice name", "5-1"),
    "dice.5-2": pgettext_noop("dice name", "5-2"),
    "dice.5-3": pgettext_noop("dice name", "5-3"),
    "dice.5-4": pgettext_noop("dice name", "5-4"),
    "dice.5-5": pgettext_noop("dice name", "5-5"),
    "dice.6-1": pgettext_noop("dice name", "6-1"),
    "dice.6-2": pgettext_noop("dice name", "6-2"),
    "dice.6-3": pgettext_noop("dice name", "6-3"),
    "dice.6-4": pgettext_noop("dice name", "6-4"),
    "dice.6-5": pgettext_noop("dice name", "6-5"),
    "dice.6-6": pgettext_noop("dice name", "6-6"),
    "board.pips": gettext_noop("pips"),
    "board.to_move": gettext_noop("to move"),
    "board.match": gettext_noop("Match to {length}"),
    "board.crawford": gettext_noop("Crawford"),
    "table.number": pgettext_noop("table header", "#"),
    "table.player": pgettext_noop("table header", "Player"),
    "table.points": pgettext_noop("table header", "Pts"),
    "table.sb": pgettext_noop("table header", "SB"),
    "table.diff": pgettext_noop("table header", "+/−"),
    "table.place": pgettext_noop("table header", "Place"),
    "table.rating": pgettext_noop("table header", "Rating"),
    "table.cut1": pgettext_noop("table header", "BH−1"),
    "table.buchholz": pgettext_noop("table header", "BH"),
    "table.round": pgettext_noop("table header", "Round"),
    "table.status": pgettext_noop("table header", "Status"),
    "table.in_play": pgettext_noop("table header", "in play"),
    "table.out": pgettext_noop("table header", "out"),
    "table.played": pgettext_noop("table header", "Pl"),
    "table.wins": pgettext_noop("table header", "W"),
    "table.draws": pgettext_noop("table header", "D"),
    "table.losses": pgettext_noop("table header", "L"),
    "table.matches": pgettext_noop("table header", "Matches"),
    "table.legend_swiss": pgettext_noop(
        "table legend",
        "BH−1: Buchholz without the weakest opponent · BH: Buchholz, the opponents' points added up · "
        "SB: Sonneborn–Berger, the points of the opponents beaten and half of those drawn with",
    ),
    "table.legend_round_robin": pgettext_noop(
        "table legend",
        "SB: Sonneborn–Berger, the points of the opponents beaten and half of those drawn with · "
        "+/−: game points won minus lost",
    ),
    "table.undecided": pgettext_noop("table cell", "—"),
    "board.text.legend": gettext_noop("X: {mover} · O: {other}"),
    "media.notice": gettext_noop(
        "🖼 The bot may not send pictures in this chat, so boards, standings and brackets come here as text. To get "
        "the pictures back, an admin can allow members to send photos (the group's Permissions → Send media → "
        "Photos) or make the bot an admin. Pictures then come back within an hour."
    ),
    "tour.text.champion": gettext_noop("🏆 Champion: {name}"),
    "tour.text.score": gettext_noop("{first}–{second}"),
    **TOURNAMENT_TEXTS,
    **ARENA_TEXTS,
    **FAIRNESS_TEXTS,
    **LOBBY_TEXTS,
    **WEBAPP_TEXTS,
}
"""Every text key of :func:`tr` and its English message id; the translations are in the catalogues alone."""


class Html(str):
    """A string that is already Telegram HTML: :func:`tr` inserts it unescaped."""

    __slots__ = ()


def number(lang: str | None, value: float | str) -> str:
    """Return the number ``value`` as ``lang`` writes it: a whole number plain, a fraction with the language's
    decimal mark (ru «1,5», en «1.5»); a text that is no number comes back as it is."""
    try:
        figure = float(value)
    except ValueError:
        return str(value)
    text = str(int(figure)) if figure.is_integer() else repr(figure)
    return text.replace(".", ",") if norm_lang(lang) == "ru" else text


def code(value: object) -> Html:
    """Return ``value`` escaped in a ``<code>`` element (shown monospaced; a tap copies it)."""
    return Html(f"<code>{esc(value)}</code>")


def esc(value: object) -> Html:
    """Return ``value`` as Telegram HTML: an :class:`Html` value as it is, anything else as escaped text
    (``<``, ``>`` and ``&`` replaced by entities; quotes need no escaping outside tags)."""
    if isinstance(value, Html):
        return value
    return Html(html.escape(str(value), quote=False))


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


@cache
def _default_i18n() -> I18n:
    """Return the bot's catalogues, for texts made outside a handler (background board syncs, the sweeper), so a
    text reads the same wherever it is made."""
    return create_i18n()


def translate(lang: str | None, message: Message, values: dict[str, object] | None = None) -> str:
    """Return ``message`` translated into ``lang`` (unformatted): the plural form the count in ``values`` asks for
    (a whole number, also written as a string such as ``"2"``; any other value, a fraction included, takes the
    form of 2), the context's translation for a
    :class:`~bot.i18n.Contextual`. A message missing from the catalogue comes back as its English msgid (the
    catalogue test makes sure none is missing)."""
    code = norm_lang(lang)
    i18n = I18n.get_current(no_error=True) or _default_i18n()
    catalogue: gettext.NullTranslations = (
        i18n.locales.get(code) or _default_i18n().locales.get(code) or gettext.NullTranslations()
    )
    if isinstance(message, Plural):
        n = _plural_number((values or {}).get(message.quantity))
        return catalogue.ngettext(message.singular, message.plural, n)
    if isinstance(message, Contextual):
        return catalogue.pgettext(message.context, message.message)
    return catalogue.gettext(message)


def _plural_number(value: object) -> int:
    """Return the whole number ``value`` stands for (``3``, ``3.0``, ``"3"``), else 2 (a fraction takes the form of
    2 in both languages: "1.5 points")."""
    if isinstance(value, bool):
        return 2
    if isinstance(value, int):
        return value
    try:
        number = float(str(value))
    except ValueError:
        return 2
    return int(number) if number.is_integer() else 2


def tr(lang: str | None, key: str, **kwargs: object) -> Html:
    """Return the text ``key`` in ``lang`` as Telegram HTML, formatted with ``kwargs``; unknown keys are returned
    as they are (escaped).

    Every value is escaped (:func:`esc`) unless it is :class:`Html` (e.g. another ``tr`` result), so user strings
    (names, typed moves) can never inject markup. A text whose placeholders do not match ``kwargs`` is returned
    unformatted.
    """
    message = TEXTS.get(key)
    if message is None:
        return esc(key)
    text = translate(lang, message, kwargs)
    values = {name: esc(value) for name, value in kwargs.items()}
    try:
        return Html(text.format(**values))
    except (KeyError, IndexError, ValueError):
        return Html(text)


ILLEGAL_MOVE_CODES: Final[tuple[str, ...]] = ENGINE_ILLEGAL_MOVE_CODES
"""The ``code`` attribute values of the engine's illegal-move errors: each has its own explanation."""


def illegal_move_text(lang: str | None, error: Exception) -> Html:
    """Return why a typed move was refused, in ``lang`` (Telegram HTML, no engine wording, no position id): the
    explanation of ``getattr(error, "code", "generic")``, the generic one for a missing or unknown code."""
    code = getattr(error, "code", None)
    if not isinstance(code, str) or code not in ILLEGAL_MOVE_CODES:
        code = "generic"
    return tr(lang, f"illegal.{code}")


def dice_name(lang: str | None, d1: int, d2: int) -> str | None:
    """Return the traditional name of the roll ``d1``-``d2`` in ``lang`` (``шеш-беш`` for 6-5 in Russian), or None
    where the language has none (English; 1-1 in Russian): the catalogue then keeps the plain ``6-5``."""
    high, low = max(d1, d2), min(d1, d2)
    plain = f"{high}-{low}"
    name = html.unescape(tr(lang, f"dice.{plain}")) if has_text(f"dice.{plain}") else plain
    return None if name == plain else name


def board_labels(lang: str | None) -> BoardLabels:
    """Return the captions a board picture draws, in ``lang`` (the match line's length stays a ``{length}`` field for
    the renderer to fill)."""
    return BoardLabels(
        pips=tr(lang, "board.pips"),
        to_move=tr(lang, "board.to_move"),
        match=html.unescape(tr(lang, "board.match", length="{length}")),
        crawford=html.unescape(tr(lang, "board.crawford")),
    )


def board_title(lang: str | None, variant: str) -> str:
    """Return the title printed on the felt of a ``variant`` board (the variant's button name), in ``lang``; the
    renderer prints none for the two main games."""
    return html.unescape(tr(lang, f"btn.{variant}"))


def table_labels(lang: str | None) -> TableLabels:
    """Return the headers and cell words of a table picture (standings, leaderboard), in ``lang``."""
    return TableLabels(**{field: html.unescape(tr(lang, f"table.{field}")) for field in TABLE_FIELDS})


TABLE_FIELDS: Final[tuple[str, ...]] = tuple(fields.name for fields in dataclasses.fields(TableLabels))
"""The words of :class:`rendering.standings.TableLabels`, each a ``table.*`` text."""


def msgid(message: Message) -> str:
    """Return the English text of ``message`` (its singular for a :class:`~bot.i18n.Plural`)."""
    if isinstance(message, Plural):
        return message.singular
    if isinstance(message, Contextual):
        return message.message
    return message


def has_text(key: str) -> bool:
    """Return whether ``key`` is a known text key."""
    return key in TEXTS
