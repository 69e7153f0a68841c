/**
 * The one error type of the server. Everything that goes wrong (validation, auth, rate limits,
 * storage, bugs) ends up as an ApiHttpError, and the error handler turns it into the contract's
 * `Error` body `{ code, message, status }`.
 */

/** The codes the engine itself answers with; the contract's Error schema must list each one. */
export const ENGINE_ERROR_CODES = [
  "validation_failed",
  "malformed_json",
  "unauthorized",
  "invalid_api_key",
  "not_found",
  "method_not_allowed",
  "gone",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "api_key_banned",
  "internal_error",
  "service_unavailable",
] as const;

/** A code the engine answers with. */
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

/** The one error type: the error handler turns it into the contract's Error body. */
export class ApiHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiHttpError";
  }
}

/** Marks a failure of a backing store (database, Redis) so the error handler answers 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}
