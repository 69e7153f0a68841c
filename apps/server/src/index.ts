/** Public API of @animal-store/server, for tests, benchmarks and gates of other packages. */
export type { Plan } from "@animal-store/api-types";
export type { AppDeps } from "./animal-store/app.js";
export { createApp } from "./animal-store/app.js";
export { animalStoreApplication } from "./animal-store/application.js";
export { createHandlers, type Handlers, type PetHandler } from "./animal-store/handlers.js";
export type { PetStore, Store } from "./animal-store/store/index.js";
export { openStore } from "./animal-store/store/index.js";
export { openPostgresStore } from "./animal-store/store/postgres.js";
export { openSqliteStore, SqliteStore } from "./animal-store/store/sqlite.js";
export type { EngineDeps, LimiterLike } from "./engine/app.js";
export { createEngineApp } from "./engine/app.js";
export type { ApiKeyStore, NewApiKey } from "./engine/auth/api-key-store.js";
export type { NewKeyOptions } from "./engine/auth/api-keys.js";
export { createKeyLookup, hashApiKey, issueApiKey } from "./engine/auth/api-keys.js";
export type { ApiKeyRecord, Caller, KeyLookup } from "./engine/auth/caller.js";
export type { AppConfig, DatabaseConfig } from "./engine/config.js";
export { ConfigError, loadConfig } from "./engine/config.js";
export {
  type CompiledOperation,
  type Contract,
  compileContract,
} from "./engine/contract/contract.js";
export { type ExampleRequest, exampleRequest } from "./engine/contract/example-requests.js";
export type {
  Handler,
  HandlerRequest,
  HandlerResult,
  HandlerTable,
} from "./engine/contract/handler-types.js";
export { ApiHttpError, StoreUnavailableError } from "./engine/http/errors.js";
export { createLogger } from "./engine/node/logger.js";
export type { ApiApplication, StartOptions } from "./engine/node/server.js";
export { startApiServer } from "./engine/node/server.js";
export type {
  BanSettings,
  PlanLimits,
  RateLimitConfig,
  RateLimitDecision,
  RateLimiter,
} from "./engine/rate-limit/index.js";
export {
  banSettings,
  createMemoryRateLimiter,
  createRateLimiter,
  createRedisRateLimiter,
  limitsFor,
  parseRateLimitEnv,
} from "./engine/rate-limit/index.js";
export { type RunningServer, startServer } from "./server.js";
