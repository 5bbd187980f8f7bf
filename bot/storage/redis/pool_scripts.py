"""The Lua scripts of the pairing pools on Redis (:class:`~bot.storage.redis.pools.RedisPools`).

Every script gets the seven keys of ONE pool, all under the pool's hash tag (``Ppool:{<pool>}:*``, see
:mod:`bot.storage.redis.keys`), so each runs on one slot of a Redis Cluster: ``KEYS[1]`` ``z`` (members by score),
``KEYS[2]`` ``e`` (member -> entry JSON), ``KEYS[3]`` ``x`` (members by expiry), ``KEYS[4]`` ``p`` (open pairing
id -> ``<made>\\n<entry>\\n<entry>``), ``KEYS[5]`` ``pm`` (open pairing ids by made), ``KEYS[6]`` ``b`` (member ->
the open pairing it is bound to), ``KEYS[7]`` ``d`` (closed or released pairing ids by when). Numbers that go back
into a sorted set travel as text (an entry's ``"s"`` and ``"x"``), never through Lua's 14-digit number formatting.
The lease scripts (:data:`LEAD_POOL_SCRIPT`, :data:`UNLEAD_POOL_SCRIPT`) get the pool's eighth key alone, ``l``.
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

POOL_WITHDRAW_SCRIPT = (
    _FORGET_ENTRY
    + """
-- ARGV[1]: member. When it is bound to an open pairing: changes nothing, returns 2. Else deletes its entry and
-- returns 1 when there was one, else 0.
if redis.call('HEXISTS', KEYS[6], ARGV[1]) == 1 then return 2 end
local had = redis.call('HEXISTS', KEYS[2], ARGV[1])
forget_entry(ARGV[1])
return had
"""
)

POOL_ENTRIES_SCRIPT = """
-- ARGV[1]: now; ARGV[2]: limit; ARGV[3], ARGV[4]: the cursor's score (text) and member, or "" and "" for none.
-- Returns the entry JSONs of at most ``limit`` members unexpired at ``now``, by score (then member, byte order as
-- the sorted set keeps them) and after the cursor, skipping expired ones.
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local chunk = math.max(limit, 100)
local out = {}
local start = 0
-- a <= b in byte order (Lua's own string comparison follows the server's locale, the sorted set does not)
local function not_after(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a <= #b
end
if ARGV[3] ~= '' then
  local score, member = tonumber(ARGV[3]), ARGV[4]
  local own = redis.call('ZSCORE', KEYS[1], member)
  if own and tonumber(own) == score then
    start = redis.call('ZRANK', KEYS[1], member) + 1
  else
    -- the cursor's member left (or moved): skip what scores lower, then the equal scores not after it
    start = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. ARGV[3])
    while true do
      local next = redis.call('ZRANGE', KEYS[1], start, start, 'WITHSCORES')
      if #next == 0 or tonumber(next[2]) ~= score or not not_after(next[1], member) then break end
      start = start + 1
    end
  end
end
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

_CLAIM = """
-- claim(id, a, b, made text, now): the claim of CLAIM_PAIR_SCRIPT; returns {entry JSON, entry JSON} or nil.
local function claim(id, a, b, made, now)
  if redis.call('HEXISTS', KEYS[4], id) == 1 or redis.call('ZSCORE', KEYS[7], id) then return nil end
  local raws = {}
  for i, m in ipairs({a, b}) do
    local raw = redis.call('HGET', KEYS[2], m)
    if not raw then return nil end
    local x = redis.call('ZSCORE', KEYS[3], m)
    if x and tonumber(x) <= now then return nil end
    raws[i] = raw
  end
  for _, m in ipairs({a, b}) do
    forget_entry(m)
    redis.call('HSET', KEYS[6], m, id)
  end
  redis.call('HSET', KEYS[4], id, made .. '\\n' .. raws[1] .. '\\n' .. raws[2])
  redis.call('ZADD', KEYS[5], made, id)
  return raws
end
"""

CLAIM_PAIR_SCRIPT = (
    _FORGET_ENTRY
    + _CLAIM
    + """
-- ARGV[1]: pairing id; ARGV[2], ARGV[3]: the members; ARGV[4]: now (text).
-- When the id is neither open nor remembered, and both members wait unexpired at ``now``: takes both out of the
-- pool, binds them to the pairing and stores it as open. Returns {entry JSON, entry JSON}, else false (nothing
-- changed).
local raws = claim(ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[4]))
if not raws then return false end
return raws
"""
)

CLAIM_PAIRS_SCRIPT = (
    _FORGET_ENTRY
    + _CLAIM
    + """
-- ARGV[1]: now (text); then ARGV[2..]: a pairing id and its two members, for each claim in order.
-- Each claim as CLAIM_PAIR_SCRIPT, one after the other. Returns {index (1-based), entry JSON, entry JSON, ...}
-- for the claims made.
local now = tonumber(ARGV[1])
local out = {}
for i = 2, #ARGV - 2, 3 do
  local raws = claim(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[1], now)
  if raws then
    table.insert(out, (i + 1) / 3)
    table.insert(out, raws[1])
    table.insert(out, raws[2])
  end
end
return out
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

CLOSE_PAIRINGS_SCRIPT = (
    _UNBIND
    + """
-- ARGV[1]: now; ARGV[2]: remembered ids at or before this time are forgotten; ARGV[3..]: pairing ids.
-- Closes each open one as CLOSE_PAIRING_SCRIPT does. Returns how many were open.
local closed = 0
for i = 3, #ARGV do
  local value = redis.call('HGET', KEYS[4], ARGV[i])
  if value then
    local e1, e2 = split(value)
    unbind(ARGV[i], e1)
    unbind(ARGV[i], e2)
    remember(ARGV[i], ARGV[1], ARGV[2])
    closed = closed + 1
  end
end
return closed
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

LEAD_POOL_SCRIPT = """
-- KEYS[1]: the pool's lease key (``l``); ARGV[1]: owner; ARGV[2]: now (text); ARGV[3]: until (text);
-- ARGV[4]: ttl in milliseconds. The value is ``<until>\\n<owner>``; granted when the key is missing, names the
-- owner, or its ``until`` is at or before ``now`` (the key also expires on the server's clock, after ``ttl``,
-- so a holder that died leaves nothing behind). Returns 1 when granted, else 0.
local value = redis.call('GET', KEYS[1])
if value then
  local cut = string.find(value, '\\n', 1, true)
  local until_, holder = tonumber(string.sub(value, 1, cut - 1)), string.sub(value, cut + 1)
  if holder ~= ARGV[1] and until_ > tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[3] .. '\\n' .. ARGV[1], 'PX', ARGV[4])
return 1
"""

UNLEAD_POOL_SCRIPT = """
-- KEYS[1]: the pool's lease key; ARGV[1]: owner. Deletes the lease when the owner holds it. Returns 1 if so.
local value = redis.call('GET', KEYS[1])
if value and string.sub(value, string.find(value, '\\n', 1, true) + 1) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
