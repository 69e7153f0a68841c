/**
 * @animal-store/openapi-engine: serves a bundled OpenAPI contract. The application gives it its
 * names, its handlers and its store; everything else (routing, validation, credentials, rate
 * limits, deprecation, errors, ops routes, start-up and shutdown) is compiled from the spec.
 * See README.md for the request lifecycle and the start-up sequence.
 */
export { type ApiAppOptions, createApiApp } from "./api-app.js";
export type { Application, ApplicationNames, EngineStore } from "./application.js";
export {
  type ApiKeyRecord,
  type Caller,
  createKeyLookup,
  hashApiKey,
  issueApiKey,
  type KeyLookup,
  type NewKeyOptions,
  type Verifiers,
} from "./auth/security.js";
export type {
  CredentialVerifier,
  IdentifiedCredential,
  PresentedCredential,
  VerifiedCredential,
  VerifierContext,
} from "./auth/security-schemes.js";
export type { CompiledOperation, HandlerSet } from "./compiled-operation.js";
export {
  type AppConfig,
  type ConfigDefaults,
  ConfigError,
  type DatabaseConfig,
  loadConfig,
} from "./config.js";
export { type Contract, compileContract, type ServedOperation } from "./contract/contract.js";
export {
  CONNECTION_ERROR_CODES,
  ENGINE_ERROR_CODES,
  ENGINE_ERROR_STATUS,
  EngineError,
  type EngineErrorCode,
  engineErrors,
  StoreUnavailableError,
} from "./errors.js";
export { staticResponseHeaders } from "./http-server/http-server.js";
export {
  type PortHolder,
  portHolders,
  portTakenMessage,
} from "./http-server/port-holder.js";
export { createLogger, type Logger } from "./metrics/observe.js";
export { notImplemented } from "./not-implemented.js";
export type { OpsRoute } from "./ops-routes/ops-routes.js";
export {
  type BanSettings,
  createMemoryRateLimiter,
  createRateLimiter,
  createRedisRateLimiter,
  type KeyUsage,
  keyUsage,
  limitsFor,
  type PlanLimits,
  type RateLimitDecision,
  type RateLimiter,
  rateLimitHeaderEntries,
  type Usage,
  type UsageScope,
} from "./rate-limit/index.js";
export { JsonText } from "./responses/handle.js";
export type {
  Handler,
  HandlerRequest,
  HandlerResult,
  HandlerTable,
} from "./responses/handler-types.js";
export { type RunningServer, type StartOptions, startEngine } from "./start.js";
