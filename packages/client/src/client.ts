import type { paths } from "@animal-store/api-types";
import createClient, { type ClientOptions, removeTrailingSlash } from "openapi-fetch";
import { type ApiKeySource, createAuthorizer } from "./auth.js";
import { CALL_OPTION_KEYS, type CallOptions, checkCallOptions } from "./call-options.js";
import type { AnimalStoreClient } from "./client-types.js";
import {
  createDeprecationObserver,
  type DeprecationHandler,
  warnDeprecation,
} from "./deprecation.js";
import { operationIdOf } from "./operation-lookup.js";
import { createPacer, PACING_DEFAULTS, type Pacer, type PacingOptions } from "./pacer.js";
import { pages } from "./pages.js";
import { createPlainCall, isPlainInit } from "./plain-call.js";
import type { RateLimitInfo } from "./rate-limit.js";
import { DIRECT, DirectCall } from "./replayable-request.js";
import { responseMeta } from "./response-meta.js";
import { type RetryOptions, type RetryPolicy, resolveRetryPolicy } from "./retry-policy.js";
import { createTransport } from "./transport.js";

/** Options of `createAnimalStoreClient`: where the API is, the key, and how to behave under limits. */
export type AnimalStoreClientOptions = ApiKeySource &
  CallOptions & {
    /** The API address including `/v1`, e.g. `http://127.0.0.1:8080/v1` or the mock's. */
    baseUrl: string;
    /** The fetch that does the I/O (default: `globalThis.fetch`). */
    fetch?: (request: Request) => Promise<Response>;
    /** Retry and backoff settings, or `false` for no retries and no waiting of any kind. */
    retry?: RetryOptions | false;
    /**
     * Holding calls back before the key's window runs out (`RateLimit`'s `r`, or
     * `X-RateLimit-Remaining`, 0) until it resets, so parallel calls never draw a 429 (default
     * on), or `false` to only wait out 429s.
     */
    pacing?: PacingOptions | false;
    /** Told once per operation when a response says it is deprecated (default: one `console.warn`). */
    onDeprecation?: DeprecationHandler;
  };

const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

/** A call as openapi-fetch makes it, before the client adds `meta` to its result. */
type RawCall = (...args: unknown[]) => Promise<{ response: Response; meta?: unknown }>;

/** Adds `meta` (this response's operation, request id, rate limit, deprecation) to a result. */
function withMeta<R extends { response: Response; meta?: unknown }>(result: R): R {
  result.meta = responseMeta(result.response);
  return result;
}

/** The pacer of a client with retries: full pacing, or only the pause after a 429. */
function pacerFor(pacing: PacingOptions | false | undefined, policy: RetryPolicy): Pacer {
  const { now, sleep } = policy;
  if (pacing === false) {
    return createPacer({
      mode: "pause",
      maxWaitMs: policy.maxDelayMs,
      now,
      sleep,
      onWait: undefined,
    });
  }
  const maxWaitMs = pacing?.maxWaitMs ?? PACING_DEFAULTS.maxWaitMs;
  if (!(maxWaitMs >= 0)) throw new RangeError("pacing.maxWaitMs must be a number of ms >= 0");
  return createPacer({ mode: "pace", maxWaitMs, now, sleep, onWait: pacing?.onWait });
}

/**
 * Creates a typed Animal Store client: bearer auth, a request id per call, timeouts, pacing
 * under the rate limit, retries with backoff, deprecation warnings and per-response `meta`.
 */
export function createAnimalStoreClient(options: AnimalStoreClientOptions): AnimalStoreClient {
  if (typeof options.baseUrl !== "string" || options.baseUrl === "") {
    throw new TypeError("createAnimalStoreClient needs a `baseUrl`, e.g. http://127.0.0.1:8080/v1");
  }
  checkCallOptions(options, "");
  let rateLimit: RateLimitInfo | undefined;
  const observeDeprecation = createDeprecationObserver(options.onDeprecation ?? warnDeprecation);
  const policy = options.retry === false ? undefined : resolveRetryPolicy(options.retry);
  const transport = createTransport({
    fetch: options.fetch,
    authorize: createAuthorizer(options),
    retry: policy,
    pacer: policy ? pacerFor(options.pacing, policy) : undefined,
    onResponse(latest, notice) {
      rateLimit = latest ?? rateLimit;
      if (notice) observeDeprecation(notice);
    },
  });
  // openapi-fetch passes options it does not know into every request's init, where a call's own
  // init overrides them: that is how the client's call options become per-call defaults.
  const callDefaults: Record<string, unknown> = {};
  for (const key of CALL_OPTION_KEYS) {
    if (options[key] !== undefined) callDefaults[key] = options[key];
  }
  const client = createClient<paths, "application/json">({
    baseUrl: options.baseUrl,
    Request: DirectCall as unknown as typeof Request,
    ...callDefaults,
  } as ClientOptions) as unknown as Record<string, RawCall>;
  const plainCall = createPlainCall(removeTrailingSlash(options.baseUrl), callDefaults, transport);
  // A middleware sees the request as a Request, and a custom fetch is handed one: until either
  // is in play, calls stay DirectCalls, which fetch sends without building a second Request.
  let direct = options.fetch === undefined;
  const use = client.use as unknown as (...middlewares: unknown[]) => void;
  (client as unknown as { use: typeof use }).use = (...middlewares) => {
    use(...middlewares);
    direct = false;
  };
  /**
   * The call's init, with the fetch openapi-fetch hands its request to: the transport, told the
   * operationId the call was named by (a request a middleware replaced still carries it). A
   * call's own `fetch` replaces the transport, as openapi-fetch documents.
   */
  const named = (init: unknown, method: string, path: unknown): Record<PropertyKey, unknown> => {
    const operationId = operationIdOf(method, String(path));
    const own = init as Record<PropertyKey, unknown> | undefined;
    return {
      fetch: (request: Request | DirectCall) => transport(request, operationId),
      ...own,
      [DIRECT]: direct && !own?.middleware && !own?.fetch,
    };
  };
  // A plain call (no middleware, the global fetch, an init of the keys the plain path takes) is
  // sent by the client itself; any other goes through openapi-fetch.
  const plain = (init: unknown): boolean =>
    direct && isPlainInit(init as Record<string, unknown> | undefined);
  for (const method of METHODS) {
    const call = client[method] as RawCall;
    client[method] = (path, init) =>
      plain(init)
        ? plainCall(method, String(path), init as never, operationIdOf(method, String(path)))
        : call(path, named(init, method, path)).then(withMeta);
  }
  const request = client.request as RawCall;
  // The method-first form is the method's own call (openapi-fetch's is a coreFetch with the
  // method upper-cased); a method the client does not wrap stays openapi-fetch's.
  client.request = (method, path, init) => {
    const upper = String(method).toUpperCase();
    return client[upper]
      ? client[upper](path, init)
      : request(method, path, named(init, upper, path)).then(withMeta);
  };
  (client as unknown as { pages: unknown }).pages = (
    path: string,
    init?: Record<string, unknown>,
  ) => pages(client.GET as Parameters<typeof pages>[0], path, init);
  return Object.defineProperty(client, "rateLimit", {
    get: () => rateLimit,
    enumerable: true,
  }) as unknown as AnimalStoreClient;
}
