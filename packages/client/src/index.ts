/**
 * @animal-store/client: the typed Animal Store API client on openapi-fetch, with bearer auth,
 * a request id per call, timeouts and a deadline, pacing under the key's rate limit, retries
 * that honour `Retry-After`, per-response metadata, deprecation notices and paging.
 */
// The contract's types: paths, components, operations and a named type per component schema
// (generated from the schema names), the error body derived from its error responses.
export type * from "@animal-store/api-types";
export type { ApiError as ApiErrorBody } from "@animal-store/api-types";
export { ApiError, isApiErrorBody, type SuccessData, unwrap } from "./api-error.js";
export type { ApiKeySource } from "./auth.js";
export {
  type CallFailureContext,
  NetworkError,
  RateLimitError,
  type RateLimitRefusal,
  TimeoutError,
  type TimeoutKind,
} from "./call-errors.js";
export type { CallOptions, RetryEvent, RetryHandler } from "./call-options.js";
export { type AnimalStoreClientOptions, createAnimalStoreClient } from "./client.js";
export {
  type AnimalStoreClient,
  asOpenapiFetchClient,
  type CallResult,
  type ClientMethod,
  type ClientPages,
  type ClientRequestMethod,
} from "./client-types.js";
export { type DeprecationHandler, type DeprecationNotice, warnDeprecation } from "./deprecation.js";
export { PACING_DEFAULTS, type PacingOptions, type PacingWaitEvent } from "./pacer.js";
export { nextPageUrl, type Page } from "./pages.js";
export { parseRateLimit, type RateLimitInfo } from "./rate-limit.js";
export { type ResponseMeta, responseMeta } from "./response-meta.js";
export {
  IDEMPOTENT_METHODS,
  parseRetryAfter,
  RETRY_DEFAULTS,
  type RetryOptions,
} from "./retry-policy.js";
