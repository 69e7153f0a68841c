import type { paths } from "@animal-store/api-types";
import createClient, { type Client } from "openapi-fetch";
import { type ApiKeySource, createAuthorizer } from "./auth.js";
import {
  createDeprecationObserver,
  type DeprecationHandler,
  warnDeprecation,
} from "./deprecation.js";
import { parseRateLimit, type RateLimitInfo } from "./rate-limit.js";
import { ReplayableRequest } from "./replayable-request.js";
import { type RetryOptions, resolveRetryPolicy } from "./retry-policy.js";
import { createTransport } from "./transport.js";

/** Options of `createAnimalStoreClient`: where the API is, the key, and how to behave under limits. */
export type AnimalStoreClientOptions = ApiKeySource & {
  /** The API address including `/v1`, e.g. `http://127.0.0.1:8080/v1` or the mock's. */
  baseUrl: string;
  /** The fetch that does the I/O (default: `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** Retry and backoff settings, or `false` for no retries and no 429 pause. */
  retry?: RetryOptions | false;
  /** Told once per operation when a response says it is deprecated (default: one `console.warn`). */
  onDeprecation?: DeprecationHandler;
};

/** The openapi-fetch client typed by the spec, plus the latest rate-limit values. */
export type AnimalStoreClient = Client<paths, "application/json"> & {
  /** `X-RateLimit-*` of the latest response that carried them; undefined before the first. */
  readonly rateLimit: RateLimitInfo | undefined;
};

/** Creates a typed Animal Store client with bearer auth, 429 backoff and deprecation warnings. */
export function createAnimalStoreClient(options: AnimalStoreClientOptions): AnimalStoreClient {
  if (typeof options.baseUrl !== "string" || options.baseUrl === "") {
    throw new TypeError("createAnimalStoreClient needs a `baseUrl`, e.g. http://127.0.0.1:8080/v1");
  }
  let rateLimit: RateLimitInfo | undefined;
  const observeDeprecation = createDeprecationObserver(
    options.baseUrl,
    options.onDeprecation ?? warnDeprecation,
  );
  const transport = createTransport({
    fetch: options.fetch,
    authorize: createAuthorizer(options),
    retry: options.retry === false ? undefined : resolveRetryPolicy(options.retry),
    onResponse(request, response) {
      rateLimit = parseRateLimit(response.headers) ?? rateLimit;
      observeDeprecation(request, response);
    },
  });
  const client = createClient<paths, "application/json">({
    baseUrl: options.baseUrl,
    fetch: transport,
    Request: ReplayableRequest,
  });
  return Object.defineProperty(client, "rateLimit", {
    get: () => rateLimit,
    enumerable: true,
  }) as AnimalStoreClient;
}
