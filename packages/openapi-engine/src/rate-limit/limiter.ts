/** The contract between the rate-limit middleware and the stores that hold the counters. */

import type { PlanLimits } from "@animal-store/openapi";
import type { RateLimitDecision } from "./limits.js";

/** Per-request options: callers without a key are limited but never banned. */
export interface ConsumeOptions {
  /** Whether calling while limited can ban this subject (true for API keys). */
  banEligible?: boolean;
}

/** A subject's counts in the current windows. */
export interface Usage {
  minute: number;
  day: number;
  /** Unix seconds when its ban ends, or null when it is not banned. */
  bannedUntil: number | null;
}

/** A store of per-subject counters for the minute and day windows, plus bans. */
export interface RateLimiter {
  /**
   * Counts one request for `subject` at `nowMs`; a rejected request does not count at all. A
   * store that decides in-process answers synchronously (no promise on the hot path).
   */
  consume(
    subject: string,
    limits: PlanLimits,
    nowMs: number,
    options?: ConsumeOptions,
  ): RateLimitDecision | Promise<RateLimitDecision>;
  /**
   * The decision `subject`'s windows stand at, without counting anything (for requests that are
   * not counted but still carry the headers: OPTIONS, ops routes, connection-level answers).
   * During a ban it says so; otherwise it is "allowed" whatever is left.
   */
  peek(
    subject: string,
    limits: PlanLimits,
    nowMs: number,
  ): RateLimitDecision | Promise<RateLimitDecision>;
  /**
   * What `subject` has used in the current minute and day (UTC windows) and its ban's end, read
   * from the store itself: a shared store that does not answer rejects (never the per-instance
   * fallback's figures, which would look like a fresh quota).
   */
  usage(subject: string, nowMs: number): Promise<Usage>;
  /** Readiness probe: resolves when the backing store answers, rejects otherwise. */
  check(): Promise<void>;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
