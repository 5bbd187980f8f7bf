"""The Redis key layout of the store, and the other constants of the Redis back end.

Key layout (``P`` = :data:`PREFIX`):

- ``P{g:<id>}:game`` — hash: ``v`` version, ``d`` record JSON, ``s`` ``a``/``f`` (active/finished), ``c`` chat
  ids JSON, ``u`` user ids JSON, ``dl`` deadline ("" = none), ``n`` creation nonce (recognises a retried
  creation), ``q`` quarantine reason (only when quarantined), ``b:<chat>`` board state ``<message id>,<shown
  version>`` (message id "" = none), ``p:<chat>`` the chat's board lease ``<owner>,<until>,<message id it is
  about>`` (``fence_board``), ``x:<chat>`` older board messages whose keyboards are still to be taken off
  ``<id>,<id>,…`` (``land_board``, ``forget_stale``), ``w`` when the awaited action's board was seen ``<action>,<at>``
  (``mark_seen``). Everything of one game is this one key, under the hash tag
  ``{g:<id>}``, so the Lua scripts (``redis_scripts.py``) run unchanged on Redis Cluster; board states, claims and the
  quarantine flag expire with it.
- ``P{c:<id>}:challenge`` — string ``{"d": data, "c": chat_id}`` with a TTL.
- ``Pchat:<chat>:games`` / ``Pchat:<chat>:history`` / ``Puser:<user>:games`` /
  ``Puser:<user>:chat:<chat>:games`` — sorted sets of game ids (score: creation or finishing time);
  ``Pdeadlines`` — sorted set of game ids by deadline; ``Pquarantined`` — sorted set of game ids by quarantine
  time; ``Pchat:<chat>:challenges`` — sorted set of challenge ids by expiry time.
- ``Pchat:<chat>:settings``, ``Puser:<user>:settings`` — JSON strings.
- ``P{cs:<chat>}:stats`` — hash with fields ``<user>:w``, ``<user>:l``, ``<user>:d``; ``P{cs:<chat>}:counted`` —
  sorted set of the game ids counted by ``add_game_stats`` (score: time; trimmed after
  :data:`~bot.storage.stats.COUNTED_GAMES_RETENTION`); ``P{cs:<chat>}:migrated`` — set once the counters of the
  old un-tagged key ``Pchat:<chat>:stats`` were merged in (lazily, on the chat's first stats access).
- ``P{t:<id>}:tournament`` — hash: ``v`` version, ``d`` record JSON, ``s`` ``a``/``f`` (running/finished; ``x``
  marks a tombstone, see below), ``chat`` chat id, ``dl`` deadline ("" = none), ``n`` creation nonce. Expires
  :data:`~bot.storage.tournaments.TOURNAMENT_HISTORY_RETENTION` after finishing.
- ``Pchat:<chat>:tournament`` — string ``<id> <claim time>``: the chat's running tournament (the one-per-chat lock);
  ``Pchat:<chat>:tournaments`` — sorted set of the chat's finished tournament ids (score: finishing time);
  ``Ptournament_deadlines`` — sorted set of tournament ids by deadline.
- ``P{r:<variant>}:ratings`` — hash: field ``<user>``, value ``{"r": rating, "e": experience, "m": matches,
  "n": name}``; ``P{r:<variant>}:rated`` — sorted set of the match keys applied by ``apply_ratings`` (score: time;
  trimmed by the script after :data:`~bot.storage.ratings.RATED_MATCHES_RETENTION`). All ratings of a variant share
  the hash tag ``{r:<variant>}``, so one match's change is one script on Redis Cluster.
  ``Pchat:<chat>:rated:<variant>`` — set of the user ids on the chat's leaderboard of that variant.
- ``P{tg}:sends:<chat>`` — sorted set of the bot's recent calls in a chat (member ``<token>#<n>``, score: time);
  ``P{tg}:sends`` — the same over all chats (the last second); ``P{tg}:next:<chat>`` — the time before which no
  call may be made in the chat (its interval, or a 429's hold). One hash tag for all of them, so that one script
  checks a chat's budget and the bot's together, on a Redis Cluster too (Telegram's limit of about thirty calls a
  second makes this the lightest-loaded slot).
- ``P{rl:<bucket>}:rate`` — string: the time at which the rate bucket is full again (:mod:`bot.storage.rates`;
  e.g. ``webapp:action:<user>``), expiring a minute after that time. One key per bucket, each its own hash tag, so
  the buckets of many users spread over the slots of a Redis Cluster.
- ``Ppool:{<pool>}:z`` — sorted set of a pool's waiting members by score (:mod:`bot.storage.pools`);
  ``Ppool:{<pool>}:e`` — hash member -> entry JSON ``{"m", "s": score as text, "t": since, "x": expiry as text or
  "", "d": data}``; ``Ppool:{<pool>}:x`` — sorted set of the members whose entry expires, by expiry;
  ``Ppool:{<pool>}:p`` — hash pairing id -> ``<made>\n<entry JSON>\n<entry JSON>`` (the open pairings);
  ``Ppool:{<pool>}:pm`` — sorted set of the open pairing ids by made; ``Ppool:{<pool>}:b`` — hash member -> the
  open pairing it is bound to; ``Ppool:{<pool>}:d`` — sorted set of closed or released pairing ids by that time
  (trimmed after :data:`~bot.storage.pools.CLOSED_PAIRING_RETENTION`); ``Ppool:{<pool>}:l`` — string
  ``<until>\n<owner>``: the lease on the pool's pairing passes (:meth:`~bot.storage.pools.PairingPools.try_lead_pool`),
  expiring after its ttl. One hash tag per pool, so every pool script touches one slot of a Redis Cluster.
  ``Ppools`` — sorted set of the pool names by their last put (which pools ``purge_expired`` visits).
"""

from __future__ import annotations

PREFIX = "nardy:"
GAME_KEY = PREFIX + "{{g:{game_id}}}:game"
CHALLENGE_KEY = PREFIX + "{{c:{challenge_id}}}:challenge"
CHAT_GAMES_KEY = PREFIX + "chat:{chat_id}:games"
CHAT_HISTORY_KEY = PREFIX + "chat:{chat_id}:history"
CHAT_CHALLENGES_KEY = PREFIX + "chat:{chat_id}:challenges"
CHAT_SETTINGS_KEY = PREFIX + "chat:{chat_id}:settings"
USER_GAMES_KEY = PREFIX + "user:{user_id}:games"
USER_CHAT_GAMES_KEY = PREFIX + "user:{user_id}:chat:{chat_id}:games"
USER_SETTINGS_KEY = PREFIX + "user:{user_id}:settings"
DEADLINES_KEY = PREFIX + "deadlines"
QUARANTINE_KEY = PREFIX + "quarantined"
STATS_KEY = PREFIX + "{{cs:{chat_id}}}:stats"
COUNTED_KEY = PREFIX + "{{cs:{chat_id}}}:counted"
STATS_MIGRATED_KEY = PREFIX + "{{cs:{chat_id}}}:migrated"
LEGACY_STATS_KEY = PREFIX + "chat:{chat_id}:stats"
TOURNAMENT_KEY = PREFIX + "{{t:{tournament_id}}}:tournament"
CHAT_TOURNAMENT_KEY = PREFIX + "chat:{chat_id}:tournament"
CHAT_TOURNAMENTS_KEY = PREFIX + "chat:{chat_id}:tournaments"
TOURNAMENT_DEADLINES_KEY = PREFIX + "tournament_deadlines"
RATINGS_KEY = PREFIX + "{{r:{variant}}}:ratings"
RATED_KEY = PREFIX + "{{r:{variant}}}:rated"
CHAT_RATED_KEY = PREFIX + "chat:{chat_id}:rated:{variant}"
UPDATE_KEY = PREFIX + "update:{update_id}"
SENDS_KEY = PREFIX + "{{tg}}:sends:{chat}"
ALL_SENDS_KEY = PREFIX + "{tg}:sends"
NEXT_SEND_KEY = PREFIX + "{{tg}}:next:{chat}"
RATE_BUCKET_KEY = PREFIX + "{{rl:{bucket}}}:rate"
POOL_KEY = PREFIX + "pool:{{{pool}}}:{part}"
"""A key of a pool: ``part`` is ``z``, ``e``, ``x``, ``p``, ``pm``, ``b``, ``d`` or ``l`` (see above)."""
POOLS_KEY = PREFIX + "pools"

CLUSTER_SCHEME = "redis+cluster://"
"""``REDIS_URL`` prefix selecting Redis Cluster mode (``redis+cluster://host:port``, any one node)."""
CLUSTER_TLS_SCHEME = "rediss+cluster://"
"""The same with TLS."""

CREATION_GRACE = 60.0
"""Seconds during which an index entry of a game whose record does not exist yet is kept (the indices are
written before the record, so a reader may see the entry of a game being created); likewise a chat's pointer to a
tournament not written yet keeps the chat busy for that long."""

TOMBSTONE_TTL = 24 * 3600.0
"""Seconds for which the tombstone on the id of a tournament whose creation was taken over is kept (longer than
any creation can be under way)."""

COUNT_CHECK_LIMIT = 500
"""``count_chat_games`` checks each game of a chat's index up to this many entries (beyond, the count serves a cap
that is exceeded anyway, and checking 10,000 games would take most of a second)."""


def cluster_startup_url(url: str) -> str | None:
    """Return the plain ``redis://`` (or ``rediss://``) URL of a ``redis+cluster://`` URL, None for other URLs."""
    for scheme, plain in ((CLUSTER_SCHEME, "redis://"), (CLUSTER_TLS_SCHEME, "rediss://")):
        if url.startswith(scheme):
            return plain + url[len(scheme) :]
    return None
