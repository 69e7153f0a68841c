import { type DeprecationNotice, parseDeprecationDate, parseHttpDate } from "./deprecation.js";
import { parseRateLimit, type RateLimitInfo } from "./rate-limit.js";
import { REQUEST_ID_HEADER, SPEC_HEADERS } from "./spec-headers.js";

/** What one response said about itself: its operation, request id, rate limit and deprecation. */
export interface ResponseMeta {
  /** The spec's operationId, or "METHOD /path"; undefined for a response the client did not send. */
  readonly operationId: string | undefined;
  /** The server's `X-Request-Id` (the one the client sent, echoed), if the response had one. */
  readonly requestId: string | undefined;
  /** This response's `X-RateLimit-*`, if it carried all three. */
  readonly rateLimit: RateLimitInfo | undefined;
  /** This response's `Deprecation`/`Sunset`/`Link`, if it carried `Deprecation` or `Sunset`. */
  readonly deprecation: DeprecationNotice | undefined;
  /** Attempts the call made, this one included (1 unless it was retried). */
  readonly attempts: number;
}

/** What the transport knows about a response it returned. */
export interface SentCall {
  readonly operationId: string;
  readonly requestId: string | undefined;
  readonly attempts: number;
  readonly rateLimit: RateLimitInfo | undefined;
}

// Keyed by the Response object, so a response that is dropped takes its record with it.
const sentCalls = new WeakMap<Response, SentCall>();

/** Remembers how the client sent the call that got `response`. */
export function recordSentCall(response: Response, call: SentCall): void {
  sentCalls.set(response, call);
}

/** How the client sent the call that got `response`; undefined for a response it did not send. */
export function sentCallOf(response: Response): SentCall | undefined {
  return sentCalls.get(response);
}

/** Reads a response's metadata (every call's result also carries it as `meta`). */
export function responseMeta(response: Response): ResponseMeta {
  const call = sentCalls.get(response);
  const headers = response.headers;
  const operationId = call?.operationId;
  return {
    operationId,
    requestId: headers.get(REQUEST_ID_HEADER) ?? call?.requestId,
    rateLimit: call ? call.rateLimit : parseRateLimit(headers),
    deprecation: deprecationOf(headers, operationId),
    attempts: call?.attempts ?? 1,
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
