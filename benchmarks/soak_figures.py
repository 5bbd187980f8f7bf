"""The figures of a soak run (``benchmarks/soak.py``), computed after the run from what Telegram's side saw (the
fake Bot API's calls and message changes, the presses and typed moves), the games saved in Redis, the journal of
every saved version (:mod:`soak_journal`) and the workers' logs. How each figure is made is said at its function.
"""

from __future__ import annotations

import bisect
import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from soak_journal import Journal
from soak_processes import Life
from soak_traffic import Press, TypedMove

from bot.keyboards.callbacks import GameCb, parse_callback
from bot.middlewares.errors import APOLOGY, UNAVAILABLE
from bot.model.actions import GameCommand
from bot.model.game import GameRecord, RecordError
from bot.services.boards import chat_lang, keyboard_in_chat
from bot.services.captions import caption
from bot.services.computer import computer_to_act
from bot.services.engine_flow import load_match, system_dice
from bot.storage import StoredGame
from bot.texts import tr
from nardy import NardyError
from tests.bot.fake_bot_api_server import Call, FakeBotApiServer, MessageChange

FAULT_TAIL = 10.0
"""Seconds after a fault's end that still belong to its fault window."""
BUDGET_WINDOW = 60.0
"""Seconds of the sliding window the sends and edits of a group are counted in."""
GROUP_LIMIT = 20
"""Telegram's limit of sends and edits in one group per minute (about)."""
COUNTED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendMediaGroup",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
    }
)
SHOWING_METHODS = frozenset({"sendPhoto", "sendMediaGroup", "editMessageMedia", "editMessageCaption"})
"""Changes that put a (new) picture or caption of a board on a message."""
UNCERTAIN_TEXTS = frozenset({tr("en", UNAVAILABLE), tr("en", APOLOGY), UNAVAILABLE, APOLOGY})
"""Answers after which a save may or may not have happened (the store failed under the action)."""
NO_SAVE_ACTIONS = frozenset({GameCommand.CHOOSE_BOARD.value, GameCommand.CHOOSE_RESIGN.value})
"""Game buttons that are taken without a save ("which game?" choices: they show a board or a menu)."""
LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (\w+) ([\w.]+): (.*)$")
MASK = re.compile(r"(?<=game )[A-Za-z0-9_-]{10}|\d+(\.\d+)?")
"""What differs between two log records of the same kind: game ids and numbers."""


@dataclass(frozen=True)
class Window:
    """A fault's window: from its start to :data:`FAULT_TAIL` seconds after its end (monotonic seconds)."""

    kind: str
    start: float
    end: float

    def holds(self, moment: float) -> bool:
        """Return whether ``moment`` is in the window."""
        return self.start <= moment <= self.end + FAULT_TAIL


def in_windows(windows: Iterable[Window], moment: float) -> bool:
    """Return whether ``moment`` is in any of the windows."""
    return any(w.holds(moment) for w in windows)


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0..1) of ``values`` by nearest rank, or NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


# ---- presses and typed moves --------------------------------------------------------------------------------------
@dataclass
class Verdicts:
    """What became of the presses and typed moves (see :func:`judge`)."""

    accepted: list[Press] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    uncertain: list[Press] = field(default_factory=list)
    unanswered: list[Press] = field(default_factory=list)
    typed_accepted: list[TypedMove] = field(default_factory=list)
    typed_refused: int = 0
    typed_uncertain: list[TypedMove] = field(default_factory=list)
    latency_calm: list[float] = field(default_factory=list)
    latency_fault: list[float] = field(default_factory=list)


def _answers(api: FakeBotApiServer) -> dict[str, list[Call]]:
    found: dict[str, list[Call]] = defaultdict(list)
    for call in api.calls:
        if call.method == "answerCallbackQuery":
            found[str(call.fields.get("callback_query_id"))].append(call)
    return found


def judge(api: FakeBotApiServer, presses: list[Press], typed: list[TypedMove], windows: list[Window]) -> Verdicts:
    """Return what became of every game press (``g:`` buttons) and typed move.

    A press was *accepted* when one of its answers carries no text (the handler answers with no toast exactly when
    the action was saved). It is *uncertain* — it may have been saved once or not at all — when it was not accepted
    and a delivery attempt broke after reaching a worker (the worker died or hung), it was never delivered, it got
    no answer, or its answer says the store failed under it. Otherwise it was refused (the toast says why). A typed
    move was accepted when a worker answered the update 200 and no reply to it appeared (the handler replies to
    every refusal, and the worker answers the webhook only once that reply was sent), uncertain on a broken
    delivery or a reply saying the store failed, else refused (a typed move the throttle dropped without a word
    would pass for accepted: the people type far below its rate). Latency: delivery of the press → its first answer
    at the fake, split by whether the press was sent in a fault window.
    """
    verdicts = Verdicts()
    answers = _answers(api)
    replies: dict[tuple[int, int], list[str]] = defaultdict(list)
    for change in api.changes:
        if change.method == "sendMessage" and change.reply_to is not None:
            replies[change.chat_id, change.reply_to].append(change.text or "")
    for press in presses:
        if press.game is None:
            continue
        calls = answers.get(press.query_id, [])
        texts = [str(c.fields.get("text") or "") for c in calls]
        if calls:
            latency = calls[0].at - press.sent
            (verdicts.latency_fault if in_windows(windows, press.sent) else verdicts.latency_calm).append(latency)
        else:
            verdicts.unanswered.append(press)
        if "" in texts:
            verdicts.accepted.append(press)
        elif press.delivery.uncertain or not texts or any(t in UNCERTAIN_TEXTS for t in texts):
            verdicts.uncertain.append(press)
        else:
            verdicts.refused[texts[0]] += 1
    for move in typed:
        said = replies.get((move.chat_id, move.message_id), [])
        if move.delivery.uncertain or any(t in UNCERTAIN_TEXTS for t in said):
            verdicts.typed_uncertain.append(move)
        elif said:
            verdicts.typed_refused += 1
        else:
            verdicts.typed_accepted.append(move)
    return verdicts


# ---- lost and double actions ---------------------------------------------------------------------------------------
@dataclass
class Ledger:
    """Accepted actions against saved versions (see :func:`reconcile`)."""

    person_saves: int = 0
    computer_saves: int = 0
    lost: int = 0
    double: int = 0
    gaps: int = 0
    unreadable: int = 0
    examples: list[str] = field(default_factory=list)


def _computer_save(game_id: str, before: dict[str, Any]) -> bool:
    """Return whether the save that followed the record ``before`` was the computer's (it was to act)."""
    if not any(isinstance(p, dict) and p.get("ai") for p in before.get("players", [])):
        return False
    record = GameRecord.from_dict(before)
    if not record.against_computer:
        return False
    return computer_to_act(record, load_match(record, game_id, system_dice)) is not None


def _rematch_marks(saves: dict[int, dict[str, Any]]) -> set[int]:
    """Return the versions that marked a finished game's rematch (the save that first names the new game)."""
    return {v for v, data in saves.items() if data.get("rematch") and not saves.get(v - 1, {}).get("rematch")}


def reconcile(journal: Journal, verdicts: Verdicts) -> Ledger:
    """Return how the accepted actions compare with the versions saved.

    Every save of a game after its creation is one compare-and-set from version v to v + 1 (the journal has them
    all). A save is the computer's when the record before it awaited the computer (a person can then only resign,
    which the people of a soak run never do: their presses are refused as not their turn), else a person's. An
    accepted press carries the version v its keyboard was built for, and is accepted only after its compare-and-set
    from v succeeded: it *claims* the person's save v + 1 (a "which game?" choice saves nothing and claims none). A
    claimed version that no person's save has, or that two accepted presses claim, is a *lost* action.

    Rematch is the exception: its first press saves the new game's id in the finished game (the *mark*, one save)
    and then creates that game, and a press arriving before the creation is done creates the same game again
    (idempotently) and is accepted too, without a save of the finished game. So the accepted Rematch presses of a
    game claim its one mark and the creation of the game the mark names: a rematched game that was never created
    is one lost action, and a mark with no Rematch press accepted or uncertain is unexplained.

    The person's saves nobody claimed must be the accepted typed moves of the game (each one save), else a typed
    move was lost; what is left beyond them and the game's uncertain actions (each at most one save) is a *double*
    action (an action saved twice, or saved although it was refused).
    """
    ledger = Ledger()
    claims: dict[str, Counter[int]] = defaultdict(Counter)
    rematches: Counter[str] = Counter()
    for press in verdicts.accepted:
        action = press.data.rsplit(":", 1)[-1]
        if press.game is None or action in NO_SAVE_ACTIONS:
            continue
        if action == GameCommand.REMATCH.value:
            rematches[press.game[0]] += 1
        else:
            claims[press.game[0]][press.game[1] + 1] += 1
    typed = Counter(m.game_id for m in verdicts.typed_accepted)
    uncertain = Counter(p.game[0] for p in verdicts.uncertain if p.game is not None)
    uncertain.update(m.game_id for m in verdicts.typed_uncertain if m.game_id is not None)
    uncertain_rematches = Counter(
        p.game[0] for p in verdicts.uncertain if p.game is not None and p.data.endswith(":" + GameCommand.REMATCH.value)
    )
    for game_id in set(journal.games) | set(claims) | set(rematches):
        saves = journal.game(game_id).saves
        person = _person_saves(game_id, saves, ledger)
        ledger.person_saves += len(person)
        claimed = 0
        for version, count in claims.get(game_id, Counter()).items():
            ok = 1 if version in person else 0
            claimed += ok
            if count - ok:
                ledger.lost += count - ok
                ledger.examples.append(f"game {game_id}: {count} accepted press(es) from version {version - 1}")
        marks = _rematch_marks(saves) & person
        if rematches[game_id]:
            created = [saves[v].get("rematch") for v in sorted(marks)]
            if not created or 1 not in journal.game(str(created[0])).saves:
                ledger.lost += 1
                ledger.examples.append(f"game {game_id}: {rematches[game_id]} accepted Rematch, no game created")
        claimed += min(len(marks), rematches[game_id] + uncertain_rematches[game_id])
        left = len(person) - claimed
        lost_typed = max(0, typed[game_id] - left)
        if lost_typed:
            ledger.lost += lost_typed
            ledger.examples.append(f"game {game_id}: {lost_typed} accepted typed move(s) not saved")
        double = max(0, left - typed[game_id] - uncertain[game_id])
        if double:
            ledger.double += double
            ledger.examples.append(f"game {game_id}: {double} save(s) of a person beyond the actions accepted")
    return ledger


def _person_saves(game_id: str, saves: dict[int, dict[str, Any]], ledger: Ledger) -> set[int]:
    """Return the versions of the game saved by a person (counting the computer's saves, the gaps in the journal
    and the records that do not load in ``ledger``)."""
    person: set[int] = set()
    for version in sorted(saves):
        if version == 1:
            continue
        before = saves.get(version - 1)
        if before is None:
            ledger.gaps += 1
            person.add(version)
            continue
        try:
            computer = _computer_save(game_id, before)
        except (RecordError, NardyError, ValueError, KeyError):
            ledger.unreadable += 1
            computer = False
        if computer:
            ledger.computer_saves += 1
        else:
            person.add(version)
    return person


# ---- what the chats saw --------------------------------------------------------------------------------------------
@dataclass
class Regressions:
    """Board changes that went back in time (see :func:`regressions`)."""

    count: int = 0
    chats: set[int] = field(default_factory=set)
    games: set[str] = field(default_factory=set)
    by_keyboard: int = 0
    by_caption: int = 0
    across_workers: int = 0
    """Regressions made by another worker (life) than the change that had shown the newer version."""
    unattributed: int = 0
    examples: list[str] = field(default_factory=list)


class CaptionIndex:
    """The versions of a game that had a given caption in a given chat, from the journal (built per game when
    first asked)."""

    def __init__(self, journal: Journal) -> None:
        """Index the games of ``journal``."""
        self.journal = journal
        self._games: dict[str, dict[tuple[int, str], list[int]]] = {}

    def versions(self, game_id: str, chat_id: int, text: str | None) -> list[int]:
        """Return the saved versions of ``game_id`` whose caption in ``chat_id`` is ``text`` (sorted)."""
        if game_id not in self._games:
            index: dict[tuple[int, str], list[int]] = defaultdict(list)
            for version, data in sorted(self.journal.game(game_id).saves.items()):
                try:
                    record = GameRecord.from_dict(data)
                    match = load_match(record, game_id, system_dice)
                except (RecordError, NardyError, ValueError, KeyError):
                    continue
                for link in record.chats:
                    index[link.chat_id, caption(record, match, chat_lang(record, link), game_id)].append(version)
            self._games[game_id] = index
        return self._games[game_id].get((chat_id, text or ""), [])


def shown_versions(change: MessageChange) -> dict[str, int]:
    """Return the version each game's buttons on the message carry after ``change`` (the highest, should they
    differ)."""
    found: dict[str, int] = {}
    for data in change.callbacks:
        parsed = parse_callback(data)
        if isinstance(parsed, GameCb):
            found[parsed.game_id] = max(found.get(parsed.game_id, 0), parsed.version)
    return found


def regressions(changes: list[MessageChange], journal: Journal, captions: CaptionIndex) -> Regressions:
    """Return the board changes that showed a chat an older version of a game than one it had already been shown.

    The changes are taken in the order they took effect at the fake. A change that puts a board on a message (a
    photo sent, its media or caption edited) shows the version its game buttons carry; without buttons (a board
    of the computer's turn, or of the person who is not to act in a private chat) it shows the versions whose
    caption in that chat is the one shown (read from the journal: the version range with that very caption), for
    the game the message was recorded as the board of. A change counts as a regression when the highest version
    it may show is below the lowest version an earlier change in the same chat surely showed of the same game
    (whether the two changes were made by different workers is counted too: each worker life calls the fake under
    its own name). Removing a message's buttons (``editMessageReplyMarkup`` without a keyboard) shows nothing new
    and is skipped.
    """
    found = Regressions()
    owners = journal.message_games()
    message_game: dict[tuple[int, int], str] = {}
    shown: dict[tuple[int, str], tuple[int, MessageChange]] = {}
    for change in changes:
        key = (change.chat_id, change.message_id)
        versions = shown_versions(change)
        for game_id in versions:
            message_game[key] = game_id
        if change.method == "editMessageReplyMarkup":
            if not versions:
                continue
        elif change.method not in SHOWING_METHODS:
            continue
        spans: dict[str, tuple[int, int]] = {g: (v, v) for g, v in versions.items()}
        by_caption = False
        if not spans:
            owner = message_game.get(key) or owners.get(key)
            candidates = captions.versions(owner, change.chat_id, change.caption) if owner else []
            if owner is None or not candidates:
                found.unattributed += 1
                continue
            spans = {owner: (candidates[0], candidates[-1])}
            by_caption = True
        for game_id, (low, high) in spans.items():
            seen, before = shown.get((change.chat_id, game_id), (0, change))
            if high < seen:
                found.count += 1
                found.chats.add(change.chat_id)
                found.games.add(game_id)
                found.by_caption += by_caption
                found.by_keyboard += not by_caption
                found.across_workers += change.source != before.source
                if len(found.examples) < 5:
                    found.examples.append(
                        f"chat {change.chat_id} game {game_id}: {change.method} of message {change.message_id} by "
                        f"{change.source} shows version {low if low == high else f'{low}-{high}'} "
                        f"{(change.at - before.at) * 1000:.0f} ms after {before.method} by {before.source} showed "
                        f"version {seen}"
                    )
            if low > seen:
                shown[change.chat_id, game_id] = (low, change)
    return found


@dataclass
class Boards:
    """The boards after the settle (see :func:`boards_after_settle`)."""

    chats: int = 0
    behind: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    frozen: int = 0
    awaiting_computer: int = 0
    unfinished: int = 0
    finished: int = 0
    second_boards: int = 0
    examples: list[str] = field(default_factory=list)


def boards_after_settle(api: FakeBotApiServer, stored_games: list[StoredGame]) -> Boards:
    """Return, for every chat of every saved game, whether its board shows the saved version, and which unfinished
    games are frozen.

    A chat's board is up to date when the store's board message of that chat (its board state) shows the saved
    version, that message exists at the fake, its caption is the caption the bot renders for the saved record
    (``bot.services.captions.caption``, as ``tests/bot/e2e/test_crash_convergence.py`` checks), and its game
    buttons carry the saved version only — all of it when the chat should have buttons (``keyboard_in_chat``).
    A chat where more than one message carries buttons of the game is counted as well. An unfinished game is
    *frozen* when no message in the chats of the person to act carries a button of the saved version (that person
    cannot move without typing /board); one awaiting the computer after the settle is counted apart.
    """
    found = Boards()
    for stored in stored_games:
        try:
            record = GameRecord.from_stored(stored)
            match = load_match(record, stored.game_id, system_dice)
        except (RecordError, NardyError, ValueError, KeyError):
            found.reasons["unreadable record"] += 1
            continue
        prefix = f"g:{stored.game_id}:"
        current = f"{prefix}{stored.version}:"
        for link in record.chats:
            found.chats += 1
            state = stored.boards.get(link.chat_id)
            message = api.messages.get((link.chat_id, state.message_id)) if state and state.message_id else None
            reason = None
            detail = ""
            if state is None or state.message_id is None:
                reason = "no board recorded"
            elif state.shown_version != stored.version:
                reason = "board state behind"
            elif message is None:
                reason = "board message missing"
            elif message.caption != (expected := caption(record, match, chat_lang(record, link), stored.game_id)):
                reason = "caption of another version"
                detail = _first_difference(message.caption, expected)
            else:
                keys = [d for d in message.callbacks() if d.startswith(prefix)]
                if any(not d.startswith(current) for d in keys):
                    reason = "buttons of another version"
                elif keyboard_in_chat(record, match, link) and not keys:
                    reason = "buttons missing"
            if reason is not None:
                found.behind += 1
                found.reasons[reason] += 1
                if len(found.examples) < 5:
                    found.examples.append(
                        f"game {stored.game_id} chat {link.chat_id} v{stored.version}: {reason}{detail}"
                    )
            carrying = [
                m for m in api.chat(link.chat_id) if m.photo and any(d.startswith(prefix) for d in m.callbacks())
            ]
            found.second_boards += len(carrying) > 1
        if stored.finished:
            found.finished += 1
            continue
        found.unfinished += 1
        if computer_to_act(record, match) is not None:
            found.awaiting_computer += 1
            continue
        turn = match.game.turn
        chats = [c.chat_id for c in record.chats if c.viewer is None or c.viewer == turn]
        if not any(d.startswith(current) for chat in chats for m in api.chat(chat) for d in m.callbacks()):
            found.frozen += 1
    return found


def _first_difference(shown: str | None, expected: str) -> str:
    """Return the first line where the caption shown differs from the expected one (for the examples)."""
    lines, wanted = (shown or "").splitlines(), expected.splitlines()
    for index in range(max(len(lines), len(wanted))):
        a = lines[index] if index < len(lines) else ""
        b = wanted[index] if index < len(wanted) else ""
        if a != b:
            return f" (shows {a[:60]!r}, saved {b[:60]!r})"
    return ""


# ---- logs ----------------------------------------------------------------------------------------------------------
@dataclass
class LogFindings:
    """Tracebacks and error records in the workers' logs (see :func:`read_logs`)."""

    tracebacks: int = 0
    errors: int = 0
    in_faults: int = 0
    excluded: int = 0
    lines: int = 0
    kinds: Counter[str] = field(default_factory=Counter)


def _mask(text: str) -> str:
    return MASK.sub("#", text)[:120]


def _innermost(lines: list[str]) -> str:
    """Return the last exception line of a record's traceback (of an exception group: of its last sub-exception)."""
    for line in reversed(lines):
        text = line.strip().lstrip("|+- ").strip()
        if text and not text.startswith(("File ", "^", "~", "During handling", "The above exception")):
            return text
    return "?"


def _records(lines: list[str]) -> list[tuple[re.Match[str] | None, list[str]]]:
    """Return the log's records: each head line (None for lines before the first one) with its continuation."""
    records: list[tuple[re.Match[str] | None, list[str]]] = [(None, [])]
    for line in lines:
        head = LOG_LINE.match(line)
        if head:
            records.append((head, []))
        else:
            records[-1][1].append(line)
    return records


def read_logs(lives: list[Life], windows: list[Window], wall_offset: float) -> LogFindings:
    """Return the tracebacks and the records at ERROR or above in every worker life's log.

    A log is read as records (a line with the time and level, and the lines that follow it); a record with a
    ``Traceback (most recent call last)`` among them (an exception group's nested ones included) counts as one
    traceback, named by its message and its innermost exception line. A killed life's records of its last second are
    left out (counted apart): they are the process's own last moments. ``wall_offset`` turns a monotonic time into the
    wall-clock time of the log lines; the findings in fault windows are counted too, and so are the log's lines.
    """
    found = LogFindings()
    for life in lives:
        try:
            lines = life.worker.log.read_text(errors="replace").splitlines()
        except OSError:
            continue
        found.lines += len(lines)
        cutoff = (life.killed + wall_offset - 1.0) if life.killed is not None else None
        for head, rest in _records(lines):
            traceback = any("Traceback (most recent call last)" in line for line in rest)
            level = head.group(3) if head else ""
            if not traceback and level not in ("ERROR", "CRITICAL"):
                continue
            stamp = None
            if head:
                stamp = time.mktime(time.strptime(head.group(1), "%Y-%m-%d %H:%M:%S")) + int(head.group(2)) / 1000
            if cutoff is not None and stamp is not None and stamp >= cutoff:
                found.excluded += 1
                continue
            found.tracebacks += traceback
            found.errors += level in ("ERROR", "CRITICAL")
            found.in_faults += stamp is not None and in_windows(windows, stamp - wall_offset)
            message = (
                f"{level} {head.group(4)}: {_mask(head.group(5).split(' [update=')[0])}" if head else "(no record)"
            )
            found.kinds[f"{message}{f' | {_mask(_innermost(rest))}' if traceback else ''}"] += 1
    return found


# ---- the groups' budget --------------------------------------------------------------------------------------------
def group_peaks(calls: list[Call], groups: Iterable[int], windows: Iterable[Window] = ()) -> dict[int, tuple[int, int]]:
    """Return per group the most sends and edits (sendMessage, sendPhoto, sendDocument, sendMediaGroup counting its
    items, editMessage*, deleteMessage — every call that arrived at the fake, failed ones too) in any sliding
    window of :data:`BUDGET_WINDOW` seconds, and the most in any such window that overlaps none of ``windows``."""
    wanted = set(groups)
    faults = [(w.start, w.end + FAULT_TAIL) for w in windows]
    moments: dict[int, list[float]] = defaultdict(list)
    for call in calls:
        if call.method not in COUNTED_METHODS:
            continue
        try:
            chat = int(call.fields.get("chat_id", 0))
        except (TypeError, ValueError):
            continue
        if chat in wanted:
            items = call.fields.get("media") if call.method == "sendMediaGroup" else None
            moments[chat].extend([call.at] * (len(items) if isinstance(items, list) else 1))
    peaks = {}
    for chat in wanted:
        times = sorted(moments.get(chat, []))
        counts = [(t, bisect.bisect_right(times, t + BUDGET_WINDOW - 1e-9) - i) for i, t in enumerate(times)]
        calm = [n for t, n in counts if not any(t <= end and start <= t + BUDGET_WINDOW for start, end in faults)]
        peaks[chat] = (max((n for _, n in counts), default=0), max(calm, default=0))
    return peaks


def describe_peaks(peaks: dict[int, tuple[int, int]], clear_of: str = "the windows left out") -> str:
    """Return a line on the groups' peaks: the highest, the median and how many groups exceeded the limit (in any
    window, and in the windows clear of ``clear_of``)."""
    if not peaks:
        return "no groups"
    values = [peak for peak, _ in peaks.values()]
    calm = [peak for _, peak in peaks.values()]
    line = (
        f"max {max(values)} in any 60 s, median of the groups' maxima {statistics.median(values):g}; "
        f"{sum(v > GROUP_LIMIT for v in values)} of {len(values)} groups over {GROUP_LIMIT}"
    )
    if calm != values:
        line += f" (in 60 s clear of {clear_of}: max {max(calm)}, {sum(v > GROUP_LIMIT for v in calm)} groups over)"
    return line
