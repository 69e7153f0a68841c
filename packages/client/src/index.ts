/**
 * @animal-store/client: the typed Animal Store API client on openapi-fetch, with bearer auth,
 * 429 backoff that honours `Retry-After`, rate-limit values and deprecation notices.
 */
export type {
  ApiError as ApiErrorBody,
  ApiErrorCode,
  components,
  NewPet,
  OperationId,
  operations,
  Pet,
  PetStatus,
  paths,
} from "@animal-store/api-types";
export { ApiError, isApiErrorBody, type SuccessData, unwrap } from "./api-error.js";
export type { ApiKeySource } from "./auth.js";
export {
  type AnimalStoreClient,
  type AnimalStoreClientOptions,
  createAnimalStoreClient,
} from "./client.js";
export { type DeprecationHandler, type DeprecationNotice, warnDeprecation } from "./deprecation.js";
export { parseRateLimit, type RateLimitInfo } from "./rate-limit.js";
export { parseRetryAfter, RETRY_DEFAULTS, type RetryOptions } from "./retry-policy.js";
