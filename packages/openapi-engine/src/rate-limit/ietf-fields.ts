/**
 * The IETF rate-limit fields, `RateLimit-Policy` and `RateLimit`, as draft-ietf-httpapi-ratelimit-headers-10
 * defines them (https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/10/): each a
 * Structured Field List (RFC 9651) of Items whose value is the policy's name as a String.
 *
 * - `RateLimit-Policy`: one quota policy per window of the caller's limits, `q` the quota and `w`
 *   the window in seconds: `"minute";q=60;w=60, "day";q=1000;w=86400`.
 * - `RateLimit`: one service limit per window, `r` the requests left and `t` the seconds until the
 *   window gives quota back: `"minute";r=59;t=17, "day";r=999;t=3600`.
 *
 * Both come from the same decision as X-RateLimit-* (decision.ts); the legacy headers carry the
 * window nearer exhaustion, these carry each window.
 */
import type { PlanLimits } from "@animal-store/openapi";
import { type Item, serializeList } from "structured-headers";

/** The policies' names (sf-strings), one per window the limiter counts. */
export const POLICY_NAMES = { minute: "minute", day: "day" } as const;

const MINUTE_SECONDS = 60;
const DAY_SECONDS = 86_400;
/** The largest sf-integer (RFC 9651 section 3.3.1); a contract may declare larger limits. */
export const SF_INTEGER_MAX = 999_999_999_999_999;

// Serialized once: the names' sf-string form, the fixed start of each RateLimit member.
const MINUTE_MEMBER = serializeList([[POLICY_NAMES.minute, new Map()]]);
const DAY_MEMBER = serializeList([[POLICY_NAMES.day, new Map()]]);

/** The `RateLimit-Policy` value of `limits`, serialized by the RFC 9651 library. */
export function serializePolicy(limits: PlanLimits): string {
  const policy = (name: string, quota: number, window: number): Item => [
    name,
    new Map([
      ["q", Math.min(quota, SF_INTEGER_MAX)],
      ["w", window],
    ]),
  ];
  return serializeList([
    policy(POLICY_NAMES.minute, limits.perMinute, MINUTE_SECONDS),
    policy(POLICY_NAMES.day, limits.perDay, DAY_SECONDS),
  ]);
}

// A plan's limits are one object for the life of the contract (and a key's own limits one per key
// record, middleware.ts `limitsFor`), so each policy value is serialized once and then looked up.
const policies = new WeakMap<PlanLimits, string>();

/** The `RateLimit-Policy` value of `limits`, serialized on first use only. */
export function policyField(limits: PlanLimits): string {
  let field = policies.get(limits);
  if (field === undefined) {
    field = serializePolicy(limits);
    policies.set(limits, field);
  }
  return field;
}

/**
 * The `RateLimit` value: requests left and whole seconds until reset, per window. Every value is a
 * non-negative safe integer, whose sf-integer form is its decimal digits (RFC 9651 section 4.1.4),
 * so the members are joined as text per request; ietf-fields.test.ts holds this to the library's
 * serialization.
 */
export function serviceLimitField(
  minuteRemaining: number,
  minuteSeconds: number,
  dayRemaining: number,
  daySeconds: number,
): string {
  const minute = Math.min(minuteRemaining, SF_INTEGER_MAX);
  const day = Math.min(dayRemaining, SF_INTEGER_MAX);
  return `${MINUTE_MEMBER};r=${minute};t=${minuteSeconds}, ${DAY_MEMBER};r=${day};t=${daySeconds}`;
}
