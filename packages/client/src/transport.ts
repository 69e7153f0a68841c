import type { Authorizer } from "./auth.js";
import { type CallFailureContext, NetworkError, RateLimitError } from "./call-errors.js";
import { type CallOptions, type RetryHandler, tell } from "./call-options.js";
import { CallTimers, NEVER_ABORTED } from "./call-timers.js";
import type { DeprecationNotice } from "./deprecation.js";
import type { HoldBackContext, HoldBackRefusal, Pacer } from "./pacer.js";
import { parseRateLimit, type RateLimitInfo } from "./rate-limit.js";
import { DirectCall, ownRequestOf, replayerOf } from "./replayable-request.js";
import { ensureRequestId } from "./request-id.js";
import { deprecationOf, recordSentCall } from "./response-meta.js";
import {
  backoffDelay,
  isRetryableFailure,
  isTooManyRequests,
  parseRetryAfter,
  type RetryPolicy,
  responseRetryDelay,
} from "./retry-policy.js";
import { REQUEST_ID_HEADER, SPEC_HEADERS } from "./spec-headers.js";

/** What the transport needs: the real fetch, auth, retries, pacing and a response hook. */
export interface TransportOptions {
  /** The fetch that does the I/O; `globalThis.fetch` (looked up per call) when absent. */
  readonly fetch: ((request: Request) => Promise<Response>) | undefined;
  readonly authorize: Authorizer;
  /** Undefined disables retries and every hold-back (`retry: false`). */
  readonly retry: RetryPolicy | undefined;
  /** Holds calls back after a 429 and, when pacing is on, before the window runs out. */
  readonly pacer: Pacer | undefined;
  /** Sees every response, retried ones included (rate-limit and deprecation tracking). */
  readonly onResponse: (
    rateLimit: RateLimitInfo | undefined,
    deprecation: DeprecationNotice | undefined,
  ) => void;
}

const NO_OPTIONS: CallOptions = {};

/**
 * The fetch that openapi-fetch calls. It owns auth, the request id, timeouts, pacing and retries,
 * so openapi-fetch needs no middleware and the happy path is two header sets and one fetch.
 */
export function createTransport(
  options: TransportOptions,
): (request: Request | DirectCall, operationId: string) => Promise<Response> {
  const { authorize, onResponse, pacer, retry: policy } = options;
  const now = policy?.now ?? Date.now;

  return async function send(
    request: Request | DirectCall,
    operationId: string,
  ): Promise<Response> {
    const own = ownRequestOf(request);
    const callOptions = own?.callOptions ?? NO_OPTIONS;
    const { method, url } = request;
    const requestId = ensureRequestId(request.headers);
    const callerSignal = own ? own.callerSignal : (request as Request).signal;
    callerSignal?.throwIfAborted();
    let attempts = 0;
    const context = (): CallFailureContext => ({ operationId, requestId, attempts });
    const { timeoutMs, deadlineMs } = callOptions;
    const timers =
      own?.attempt !== undefined
        ? new CallTimers(timeoutMs, deadlineMs, callerSignal, now(), context)
        : undefined;
    // Waits stop when this aborts: the caller's signal, or the deadline's.
    const waitSignal = timers?.signal ?? callerSignal ?? NEVER_ABORTED;
    const holdBack: HoldBackContext = {
      operationId,
      signal: waitSignal,
      deadlineAt: timers?.deadlineAt,
      refuse: (refusal: HoldBackRefusal) =>
        new RateLimitError(new Date(refusal.until), context(), {
          reason: refusal.kind === "too-long" ? "max-wait" : "deadline",
          deadlineMs: timers?.deadlineMs,
        }),
    };
    const onRetry: RetryHandler | undefined = callOptions.onRetry;
    // A body that is a stream must be copied before the first attempt reads it; a DirectCall's
    // replayer only re-sends its init, so it is made when a retry first needs it.
    let replay: ((signal?: AbortSignal) => Request | DirectCall) | undefined =
      policy && !(request instanceof DirectCall) ? replayerOf(request) : undefined;
    let current = request;
    let attempt = own?.attempt;

    /** Whether a wait of `ms` before a retry ends before the deadline (else: do not retry). */
    const fitsDeadline = (ms: number): boolean =>
      timers?.deadlineAt === undefined || now() + ms <= timers.deadlineAt;

    /** Tells `onRetry`, waits `ms`, and builds the next attempt's request. */
    const retryAfter = async (ms: number, status: number | undefined, error: unknown) => {
      tell(onRetry, {
        operationId,
        method,
        url,
        requestId,
        attempt: attempts,
        delayMs: ms,
        status,
        error,
      });
      await policy?.sleep(ms, waitSignal);
      waitSignal.throwIfAborted();
      attempt = timers ? new AbortController() : undefined;
      replay ??= replayerOf(request as Request | DirectCall);
      current = replay(attempt?.signal);
    };

    try {
      for (;;) {
        if (pacer) {
          const holding = pacer.acquire(holdBack);
          if (holding) await holding;
        }
        attempts++;
        const armed = attempt && timers ? timers.arm(attempt) : undefined;
        let response: Response;
        try {
          // A key getter that fails is the caller's problem, never a network error to retry.
          const pending = authorize(current.headers);
          if (pending) await pending;
        } catch (error) {
          armed?.disarm();
          pacer?.abandon();
          throw error;
        }
        try {
          // The client builds DirectCalls only when the global fetch sends them.
          response = await (current instanceof DirectCall
            ? globalThis.fetch(current.url, current.init)
            : options.fetch
              ? options.fetch(current)
              : globalThis.fetch(current));
        } catch (error) {
          pacer?.abandon();
          if (callerSignal?.aborted) throw callerSignal.reason;
          if (timers?.signal.aborted) throw timers.signal.reason;
          let failure: unknown = error;
          if (armed?.timedOut()) failure = attempt?.signal.reason;
          else if (error instanceof TypeError) {
            // fetch rejects a call its Request constructor refuses with a TypeError too: that
            // is the caller's mistake, never a network error to retry.
            if (current instanceof DirectCall) new Request(current.url, current.init);
            failure = new NetworkError(error, context());
          } else throw error;
          if (!policy || attempts > policy.maxRetries) throw failure;
          if (!isRetryableFailure(failure, method, waitSignal)) throw failure;
          const delay = backoffDelay(attempts - 1, policy);
          if (!fitsDeadline(delay)) throw failure;
          await retryAfter(delay, undefined, failure);
          continue;
        } finally {
          armed?.disarm();
        }
        const receivedAt = now();
        const rateLimit = parseRateLimit(response.headers);
        const deprecation = deprecationOf(response.headers, operationId);
        onResponse(rateLimit, deprecation);
        pacer?.settle(rateLimit, response.headers.get("Date"), receivedAt);
        if (policy) {
          const { status } = response;
          if (isTooManyRequests(status)) {
            const pause = parseRetryAfter(
              response.headers.get(SPEC_HEADERS.retryAfter),
              receivedAt,
            );
            if (pause !== undefined) pacer?.pauseUntil(receivedAt + pause);
          }
          // Never sooner than Retry-After (or what pacing still holds back), and never past
          // maxDelayMs or the deadline: a longer wait returns this response instead.
          const delay = responseRetryDelay(response, method, attempts - 1, policy);
          const wait = delay === undefined ? 0 : Math.max(delay, pacer?.timedWait(now()) ?? 0);
          if (delay !== undefined && wait <= policy.maxDelayMs && fitsDeadline(wait)) {
            // Free the connection: the body of a response that is retried is never read.
            await response.body?.cancel().catch(() => undefined);
            await retryAfter(wait, status, undefined);
            continue;
          }
        }
        recordSentCall(response, {
          operationId,
          requestId: response.headers.get(REQUEST_ID_HEADER) ?? requestId,
          rateLimit,
          deprecation,
          attempts,
        });
        return response;
      }
    } finally {
      timers?.dispose();
    }
  };
}
