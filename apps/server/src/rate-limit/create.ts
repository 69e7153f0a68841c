/** Picks the limiter the configuration asks for. */
import type { RateLimitConfig } from "./config.js";
import type { RateLimiter } from "./limiter.js";
import { createMemoryRateLimiter } from "./memory.js";
import { createRedisRateLimiter, type RateLimitLog } from "./redis.js";

/**
 * Redis-backed when `config.redisUrl` is set, otherwise in-process. Waits (bounded by the connect
 * timeout) for Redis so the first requests are counted across instances; an unreachable Redis
 * does not stop start-up: the limiter counts per instance until Redis answers.
 */
export async function createRateLimiter(
  config: RateLimitConfig,
  log?: RateLimitLog,
): Promise<RateLimiter> {
  if (config.redisUrl === null) return createMemoryRateLimiter({ ban: config.ban });
  const limiter = createRedisRateLimiter({
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    ban: config.ban,
    ...(log ? { log } : {}),
  });
  await limiter.check().catch(() => {});
  return limiter;
}
