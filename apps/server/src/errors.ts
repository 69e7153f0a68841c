/**
 * The one error type of the server. Everything that goes wrong (validation, auth, rate limits,
 * storage, bugs) ends up as an ApiHttpError, and the error handler turns it into the spec's
 * `Error` body `{ code, message, status }`.
 */
import type { ApiErrorCode } from "@animal-store/api-types";

/** The one error type: the error handler turns it into the spec's Error body. */
export class ApiHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
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
