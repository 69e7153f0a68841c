/**
 * The rate-limit step: runs right after the caller is identified, so every response, errors (401,
 * 404, 429, ...) included, carries X-RateLimit-*. A counted request over a limit is refused with
 * 429 and Retry-After; a request that is not counted (OPTIONS, ops routes) only reads its window.
 */

import { ServerResponse } from "node:http";
import type { PlanLimits, RateLimitPolicy } from "@animal-store/openapi";
import type { Request, Response } from "express";
import type { ApiKeyRecord, Caller, CallerLocals } from "../auth/security.js";
import { engineErrors } from "../errors.js";
import { setEngineHeader } from "../express-messages.js";
import { step } from "../lifecycle/lifecycle.js";
import type { RequestTracing } from "../tracing/hooks.js";
import type { RateLimitDecision } from "./decision.js";
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
  // ietf-fields.ts) is not derived again per request.
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
