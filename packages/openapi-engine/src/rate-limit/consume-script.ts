/**
 * The Redis side of consume(): one Lua script, so checking the ban, checking both windows,
 * counting the request, counting refusals and starting a ban happen atomically across instances.
 * Time comes from the caller (ARGV[3]), not Redis TIME, so instances need synchronised clocks
 * (NTP) and tests can use a fake clock. TTLs are relative to that time, plus a minute of grace
 * for clock skew; the window index in each key name keeps windows apart.
 *
 * KEYS: minute count, day count, ban end (Unix s), refusals in the minute, refusals in the day.
 * ARGV: perMinute, perDay, nowMs, minuteEndMs, dayEndMs, ban threshold, ban seconds, eligible,
 * and optionally how many requests to count (default 1).
 * Returns, per request, {outcome (1 allowed, 0 limited, 2 banned), minute count, day count, ban
 * end}: four numbers each, flattened. Counting n requests in one call decides exactly as n calls
 * one after another would (the loop re-reads every key), since a script runs atomically; the
 * limiter sends one call for the requests of one subject that arrive in the same turn of the
 * event loop (redis.ts).
 */
export const CONSUME_SCRIPT = `
local function one()
  local now = tonumber(ARGV[3])
  local grace = 60000
  local m = tonumber(redis.call('GET', KEYS[1]) or '0')
  local d = tonumber(redis.call('GET', KEYS[2]) or '0')
  local banUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
  if banUntil * 1000 > now then return {2, m, d, banUntil} end
  local perMinute = tonumber(ARGV[1])
  local perDay = tonumber(ARGV[2])
  if m < perMinute and d < perDay then
    m = redis.call('INCR', KEYS[1])
    if m == 1 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) - now + grace) end
    d = redis.call('INCR', KEYS[2])
    if d == 1 then redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[5]) - now + grace) end
    return {1, m, d, 0}
  end
  local refusedKey = KEYS[4]
  local windowEnd = tonumber(ARGV[4])
  if perDay - d <= perMinute - m then
    refusedKey = KEYS[5]
    windowEnd = tonumber(ARGV[5])
  end
  local refused = redis.call('INCR', refusedKey)
  if refused == 1 then redis.call('PEXPIRE', refusedKey, windowEnd - now + grace) end
  local banSeconds = tonumber(ARGV[7])
  if ARGV[8] == '1' and banSeconds > 0 and refused > tonumber(ARGV[6]) then
    local untilSeconds = math.floor(now / 1000) + banSeconds
    redis.call('SET', KEYS[3], untilSeconds, 'PX', untilSeconds * 1000 - now)
    redis.call('DEL', refusedKey)
    return {2, m, d, untilSeconds}
  end
  return {0, m, d, 0}
end
local out = {}
for _ = 1, tonumber(ARGV[9] or '1') do
  local r = one()
  for i = 1, 4 do out[#out + 1] = r[i] end
end
return out
`;
