import { type DeprecationNotice, parseDeprecationDate, parseHttpDate } from "./deprecation.js";
import { parseRateLimit, type RateLimitInfo } from "./rate-limit.js";
import { REQUEST_ID_HEADER, SPEC_HEADERS } from "./spec-headers.js";

/** What one response said about itself: its operation, request id, rate limit and deprecation. */
export interface ResponseMeta {
  /** The spec's operationId, or "METHOD /path"; undefined for a response the client did not send. */
  readonly operationId: string | undefined;
  /** The server's `X-Request-Id` (the one the client sent, echoed), if the response had one. */
  readonly requestId: string | undefined;
  /** This response's window, from `RateLimit` and `RateLimit-Policy` or else `X-RateLimit-*`. */
  readonly rateLimit: RateLimitInfo | undefined;
  /** This response's `Deprecation`/`Sunset`/`Link`, if it carried `Deprecation` or `Sunset`. */
  readonly deprecation: DeprecationNotice | undefined;
  /** Attempts the call made, this one included (1 unless it was retried). */
  readonly attempts: number;
}

// The metadata of a response the client sent is recorded on the Response itself, so a response
// that is dropped takes it along. A property costs less per call than a WeakMap entry, which
// every collection must also visit; a Response that takes no new property (a custom fetch's
// frozen one) is kept in the WeakMap instead.
const SENT = Symbol("animal-store.meta");
const frozenSent = new WeakMap<Response, ResponseMeta>();

/**
 * Records what the client knows of a response it sent: `requestId` is the response's own
 * `X-Request-Id` when it has one (the server's name for the request), else the one sent.
 */
export function recordSentCall(response: Response, meta: ResponseMeta): void {
  if (!Reflect.set(response, SENT, meta)) frozenSent.set(response, meta);
}

/** The metadata recorded for a response the client sent; undefined for any other. */
export function sentCallOf(response: Response): ResponseMeta | undefined {
  return (response as { [SENT]?: ResponseMeta })[SENT] ?? frozenSent.get(response);
}

/** Reads a response's metadata (every call's result also carries it as `meta`). */
export function responseMeta(response: Response): ResponseMeta {
  const sent = sentCallOf(response);
  if (sent) return sent;
  const headers = response.headers;
  return {
    operationId: undefined,
    requestId: headers.get(REQUEST_ID_HEADER) ?? undefined,
    rateLimit: parseRateLimit(headers),
    deprecation: deprecationOf(headers, undefined),
    attempts: 1,
  };
}

/** The deprecation notice of a response, or undefined when it carries neither header. */
export function deprecationOf(
  headers: Headers,
  operationId: string | undefined,
): DeprecationNotice | undefined {
  const deprecation = headers.get(SPEC_HEADERS.deprecation);
  const sunset = headers.get(SPEC_HEADERS.sunset);
  if (deprecation === null && sunset === null) return undefined;
  return {
    operation: operationId ?? "unknown",
    deprecatedAt: parseDeprecationDate(deprecation),
    sunset: parseHttpDate(sunset),
    link: headers.get(SPEC_HEADERS.link) ?? undefined,
  };
}
