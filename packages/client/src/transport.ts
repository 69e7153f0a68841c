import type { Authorizer } from "./auth.js";
import { replayerOf } from "./replayable-request.js";
import {
  backoffDelay,
  isRetryableFailure,
  isTooManyRequests,
  parseRetryAfter,
  type RetryPolicy,
  responseRetryDelay,
} from "./retry-policy.js";
import { SPEC_HEADERS } from "./spec-headers.js";

/** What the transport needs: the real fetch, the auth step, the retry policy and a response hook. */
export interface TransportOptions {
  /** The fetch that does the I/O; `globalThis.fetch` (looked up per call) when absent. */
  readonly fetch: ((request: Request) => Promise<Response>) | undefined;
  readonly authorize: Authorizer;
  /** Undefined disables retries and the shared 429 pause. */
  readonly retry: RetryPolicy | undefined;
  /** Sees every response, retried ones included (rate-limit and deprecation tracking). */
  readonly onResponse: (request: Request, response: Response) => void;
}

/**
 * The fetch that openapi-fetch calls. It owns auth, retries and the client-wide pause after a 429,
 * so openapi-fetch needs no middleware and the happy path is one header set and one fetch.
 */
export function createTransport(
  options: TransportOptions,
): (request: Request) => Promise<Response> {
  const { authorize, onResponse } = options;
  const policy = options.retry;
  // Until this instant (ms) the server asked this client's key to hold off; shared by all calls.
  let pausedUntil = 0;

  const fetchOnce = async (request: Request): Promise<Response> => {
    const pending = authorize(request.headers);
    if (pending) await pending;
    const response = await (options.fetch ? options.fetch(request) : globalThis.fetch(request));
    onResponse(request, response);
    return response;
  };

  if (!policy) return fetchOnce;

  /** Waits `ms`, then makes sure an abort that a custom sleep ignored still ends the call. */
  const pause = async (ms: number, signal: AbortSignal): Promise<void> => {
    await policy.sleep(ms, signal);
    signal.throwIfAborted();
  };

  /** Remembers a 429's `Retry-After` so every call of this client waits it out, not just this one. */
  const notePause = (response: Response): void => {
    if (!isTooManyRequests(response.status)) return;
    const now = policy.now();
    const wait = parseRetryAfter(response.headers.get(SPEC_HEADERS.retryAfter), now);
    if (wait !== undefined) pausedUntil = Math.max(pausedUntil, now + wait);
  };

  return async function send(request: Request): Promise<Response> {
    const { method, signal } = request;
    if (pausedUntil !== 0) {
      const wait = pausedUntil - policy.now();
      // A pause beyond maxDelayMs is not waited out here: the server's 429 goes back to the caller.
      if (wait > 0 && wait <= policy.maxDelayMs) await pause(wait, signal);
    }
    const replay = replayerOf(request);
    let current = request;
    for (let retry = 0; ; retry++) {
      let response: Response;
      try {
        response = await fetchOnce(current);
      } catch (error) {
        if (retry >= policy.maxRetries || !isRetryableFailure(error, method, signal)) throw error;
        await pause(backoffDelay(retry, policy), signal);
        current = replay();
        continue;
      }
      notePause(response);
      const delay = responseRetryDelay(response, method, retry, policy);
      if (delay === undefined) return response;
      const wait = Math.max(delay, pausedUntil - policy.now());
      if (wait > policy.maxDelayMs) return response;
      // Free the connection: the body of a response that is about to be retried is never read.
      await response.body?.cancel().catch(() => undefined);
      await pause(wait, signal);
      current = replay();
    }
  };
}
