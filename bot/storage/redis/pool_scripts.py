"""The Lua scripts of the pairing pools on Redis (:class:`~bot.storage.redis.pools.RedisPools`).

Every script gets the seven keys of ONE pool, all under the pool's hash tag (``Ppool:{<pool>}:*``, see
:mod:`bot.storage.redis.keys`), so each runs on one slot of a Redis Cluster: ``KEYS[1]`` ``z`` (members by score),
``KEYS[2]`` ``e`` (member -> entry JSON), ``KEYS[3]`` ``x`` (members by expiry), ``KEYS[4]`` ``p`` (open pairing
id -> ``<made>\\n<entry>\\n<entry>``), ``KEYS[5]`` ``pm`` (open pairing ids by made), ``KEYS[6]`` ``b`` (member ->
the open pairing it is bound to), ``KEYS[7]`` ``d`` (closed or released pairing ids by when). Numbers that go back
into a sorted set travel as text (an entry's ``"s"`` and ``"x"``), never through Lua's 14-digit number formatting.
"""

_FORGET_ENTRY = """
local function forget_entry(m)
  redis.call('ZREM', KEYS[1], m)
  redis.call('HDEL', KEYS[2], m)
  redis.call('ZREM', KEYS[3], m)
end
"""

_UNBIND = """
-- unbind(id, entry JSON): drops the member's binding when it names pairing ``id``; returns the member when it did.
local function unbind(id, raw)
  local m = cjson.decode(raw)['m']
  if redis.call('HGET', KEYS[6], m) == id then
    redis.call('HDEL', KEYS[6], m)
    return m
  end
  return nil
end
local function split(value)
  local a = string.find(value, '\\n', 1, true)
  local b = string.find(value, '\\n', a + 1, true)
  return string.sub(value, a + 1, b - 1), string.sub(value, b + 1)
end
local function remember(id, now, cutoff)
  redis.call('HDEL', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
  redis.call('ZADD', KEYS[7], now, id)
  redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', cutoff)
end
"""

POOL_PUT_SCRIPT = """
-- ARGV[1]: member; ARGV[2]: score (text); ARGV[3]: entry JSON; ARGV[4]: expiry (text, "" = never).
-- Adds or replaces the member's entry and unbinds it from an open pairing. Returns 1.
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[3], ARGV[1])
else
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
end
redis.call('HDEL', KEYS[6], ARGV[1])
return 1
"""

POOL_REMOVE_SCRIPT = (
    _FORGET_ENTRY
    + """
-- ARGV[1]: member. Deletes its entry and its binding. Returns 1 when there was either, else 0.
local had = redis.call('HEXISTS', KEYS[2], ARGV[1]) + redis.call('HDEL', KEYS[6], ARGV[1])
forget_entry(ARGV[1])
if had > 0 then return 1 end
return 0
"""
)

POOL_ENTRIES_SCRIPT = """
-- ARGV[1]: now; ARGV[2]: limit. Returns the entry JSONs of at most ``limit`` members unexpired at ``now``, by
-- score (then member), skipping expired ones.
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local chunk = math.max(limit, 100)
local out = {}
local start = 0
while #out < limit do
  local members = redis.call('ZRANGE', KEYS[1], start, start + chunk - 1)
  if #members == 0 then break end
  for _, m in ipairs(members) do
    local x = redis.call('ZSCORE', KEYS[3], m)
    if not x or tonumber(x) > now then
      local raw = redis.call('HGET', KEYS[2], m)
      if raw then
        table.insert(out, raw)
        if #out >= limit then break end
      end
    end
  end
  start = start + chunk
end
return out
"""

CLAIM_PAIR_SCRIPT = (
    _FORGET_ENTRY
    + """
-- ARGV[1]: pairing id; ARGV[2], ARGV[3]: the members; ARGV[4]: now (text).
-- When the id is neither open nor remembered, and both members wait unexpired at ``now``: takes both out of the
-- pool, binds them to the pairing and stores it as open. Returns {entry JSON, entry JSON}, else false (nothing
-- changed).
local id = ARGV[1]
if redis.call('HEXISTS', KEYS[4], id) == 1 or redis.call('ZSCORE', KEYS[7], id) then return false end
local now = tonumber(ARGV[4])
local raws = {}
for i = 2, 3 do
  local raw = redis.call('HGET', KEYS[2], ARGV[i])
  if not raw then return false end
  local x = redis.call('ZSCORE', KEYS[3], ARGV[i])
  if x and tonumber(x) <= now then return false end
  raws[i - 1] = raw
end
for i = 2, 3 do
  forget_entry(ARGV[i])
  redis.call('HSET', KEYS[6], ARGV[i], id)
end
redis.call('HSET', KEYS[4], id, ARGV[4] .. '\\n' .. raws[1] .. '\\n' .. raws[2])
redis.call('ZADD', KEYS[5], ARGV[4], id)
return raws
"""
)

OPEN_PAIRINGS_SCRIPT = """
-- ARGV[1]: made before (exclusive); ARGV[2]: limit. Returns {id, value, id, value, ...}, oldest first.
local ids = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local value = redis.call('HGET', KEYS[4], id)
  if value then
    table.insert(out, id)
    table.insert(out, value)
  end
end
return out
"""

CLOSE_PAIRING_SCRIPT = (
    _UNBIND
    + """
-- ARGV[1]: pairing id; ARGV[2]: now; ARGV[3]: remembered ids at or before this time are forgotten.
-- Forgets the open pairing (its members unbound, its id remembered). Returns 1 when it was open, else 0.
local value = redis.call('HGET', KEYS[4], ARGV[1])
if not value then return 0 end
local e1, e2 = split(value)
unbind(ARGV[1], e1)
unbind(ARGV[1], e2)
remember(ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

RELEASE_PAIRING_SCRIPT = (
    _UNBIND
    + """
-- ARGV[1]: pairing id; ARGV[2]: now; ARGV[3]: remembered ids at or before this time are forgotten.
-- Puts back each member still bound to the pairing (not put again, removed or claimed since) with its claimed
-- entry, then forgets the pairing as CLOSE_PAIRING_SCRIPT does. Returns 1 when it was open, else 0.
local value = redis.call('HGET', KEYS[4], ARGV[1])
if not value then return 0 end
local e1, e2 = split(value)
for _, raw in ipairs({e1, e2}) do
  local m = unbind(ARGV[1], raw)
  if m and redis.call('HEXISTS', KEYS[2], m) == 0 then
    local entry = cjson.decode(raw)
    redis.call('ZADD', KEYS[1], entry['s'], m)
    redis.call('HSET', KEYS[2], m, raw)
    if entry['x'] ~= '' then redis.call('ZADD', KEYS[3], entry['x'], m) end
  end
end
remember(ARGV[1], ARGV[2], ARGV[3])
return 1
"""
)

PURGE_POOL_SCRIPT = (
    _FORGET_ENTRY
    + """
-- ARGV[1]: now; ARGV[2]: batch; ARGV[3]: remembered pairing ids at or before this time are forgotten.
-- Deletes at most ``batch`` entries expired at ``now`` and trims the remembered ids.
-- Returns {entries deleted, 1 when the pool holds nothing at all any more else 0}.
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, m in ipairs(gone) do forget_entry(m) end
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', ARGV[3])
local empty = 1
for i = 1, 7 do
  if redis.call('EXISTS', KEYS[i]) == 1 then empty = 0 end
end
return {#gone, empty}
"""
)
