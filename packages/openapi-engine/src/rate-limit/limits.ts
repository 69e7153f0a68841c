/**
 * Rate limits, from the step to the counters. The step runs right after the caller is identified,
 * so every response, errors (401, 404, 429, ...) included, carries X-RateLimit-*. A counted request
 * over a limit is refused with 429 and Retry-After; a request that is not counted (OPTIONS, ops
 * routes) only reads its window.
 *
 * The decision: fixed windows aligned to the clock (the current UTC minute and UTC day) and the
 * decision a limiter returns, computed the same way whichever store holds the counters.
 *
 * The IETF rate-limit fields, `RateLimit-Policy` and `RateLimit`, as draft-ietf-httpapi-ratelimit-headers-10
 * defines them (https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/10/): each a
 * Structured Field List (RFC 9651) of Items whose value is the policy's name as a String.
 *
 * - `RateLimit-Policy`: one quota policy per window of the caller's limits, `q` the quota and `w`
 *   the window in seconds: `"minute";q=60;w=60, "day";q=1000;w=86400`.
 * - `RateLimit`: one service limit per window, `r` the requests left and `t` the seconds until the
 *   window gives quota back: `"minute";r=59;t=17, "day";r=999;t=3600`.
 *
 * Both come from the same decision as X-RateLimit-*; the legacy headers carry the window nearer
 * exhaustion, these carry each window.
 *
 * In-process counters: one Map entry per subject, O(1) per request, entries whose windows and
 * ban have all passed are swept by an unref'd timer. consume() does its read-modify-write with no
 * await in between, so concurrent requests on one subject cannot both take the last slot.
 */
import { ServerResponse } from "node:http";
import type { PlanLimits, RateLimitPolicy } from "@animal-store/openapi";
import type { Request, Response } from "express";
import { type Item, serializeList } from "structured-headers";
import type { ApiKeyRecord, Caller, CallerLocals } from "../auth/security.js";
import { engineErrors } from "../errors.js";
import { setEngineHeader } from "../express-messages.js";
import { step } from "../lifecycle/lifecycle.js";
import type { RequestTracing } from "../tracing/request-tracing.js";
import type { BanSettings } from "./ban.js";
import type { RateLimiter } from "./limiter.js";

/** What the step needs: the counters, the clock (ms) and the limits of a caller. */
export interface RateLimitOptions {
  limiter: RateLimiter;
  clock: () => number;
  /** The contract's plans applied to a caller (plans.ts `limitsFor`). */
  limitsFor: (caller: Caller) => PlanLimits;
  /**
   * Whether `req` counts against its window (else it only reads it, and is never refused); absent,
   * every request counts.
   */
  counted?: ((req: Request) => boolean) | undefined;
  /** Runs each counted decision in a span (tracing on); absent, nothing is wrapped. */
  tracing?: RequestTracing | undefined;
  /** Told of every 429 (the metrics' refusals by plan). */
  onRefused?: ((caller: Caller, code: string) => void) | undefined;
}

/**
 * The subject counters are kept under: whatever credential identified the caller (a key's id, or
 * the subject another verifier answered), else the address of a caller without one.
 */
export function rateLimitSubject(caller: Caller): string {
  return caller.kind === "key"
    ? `key:${caller.key.id}`
    : caller.kind === "credential"
      ? `sub:${caller.subject}`
      : `addr:${caller.address}`;
}

/**
 * Sets the rate-limit headers of `decision`, X-RateLimit-* and the IETF `RateLimit-Policy` and
 * `RateLimit` (anything with setHeader: a response, a raw answer, another framework's reply).
 */
export function setRateLimitHeaders(
  target: { setHeader(name: string, value: number | string): unknown },
  decision: RateLimitDecision,
): void {
  if (target instanceof ServerResponse) {
    setEngineHeader(target, "x-ratelimit-limit", "X-RateLimit-Limit", decision.limit);
    setEngineHeader(target, "x-ratelimit-remaining", "X-RateLimit-Remaining", decision.remaining);
    setEngineHeader(target, "x-ratelimit-reset", "X-RateLimit-Reset", decision.reset);
    setEngineHeader(target, "ratelimit-policy", "RateLimit-Policy", decision.policy);
    setEngineHeader(target, "ratelimit", "RateLimit", decision.serviceLimits);
    return;
  }
  for (const [name, value] of rateLimitHeaderEntries(decision)) target.setHeader(name, value);
}

/** The rate-limit headers of `decision` as name/value pairs, in the order they are written. */
export function rateLimitHeaderEntries(
  decision: RateLimitDecision,
): Array<[string, string | number]> {
  return [
    ["X-RateLimit-Limit", decision.limit],
    ["X-RateLimit-Remaining", decision.remaining],
    ["X-RateLimit-Reset", decision.reset],
    ["RateLimit-Policy", decision.policy],
    ["RateLimit", decision.serviceLimits],
  ];
}

/** Counts the request (or reads its window), sets X-RateLimit-*, and refuses over a limit. */
export function rateLimit(options: RateLimitOptions) {
  const { limiter, clock, limitsFor, counted, onRefused, tracing } = options;
  return step<CallerLocals>(function rateLimit(req, res, next) {
    const { caller } = res.locals;
    const subject = rateLimitSubject(caller);
    if (counted !== undefined && !counted(req)) {
      const peeked = limiter.peek(subject, limitsFor(caller), clock());
      const headersOnly = (decision: RateLimitDecision) => {
        setRateLimitHeaders(res, decision);
        next();
      };
      if (peeked instanceof Promise) peeked.then(headersOnly, next);
      else headersOnly(peeked);
      return;
    }
    const consume = () =>
      limiter.consume(subject, limitsFor(caller), clock(), { banEligible: caller.kind === "key" });
    const decided = tracing ? tracing.rateLimit(subject, consume) : consume();
    const refused = onRefused && ((code: string) => onRefused(caller, code));
    if (decided instanceof Promise) {
      decided.then((decision) => apply(decision, res, next, refused), next);
    } else apply(decided, res, next, refused);
  });
}

/** Sets X-RateLimit-* from `decision` and passes on, with a 429 when it refuses. */
function apply(
  decision: RateLimitDecision,
  res: Response,
  next: (err?: unknown) => void,
  refused?: (code: string) => void,
): void {
  setRateLimitHeaders(res, decision);
  if (decision.allowed) {
    next();
    return;
  }
  const retryAfter = decision.retryAfter ?? 0;
  refused?.(decision.code ?? "rate_limited");
  next(
    decision.code === "api_key_banned"
      ? engineErrors.apiKeyBanned(retryAfter)
      : engineErrors.rateLimited(retryAfter),
  );
}

export type { PlanLimits } from "@animal-store/openapi";

/**
 * The limits the step applies. Which limits apply to a caller, from the contract's plans (`info.x-rate-limit-plans`): a key's
 * own limits where set, else its plan's; a caller without a valid key is counted on the plan
 * `info.x-rate-limit-anonymous-plan` names.
 */

/** Told once per key whose plan the contract no longer has (it is counted on the anonymous plan). */
export type UnknownPlanWarning = (key: ApiKeyRecord) => void;

/** The function that gives each caller its limits under `policy`. */
export function limitsFor(
  policy: RateLimitPolicy,
  onUnknownPlan: UnknownPlanWarning = () => {},
): (caller: Caller) => PlanLimits {
  const anonymous = policy.plans[policy.anonymousPlan] as PlanLimits;
  const warned = new Set<string>();
  // A key's own limits (or a dropped plan's stand-in) are one object per key record, like a plan's
  // for the life of the contract, so what is derived from limits once (the RateLimit-Policy value,
  // `policyField`) is not derived again per request.
  const ofKey = new WeakMap<ApiKeyRecord, PlanLimits>();
  const forKey = (key: ApiKeyRecord): PlanLimits => {
    const plan = Object.hasOwn(policy.plans, key.plan) ? policy.plans[key.plan] : undefined;
    if (plan !== undefined && key.perMinute === null && key.perDay === null) return plan;
    let limits = ofKey.get(key);
    if (limits === undefined) {
      limits = keyLimits(key);
      ofKey.set(key, limits);
    }
    return limits;
  };
  const keyLimits = (key: ApiKeyRecord): PlanLimits => {
    let base = Object.hasOwn(policy.plans, key.plan) ? policy.plans[key.plan] : undefined;
    if (base === undefined) {
      // A key issued under a plan the contract has since dropped: the strictest known limits,
      // rather than none at all or a refused start.
      if (!warned.has(key.id)) {
        warned.add(key.id);
        onUnknownPlan(key);
      }
      base = { ...anonymous, custom: false };
    }
    if (key.perMinute === null && key.perDay === null) return base;
    return { perMinute: key.perMinute ?? base.perMinute, perDay: key.perDay ?? base.perDay };
  };
  return (caller) => (caller.kind === "key" ? forKey(caller.key) : anonymous);
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What the rate-limit headers and a 429 need to say about one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** X-RateLimit-* of the window nearer exhaustion; reset is in Unix seconds. */
  limit: number;
  remaining: number;
  reset: number;
  /** The `RateLimit-Policy` value: every window of the caller's limits (`policyField`). */
  policy: string;
  /**
   * The `RateLimit` value: each window's requests left and seconds to its reset
   * (`serviceLimitField`).
   */
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
function isExhausted(counts: WindowCounts, limits: PlanLimits): boolean {
  return counts.minute >= limits.perMinute || counts.day >= limits.perDay;
}

/** Which window a refusal belongs to (the ban counts refusals per window), as "m" or "d". */
function bindingWindow(counts: WindowCounts, limits: PlanLimits): "m" | "d" {
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
// record, `limitsFor`), so each policy value is serialized once and then looked up.
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
 * so the members are joined as text per request; limits.test.ts holds this to the library's
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

interface SubjectState {
  minuteIndex: number;
  minute: number;
  dayIndex: number;
  day: number;
  /** Refusals counted toward a ban, and the window ("m"/"d" + index) they belong to. */
  refusedWindow: string;
  refused: number;
  banUntilSeconds: number;
}

/** Options of the in-process limiter. */
export interface MemoryRateLimiterOptions {
  /** The ban rule (the contract's, with the operator's overrides). */
  ban: BanSettings;
  /** How often expired entries are swept; default one minute. */
  sweepIntervalMs?: number;
}

/** The in-process limiter, plus the number of subjects it holds (for tests of pruning). */
export interface MemoryRateLimiter extends RateLimiter {
  size(): number;
  /** Drops entries with nothing left to remember as of `nowMs` (the timer calls it too). */
  sweep(nowMs: number): void;
}

/** Creates the in-process limiter (the default when REDIS_URL is not set). */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): MemoryRateLimiter {
  const { ban } = options;
  const subjects = new Map<string, SubjectState>();
  let latestMs = 0;

  const sweep = (nowMs: number) => {
    const { dayIndex } = windowsAt(nowMs);
    for (const [subject, s] of subjects) {
      if (s.dayIndex < dayIndex && s.banUntilSeconds * 1000 <= nowMs) subjects.delete(subject);
    }
  };
  const timer = setInterval(() => sweep(latestMs), options.sweepIntervalMs ?? 60_000);
  timer.unref();

  return {
    consume(subject, limits, nowMs, consumeOptions) {
      if (nowMs > latestMs) latestMs = nowMs;
      const w = windowsAt(nowMs);
      let s = subjects.get(subject);
      if (s === undefined) {
        s = {
          minuteIndex: w.minuteIndex,
          minute: 0,
          dayIndex: w.dayIndex,
          day: 0,
          refusedWindow: "",
          refused: 0,
          banUntilSeconds: 0,
        };
        subjects.set(subject, s);
      }
      if (s.minuteIndex !== w.minuteIndex) {
        s.minuteIndex = w.minuteIndex;
        s.minute = 0;
      }
      if (s.dayIndex !== w.dayIndex) {
        s.dayIndex = w.dayIndex;
        s.day = 0;
      }
      if (s.banUntilSeconds * 1000 > nowMs) {
        return decide({ kind: "banned", untilSeconds: s.banUntilSeconds }, s, limits, nowMs, w);
      }
      if (!isExhausted(s, limits)) {
        s.minute += 1;
        s.day += 1;
        return decide({ kind: "allowed" }, s, limits, nowMs, w);
      }
      const which = bindingWindow(s, limits);
      const refusedWindow = which + (which === "d" ? w.dayIndex : w.minuteIndex);
      if (s.refusedWindow !== refusedWindow) {
        s.refusedWindow = refusedWindow;
        s.refused = 0;
      }
      s.refused += 1;
      if (consumeOptions?.banEligible && ban.seconds > 0 && s.refused > ban.threshold) {
        s.banUntilSeconds = banEndSeconds(nowMs, ban.seconds);
        s.refused = 0;
        return decide({ kind: "banned", untilSeconds: s.banUntilSeconds }, s, limits, nowMs, w);
      }
      return decide({ kind: "limited" }, s, limits, nowMs, w);
    },
    async usage(subject, nowMs) {
      const w = windowsAt(nowMs);
      const s = subjects.get(subject);
      return {
        minute: s?.minuteIndex === w.minuteIndex ? s.minute : 0,
        day: s?.dayIndex === w.dayIndex ? s.day : 0,
        bannedUntil: s !== undefined && s.banUntilSeconds * 1000 > nowMs ? s.banUntilSeconds : null,
      };
    },
    peek(subject, limits, nowMs) {
      const w = windowsAt(nowMs);
      const s = subjects.get(subject);
      const counts = {
        minute: s?.minuteIndex === w.minuteIndex ? s.minute : 0,
        day: s?.dayIndex === w.dayIndex ? s.day : 0,
      };
      if (s !== undefined && s.banUntilSeconds * 1000 > nowMs) {
        return decide(
          { kind: "banned", untilSeconds: s.banUntilSeconds },
          counts,
          limits,
          nowMs,
          w,
        );
      }
      return decide({ kind: "allowed" }, counts, limits, nowMs, w);
    },
    size: () => subjects.size,
    sweep,
    check: async () => {},
    close: async () => {
      clearInterval(timer);
      subjects.clear();
    },
  };
}
