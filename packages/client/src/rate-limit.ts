import { SPEC_HEADERS } from "./spec-headers.js";

/** The caller's rate-limit window, as the latest response described it. */
export interface RateLimitInfo {
  /** Requests allowed in the window (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the window (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** When the window resets (`X-RateLimit-Reset`, Unix seconds). */
  readonly resetAt: Date;
}

const NON_NEGATIVE_INTEGER = /^\d{1,15}$/;

/** Reads the `X-RateLimit-*` headers; undefined unless all three are non-negative integers. */
export function parseRateLimit(headers: Headers): RateLimitInfo | undefined {
  const limit = headers.get(SPEC_HEADERS.rateLimitLimit);
  const remaining = headers.get(SPEC_HEADERS.rateLimitRemaining);
  const reset = headers.get(SPEC_HEADERS.rateLimitReset);
  if (limit === null || remaining === null || reset === null) return undefined;
  if (
    !NON_NEGATIVE_INTEGER.test(limit) ||
    !NON_NEGATIVE_INTEGER.test(remaining) ||
    !NON_NEGATIVE_INTEGER.test(reset)
  ) {
    return undefined;
  }
  return {
    limit: Number(limit),
    remaining: Number(remaining),
    resetAt: new Date(Number(reset) * 1000),
  };
}
