"""Settings of the bot, read from the environment and ``.env`` (pydantic-settings). Every one is in .env.example."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Language = Literal["ru", "en"]
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
BotMode = Literal["polling", "webhook"]
_SECRET_PATTERN = r"[A-Za-z0-9_-]{1,256}"


class Settings(BaseSettings):
    """All configuration of the bot. Field ``foo_bar`` is read from the variable ``FOO_BAR``."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False)

    bot_token: SecretStr
    """The token from @BotFather (required)."""
    redis_url: str | None = None
    """Redis URL (``redis://host:6379/0``); when unset, games are kept in the embedded SQLite file."""
    embedded_db_path: Path = Path("data/nardy.sqlite3")
    """The SQLite file of the embedded store (used only when REDIS_URL is unset)."""
    telegram_api_url: str | None = None
    """Base URL of a custom Bot API server (e.g. a local ``telegram-bot-api``); unset = Telegram's."""
    telegram_api_local: bool = False
    """True when the custom Bot API server runs in ``--local`` mode."""
    default_language: Language = "ru"
    """Language for users whose Telegram account gives no language (see ``bot.i18n.normalize_language``)."""
    log_level: LogLevel = "INFO"
    """Logging level."""
    log_format: Literal["text", "json"] = "text"
    """``text`` lines, or ``json``: one JSON object per line with the update id and the game id."""

    inline_storage_chat_id: int | None = None
    """A chat of the operator's (e.g. a private channel with the bot as admin) that receives every board of an
    inline game once, to get the ``file_id`` an inline message needs; unset: the players' private chats with the
    bot (the upload is deleted there at once), else a text board."""
    challenge_ttl: float = Field(default=3600.0, gt=0)
    """Seconds an open challenge waits for an opponent."""
    turn_reminder_after: float = Field(default=6 * 3600.0, gt=0)
    """Seconds of inactivity after which the player to move is reminded."""
    turn_timeout: float = Field(default=24 * 3600.0, gt=0)
    """Seconds of inactivity after which the player to move loses the game."""
    timeout_sweep_interval: float = Field(default=60.0, gt=0)
    """Seconds between two checks for overdue turns."""
    bot_move_delay: float = Field(default=1.0, ge=0)
    """Seconds the computer player waits before its turn is shown (after the person's), so players can follow."""
    finished_game_ttl: float = Field(default=30 * 24 * 3600.0, gt=0)
    """Seconds a finished game is kept (for /stats and history)."""
    board_retry_after: float = Field(default=20.0, gt=0)
    """Seconds after a save when the sweeper re-sends any board the save left behind (a crash, a failed edit)."""
    max_games_per_user: int = Field(default=20, gt=0)
    """A person can play at most this many active games at once (a clear refusal beyond)."""
    max_games_per_chat: int = Field(default=500, gt=0)
    """A group can hold at most this many active games at once (a clear refusal beyond)."""
    lobby_seek_ttl: float = Field(default=600.0, gt=0)
    """Seconds a lobby seek (``/play``) waits for an opponent before it expires (the player is told)."""
    lobby_pass_interval: float = Field(default=2.0, ge=0)
    """Seconds between two pairing passes of the lobby while anyone waits (0: only on each seek and each sweep)."""
    operator_ids: list[int] = Field(default_factory=list)
    """The Telegram user ids of the bot's operators (a JSON list, ``[123, 456]``): they may read ``/reports``, the
    lobby players reported by others."""
    computer_processes: int = Field(default=1, ge=0)
    """Worker processes that think for the computer player (0: a thread of the bot's process)."""

    request_timeout: float = Field(default=30.0, gt=0)
    """Timeout of one request to the Bot API, in seconds."""
    polling_timeout: int = Field(default=30, ge=0)
    """Long-polling timeout of getUpdates, in seconds."""
    store_timeout: float = Field(default=5.0, gt=0)
    """Timeout of one storage operation (Redis socket / SQLite lock), in seconds."""
    startup_retry_first: float = Field(default=1.0, gt=0)
    """Seconds before the first retry of a Bot API / setWebhook / store that does not answer at start (bot.startup)."""
    startup_retry_cap: float = Field(default=30.0, gt=0)
    """The longest wait between two such retries (the wait doubles from STARTUP_RETRY_FIRST up to this)."""
    # ---- storage ----
    redis_max_connections: int = Field(default=50, gt=0)
    """At most this many Redis connections (per node on a cluster); a burst beyond waits up to STORE_TIMEOUT."""
    store_purge_batch: int = Field(default=500, gt=0)
    """Rows the SQLite store deletes per transaction when purging expired games (``Store.purge_expired``)."""

    send_interval_private: float = Field(default=1.0, ge=0)
    """Minimum seconds between two outgoing messages or edits in one private chat."""
    send_interval_group: float = Field(default=1.0, ge=0)
    """Minimum seconds between two outgoing messages or edits in one group chat."""
    group_messages_per_minute: int = Field(default=19, gt=0)
    """At most this many outgoing messages or edits (retries included) in any minute in one group chat (Telegram
    allows about 20; one below leaves a margin)."""
    # ---- bursts, floods and shutdown (bot/sender.py, bot/middlewares/throttle.py, bot/app.py) ----
    private_messages_per_minute: int = Field(default=30, gt=0)
    """At most this many outgoing messages or edits (retries included) in any minute in one private chat."""
    bot_calls_per_second: int = Field(default=30, gt=0)
    """At most this many paced calls (messages and edits) a second over all chats, counted for the bot as a whole
    by every worker together (Telegram allows a bot about 30; raise it only for a Bot API without that limit, as
    in the benchmarks)."""
    chat_queue_limit: int = Field(default=20, gt=0)
    """At most this many replies (chatter, not boards) wait in one chat's queue; beyond it the oldest is dropped."""
    max_updates_in_flight: int = Field(default=64, gt=0)
    """At most this many updates are handled at once; further ones wait their turn (never refused)."""
    throttle_rate: float = Field(default=2.0, ge=0)
    """Messages and button presses per second a user may send after the burst below (0 = no throttling)."""
    throttle_burst: int = Field(default=10, gt=0)
    """Messages and button presses a user may send at once before being throttled."""
    shutdown_drain_timeout: float = Field(default=10.0, ge=0)
    """Seconds a stopping bot goes on sending queued messages and edits before dropping the rest."""
    max_text_move_length: int = Field(default=200, gt=0)
    """Typed moves longer than this many characters are refused without parsing."""

    # ---- webhook workers (bot/webhook.py) ----
    bot_mode: BotMode = "polling"
    """``polling`` (one process fetches updates with getUpdates) or ``webhook`` (any number of identical workers
    behind a load balancer receive Telegram's POSTs; needs WEBHOOK_URL and WEBHOOK_SECRET, and REDIS_URL when more
    than one worker runs)."""
    webhook_url: str | None = None
    """The public HTTPS base URL Telegram posts to (``https://bot.example.org``); WEBHOOK_PATH is appended."""
    webhook_secret: SecretStr | None = None
    """Telegram's ``secret_token`` (1-256 of ``A-Z a-z 0-9 _ -``): requests without it are refused with 401."""
    webhook_host: str = "0.0.0.0"
    """Where a worker listens."""
    webhook_port: int = Field(default=8080, ge=0, le=65535)
    """The worker's port (webhook, ``GET /healthz`` and ``GET /metrics``)."""
    webhook_path: str = Field(default="/telegram", pattern=r"^/[A-Za-z0-9_./-]*$")
    """The path of the webhook on the worker and in the URL given to setWebhook."""
    webhook_register: bool = True
    """Call setWebhook at start (every worker does; it is idempotent). False leaves the registration to the
    operator."""
    webhook_drop_pending_updates: bool = False
    """Ask Telegram to drop the updates waiting for the bot when setWebhook is called at start."""
    webhook_update_lease: float = Field(default=60.0, gt=0)
    """Seconds a worker holds an update it handles; a redelivery meanwhile is answered 503 (Telegram tries again
    later), and after a crash the update is handled by whichever worker gets it once the lease has lapsed."""
    webhook_update_ttl: float = Field(default=24 * 3600.0, gt=0)
    """Seconds a handled update id is remembered, so that Telegram's redelivery never applies it twice."""

    # ---- the job queue (bot/jobs.py) ----
    job_queue: Literal["auto", "in-process"] = "auto"
    """Where background work runs (the computer's replies, the sweep of reminders, timeouts and boards, tournament
    rounds): ``auto`` on a Redis-backed queue any worker takes jobs from whenever Redis is configured (REDIS_URL or
    JOBS_REDIS_URL), else in this process; ``in-process`` always in this process."""
    jobs_redis_url: str | None = None
    """The Redis of the job queue (default: REDIS_URL; a Redis Cluster works too, see bot/jobs.py)."""
    job_retry_after: float = Field(default=60.0, gt=0)
    """Seconds after which a job left pending by a worker that died is run by another worker."""
    max_jobs_per_worker: int = Field(default=32, gt=0)
    """At most this many jobs run at once in one worker; further ones wait in the queue for any worker."""
    render_processes: int = Field(default=1, ge=0)
    """Worker processes that render boards (0: a thread of the bot's process)."""

    # ---- the Mini App (bot/webapp/) ----
    webapp_url: str | None = None
    """The public HTTPS address of the Mini App (``https://bot.example.org/webapp/``); unset: no Mini App, no
    button, no server (the bot works exactly as without it)."""
    webapp_short_name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_]{3,30}$")
    """The Mini App's short name given to @BotFather's /newapp: groups get the link
    ``https://t.me/<bot>/<short name>?startapp=<game id>`` (unset: only private boards get a button)."""
    webapp_host: str = "0.0.0.0"
    """Where the Mini App's server listens in polling mode (in webhook mode it shares the webhook's port)."""
    webapp_port: int = Field(default=8081, ge=0, le=65535)
    """The Mini App's port in polling mode."""
    webapp_auth_max_age: float = Field(default=86400.0, gt=0)
    """Seconds a Mini App's signed init data stays valid after Telegram signed it (see bot/webapp/auth.py)."""

    # ---- the bot's own HTTP server (bot/http_server.py: the webhook port, polling mode's Mini App port) ----
    http_header_timeout: float = Field(default=10.0, gt=0)
    """Seconds a connection may take to send a request's headers (from its opening, or on a kept-alive connection
    from the next request's first byte); a slower one is closed."""
    http_idle_timeout: float = Field(default=75.0, gt=0)
    """Seconds a connection may stay open without a request (after its opening or its last response); keep it
    above the idle timeout of the proxy's connections to the bot (60 s in deploy/Caddyfile)."""
    http_max_connections: int = Field(default=1000, gt=0)
    """Open connections (WebSockets included) one process serves at most; a new one beyond is answered 503 and
    closed. Lowered at start to leave 256 of the process's open-file limit free."""

    # ---- the Mini App's rate limits (bot/services/request_limits.py; per user, shared by all workers) ----
    webapp_action_rate: float = Field(default=4.0, ge=0)
    """Mini App actions (moves, rolls, …) per second a user may make after the burst below (0 = no limit)."""
    webapp_action_burst: int = Field(default=20, gt=0)
    """Mini App actions a user may make at once: a whole turn with its corrections, however fast the taps."""
    webapp_read_rate: float = Field(default=1.0, ge=0)
    """Reads of a game or a tournament per second a user may make in the Mini App after the burst (0 = no limit)."""
    webapp_read_burst: int = Field(default=20, gt=0)
    """Reads a user may make at once (pages opened and reloaded in a row)."""

    # ---- the Mini App's live sockets (bot/webapp/live.py; counted per process: bot/services/live.py) ----
    webapp_live_per_user: int = Field(default=8, gt=0)
    """Live sockets one user may hold open at once (all games): a phone and a desktop on a game or two, and a reload
    whose new socket opens before the old one has closed. One more is refused (close code 4429)."""
    webapp_live_per_game: int = Field(default=500, gt=0)
    """Live sockets one game may have at once: its players' and its spectators'."""
    webapp_live_per_process: int = Field(default=750, gt=0)
    """Live sockets one process serves at once; keep it below HTTP_MAX_CONNECTIONS, so that sockets never take the
    connections Telegram's deliveries and the Mini App's requests need."""

    @field_validator("webhook_secret", mode="before")
    @classmethod
    def _check_secret(cls, value: object) -> object:
        """Return None for an empty secret; refuse one Telegram would refuse (1-256 of ``A-Z a-z 0-9 _ -``)."""
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if isinstance(value, str):
            if not value.strip():
                return None
            if not re.fullmatch(_SECRET_PATTERN, value):
                raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @model_validator(mode="after")
    def _webhook_needs_url_and_secret(self) -> Settings:
        """Refuse webhook mode without WEBHOOK_URL and WEBHOOK_SECRET (an open webhook would take anyone's POST)."""
        if self.bot_mode == "webhook":
            missing = [name for name in ("webhook_url", "webhook_secret") if getattr(self, name) is None]
            if missing:
                raise ValueError(f"BOT_MODE=webhook needs {' and '.join(m.upper() for m in missing)}")
        return self

    @field_validator("webapp_url")
    @classmethod
    def _https_only(cls, value: str | None) -> str | None:
        """Refuse a Mini App address that is not HTTPS (Telegram opens only HTTPS Mini Apps)."""
        if value is not None and not value.startswith("https://"):
            raise ValueError("must be an https:// address")
        return value

    @field_validator(
        "redis_url",
        "telegram_api_url",
        "webhook_url",
        "jobs_redis_url",
        "webapp_url",
        "webapp_short_name",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        """Return None for an empty string, so ``REDIS_URL=`` in .env means "unset"."""
        if isinstance(value, str) and not value.strip():
            return None
        return value
