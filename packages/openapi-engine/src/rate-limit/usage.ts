/**
 * A key's usage against its limits, read from the live rate-limit store: for `keys usage` (from
 * Redis when the counters are shared) and for the metrics listener's /usage/keys/<id> (the
 * instance's own store: with in-process counting that is this instance's share alone).
 */
import type { RateLimitPolicy } from "@animal-store/openapi";
import type { ApiKeyRecord } from "../auth/security.js";
import type { RateLimiter } from "./limiter.js";
import { limitsFor, rateLimitSubject } from "./limits.js";

/** Where the counts come from: one instance's memory, or the store every instance shares. */
export type UsageScope = "instance" | "shared";

/** One key's usage in the current UTC minute and day. */
export interface KeyUsage {
  id: string;
  name: string;
  plan: string;
  scope: UsageScope;
  minute: { used: number; limit: number };
  day: { used: number; limit: number };
  /** ISO time its ban ends, or null. */
  bannedUntil: string | null;
}

/** The usage of `key` in `limiter` at `nowMs`. */
export async function keyUsage(
  key: ApiKeyRecord,
  options: { limiter: RateLimiter; policy: RateLimitPolicy; scope: UsageScope; nowMs: number },
): Promise<KeyUsage> {
  const caller = { kind: "key", key } as const;
  const limits = limitsFor(options.policy)(caller);
  const used = await options.limiter.usage(rateLimitSubject(caller), options.nowMs);
  return {
    id: key.id,
    name: key.name,
    plan: key.plan,
    scope: options.scope,
    minute: { used: used.minute, limit: limits.perMinute },
    day: { used: used.day, limit: limits.perDay },
    bannedUntil: used.bannedUntil === null ? null : new Date(used.bannedUntil * 1000).toISOString(),
  };
}
