import { TimeoutError } from "./call-errors.js";
import { abortableSleep } from "./sleep.js";
import { SPEC_HEADERS } from "./spec-headers.js";

/** How the client retries; every field is optional. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3); 0 disables retries. */
  maxRetries?: number;
  /** Backoff cap of the first retry in ms, doubled for each further retry (default 500). */
  baseDelayMs?: number;
  /** Longest wait in ms; a `Retry-After` beyond it ends the retries instead (default 30 000). */
  maxDelayMs?: number;
  /** Jitter source returning [0, 1) (default `Math.random`). */
  random?: () => number;
  /** Waits `ms`, rejecting with the signal's reason when it aborts (default: a timer). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Current time in ms since the epoch, used for HTTP-date `Retry-After` (default `Date.now`). */
  now?: () => number;
}

/** Retry options with every default filled in and validated. */
export type RetryPolicy = Readonly<Required<RetryOptions>>;

/** The defaults of `RetryOptions`. */
export const RETRY_DEFAULTS = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 } as const;

// setTimeout cannot wait longer than this.
const LONGEST_TIMER_MS = 2 ** 31 - 1;
// The request was not processed, so any method may be re-sent.
const TOO_MANY_REQUESTS = 429;
// Failures that may or may not have changed something on the server (a timeout, an error in the
// middle of the work, a gateway that lost the answer): only idempotent methods are re-sent.
const TRANSIENT_FAILURES: ReadonlySet<number> = new Set([408, 500, 502, 503, 504]);
/** Methods whose repetition has the same effect as one call (RFC 9110 §9.2.2). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "HEAD",
  "OPTIONS",
  "PUT",
  "DELETE",
]);

/** Fills in the defaults and rejects nonsensical values with a RangeError naming the field. */
export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? RETRY_DEFAULTS.maxRetries,
    baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
    now: options.now ?? Date.now,
  };
  if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0) {
    throw new RangeError("retry.maxRetries must be a non-negative integer");
  }
  for (const field of ["baseDelayMs", "maxDelayMs"] as const) {
    const value = policy[field];
    if (!Number.isFinite(value) || value < 0 || value > LONGEST_TIMER_MS) {
      throw new RangeError(`retry.${field} must be a number of ms from 0 to ${LONGEST_TIMER_MS}`);
    }
  }
  return policy;
}

/**
 * Parses `Retry-After` (delay-seconds or an HTTP-date) into ms to wait from `nowMs`;
 * undefined when the header is absent or unreadable. A date in the past means 0.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date always names a day or month; this keeps Date.parse from reading "1.5" as a date.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Full-jitter exponential backoff: uniform in [0, min(maxDelayMs, baseDelayMs * 2^retry)]. */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(policy.random() * cap);
}

/** Whether a response with this status may be re-sent: 429 always; 408 and 5xx if idempotent. */
export function isRetryableStatus(status: number, method: string): boolean {
  return (
    status === TOO_MANY_REQUESTS ||
    (TRANSIENT_FAILURES.has(status) && IDEMPOTENT_METHODS.has(method))
  );
}

/** Whether the response is a 429 (the only status that says the caller must slow down). */
export function isTooManyRequests(status: number): boolean {
  return status === TOO_MANY_REQUESTS;
}

/**
 * Whether an attempt that got no response may be retried for this method: a network error (fetch
 * reports them as TypeError) or the attempt's own timeout, for idempotent methods only. An abort
 * is the caller's decision and the deadline ends the call: neither is retried.
 */
export function isRetryableFailure(error: unknown, method: string, signal: AbortSignal): boolean {
  const attemptFailed =
    error instanceof TypeError || (error instanceof TimeoutError && error.kind === "attempt");
  return attemptFailed && !signal.aborted && IDEMPOTENT_METHODS.has(method);
}

/**
 * How long to wait before re-sending after `response`, or undefined to return it as it is:
 * not retryable, out of retries, or a `Retry-After` longer than `maxDelayMs` (never retry sooner).
 */
export function responseRetryDelay(
  response: Response,
  method: string,
  retry: number,
  policy: RetryPolicy,
): number | undefined {
  if (!isRetryableStatus(response.status, method) || retry >= policy.maxRetries) return undefined;
  const retryAfter = parseRetryAfter(response.headers.get(SPEC_HEADERS.retryAfter), policy.now());
  if (retryAfter === undefined) return backoffDelay(retry, policy);
  return retryAfter <= policy.maxDelayMs ? retryAfter : undefined;
}
