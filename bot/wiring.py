"""The composition root: everything the bot runs on, built once at start-up from the Settings and injected.

:func:`build_services` builds the game services once, as a :class:`Services` container: the store, the sender, one
:class:`~bot.services.game_config.GameConfig` (dice, clock, renderer, timings, caps), one
:class:`~bot.services.tasks.Scheduler`, the renderer and computer pools, and each part with only the collaborators
it needs (no part knows the container). :func:`build_dispatcher` builds it and the Dispatcher that serves it: the
infra (:func:`create_dispatcher`: middlewares, language, the built-in routers) and the game flow routers.

What the handlers use is injected the aiogram way, as Dispatcher data (``dp["name"] = value``); aiogram hands each
handler the keyword arguments its signature names, nothing else:

- ``settings`` (:class:`~bot.config.Settings`), ``sender`` (the paced :class:`~bot.sender.Sender`), ``i18n``,
  ``metrics`` (when measured);
- ``replies`` (:class:`~bot.services.messaging.Replies`: send, edit, reply), ``actions``
  (:class:`~bot.services.actions.GameActions`: start, press, typed moves, /board, /resign, find a game), ``boards``
  (:class:`~bot.services.boards.BoardPresenter`: watch, show a board), ``inline_games``
  (:class:`~bot.services.inline.InlineGames`), ``tournaments``
  (:class:`~bot.services.tournaments.service.Tournaments`), ``game_config`` (the shared GameConfig);
- what the handlers read and write instead of the store, each on the storage role it needs: ``preferences``
  (:class:`~bot.services.preferences.Preferences`: chat and user settings, the language), ``challenges``
  (:class:`~bot.services.challenges.Challenges`: create, read, claim), ``chat_games``
  (:class:`~bot.services.chat_games.ChatGames`: /watch's list), ``history``
  (:class:`~bot.services.history.History`), ``exports`` (:class:`~bot.services.export.Exports`), ``fairness``
  (:class:`~bot.services.fairness.Fairness`: /verify), ``analyses`` (:class:`~bot.services.analysis.Analyses`),
  ``player_stats`` (:class:`~bot.services.player_stats.PlayerStats`: /stats), ``leaderboards``
  (:class:`~bot.services.ratings.Leaderboards`: /rating, /top);
- per update ``locale`` (the user's language, a plain string set by the language middleware).

No handler takes the ``store`` (import-linter forbids ``bot.handlers`` to import ``bot.storage``); it stays in the
data for the job queue and the tests, and the middlewares get it in their constructors.

Background work runs on one scheduler: the job queue (:mod:`bot.jobs`) when ``jobs`` is given, else in this process
(:meth:`bot.services.background.PeriodicWork.run` and the parts' keyed tasks,
:class:`bot.services.tasks.KeyedTasks`). The Dispatcher's startup hook starts it and its shutdown hook stops it (see
:func:`attach_background`).

Nothing else builds a service: no cache of services, no lookup through the middlewares.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from aiogram import Bot, Dispatcher, Router
from aiogram.methods import TelegramMethod
from aiogram.utils.i18n import I18n

from bot.commands import set_bot_commands
from bot.config import Settings
from bot.handlers import game_routers, routers
from bot.i18n import create_i18n
from bot.jobs import TaskiqJobs
from bot.keyboards.webapp import WebAppLinks
from bot.log_context import UpdateContextMiddleware
from bot.metrics import Metrics, UpdateMetricsMiddleware
from bot.middlewares import ErrorReportingMiddleware, UserLanguageMiddleware
from bot.middlewares.in_flight import InFlightLimitMiddleware
from bot.middlewares.throttle import ThrottleMiddleware
from bot.sender import Sender
from bot.services.actions import GameActions
from bot.services.analysis import Analyses
from bot.services.arena.membership import chat_member_check
from bot.services.arena.router import CompetitionRouter
from bot.services.arena.service import Arenas, build_arenas
from bot.services.background import PeriodicWork
from bot.services.boards import BoardPresenter
from bot.services.challenges import Challenges
from bot.services.chat_games import ChatGames
from bot.services.clock_start import ClockStarts
from bot.services.clock_watch import ClockWatch
from bot.services.computer import ComputerTurns, default_computer
from bot.services.export import Exports
from bot.services.fairness import Fairness
from bot.services.game_config import GameConfig
from bot.services.game_view import GameViews
from bot.services.history import History
from bot.services.inline import InlineGames
from bot.services.live import FollowLimits, LiveUpdates, LocalLive, RedisLive
from bot.services.lobby.service import LobbyParts, build_lobby
from bot.services.matchmaking import Matchmaker
from bot.services.media import ChatMedia
from bot.services.messaging import MessageSender, Replies
from bot.services.player_stats import PlayerStats
from bot.services.preferences import Preferences
from bot.services.ratings import Leaderboards
from bot.services.request_limits import RequestKind, RequestLimiter
from bot.services.saving import GameSaver
from bot.services.session_end import SessionEnd
from bot.services.tasks import JobQueue, Scheduler
from bot.services.timers import Sweeper
from bot.services.tournaments.service import Tournaments, build_tournaments
from bot.services.tournaments.view_model import TournamentViews
from bot.storage import RateBuckets, RateLimit, Store
from bot.webapp.parts import WebAppParts

log = logging.getLogger(__name__)

SHUTDOWN_BOARD_GRACE = 2.0
"""Seconds a shutdown lets running board syncs hand their edits to the sender (which drains afterwards)."""


@dataclasses.dataclass(slots=True, kw_only=True)
class Services:
    """The game services of one bot process, built once by :func:`build_services`: the parts, each holding only its
    own collaborators, and the lifecycle the process and the tests drive (settle, sweep, recover, stop). The
    handlers never see it: they get the parts they use from the Dispatcher's data."""

    store: Store
    sender: MessageSender
    config: GameConfig
    """Shared by every part; tests change its fields (dice, clock, delays) and every part sees the change."""
    scheduler: Scheduler
    replies: Replies
    boards: BoardPresenter
    saver: GameSaver
    computer_turns: ComputerTurns
    clock_watch: ClockWatch
    actions: GameActions
    inline: InlineGames
    sweeper: Sweeper
    tournaments: Tournaments
    arenas: Arenas
    """The arenas (:mod:`bot.services.arena`)."""
    competitions: CompetitionRouter
    """Sends the work tournaments and arenas share (the job, the sweep, a finished game) by the record's format."""
    periodic: PeriodicWork
    preferences: Preferences
    challenges: Challenges
    chat_games: ChatGames
    history: History
    exports: Exports
    fairness: Fairness
    analyses: Analyses
    player_stats: PlayerStats
    leaderboards: Leaderboards
    views: GameViews
    """The Mini App's views of games (:mod:`bot.services.game_view`)."""
    lobby: LobbyParts
    """The lobby (:mod:`bot.services.lobby`): seeks, the buttons after a lobby game, reports, the pairing passes."""
    live: LiveUpdates | None = None
    """Where saved versions are announced to the Mini App's sockets (None: no Mini App configured)."""
    links: WebAppLinks | None = None
    """The Mini App's address for the boards' and /watch's buttons (None: no Mini App configured)."""

    def handler_data(self) -> dict[str, Any]:
        """Return the parts the handlers use, by the names they take them under from the Dispatcher's data (see the
        module docstring)."""
        return {
            "replies": self.replies,
            "actions": self.actions,
            "boards": self.boards,
            "game_config": self.config,
            "inline_games": self.inline,
            "tournaments": self.tournaments,
            "arenas": self.arenas,
            "preferences": self.preferences,
            "challenges": self.challenges,
            "chat_games": self.chat_games,
            "history": self.history,
            "exports": self.exports,
            "fairness": self.fairness,
            "analyses": self.analyses,
            "player_stats": self.player_stats,
            "leaderboards": self.leaderboards,
            "webapp_links": self.links,
            "lobby": self.lobby,
        }

    @property
    def jobs(self) -> JobQueue | None:
        """The job queue that runs the background work (:mod:`bot.jobs`), or None: in this process."""
        return self.scheduler.queue

    @jobs.setter
    def jobs(self, queue: JobQueue | None) -> None:
        self.scheduler.queue = queue

    async def sweep(self, now: float | None = None) -> int:
        """Handle the games due by ``now`` (default: the config's clock): see
        :meth:`bot.services.timers.Sweeper.sweep`. Returns: games handled."""
        return await self.sweeper.sweep(now)

    async def recover(self) -> int:
        """At start-up: bring up to date every board a previous process left behind (see
        :meth:`bot.services.background.PeriodicWork.recover`). Returns: games handled."""
        return await self.periodic.recover()

    async def settle(self) -> None:
        """Wait until no computer reply, clock check, board sync or tournament work is running (for tests and a
        graceful shutdown; the clocks' wake-ups still waiting are not waited for). Returns nothing."""
        while (
            self.computer_turns.running
            or self.boards.busy_any()
            or self.competitions.busy()
            or self.clock_watch.working
        ):
            await self.computer_turns.settle()
            await self.clock_watch.settle()
            await self.boards.settle()
            await self.competitions.settle()

    async def stop_computer(self) -> None:
        """Cancel the running computer replies, clock wake-ups, board syncs, tournament work and the lobby's passes
        (the sweep finishes them after a restart). Returns nothing."""
        await self.lobby.stop()
        await self.computer_turns.stop()
        await self.clock_watch.stop()
        await self.boards.stop()
        await self.competitions.stop()


def service_options(settings: Settings) -> dict[str, Any]:
    """Return the options of :func:`build_services` that ``settings`` decide (timings, caps, pools, inline secret
    and storage chat)."""
    token = settings.bot_token.get_secret_value()
    options: dict[str, Any] = {
        "turn_reminder_after": float(settings.turn_reminder_after),
        "turn_timeout": float(settings.turn_timeout),
        "finished_game_ttl": float(settings.finished_game_ttl),
        "board_retry_after": float(settings.board_retry_after),
        "max_games_per_user": settings.max_games_per_user,
        "max_games_per_chat": settings.max_games_per_chat,
        "computer_processes": settings.computer_processes,
        "render_processes": settings.render_processes,
        "computer_delay": float(settings.bot_move_delay),
        "computer_retry_after": max(float(settings.timeout_sweep_interval), 30.0),
        "inline_secret": hashlib.sha256(b"nardy-inline:" + token.encode()).digest(),
        "invite_ttl": max(float(settings.challenge_ttl), 86400.0),
        "lobby_seek_ttl": float(settings.lobby_seek_ttl),
        "lobby_pass_interval": float(settings.lobby_pass_interval),
    }
    if settings.inline_storage_chat_id is not None:
        options["inline_storage_chat"] = settings.inline_storage_chat_id
    if settings.webapp_url:
        options["links"] = WebAppLinks(settings.webapp_url, settings.webapp_short_name)
        limits = FollowLimits.of(settings)
        options["live"] = RedisLive(settings.redis_url, limits) if settings.redis_url else LocalLive(limits)
    return options


def build_services(settings: Settings, store: Store, sender: MessageSender, **overrides: Any) -> Services:
    """Return the game services on ``store`` and ``sender`` (the infra ``Sender``, or
    :class:`~bot.services.messaging.DirectSender` around a Bot) with the options of ``settings``; ``overrides``
    (dice, clock, sleep, computer factory, renderer, any timing — the fields of :class:`GameConfig` — and the
    options of :func:`assemble`: ``computer_processes``, ``inline_secret``, …) win over them; tests use them for
    seeded dice and virtual time.

    Raises: TypeError for an override that is neither."""
    options: dict[str, Any] = {"computer": default_computer, **service_options(settings), **overrides}
    fields = {field.name for field in dataclasses.fields(GameConfig)}
    config = GameConfig(**{name: value for name, value in options.items() if name in fields})
    return assemble(store, sender, config, **{name: value for name, value in options.items() if name not in fields})


def assemble(
    store: Store,
    sender: MessageSender,
    config: GameConfig,
    *,
    computer_processes: int = 1,
    inline_secret: bytes | None = None,
    inline_storage_chat: int | None = None,
    invite_ttl: float = 86400.0,
    live: LiveUpdates | None = None,
    links: WebAppLinks | None = None,
    lobby_seek_ttl: float = 600.0,
    lobby_pass_interval: float = 2.0,
) -> Services:
    """Return the parts built on ``store``, ``sender`` and ``config``, each given its collaborators.
    ``computer_processes`` worker processes think for the computer (0: a thread). ``inline_secret`` signs inline
    invitations (the same in every worker; None: a random one of this process), ``inline_storage_chat`` takes the
    uploads of inline boards, ``invite_ttl``: seconds an inline invitation can be joined
    (:mod:`bot.services.inline`). ``live`` hears every saved version (the Mini App's sockets) and ``links`` puts
    the Mini App's button on the boards; both None when no Mini App is configured. A lobby seek lasts
    ``lobby_seek_ttl`` seconds and the lobby pairs every ``lobby_pass_interval`` seconds while anyone waits."""
    scheduler = Scheduler()
    replies = Replies(sender)
    session_end = SessionEnd(store)
    preferences = Preferences(store)
    media = ChatMedia(preferences, store, sender, clock=lambda: config.clock())
    boards = BoardPresenter(store, sender, config)
    boards.links = links
    boards.media = media
    saver = GameSaver(
        store,
        config,
        request_boards=boards.request,
        after_finish=session_end.after_finish,
        publish=live.publish if live is not None else None,
    )
    computer_turns = ComputerTurns(store, config, scheduler, saver.save, processes=computer_processes)
    clock_watch = ClockWatch(store, config, scheduler, saver)
    saver.watch_clock = clock_watch.watch_record
    boards.clock_starts = ClockStarts(store, lambda: config.clock(), clock_watch.watch, saver.announce)
    actions = GameActions(store, sender, config, boards, saver, computer_turns)
    inline = InlineGames(
        store,
        sender,
        config,
        boards,
        actions.start_game,
        secret=inline_secret if inline_secret is not None else secrets.token_bytes(32),
        storage_chat=inline_storage_chat,
        invite_ttl=invite_ttl,
    )
    boards.connect(release=saver.release, inline=inline)
    sweeper = Sweeper(store, sender, config, boards, saver, computer_turns)
    tournaments = build_tournaments(store, replies, config, scheduler, actions, links=links, media=media)
    matchmaker = Matchmaker(store, lambda: config.clock())
    arenas = build_arenas(store, replies, config, scheduler, actions, matchmaker, links=links, media=media)
    competitions = CompetitionRouter(store, tournaments.reconciler, arenas.reconciler)
    session_end.tournaments = competitions
    lobby = build_lobby(
        store,
        preferences,
        actions,
        replies,
        lambda: config.clock(),
        sleep=lambda seconds: config.sleep(seconds),
        seek_ttl=lobby_seek_ttl,
        interval=lobby_pass_interval,
        max_games=config.max_games_per_user,
        links=links,
    )
    session_end.lobby = lobby.after_game
    periodic = PeriodicWork(store, config, sweeper, competitions)
    periodic.lobby = lobby
    return Services(
        store=store,
        sender=sender,
        config=config,
        scheduler=scheduler,
        replies=replies,
        boards=boards,
        saver=saver,
        computer_turns=computer_turns,
        clock_watch=clock_watch,
        actions=actions,
        inline=inline,
        sweeper=sweeper,
        tournaments=tournaments,
        arenas=arenas,
        competitions=competitions,
        periodic=periodic,
        preferences=preferences,
        challenges=Challenges(store),
        chat_games=ChatGames(store),
        history=History(store),
        exports=Exports(store),
        fairness=Fairness(store),
        analyses=Analyses(store, config),
        player_stats=PlayerStats(store),
        leaderboards=Leaderboards(store),
        views=GameViews(store, config.dice, lambda: config.clock()),
        lobby=lobby,
        live=live,
        links=links,
    )


def request_limiter(settings: Settings, store: RateBuckets) -> RequestLimiter:
    """Return the Mini App's per-user request limits (``WEBAPP_ACTION_RATE`` / ``_BURST``, ``WEBAPP_READ_RATE`` /
    ``_BURST``) on the rate buckets of ``store``, shared by every worker on it."""
    return RequestLimiter(
        store,
        {
            RequestKind.ACTION: RateLimit(rate=settings.webapp_action_rate, burst=settings.webapp_action_burst),
            RequestKind.READ: RateLimit(rate=settings.webapp_read_rate, burst=settings.webapp_read_burst),
        },
    )


def webapp_parts(
    settings: Settings, services: Services, bot: Callable[[TelegramMethod[Any]], Awaitable[Any]] | None = None
) -> WebAppParts | None:
    """Return what the Mini App's server (:mod:`bot.webapp`) needs, or None when ``WEBAPP_URL`` is unset (then no
    server is mounted and nothing changes). ``bot`` (the Bot) answers whether a user who joins an arena from the
    app is a member of its group (None: not checked)."""
    if not settings.webapp_url or services.live is None:
        return None
    return WebAppParts(
        token=settings.bot_token.get_secret_value(),
        max_age=float(settings.webapp_auth_max_age),
        views=services.views,
        actions=services.actions,
        live=services.live,
        default_language=settings.default_language,
        tournaments=TournamentViews(services.tournaments.records),
        limiter=request_limiter(settings, services.store),
        clock_starts=services.boards.clock_starts,
        arenas=services.arenas,
        arena_members=None if bot is None else chat_member_check(bot),
        lobby=services.lobby.lobby,
        rating_window=services.lobby.lobby.window.at,
        clock=lambda: services.config.clock(),
    )


def create_dispatcher(
    store: Store,
    settings: Settings,
    *,
    sender: Sender,
    i18n: I18n | None = None,
    extra_routers: Sequence[Router] = (),
    throttle_clock: Callable[[], float] | None = None,
    metrics: Metrics | None = None,
    preferences: Preferences | None = None,
) -> Dispatcher:
    """Return a Dispatcher with the infra of the bot: its data, middlewares and built-in routers (no game flows:
    :func:`build_dispatcher` adds them).

    Handlers receive in their data: ``settings`` (Settings), ``sender`` (Sender), ``i18n`` (I18n),
    ``preferences`` (:class:`~bot.services.preferences.Preferences` on ``store``, unless given: ``/lang`` stores
    the choice through it), ``locale`` (the user's language code), plus aiogram's usual ``bot``,
    ``event_from_user``, ``event_chat``. ``store`` is in the data too (for the job queue and the tests; no handler
    takes it). ``extra_routers`` are included before the built-in ones (game flows, tests). Startup
    registers the command menu (``setMyCommands``) for every language.

    Update middlewares, outermost first: the log context (the update id on every record); the update metrics
    (when ``metrics`` is given; the handlers then also get ``metrics`` in their data); error reporting; per-user
    throttling (``THROTTLE_RATE`` / ``THROTTLE_BURST``, on ``throttle_clock``, by default the sender's clock);
    the bound on updates handled at once (``MAX_UPDATES_IN_FLIGHT``: further updates wait, they are never
    refused).
    """
    i18n = i18n or create_i18n(settings.default_language)
    dp = Dispatcher(
        store=store, settings=settings, sender=sender, i18n=i18n, preferences=preferences or Preferences(store)
    )
    dp.update.outer_middleware(UpdateContextMiddleware())
    if metrics is not None:
        dp["metrics"] = metrics
        dp.update.outer_middleware(UpdateMetricsMiddleware(metrics))
    dp.update.outer_middleware(ErrorReportingMiddleware(i18n))
    if settings.throttle_rate > 0:
        dp.update.outer_middleware(
            ThrottleMiddleware(
                settings.throttle_rate,
                settings.throttle_burst,
                clock=throttle_clock or sender.clock,
                default_language=settings.default_language,
            )
        )
    dp.update.outer_middleware(InFlightLimitMiddleware(settings.max_updates_in_flight))
    UserLanguageMiddleware(i18n, store).setup(dp)
    dp.include_routers(*extra_routers, *routers())

    async def on_startup(bot: Bot) -> None:
        try:
            await set_bot_commands(bot, i18n)
        except Exception as error:  # the menu is a nicety: never refuse to start because of it
            log.warning("setMyCommands failed: %s", error)

    dp.startup.register(on_startup)
    return dp


def build_dispatcher(
    settings: Settings,
    store: Store,
    sender: Sender,
    *,
    metrics: Metrics | None = None,
    jobs: TaskiqJobs | None = None,
    i18n: I18n | None = None,
    throttle_clock: Callable[[], float] | None = None,
    **service_overrides: Any,
) -> tuple[Dispatcher, Services]:
    """Build the whole bot once: the game services (:func:`build_services`, with ``service_overrides``), the
    Dispatcher with the game flow routers before the built-in ones and the parts the handlers use in its data (see
    the module docstring), and the background work on ``jobs`` (or in this process) started and stopped with the
    Dispatcher.

    Returns: the Dispatcher and the services."""
    services = build_services(settings, store, sender, **service_overrides)
    dp = create_dispatcher(
        store,
        settings,
        sender=sender,
        i18n=i18n,
        extra_routers=game_routers(),
        throttle_clock=throttle_clock,
        metrics=metrics,
        preferences=services.preferences,
    )
    for name, part in services.handler_data().items():
        dp[name] = part
    if jobs is not None:
        dp["jobs"] = jobs
    attach_background(dp, services, settings, jobs=jobs, metrics=metrics)
    return dp, services


def attach_background(
    dp: Dispatcher,
    services: Services,
    settings: Settings,
    *,
    jobs: TaskiqJobs | None = None,
    metrics: Metrics | None = None,
) -> None:
    """Start the background work with the Dispatcher and stop it with it. On startup: the job queue ``jobs`` runs
    the computer's replies, the tournaments' work and the sweep (queued by one worker per tick), after a recovery
    pass of this process; without a queue (or when it cannot start) the in-process sweeper runs every
    ``TIMEOUT_SWEEP_INTERVAL`` seconds. On shutdown: the queue closes (a job under way goes back to it), running
    board syncs get :data:`SHUTDOWN_BOARD_GRACE` seconds, then the computer's replies and the keyed tasks are
    cancelled (the sweep finishes them after a restart). Returns nothing."""
    running: list[asyncio.Task[None]] = []
    started: list[TaskiqJobs] = []

    async def start(**data: Any) -> None:
        links, bot = services.links, data.get("bot")
        if links is not None and isinstance(bot, Bot):
            try:
                links.bot_username = (await bot.me()).username
            except Exception as error:  # the groups' link waits for the next start; private boards have theirs
                log.warning("getMe failed: groups get no Mini App link (%s)", error)
        periodic = services.periodic
        if jobs is not None:
            try:
                await jobs.start(services)
            except Exception:
                log.exception("the job queue cannot start: background work runs in this process")
            else:
                services.jobs = jobs
                started.append(jobs)
                running.append(asyncio.create_task(periodic.recover_once(), name="nardy-recovery"))
                return
        interval = float(settings.timeout_sweep_interval)
        running.append(
            asyncio.create_task(
                periodic.run(interval, settings.store_purge_batch, metrics), name="nardy-timeout-sweeper"
            )
        )

    async def stop(**_data: Any) -> None:
        while started:
            await started.pop().close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(services.boards.settle(), timeout=SHUTDOWN_BOARD_GRACE)
        await services.stop_computer()
        if services.live is not None:
            await services.live.close()
        while running:
            task = running.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    dp.startup.register(start)
    dp.shutdown.register(stop)
