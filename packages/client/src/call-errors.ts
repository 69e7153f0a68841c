/**
 * What a call throws when it ends without a response to return. Each names the operation and the
 * request id (the `X-Request-Id` the client sent, which the server logs), so a failure can be
 * found in the server's logs. A caller's own abort is not wrapped: it rejects with the signal's
 * reason, as `fetch` does.
 */

/** Where a call stood when it failed: which operation, which request id, after how many attempts. */
export interface CallFailureContext {
  /** The spec's operationId (e.g. "getPet"), or "METHOD /path" for a path the spec does not list. */
  readonly operationId: string;
  /** The `X-Request-Id` the call sent (every attempt of a call sends the same one). */
  readonly requestId: string | undefined;
  /** Attempts sent before the call ended (0 when it ended before sending). */
  readonly attempts: number;
}

/** Which limit a {@link TimeoutError} hit: one attempt's `timeoutMs` or the call's `deadlineMs`. */
export type TimeoutKind = "attempt" | "deadline";

/**
 * A call ran out of time: an attempt took longer than `timeoutMs` (and was not retried, or its
 * retries ran out), or the whole call, waits and retries included, passed `deadlineMs`.
 */
export class TimeoutError extends Error {
  override readonly name = "TimeoutError";
  /** "attempt" (`timeoutMs`) or "deadline" (`deadlineMs`). */
  readonly kind: TimeoutKind;
  /** The limit that was hit, in ms. */
  readonly timeoutMs: number;
  readonly operationId: string;
  readonly requestId: string | undefined;
  readonly attempts: number;

  constructor(kind: TimeoutKind, timeoutMs: number, context: CallFailureContext) {
    const limit = kind === "attempt" ? "timeoutMs" : "deadlineMs";
    super(`${context.operationId} timed out: ${limit} ${timeoutMs} ms passed${describe(context)}.`);
    this.kind = kind;
    this.timeoutMs = timeoutMs;
    ({
      operationId: this.operationId,
      requestId: this.requestId,
      attempts: this.attempts,
    } = context);
  }
}

/**
 * The request never got a response: connection refused or dropped, DNS failure, CORS refusal.
 * A `TypeError`, like the `fetch` failure it wraps (in `cause`).
 */
export class NetworkError extends TypeError {
  override readonly name = "NetworkError";
  readonly operationId: string;
  readonly requestId: string | undefined;
  readonly attempts: number;

  constructor(cause: unknown, context: CallFailureContext) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${context.operationId} failed: ${reason}${describe(context)}.`, { cause });
    ({
      operationId: this.operationId,
      requestId: this.requestId,
      attempts: this.attempts,
    } = context);
  }
}

/**
 * The call was not sent: the key's rate limit (or a ban) lasts until `retryAt`, longer than the
 * client may wait (`pacing.maxWaitMs`). Sending would only draw a 429 and count towards a ban.
 */
export class RateLimitError extends Error {
  override readonly name = "RateLimitError";
  /** When the server will accept requests from this key again (client clock). */
  readonly retryAt: Date;
  readonly operationId: string;
  readonly requestId: string | undefined;
  readonly attempts: number;

  constructor(retryAt: Date, context: CallFailureContext) {
    super(
      `${context.operationId} was not sent: the API key is rate limited until ${retryAt.toISOString()}${describe(context)}.`,
    );
    this.retryAt = retryAt;
    ({
      operationId: this.operationId,
      requestId: this.requestId,
      attempts: this.attempts,
    } = context);
  }
}

function describe(context: CallFailureContext): string {
  const id = context.requestId ? `request id ${context.requestId}, ` : "";
  const plural = context.attempts === 1 ? "" : "s";
  return ` (${id}${context.attempts} attempt${plural})`;
}
