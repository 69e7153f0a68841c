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
  retryAfter: "Retry-After",
  deprecation: "Deprecation",
  sunset: "Sunset",
  link: "Link",
} as const satisfies Record<string, SpecHeaderName>;
