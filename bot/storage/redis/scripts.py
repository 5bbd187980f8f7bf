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

FENCE_BOARD_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: field "b:<chat>" (the board state "<message id>,<shown version>"); ARGV[2]: field
-- "p:<chat>" (the lease "<owner>,<until>,<the message it is about>"); ARGV[3]: the message the call is about
-- ("" = none); ARGV[4]: owner; ARGV[5]: now; ARGV[6]: until ("" = only check); ARGV[7]: the version the call draws
-- ("" = no version check); ARGV[8]: "1" for a post (a new message), "0" for an edit.
-- A lease counts only while the recorded message is the one it is about. Returns "granted" (and, with an "until",
-- the lease written), else the refusal: "gone", "moved", "busy", "outdated" or "shown".
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return 'gone' end
local cur = redis.call('HGET', KEYS[1], ARGV[1])
local shown = nil
if cur then
  local msg, s = string.match(cur, '^([^,]*),(%-?%d+)$')
  if msg ~= ARGV[3] then return 'moved' end
  shown = tonumber(s)
end
local lease = redis.call('HGET', KEYS[1], ARGV[2])
if lease then
  local owner, untl, about = string.match(lease, '^([^,]*),([^,]*),([^,]*)$')
  if owner ~= ARGV[4] and tonumber(untl) > tonumber(ARGV[5]) and about == ARGV[3] then return 'busy' end
end
if ARGV[7] ~= '' then
  local drawn = tonumber(ARGV[7])
  if drawn < tonumber(v) then return 'outdated' end
  if ARGV[8] ~= '1' and shown and shown >= drawn then return 'shown' end
end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[4] .. ',' .. ARGV[6] .. ',' .. ARGV[3]) end
return 'granted'
"""

_ADD_STALE = """
-- add_stale(hash, field, id, kept): appends message ``id`` ("" = none) to the stale list in ``field`` of ``hash``
-- ("<id>,<id>,...", each once, the oldest dropped beyond ``kept``).
local function add_stale(hash, field, id, kept)
  if id == '' then return end
  local list = redis.call('HGET', hash, field)
  local ids = {}
  if list then
    for each in string.gmatch(list, '[^,]+') do
      if each ~= id then table.insert(ids, each) end
    end
  end
  table.insert(ids, id)
  while #ids > tonumber(kept) do table.remove(ids, 1) end
  redis.call('HSET', hash, field, table.concat(ids, ','))
end
"""

LAND_BOARD_SCRIPT = (
    _ADD_STALE
    + """
-- KEYS[1]: the game hash; ARGV[1]: field "b:<chat>"; ARGV[2]: field "p:<chat>" (the lease); ARGV[3]: field "x:<chat>"
-- (the stale messages "<id>,<id>,..."); ARGV[4]: owner; ARGV[5]: now; ARGV[6]: the message shown ("" = none);
-- ARGV[7]: the version it shows ("" = nothing was shown: only give the lease up); ARGV[8]: at most this many stale
-- messages are kept.
-- Returns the saved version, or -1 when there is no game.
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
local mine = true
local lease = redis.call('HGET', KEYS[1], ARGV[2])
if lease then
  local owner, untl = string.match(lease, '^([^,]*),([^,]*),')
  if owner == ARGV[4] then
    redis.call('HDEL', KEYS[1], ARGV[2])
  elseif tonumber(untl) > tonumber(ARGV[5]) then
    mine = false
  end
end
if ARGV[7] == '' then return tonumber(v) end
local state = ARGV[6] .. ',' .. ARGV[7]
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then
  redis.call('HSET', KEYS[1], ARGV[1], state)
  return tonumber(v)
end
local msg, shown = string.match(cur, '^([^,]*),(%-?%d+)$')
if msg == ARGV[6] then
  if mine or tonumber(ARGV[7]) < tonumber(shown) then redis.call('HSET', KEYS[1], ARGV[1], state) end
elseif mine then
  redis.call('HSET', KEYS[1], ARGV[1], state)
  add_stale(KEYS[1], ARGV[3], msg, ARGV[8])
else
  add_stale(KEYS[1], ARGV[3], ARGV[6], ARGV[8])
end
return tonumber(v)
"""
)

DEMOTE_BOARD_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: field "b:<chat>"; ARGV[2]: field "p:<chat>" (the lease); ARGV[3]: the message id;
-- ARGV[4]: the version Telegram says it shows; ARGV[5]: the shown version the caller read; ARGV[6]: now.
-- Returns 1 when the shown version was lowered to ARGV[4], else 0.
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local msg, shown = string.match(cur, '^([^,]*),(%-?%d+)$')
if msg ~= ARGV[3] or tonumber(shown) ~= tonumber(ARGV[5]) or tonumber(shown) <= tonumber(ARGV[4]) then return 0 end
local lease = redis.call('HGET', KEYS[1], ARGV[2])
if lease then
  local untl = string.match(lease, '^[^,]*,([^,]*),')
  if tonumber(untl) > tonumber(ARGV[6]) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], msg .. ',' .. ARGV[4])
return 1
"""

ADOPT_BOARD_SCRIPT = (
    _ADD_STALE
    + """
-- KEYS[1]: the game hash; ARGV[1]: field "b:<chat>"; ARGV[2]: field "p:<chat>" (the lease); ARGV[3]: field "x:<chat>"
-- (the stale messages); ARGV[4]: the message id; ARGV[5]: the version it shows; ARGV[6]: now; ARGV[7]: at most this
-- many stale messages are kept.
-- Returns "granted" (the message is the chat's board now), "busy", "moved" or "gone".
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return 'gone' end
local lease = redis.call('HGET', KEYS[1], ARGV[2])
if lease then
  local untl = string.match(lease, '^[^,]*,([^,]*),')
  if tonumber(untl) > tonumber(ARGV[6]) then return 'busy' end
end
local cur = redis.call('HGET', KEYS[1], ARGV[1])
local msg = ''
if cur then msg = string.match(cur, '^([^,]*),') end
if msg ~= '' and tonumber(msg) >= tonumber(ARGV[4]) then return 'moved' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4] .. ',' .. ARGV[5])
add_stale(KEYS[1], ARGV[3], msg, ARGV[7])
return 'granted'
"""
)

MARK_SEEN_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: the awaited action's number on the clock; ARGV[2]: when its board was seen;
-- ARGV[3]: the clock's deadline from then ("" = none), lowering an active game's "dl" when later.
-- Returns the time recorded for that action (an earlier mark's when there is one), "" when a later action is marked
-- (nothing written), or false when there is no game. The version is not bumped; field "w" holds "<action>,<at>".
if redis.call('HEXISTS', KEYS[1], 'v') == 0 then return false end
local cur = redis.call('HGET', KEYS[1], 'w')
if cur then
  local action, at = string.match(cur, '^([^,]*),(.*)$')
  if action and tonumber(action) == tonumber(ARGV[1]) then return at end
  if action and tonumber(action) > tonumber(ARGV[1]) then return '' end
end
redis.call('HSET', KEYS[1], 'w', ARGV[1] .. ',' .. ARGV[2])
if ARGV[3] ~= '' and redis.call('HGET', KEYS[1], 's') ~= 'f' and redis.call('HEXISTS', KEYS[1], 'q') == 0 then
  local dl = redis.call('HGET', KEYS[1], 'dl')
  if not dl or dl == '' or tonumber(dl) > tonumber(ARGV[3]) then redis.call('HSET', KEYS[1], 'dl', ARGV[3]) end
end
return ARGV[2]
"""

FORGET_STALE_SCRIPT = """
-- KEYS[1]: the game hash; ARGV[1]: field "x:<chat>" (the stale messages); ARGV[2]: the message id to remove.
-- Returns 1 when it was listed, else 0.
local list = redis.call('HGET', KEYS[1], ARGV[1])
if not list then return 0 end
local ids, found = {}, 0
for each in string.gmatch(list, '[^,]+') do
  if each == ARGV[2] then found = 1 else table.insert(ids, each) end
end
if #ids == 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], table.concat(ids, ','))
end
return found
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

TAKE_SEND_SCRIPT = """
-- KEYS[1]: the chat's recent calls (sorted set, score: time); KEYS[2]: all recent calls of the bot; KEYS[3]: the time
-- before which no call may be made in the chat.
-- ARGV[1]: now; ARGV[2]: count; ARGV[3]: interval; ARGV[4]: per window; ARGV[5]: window; ARGV[6]: per second;
-- ARGV[7]: token; ARGV[8]: milliseconds the keys are kept after a call.
-- Returns "0" when granted (the calls recorded), else the seconds to wait (a string; nothing recorded).
local now = tonumber(ARGV[1])
local per_window = tonumber(ARGV[4])
local window = tonumber(ARGV[5])
local per_second = tonumber(ARGV[6])
local count = math.min(tonumber(ARGV[2]), per_window)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 1)
local wait = 0
local nxt = tonumber(redis.call('GET', KEYS[3]) or '0')
if nxt > now then wait = nxt - now end
local function room(key, limit, span)
  local n = redis.call('ZCARD', key)
  local over = n + count - limit
  if over <= 0 then return end
  local oldest = redis.call('ZRANGE', key, over - 1, over - 1, 'WITHSCORES')
  local w = tonumber(oldest[2]) + span - now
  if w > wait then wait = w end
end
room(KEYS[1], per_window, window)
room(KEYS[2], per_second, 1)
if wait > 0 then return tostring(wait) end
for i = 1, count do
  redis.call('ZADD', KEYS[1], now, ARGV[7] .. '#' .. i)
  redis.call('ZADD', KEYS[2], now, ARGV[7] .. '#' .. i)
end
redis.call('SET', KEYS[3], tostring(now + tonumber(ARGV[3])), 'PX', ARGV[8])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
return '0'
"""

REFUND_SEND_SCRIPT = """
-- KEYS[1]: the chat's recent calls; KEYS[2]: all recent calls of the bot; ARGV[1]: token; ARGV[2]: how many calls
-- it took. Removes them. Returns how many were still recorded in the chat.
local removed = 0
for i = 1, tonumber(ARGV[2]) do
  removed = removed + redis.call('ZREM', KEYS[1], ARGV[1] .. '#' .. i)
  redis.call('ZREM', KEYS[2], ARGV[1] .. '#' .. i)
end
return removed
"""

HOLD_SENDS_SCRIPT = """
-- KEYS[1]: the time before which no call may be made in the chat; ARGV[1]: until; ARGV[2]: milliseconds to keep it.
-- Sets it to ARGV[1] unless a later time is there. Returns 1 when set, else 0.
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

TAKE_TOKEN_SCRIPT = """
-- KEYS[1]: the rate bucket: the time at which it is full again (a string; no key: full).
-- ARGV[1]: now; ARGV[2]: seconds per token (1 / rate); ARGV[3]: burst; ARGV[4]: milliseconds the key is kept beyond
-- the time it is full again.
-- Returns "0" when a token was taken (the new time recorded), else the seconds until there is one (a string;
-- nothing recorded). A recorded time before now is a full bucket (GCRA: the bucket's tokens are burst minus
-- (full - now) * rate).
local now = tonumber(ARGV[1])
local step = tonumber(ARGV[2])
local full = tonumber(redis.call('GET', KEYS[1]) or '0')
if full < now then full = now end
local wait = full - now - (tonumber(ARGV[3]) - 1) * step
if wait > 1e-9 then return string.format('%.17g', wait) end
full = full + step
redis.call('SET', KEYS[1], string.format('%.17g', full), 'PX', math.ceil((full - now) * 1000) + tonumber(ARGV[4]))
return '0'
"""
