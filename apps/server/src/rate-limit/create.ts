/** Picks the limiter the configuration asks for. */
import type { RateLimitConfig } from "./config.js";
import type { RateLimiter } from "./limiter.js";
import { createMemoryRateLimiter } from "./memory.js";
import { createRedisRateLimiter, type RateLimitLog } from "./redis.js";

/** Redis-backed when `config.redisUrl` is set, otherwise in-process. */
export function createRateLimiter(config: RateLimitConfig, log?: RateLimitLog): RateLimiter {
  if (config.redisUrl === null) return createMemoryRateLimiter({ ban: config.ban });
  return createRedisRateLimiter({
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    ban: config.ban,
    ...(log ? { log } : {}),
  });
}
