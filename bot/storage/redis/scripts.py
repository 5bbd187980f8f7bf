"""The Lua scripts of :class:`~bot.storage.redis.store.RedisGameStore`.

Each touches the keys of ONE hash slot only (one game's or tournament's hash, one chat's ``{cs:<chat>}`` stats keys,
one chat's running-tournament pointer, or one variant's ``{r:<variant>}`` rating keys), so they run unchanged on
Redis Cluster. Their ``KEYS``/``ARGV`` and results are described at the top of each.
"""

CREATE_SCRIPT = """
-- KEYS[1]: the game hash
-- ARGV[1]: record JSON; ARGV[2]: chat ids JSON; ARGV[3]: user ids JSON; ARGV[4]: deadline ("" = none)
-- ARGV[5]: nonce of this creation request
-- Returns 1 when created; 2 when this very request had created it already (its reply was lost and the client
-- sent it again); 0 when another game with this id exists.
local n = redis.call('HGET', KEYS[1], 'n')
if n then
  if n == ARGV[5] then return 2 end
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'd', ARGV[1], 's', 'a', 'c', ARGV[2], 'u', ARGV[3], 'dl', ARGV[4], 'n', ARGV[5])
return 1
"""

CAS_SCRIPT = """
-- KEYS[1]: the game hash
-- ARGV[1]: expected version
-- ARGV[2]: new record JSON
-- ARGV[3]: "1" to finish the game (refused if already finished), "0" for a plain update
-- ARGV[4]: TTL in milliseconds set when finishing
-- ARGV[5]: new deadline: "-" keeps it, "" clears it, else a number
-- Returns the new version; 0 on a version conflict (or finishing a finished game); -1 when there is no game.
local cur = redis.call('HMGET', KEYS[1], 'v', 's')
if not cur[1] then return -1 end
if tonumber(cur[1]) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[3] == '1' and cur[2] == 'f' then return 0 end
local nv = tonumber(cur[1]) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'd', ARGV[2])
if ARGV[5] ~= '-' then redis.call('HSET', KEYS[1], 'dl', ARGV[5]) end
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 's', 'f')
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return nv
"""

SET_DEADLINE_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: expected version; ARGV[2]: deadline ("" = none)
-- Returns 1 when written, 0 on a version conflict, -1 when there is no game. The version is not bumped.
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'dl', ARGV[2])
return 1
"""

SET_BOARD_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: field "b:<chat>"; ARGV[2]: "<message id>,<shown version>"; ARGV[3]: shown version
-- Returns 1 when written, 0 when a newer board state is recorded or there is no game. The version is not bumped
-- and the hash keeps its TTL.
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return 0 end
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur then
  local shown = tonumber(string.match(cur, ',(%-?%d+)$'))
  if shown and shown > tonumber(ARGV[3]) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""

CLAIM_BOARD_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: field "b:<chat>"; ARGV[2]: field "p:<chat>" (the claim "<owner>,<until>,<the
-- message it replaces>"); ARGV[3]: the expected board message id ("" = none); ARGV[4]: owner; ARGV[5]: now;
-- ARGV[6]: until ("" = only check). A claim counts only while the recorded message is the one it replaces.
-- Returns 1 when granted (and, with an "until", the claim written), 0 otherwise or when there is no game.
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return 0 end
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and string.match(cur, '^([^,]*),') ~= ARGV[3] then return 0 end
local claim = redis.call('HGET', KEYS[1], ARGV[2])
if claim then
  local owner, untl, replaces = string.match(claim, '^([^,]*),([^,]*),([^,]*)$')
  if owner ~= ARGV[4] and tonumber(untl) > tonumber(ARGV[5]) and replaces == ARGV[3] then return 0 end
end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[4] .. ',' .. ARGV[6] .. ',' .. ARGV[3]) end
return 1
"""

QUARANTINE_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: reason. Returns 1 when flagged, 0 when there is no game.
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return 0 end
redis.call('HSET', KEYS[1], 'q', ARGV[1])
return 1
"""

ADD_STATS_SCRIPT = """
-- KEYS[1]: the chat's stats hash; ARGV: user id, wins, losses, draws. Returns the counters after the increment.
return {
  redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':w', ARGV[2]),
  redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':l', ARGV[3]),
  redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':d', ARGV[4]),
}
"""

ADD_GAME_STATS_SCRIPT = """
-- KEYS[1]: the chat's stats hash; KEYS[2]: the chat's sorted set of counted game ids (same hash tag)
-- ARGV[1]: game id; ARGV[2]: now; ARGV[3]: entries at or before this time are forgotten
-- ARGV[4..]: user id, wins, losses, draws (repeated)
-- Returns 1 when added, 0 when this game was counted already (nothing changed).
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
for i = 4, #ARGV, 4 do
  redis.call('HINCRBY', KEYS[1], ARGV[i] .. ':w', ARGV[i + 1])
  redis.call('HINCRBY', KEYS[1], ARGV[i] .. ':l', ARGV[i + 2])
  redis.call('HINCRBY', KEYS[1], ARGV[i] .. ':d', ARGV[i + 3])
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
return 1
"""

MIGRATE_STATS_SCRIPT = """
-- KEYS[1]: the chat's stats hash; KEYS[2]: its "migrated" marker (same hash tag)
-- ARGV: field, value pairs read from the old un-tagged stats hash
-- Adds them once: returns 1 when merged now, 0 when the marker says they were merged before.
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
for i = 1, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('SET', KEYS[2], '1')
return 1
"""

CLAIM_CHAT_TOURNAMENT_SCRIPT = """
-- KEYS[1]: the chat's running-tournament pointer (a string "<tournament id> <claim time>")
-- ARGV[1]: the id of the tournament being created; ARGV[2]: now; ARGV[3]: the id of a tournament the caller found
-- finished or dead ("" = none)
-- Points the chat at ARGV[1] when the pointer is unset, names ARGV[3], or already names ARGV[1] (a retry: the claim
-- time is kept). Returns 1 when the pointer names ARGV[1]; else the pointer's value (the caller checks that one).
local cur = redis.call('GET', KEYS[1])
local id = cur and string.match(cur, '^%S+')
if id == ARGV[1] then return 1 end
if id and id ~= ARGV[3] then return cur end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2])
return 1
"""

RELEASE_CHAT_TOURNAMENT_SCRIPT = """
-- KEYS[1]: the chat's running-tournament pointer; ARGV[1]: a tournament id
-- Deletes the pointer when it names that tournament. Returns 1 when deleted, else 0.
local cur = redis.call('GET', KEYS[1])
if cur and string.match(cur, '^%S+') == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""

BURY_TOURNAMENT_SCRIPT = """
-- KEYS[1]: the tournament hash; ARGV[1]: TTL in milliseconds of the tombstone
-- When there is no tournament, leaves a tombstone (s = "x") so that a creation still under way cannot write it any
-- more (see CREATE_TOURNAMENT_SCRIPT). Returns the status afterwards: "a" (running), "f" (finished) or "x".
local s = redis.call('HGET', KEYS[1], 's')
if s then return s end
redis.call('HSET', KEYS[1], 's', 'x')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 'x'
"""

CREATE_TOURNAMENT_SCRIPT = """
-- KEYS[1]: the tournament hash
-- ARGV[1]: record JSON; ARGV[2]: chat id; ARGV[3]: deadline ("" = none); ARGV[4]: nonce of this creation request
-- Returns 1 when created; 2 when this very request had created it already (its reply was lost); 0 when another
-- tournament with this id exists; -1 when the id carries a tombstone (another creation took the chat over).
local cur = redis.call('HMGET', KEYS[1], 'n', 's')
if cur[1] then
  if cur[1] == ARGV[4] then return 2 end
  return 0
end
if cur[2] == 'x' then return -1 end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'd', ARGV[1], 's', 'a', 'chat', ARGV[2], 'dl', ARGV[3], 'n', ARGV[4])
return 1
"""

TOURNAMENT_CAS_SCRIPT = """
-- KEYS[1]: the tournament hash
-- ARGV[1]: expected version; ARGV[2]: new record JSON; ARGV[3]: "1" to mark it finished, "0" to keep the status
-- ARGV[4]: TTL in milliseconds set when it becomes finished; ARGV[5]: deadline: "-" keeps it, "" clears it, else a
-- number
-- Returns {new version, status afterwards}; {0, status} on a version conflict; {-1, ""} when there is no
-- tournament. Finishing a finished tournament keeps its expiry.
local cur = redis.call('HMGET', KEYS[1], 'v', 's')
if not cur[1] then return {-1, ''} end
if tonumber(cur[1]) ~= tonumber(ARGV[1]) then return {0, cur[2]} end
local nv = tonumber(cur[1]) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'd', ARGV[2])
if ARGV[5] ~= '-' then redis.call('HSET', KEYS[1], 'dl', ARGV[5]) end
local s = cur[2]
if ARGV[3] == '1' and s ~= 'f' then
  s = 'f'
  redis.call('HSET', KEYS[1], 's', s)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return {nv, s}
"""

APPLY_RATINGS_SCRIPT = """
-- KEYS[1]: the variant's ratings hash (field: user id, value: rating JSON with "m" = rated matches applied)
-- KEYS[2]: the variant's sorted set of applied match keys (same hash tag)
-- ARGV[1]: match key; ARGV[2]: now; ARGV[3]: applied match keys at or before this time are forgotten
-- ARGV[4..]: user id, expected matches, new rating JSON (repeated)
-- Returns 1 when written; 0 when this match key was applied before; -1 when a user's matches counter differs from
-- the expected one. Nothing is written unless it returns 1.
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
for i = 4, #ARGV, 3 do
  local cur = redis.call('HGET', KEYS[1], ARGV[i])
  local matches = 0
  if cur then matches = tonumber(cjson.decode(cur)['m']) or 0 end
  if matches ~= tonumber(ARGV[i + 1]) then return -1 end
end
for i = 4, #ARGV, 3 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
return 1
"""
