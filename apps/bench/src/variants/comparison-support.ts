/**
 * What the comparison variants (f) Fastify and (h) Hono share with each other and with the shipped
 * variant: the bench key's plan and limits, and the checks and error a hand-written stack needs.
 */

import type { OpenApiDocument } from "@animal-store/openapi";
import { rateLimitPolicy } from "@animal-store/openapi";

/** Per-minute and per-day limits no bench run can reach, so no variant ever answers 429. */
export const UNREACHABLE_LIMIT = 1_000_000_000;
/** An incoming X-Request-Id kept as it is (the shipped server's rule); otherwise a UUID. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The token of an `Authorization: Bearer` header (RFC 6750's b64token). */
export const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** An answer in the spec's Error shape, thrown from a hook, middleware or handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The bench key's settings: the contract's plan with limits of its own, set out of reach. */
export function benchKeyOptions(spec: OpenApiDocument) {
  const policy = rateLimitPolicy(spec);
  const plan = policy.planNames.find((name) => policy.plans[name]?.custom);
  if (plan === undefined) throw new Error("the contract has no plan with custom limits");
  return { plan, name: "bench", perMinute: UNREACHABLE_LIMIT, perDay: UNREACHABLE_LIMIT };
}
