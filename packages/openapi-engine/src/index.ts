/**
 * @animal-store/openapi-engine: serves a bundled OpenAPI contract. The application gives it its
 * handlers, its store and its names; everything else (routing, validation, credentials, rate
 * limits, deprecation, errors, ops routes, start-up and shutdown) is compiled from the spec.
 */
export type { EngineDeps, LimiterLike } from "./app.js";
export { createEngineApp } from "./app.js";
export type { ApiKeyStore, NewApiKey } from "./auth/api-key-store.js";
export type { NewKeyOptions } from "./auth/api-keys.js";
export { createKeyLookup, hashApiKey, issueApiKey } from "./auth/api-keys.js";
export type { ApiKeyRecord, Caller, KeyLookup } from "./auth/caller.js";
export type { AppConfig, ConfigDefaults, DatabaseConfig } from "./config.js";
export { ConfigError, loadConfig } from "./config.js";
export {
  type CompiledOperation,
  type Contract,
  compileContract,
} from "./contract/contract.js";
export { type ExampleRequest, exampleRequest } from "./contract/example-requests.js";
export type {
  Handler,
  HandlerRequest,
  HandlerResult,
  HandlerTable,
} from "./contract/handler-types.js";
export { parameterDefault } from "./contract/parameter-defaults.js";
export {
  CONNECTION_ERROR_CODES,
  ENGINE_ERROR_CODES,
  EngineError,
  type EngineErrorCode,
  engineErrors,
  StoreUnavailableError,
} from "./errors.js";
export { createLogger } from "./node/logger.js";
export type {
  ApiApplication,
  ApplicationNames,
  RunningServer,
  StartOptions,
} from "./node/server.js";
export { startApiServer } from "./node/server.js";
export type {
  BanSettings,
  PlanLimits,
  RateLimitConfig,
  RateLimitDecision,
  RateLimiter,
} from "./rate-limit/index.js";
export {
  banSettings,
  createMemoryRateLimiter,
  createRateLimiter,
  createRedisRateLimiter,
  limitsFor,
  parseRateLimitEnv,
} from "./rate-limit/index.js";
