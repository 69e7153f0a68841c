/** Public API of @animal-store/server, for tests, benchmarks and gates of other packages. */
export type { NewKeyOptions } from "./api-keys.js";
export { hashApiKey, issueApiKey, PLANS } from "./api-keys.js";
export type { AppDeps, LimiterLike } from "./app.js";
export { createApp } from "./app.js";
export type { ApiKeyRecord, Caller, KeyLookup, Plan } from "./auth.js";
export type { AppConfig, DatabaseConfig } from "./config.js";
export { ConfigError, loadConfig } from "./config.js";
export { ApiHttpError, StoreUnavailableError } from "./errors.js";
export type { Handler, HandlerRequest, HandlerResult, Handlers } from "./handlers/index.js";
export { createLogger } from "./logger.js";
export type {
  BanSettings,
  PlanLimits,
  RateLimitConfig,
  RateLimitDecision,
  RateLimiter,
} from "./rate-limit/index.js";
export {
  BAN_DEFAULTS,
  createMemoryRateLimiter,
  createRateLimiter,
  createRedisRateLimiter,
  PLAN_LIMITS,
  parseRateLimitEnv,
} from "./rate-limit/index.js";
export type { RunningServer, StartOptions } from "./server.js";
export { startServer } from "./server.js";
export type { NewApiKey, Store } from "./store/index.js";
export { openStore } from "./store/index.js";
export { openPostgresStore } from "./store/postgres.js";
export { openSqliteStore } from "./store/sqlite.js";
