"""The Mini App's view of a game: what one viewer may see of a stored game, typed and ready for JSON.

:func:`build_view` turns a record and its match into a :class:`GameView` for a viewer (a player, or a spectator):
the position in the viewer's frame (the same sides, frames and marks the Pillow board is drawn from,
:func:`bot.services.boards.render_photo`), the dice, cube, score, the turn being built, the last move, the caption
the chat shows, and — only for the player whose action is awaited — the actions the board's keyboard offers that
player (:func:`bot.services.boards.board_keyboard`, read back from its buttons: the rules are never re-derived
here). A spectator sees what the chat's board shows, and no actions. :class:`GameViews` loads games for it.

A view depends only on the version, the viewer's side (a player's, or none for a spectator) and the language
(:data:`ViewKey`), so :class:`VersionViews` builds each distinct view of a version once, however many viewers ask:
the live sockets of one process share them (:mod:`bot.services.live`).
"""

from __future__ import annotations

import dataclasses
import html
import logging
import re
import time
from collections.abc import Callable
from typing import Any, Final, Literal

from bot.keyboards.callbacks import GameCb
from bot.model.actions import StepAction, parse_action
from bot.model.clock import GameClock
from bot.model.game import GameRecord, RecordError
from bot.outage import Outage
from bot.services.boards import board_keyboard
from bot.services.captions import caption
from bot.services.engine_flow import DiceFactory, drawn_position, load_match
from bot.services.fresh_reads import FreshReads
from bot.storage import GameRecords, StoredGame
from bot.storage.errors import StoreUnavailableError
from bot.texts import tr
from nardy import Match, NardyError, Phase, Position
from nardy.cube import next_cube_value
from rendering.frames import other_frame, variant_info

log = logging.getLogger(__name__)

Awaited = Literal["roll", "double", "move", "choose", "take", "resignation", "none"]
Place = int | Literal["bar", "off", "reserve"]

LABEL_KEYS: Final = (
    "btn.roll",
    "btn.take",
    "btn.pass",
    "btn.beaver",
    "btn.raccoon",
    "btn.undo",
    "btn.confirm",
    "btn.accept",
    "btn.decline",
    "btn.rematch",
    "btn.resign_menu",
    "webapp.you",
    "webapp.spectator",
    "webapp.computer",
    "webapp.your_turn",
    "webapp.waiting",
    "board.pips",
    "webapp.clock.delay",
    "webapp.clock.flag",
    "webapp.clock.first",
)
"""The catalogue texts the app shows, sent in the view's ``texts`` (by key, in the viewer's language)."""

_TAGS: Final = re.compile(r"<[^>]+>")


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerView:
    """A player as the app shows it: ``side`` 0 (white, the challenger) or 1."""

    side: int
    name: str
    computer: bool


@dataclasses.dataclass(frozen=True, slots=True)
class PointView:
    """One occupied point in the viewer's frame (1..24, 1 the viewer's first point): ``owner``'s ``count``
    checkers; ``pinned``: the side of a pinned checker under them (Plakoto), else None."""

    point: int
    owner: int
    count: int
    pinned: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class StepView:
    """A checker step: ``src``/``dst``/``die`` in the mover's frame, as the engine and the buttons write them
    (25 = bar, 26 = the reserve, 0 = off); ``origin``/``target`` the same places on the viewer's board."""

    src: int
    dst: int
    die: int
    hit: bool
    origin: Place
    target: Place


@dataclasses.dataclass(frozen=True, slots=True)
class ActionView:
    """An action the viewer may take now: ``action`` is the exact string to send (a button's action), ``label``
    the button's text; ``step`` is set for a checker step."""

    action: str
    label: str
    step: StepView | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class CubeView:
    """The doubling cube: ``value``, ``owner`` (None: centred), ``offered`` (a double awaits an answer),
    ``enabled`` (the cube is in play in this game)."""

    value: int
    owner: int | None
    offered: bool
    enabled: bool


@dataclasses.dataclass(frozen=True, slots=True)
class ClockView:
    """The game's clock at the server's time ``now`` (unix seconds; the page corrects its own clock by it):
    ``left`` each side's reserve then (the running action's delay not counted), ``delay`` the seconds free per
    action, ``control`` the time control as typed (``12+1``); ``running`` the side whose clock runs (None: stopped),
    ``started`` when its action began and ``deadline`` when its time runs out (both None when stopped); ``flag`` the
    side that lost on time, else None; ``first``: the running action is its player's first of the session, timed
    by the first-move window (``deadline`` ends it; the reserve is untouched). A clock waiting for its board to
    reach its player shows as stopped."""

    control: str
    delay: float
    left: tuple[float, float]
    running: int | None
    started: float | None
    deadline: float | None
    now: float
    flag: int | None
    first: bool = False


def clock_view(clock: GameClock, now: float) -> ClockView:
    """Return the view of ``clock`` at the server's time ``now``."""
    running = clock.running if clock.started is not None else None
    return ClockView(
        control=clock.control.label,
        delay=clock.delay if running is None else clock.delay_of(running),
        left=(clock.left(0, now), clock.left(1, now)),
        running=running,
        started=clock.started if running is not None else None,
        deadline=clock.deadline(),
        now=now,
        flag=clock.flag,
        first=running is not None and clock.opening,
    )


@dataclasses.dataclass(frozen=True, slots=True)
class GameView:
    """What one viewer sees of a game (see the module docstring); :meth:`to_json` gives the API's JSON."""

    game_id: str
    version: int
    variant: str
    title: str
    board: Literal["short", "long"]
    layout: str
    players: tuple[PlayerView, PlayerView]
    you: int | None
    bottom: int
    phase: str
    turn: int | None
    awaited: Awaited
    points: tuple[PointView, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    pips: tuple[int, int]
    reserve: tuple[int, int] | None
    dice: tuple[int, int] | None
    used_dice: tuple[int, ...]
    cube: CubeView
    score: tuple[float, float]
    match_length: int
    crawford: bool
    pending: tuple[StepView, ...]
    last_move: tuple[StepView, ...]
    last_mover: int | None
    actions: tuple[ActionView, ...]
    finished: bool
    result: dict[str, Any] | None
    caption: str
    texts: dict[str, str]
    clock: ClockView | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the view as a JSON-ready dict."""
        return dataclasses.asdict(self)


def _plain(text: str) -> str:
    """Return Telegram HTML as plain text (tags dropped, entities read)."""
    return html.unescape(_TAGS.sub("", text))


def _place(point: int, owner: int, bottom: int, board: Literal["short", "long"], *, source: bool) -> Place:
    """Return where a step's point (in ``owner``'s frame) is on the board seen from ``bottom``."""
    if point == 25 and source:
        return "bar"
    if point == 26 and source:
        return "reserve"
    if point == 0 and not source:
        return "off"
    return point if owner == bottom else other_frame(point, board)


def _step_view(
    src: int, dst: int, die: int, hit: bool, owner: int, bottom: int, board: Literal["short", "long"]
) -> StepView:
    return StepView(
        src,
        dst,
        die,
        hit,
        _place(src, owner, bottom, board, source=True),
        _place(dst, owner, bottom, board, source=False),
    )


def _awaited(match: Match) -> Awaited:
    game = match.game
    return {
        Phase.ROLL: "roll",
        Phase.MOVE: "move",
        Phase.CHOOSE: "choose",
        Phase.DOUBLED: "take",
        Phase.RESIGN: "resignation",
    }.get(game.phase, "none")  # type: ignore[return-value]


def _actions(
    record: GameRecord, match: Match, game_id: str, version: int, lang: str, you: int, bottom: int, board: Any
) -> tuple[ActionView, ...]:
    """Return the actions the board's keyboard offers ``you`` now (none when another player is awaited), and the
    resignation levels while the game is played."""
    game = match.game
    found: list[ActionView] = []
    if game.phase is not Phase.OVER and game.turn == you and not record.players[you].ai:
        keyboard = board_keyboard(record, match, game_id, version, lang, group=False)
        for row in keyboard.inline_keyboard if keyboard else []:
            for button in row:
                data = button.callback_data or ""
                if not data.startswith(GameCb.__prefix__ + GameCb.__separator__):
                    continue
                packed = GameCb.unpack(data).action
                action = parse_action(packed)
                step = None
                if isinstance(action, StepAction):
                    hit = any(action.matches(s) and s.hit for s in game.plan().next_steps(list(record.pending_steps)))
                    step = _step_view(action.src, action.dst, action.die, hit, game.roller, bottom, board)
                found.append(ActionView(packed, _plain(button.text), step))
    if game.phase not in (Phase.OVER, Phase.RESIGN, Phase.OPENING):
        for level in game.resign_levels():
            found.append(
                ActionView(f"rs{you}-{level}", _plain(tr(lang, "btn.resign", level=tr(lang, f"kind.{level}"))))
            )
    return tuple(found)


def build_view(
    stored: StoredGame, record: GameRecord, match: Match, user_id: int | None, lang: str, now: float | None = None
) -> GameView:
    """Return the view of the game for the user ``user_id`` (a player sees its own side at the bottom and, on its
    turn, its actions; anyone else, None included, is a spectator who sees the board from the side to move, as a
    group's board shows it) with the texts in ``lang``; a game on a clock carries the clock at the server's time
    ``now`` (default: the system's time). Raises: ValueError for a record the renderer would refuse
    too (an unknown variant)."""
    you = record.player_index(user_id) if user_id is not None else None
    return _build_view(stored, record, match, you, lang, time.time() if now is None else now)


def _build_view(
    stored: StoredGame, record: GameRecord, match: Match, you: int | None, lang: str, now: float
) -> GameView:
    """Return the view of the game for the player ``you`` (None: a spectator); see :func:`build_view`."""
    game = match.game
    mover = game.roller
    bottom = you if you is not None else mover
    info = variant_info(game.variant)
    board = info.board
    drawn = drawn_position(record, match)  # the pending steps played out, as every board draws them
    sides = (drawn.me, drawn.opp) if mover == 0 else (drawn.opp, drawn.me)
    points: list[PointView] = []
    pinned: dict[int, int] = {}
    for owner in (0, 1):
        side = sides[owner]
        for index in range(24):
            where = index + 1 if owner == bottom else other_frame(index + 1, board)
            if side[index]:
                points.append(PointView(where, owner, side[index]))
            if info.layout == "pinned" and side[25 + index]:
                pinned[where] = owner
    points = [dataclasses.replace(p, pinned=pinned.get(p.point)) for p in points]
    points.sort(key=lambda p: p.point)
    checkers = info.checkers
    off = tuple(
        checkers - sum(sides[o][:24]) - sides[o][24] - (sides[o][25] if info.layout == "reserve" else 0) for o in (0, 1)
    )
    pending = list(record.pending_steps)
    in_move = game.phase is Phase.MOVE
    pending_views = tuple(_step_view(s.src, s.dst, s.die, s.hit, mover, bottom, board) for s in pending)
    last: tuple[StepView, ...] = ()
    if not pending and game.last_move is not None and game.last_mover is not None:
        last = tuple(
            _step_view(s.src, s.dst, s.die, s.hit, game.last_mover, bottom, board) for s in game.last_move.steps
        )
    finished = stored.finished or game.phase is Phase.OVER
    result = game.result.to_dict() if game.result is not None and game.phase is Phase.OVER else None
    actions = (
        _actions(record, match, stored.game_id, stored.version, lang, you, bottom, board) if you is not None else ()
    )
    names = [p.name for p in record.players]
    texts = {key: _plain(tr(lang, key)) for key in LABEL_KEYS}
    texts["btn.double"] = _plain(tr(lang, "btn.double", value=next_cube_value(game.cube_value, game.options)))
    return GameView(
        game_id=stored.game_id,
        version=stored.version,
        variant=game.variant.name,
        title=_plain(tr(lang, f"variant.{game.variant.name}")),
        board=board,
        layout=info.layout,
        players=(
            PlayerView(0, names[0], bool(record.players[0].ai)),
            PlayerView(1, names[1], bool(record.players[1].ai)),
        ),
        you=you,
        bottom=bottom,
        phase=game.phase.value,
        turn=None if finished else game.turn,
        awaited="none" if finished else _awaited(match),
        points=tuple(points),
        bar=(sides[0][24], sides[1][24]),
        off=(off[0], off[1]),
        pips=Position(sides[0], sides[1]).pips(),  # the engine's count, as the Pillow board's strips show it
        reserve=(sides[0][25], sides[1][25]) if info.layout == "reserve" else None,
        dice=game.dice if in_move else None,
        used_dice=tuple(s.die for s in pending),
        cube=CubeView(game.cube_value, game.cube_owner, game.phase is Phase.DOUBLED, game.cube_enabled),
        score=(float(match.score[0]), float(match.score[1])),
        match_length=match.length,
        crawford=bool(game.crawford),
        pending=pending_views,
        last_move=last,
        last_mover=game.last_mover if last else None,
        actions=actions,
        finished=finished,
        result=result,
        caption=_plain(caption(record, match, lang, stored.game_id)),
        texts=texts,
        clock=None if record.clock is None else clock_view(record.clock, now),
    )


ViewKey = tuple[int | None, str]
"""What a view of one version depends on: the viewer's side (None: a spectator) and the language of its texts."""


class ViewsUnavailableError(Exception):
    """The store cannot be reached: the game cannot be shown now (try again later)."""


class VersionViews:
    """One stored version of a game, read once, and its views: each distinct view (:data:`ViewKey`) is built once,
    however many viewers ask for it (the spectators of a language, a player in a language)."""

    def __init__(self, stored: StoredGame, record: GameRecord, match: Match, now: float) -> None:
        """The version ``stored``, its ``record`` and ``match``; the clocks are shown at the server's time ``now``."""
        self.stored = stored
        self.record = record
        self.match = match
        self.now = now
        self._views: dict[ViewKey, GameView | None] = {}

    @property
    def version(self) -> int:
        """The version read."""
        return self.stored.version

    def key(self, user_id: int | None, lang: str) -> ViewKey:
        """Return the view ``user_id`` gets with texts in ``lang`` (a player gets its own language's, if it set one)."""
        record = self.record
        index = record.player_index(user_id) if user_id is not None else None
        if index is not None:
            lang = record.players[index].lang or lang
        return index, lang

    def view(self, key: ViewKey) -> GameView | None:
        """Return the view of ``key`` (built the first time it is asked for), or None when the game cannot be shown
        (logged once)."""
        if key not in self._views:
            try:
                self._views[key] = _build_view(self.stored, self.record, self.match, key[0], key[1], self.now)
            except (RecordError, NardyError, ValueError, KeyError):
                log.exception("game %s cannot be shown in the Mini App", self.stored.game_id)
                self._views[key] = None
        return self._views[key]


class GameViews:
    """Loads games for the Mini App and builds each viewer's :class:`GameView`."""

    def __init__(self, store: GameRecords, dice: DiceFactory, now: Callable[[], float] = time.time) -> None:
        """Read games from ``store``; rebuild matches with the dice factory ``dice`` (no die is rolled here); read
        the server's time for the clocks from ``now``."""
        self.store = store
        self.dice = dice
        self.now = now
        self.outage = Outage("the Mini App's live views", log, needs="the store")
        self.fresh: FreshReads[str, VersionViews | None] = FreshReads(lambda game_id: self.load(game_id))

    async def read(self, game_id: str) -> VersionViews | None:
        """Return the game's stored version ready to be viewed, or None when there is no such game (or it is
        quarantined or cannot be read). Raises: StoreUnavailableError."""
        stored = await self.store.get_game(game_id)
        if stored is None or stored.quarantined:
            return None
        try:
            record = GameRecord.from_stored(stored)
            match = load_match(record, game_id, self.dice)
        except (RecordError, NardyError, ValueError, KeyError):
            log.exception("game %s cannot be shown in the Mini App", game_id)
            return None
        return VersionViews(stored, record, match, self.now())

    async def load(self, game_id: str) -> VersionViews | None:
        """Return the game's stored version ready to be viewed (:class:`VersionViews`: each distinct view built
        once), or None when there is no such game (or it is quarantined or cannot be read). Raises:
        ViewsUnavailableError while the store cannot be reached (one WARNING per outage, one INFO when it is back,
        no traceback)."""
        try:
            loaded = await self.read(game_id)
        except StoreUnavailableError as error:
            self.outage.failed(error)
            raise ViewsUnavailableError(str(error)) from None
        self.outage.succeeded()
        return loaded

    async def load_fresh(self, game_id: str) -> VersionViews | None:
        """Return what :meth:`load` returns, from a read that started after this call, shared with every caller that
        asks for the game meanwhile (:class:`~bot.services.fresh_reads.FreshReads`: a burst of sockets opening on a
        game reads it and builds each distinct view once). Raises: ViewsUnavailableError."""
        return await self.fresh.read(game_id)

    async def version(self, game_id: str) -> int | None:
        """Return the stored version of the game, or None when there is none. Raises: StoreUnavailableError."""
        stored = await self.store.get_game(game_id)
        return None if stored is None or stored.quarantined else stored.version
