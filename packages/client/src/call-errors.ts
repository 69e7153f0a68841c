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
  declare readonly operationId: string;
  declare readonly requestId: string | undefined;
  declare readonly attempts: number;

  constructor(kind: TimeoutKind, timeoutMs: number, context: CallFailureContext) {
    const limit = kind === "attempt" ? "timeoutMs" : "deadlineMs";
    super(`${context.operationId} timed out: ${limit} ${timeoutMs} ms passed${describe(context)}.`);
    this.kind = kind;
    this.timeoutMs = timeoutMs;
    own(this, context);
  }
}

/**
 * The request never got a response: connection refused or dropped, DNS failure, CORS refusal.
 * A `TypeError`, like the `fetch` failure it wraps (in `cause`).
 */
export class NetworkError extends TypeError {
  override readonly name = "NetworkError";
  declare readonly operationId: string;
  declare readonly requestId: string | undefined;
  declare readonly attempts: number;

  constructor(cause: unknown, context: CallFailureContext) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${context.operationId} failed: ${reason}${describe(context)}.`, { cause });
    own(this, context);
  }
}

/** Why pacing would not send a call: the wait is longer than `pacing.maxWaitMs`, or ends past the deadline. */
export type RateLimitRefusal = "max-wait" | "deadline";

/**
 * The call was not sent: pacing holds the key's calls back until `retryAt` (its rate-limit window
 * opens, a 429's `Retry-After` ends, or a ban is over), and that wait is longer than the client may
 * wait (`pacing.maxWaitMs`, `reason: "max-wait"`) or would end past the call's `deadlineMs`
 * (`reason: "deadline"`). Sending would only draw a 429 and count towards a ban.
 */
export class RateLimitError extends Error {
  override readonly name = "RateLimitError";
  /** When pacing would let the call go: the server accepts the key's requests again (client clock). */
  readonly retryAt: Date;
  /** "max-wait" (longer than `pacing.maxWaitMs`) or "deadline" (past `deadlineMs`). */
  readonly reason: RateLimitRefusal;
  declare readonly operationId: string;
  declare readonly requestId: string | undefined;
  declare readonly attempts: number;

  constructor(
    retryAt: Date,
    context: CallFailureContext,
    refusal: { reason: RateLimitRefusal; deadlineMs?: number | undefined } = { reason: "max-wait" },
  ) {
    const why =
      refusal.reason === "deadline"
        ? `its deadline (deadlineMs ${refusal.deadlineMs ?? 0} ms) ends before then`
        : "that is longer than pacing.maxWaitMs";
    super(
      `${context.operationId} was not sent: pacing holds it back until ${retryAt.toISOString()}, when the API key's rate limit lets it through, and ${why}${describe(context)}.`,
    );
    this.retryAt = retryAt;
    this.reason = refusal.reason;
    own(this, context);
  }
}

/** Copies the call's operationId, request id and attempts onto its error. */
function own(error: CallFailureContext, { operationId, requestId, attempts }: CallFailureContext) {
  Object.assign(error, { operationId, requestId, attempts });
}

function describe(context: CallFailureContext): string {
  const id = context.requestId ? `request id ${context.requestId}, ` : "";
  const plural = context.attempts === 1 ? "" : "s";
  return ` (${id}${context.attempts} attempt${plural})`;
}
