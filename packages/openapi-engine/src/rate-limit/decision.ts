/**
 * Fixed windows aligned to the clock (the current UTC minute and UTC day) and the decision a
 * limiter returns, computed the same way whichever store holds the counters.
 */
import type { PlanLimits } from "@animal-store/openapi";
import { policyField, serviceLimitField } from "./ietf-fields.js";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What the rate-limit headers and a 429 need to say about one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** X-RateLimit-* of the window nearer exhaustion; reset is in Unix seconds. */
  limit: number;
  remaining: number;
  reset: number;
  /** The `RateLimit-Policy` value: every window of the caller's limits (ietf-fields.ts). */
  policy: string;
  /** The `RateLimit` value: each window's requests left and seconds to its reset (ietf-fields.ts). */
  serviceLimits: string;
  /** Whole seconds to wait, when !allowed. */
  retryAfter?: number;
  /** Why the request was refused, when !allowed. */
  code?: "rate_limited" | "api_key_banned";
}

/** The two windows that contain an instant: index (for store keys) and end, in ms. */
export interface Windows {
  minuteIndex: number;
  minuteEndMs: number;
  dayIndex: number;
  dayEndMs: number;
}

/** The minute and day windows containing `nowMs`. */
export function windowsAt(nowMs: number): Windows {
  const minuteIndex = Math.floor(nowMs / MINUTE_MS);
  const dayIndex = Math.floor(nowMs / DAY_MS);
  return {
    minuteIndex,
    minuteEndMs: (minuteIndex + 1) * MINUTE_MS,
    dayIndex,
    dayEndMs: (dayIndex + 1) * DAY_MS,
  };
}

/** Counters of both windows after the request was (or was not) counted. */
export interface WindowCounts {
  minute: number;
  day: number;
}

/**
 * True when the day window binds: it has no more remaining than the minute. On a tie the day is
 * chosen because it resets last, so its reset is when a request can succeed again.
 */
function dayBinds(counts: WindowCounts, limits: PlanLimits): boolean {
  return limits.perDay - counts.day <= limits.perMinute - counts.minute;
}

/** True when another request would exceed either window. */
export function isExhausted(counts: WindowCounts, limits: PlanLimits): boolean {
  return counts.minute >= limits.perMinute || counts.day >= limits.perDay;
}

/** Which window a refusal belongs to (the ban counts refusals per window), as "m" or "d". */
export function bindingWindow(counts: WindowCounts, limits: PlanLimits): "m" | "d" {
  return dayBinds(counts, limits) ? "d" : "m";
}

function secondsUntil(resetSeconds: number, nowMs: number): number {
  return Math.max(0, Math.ceil((resetSeconds * 1000 - nowMs) / 1000));
}

/** The outcome of one request: allowed, refused over a limit, or refused during a ban. */
export type Outcome = { kind: "allowed" | "limited" } | { kind: "banned"; untilSeconds: number };

/**
 * Builds the decision (headers, Retry-After, code) for an outcome and the resulting counters;
 * `w` is the limiter's `windowsAt(nowMs)`, computed once by the limiter for its counters.
 */
export function decide(
  outcome: Outcome,
  counts: WindowCounts,
  limits: PlanLimits,
  nowMs: number,
  w: Windows,
): RateLimitDecision {
  const day = dayBinds(counts, limits);
  const limit = day ? limits.perDay : limits.perMinute;
  const used = day ? counts.day : counts.minute;
  const remaining = Math.max(0, limit - used);
  const policy = policyField(limits);
  if (outcome.kind === "banned") {
    const reset = outcome.untilSeconds;
    const retryAfter = secondsUntil(reset, nowMs);
    // No window serves the key before the ban ends, so each says so (the draft lets a server
    // lower the values it advertises, section 7).
    const serviceLimits = serviceLimitField(0, retryAfter, 0, retryAfter);
    return {
      allowed: false,
      limit,
      remaining: 0,
      reset,
      policy,
      serviceLimits,
      retryAfter,
      code: "api_key_banned",
    };
  }
  const minuteSeconds = secondsUntil(w.minuteEndMs / 1000, nowMs);
  const daySeconds = secondsUntil(w.dayEndMs / 1000, nowMs);
  const serviceLimits = serviceLimitField(
    Math.max(0, limits.perMinute - counts.minute),
    minuteSeconds,
    Math.max(0, limits.perDay - counts.day),
    daySeconds,
  );
  const reset = (day ? w.dayEndMs : w.minuteEndMs) / 1000;
  if (outcome.kind === "allowed") {
    return { allowed: true, limit, remaining, reset, policy, serviceLimits };
  }
  const retryAfter = day ? daySeconds : minuteSeconds;
  return {
    allowed: false,
    limit,
    remaining,
    reset,
    policy,
    serviceLimits,
    retryAfter,
    code: "rate_limited",
  };
}

/**
 * End of a ban that starts at `nowMs`, in whole Unix seconds: counted from the current whole
 * second, so Retry-After on the request that starts the ban equals the ban's length.
 */
export function banEndSeconds(nowMs: number, banSeconds: number): number {
  return Math.floor(nowMs / 1000) + banSeconds;
}
