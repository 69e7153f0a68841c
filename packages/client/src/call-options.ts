/** The call options' keys, in the order openapi-fetch would pass them on in a call's init. */
export const CALL_OPTION_KEYS = ["timeoutMs", "deadlineMs", "onRetry"] as const;

/** Per-call options: set them on the client as defaults, or on any single call. */
export interface CallOptions {
  /**
   * Longest wait for one attempt's response headers, in ms (no limit by default). A GET, HEAD,
   * OPTIONS, PUT or DELETE that times out is retried like a network error; the call then rejects
   * with a {@link TimeoutError} (`kind: "attempt"`).
   */
  timeoutMs?: number;
  /**
   * Longest time for the whole call in ms: pacing waits, every attempt and every wait between
   * them (no limit by default). Passing it rejects with a {@link TimeoutError} (`kind:
   * "deadline"`); a wait that would end past it is not started.
   */
  deadlineMs?: number;
  /** Told before each retry: why, after which attempt, and how long the client will wait. */
  onRetry?: RetryHandler;
}

/** What `onRetry` is told before the client waits and re-sends a request. */
export interface RetryEvent {
  /** The spec's operationId, or "METHOD /path" for a path the spec does not list. */
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  /** The `X-Request-Id` the call sends with every attempt. */
  readonly requestId: string | undefined;
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** How long the client waits before the next attempt, in ms. */
  readonly delayMs: number;
  /** The status that is retried (429, 408, 500, 502, 503, 504), when the attempt got a response. */
  readonly status: number | undefined;
  /** The network error or {@link TimeoutError} that is retried, when the attempt got no response. */
  readonly error: unknown;
}

/** Called before each retry (logging, metrics); what it returns or throws does not change the call. */
export type RetryHandler = (event: RetryEvent) => void;

// setTimeout cannot wait longer than this.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Checks `timeoutMs` and `deadlineMs`: undefined or a number of ms from 1 to 2^31-1. */
export function checkCallOptions(options: CallOptions | undefined, where: string): void {
  for (const field of ["timeoutMs", "deadlineMs"] as const) {
    const value = options?.[field];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value >= 1 && value <= LONGEST_TIMER_MS)) {
      throw new RangeError(`${where}${field} must be a number of ms from 1 to ${LONGEST_TIMER_MS}`);
    }
  }
  const onRetry = options?.onRetry;
  if (onRetry !== undefined && typeof onRetry !== "function") {
    throw new TypeError(`${where}onRetry must be a function`);
  }
}

/** Calls a logging hook; what it throws must not change the call. */
export function tell<E>(hook: ((event: E) => void) | undefined, event: E): void {
  try {
    hook?.(event);
  } catch {
    // A failing hook is the hook's problem, not the call's.
  }
}
