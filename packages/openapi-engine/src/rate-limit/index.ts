/** Rate limits per plan, per key (or per address without one), per UTC minute and UTC day. */
export { type BanSettings, banSettings } from "./ban.js";
export { createRateLimiter } from "./create.js";
export type { ConsumeOptions, RateLimiter, Usage } from "./limiter.js";
export {
  createMemoryRateLimiter,
  limitsFor,
  type MemoryRateLimiter,
  type MemoryRateLimiterOptions,
  type PlanLimits,
  type RateLimitDecision,
  type RateLimitOptions,
  rateLimit,
  rateLimitHeaderEntries,
  rateLimitSubject,
  setRateLimitHeaders,
  type UnknownPlanWarning,
} from "./limits.js";
export { parseRateLimitEnv, type RateLimitConfig } from "./rate-limit-env.js";
export {
  createRedisRateLimiter,
  type RateLimitLog,
  type RedisRateLimiterOptions,
} from "./redis.js";
export { type KeyUsage, keyUsage, type UsageScope } from "./usage.js";
