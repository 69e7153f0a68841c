/** Picks the limiter the configuration asks for. */
import { type BanSettings, banSettings } from "./ban.js";
import type { RateLimiter } from "./limiter.js";
import { createMemoryRateLimiter } from "./limits.js";
import type { RateLimitConfig } from "./rate-limit-env.js";
import { createRedisRateLimiter, type RateLimitLog } from "./redis.js";

/**
 * Redis-backed when `config.redisUrl` is set, otherwise in-process; the ban rule is the
 * contract's with the operator's overrides. Waits (bounded by the connect
 * timeout) for Redis so the first requests are counted across instances; an unreachable Redis
 * does not stop start-up: the limiter counts per instance until Redis answers.
 */
export async function createRateLimiter(
  config: RateLimitConfig,
  contractBan: BanSettings,
  log?: RateLimitLog,
  onStoreError?: () => void,
): Promise<RateLimiter> {
  const ban = banSettings(contractBan, config.ban);
  if (config.redisUrl === null) return createMemoryRateLimiter({ ban });
  const limiter = createRedisRateLimiter({
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    ban,
    ...(log ? { log } : {}),
    ...(onStoreError ? { onStoreError } : {}),
  });
  await limiter.check().catch(() => {});
  return limiter;
}
