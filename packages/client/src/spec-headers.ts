import type { components } from "@animal-store/api-types";

/** A response header the spec declares. */
type SpecHeaderName = keyof components["headers"];

/**
 * The response headers the client reads. `satisfies` proves at typecheck that each name is one the
 * spec declares, so a renamed header in the contract fails the client's build instead of drifting.
 */
export const SPEC_HEADERS = {
  rateLimitLimit: "X-RateLimit-Limit",
  rateLimitRemaining: "X-RateLimit-Remaining",
  rateLimitReset: "X-RateLimit-Reset",
  rateLimitPolicy: "RateLimit-Policy",
  rateLimit: "RateLimit",
  retryAfter: "Retry-After",
  deprecation: "Deprecation",
  sunset: "Sunset",
  link: "Link",
  requestId: "X-Request-Id",
} as const satisfies Record<string, SpecHeaderName>;

/**
 * The request id: the client sends one per call and the server echoes it (or its own) on every
 * response and logs it; the contract declares it on every response.
 */
export const REQUEST_ID_HEADER = SPEC_HEADERS.requestId;
