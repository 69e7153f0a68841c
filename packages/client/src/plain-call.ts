import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import { CALL_OPTION_KEYS, type CallOptions } from "./call-options.js";
import { DirectCall, type HeaderAccess } from "./replayable-request.js";
import { type ResponseMeta, responseMeta } from "./response-meta.js";

/**
 * The init keys a plain call may have: openapi-fetch's `params`, `body` and a `querySerializer`
 * function (what `pages` passes), `signal`, and the call options. Any other (`headers`,
 * `parseAs`, `baseUrl`, `fetch`, `middleware`, a RequestInit field such as `cache`) sends the
 * call through openapi-fetch's own `coreFetch`.
 */
const PLAIN_KEYS = new Set([
  "params",
  "body",
  "querySerializer",
  "signal",
  "timeoutMs",
  "deadlineMs",
  "onRetry",
]);

/** A plain call's init. */
interface PlainInit extends CallOptions {
  params?: { query?: unknown; path?: unknown; header?: unknown };
  body?: unknown;
  querySerializer?: (query: unknown) => string;
  signal?: AbortSignal | null;
}

/**
 * Whether the client sends a call itself: an init of the keys above only, with no header
 * parameters, a JSON body (no FormData) and a query serializer only as a function. That is an
 * init openapi-fetch builds a call from with no headers of the caller's to merge, so the plain
 * path reaches the same URL, body and headers.
 */
export function isPlainInit(init: Record<string, unknown> | undefined): boolean {
  if (init === undefined) return true;
  for (const key in init) if (!PLAIN_KEYS.has(key) && init[key] !== undefined) return false;
  const query = init.querySerializer;
  return (
    (init.params as PlainInit["params"])?.header === undefined &&
    !(init.body instanceof FormData) &&
    (query === undefined || typeof query === "function")
  );
}

/**
 * A plain call's headers (a plain object with lower-case names, which fetch takes as it is) seen
 * through `get` and `set`: only the client sets them, so names are lower-cased on the way in.
 */
class RecordHeaders implements HeaderAccess {
  constructor(private readonly record: Record<string, string>) {}
  get(name: string): string | null {
    return this.record[name.toLowerCase()] ?? null;
  }
  set(name: string, value: string): void {
    this.record[name.toLowerCase()] = value;
  }
}

/** A call's result: openapi-fetch's `{ data }` or `{ error }` with `response`, and `meta`. */
export type PlainResult = {
  data?: unknown;
  error?: unknown;
  response: Response;
  meta: ResponseMeta;
};

/**
 * The client's own call path for plain inits. openapi-fetch's exported `createFinalURL`, query
 * and path serializers build the URL exactly as its `coreFetch` does, the body is its default
 * serializer's (`JSON.stringify`), and the response is read as `coreFetch` reads it; but the
 * headers are a plain object and no `Headers` or `Request` is made before fetch, which builds
 * the only `Request` of the call. Why: `coreFetch` merges headers into a `Headers` that fetch
 * copies again: a `Headers` built on every call only to be copied, which a plain object avoids.
 */
export function createPlainCall(
  baseUrl: string,
  defaults: CallOptions,
  send: (request: DirectCall, operationId: string) => Promise<Response>,
): (
  method: string,
  path: string,
  init: PlainInit | undefined,
  operationId: string,
) => Promise<PlainResult> {
  const defaultQuery = createQuerySerializer();
  return async (method, path, init = {}, operationId) => {
    const url = createFinalURL(path, {
      baseUrl,
      params: (init.params ?? {}) as never,
      querySerializer: init.querySerializer ?? defaultQuery,
      pathSerializer: defaultPathSerializer,
    });
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const callInit: Record<PropertyKey, unknown> = { redirect: "follow", ...defaults };
    // The call's own signal and call options, as coreFetch passes them on.
    for (const key of ["signal", ...CALL_OPTION_KEYS]) {
      if (key in init) callInit[key] = init[key as keyof PlainInit];
    }
    callInit.method = method;
    callInit.body = body;
    const headers: Record<string, string> =
      body === undefined ? {} : { "content-type": "application/json" };
    callInit.headers = headers;
    const response = await send(
      new DirectCall(url, callInit, true, undefined, new RecordHeaders(headers)),
      operationId,
    );
    const meta = responseMeta(response);
    // From here on, coreFetch's own reading of a response (its `json()` is the text parsed).
    const { ok } = response;
    let data: unknown;
    if (
      response.status !== 204 &&
      method !== "HEAD" &&
      (response.headers.get("Content-Length") !== "0" ||
        response.headers.get("Transfer-Encoding")?.includes("chunked"))
    ) {
      const text = await response.text();
      if (ok) data = text ? JSON.parse(text) : undefined;
      else {
        data = text;
        try {
          data = JSON.parse(text);
        } catch {
          // An error body that is not JSON stays text.
        }
      }
    }
    return ok ? { data, response, meta } : { error: data, response, meta };
  };
}
