/**
 * The rate-limit middleware: runs right after identifyCaller, so every response, errors (401,
 * 404, 429, ...) included, carries X-RateLimit-*; refusals become 429 with Retry-After.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type Caller, callerAddress } from "../auth/caller.js";
import { type EngineError, engineErrors } from "../errors.js";
import type { RateLimitDecision } from "./decision.js";
import type { RateLimiter } from "./limiter.js";
import type { PlanLimits } from "./plans.js";

/** What the middleware needs: the counters, the clock (ms) and the limits of a caller. */
export interface RateLimitMiddlewareOptions {
  limiter: RateLimiter;
  clock: () => number;
  /** The contract's plans applied to a caller (plans.ts `limitsFor`). */
  limitsFor: (caller: Caller) => PlanLimits;
}

/** The subject counters are kept under: the key id, or the address of a caller without one. */
export function rateLimitSubject(caller: Caller): string {
  return caller.kind === "key" ? `key:${caller.key.id}` : `addr:${caller.address}`;
}

function refusal(decision: RateLimitDecision): EngineError {
  const retryAfter = decision.retryAfter ?? 0;
  return decision.code === "api_key_banned"
    ? engineErrors.apiKeyBanned(retryAfter)
    : engineErrors.rateLimited(retryAfter);
}

/**
 * Middleware: counts the request, sets X-RateLimit-* on `res`, and refuses over a limit. A
 * request marked `res.locals.uncounted` (OPTIONS, ops routes) only reads its window: headers,
 * no count, never a refusal.
 */
export function rateLimitMiddleware(options: RateLimitMiddlewareOptions): RequestHandler {
  const { limiter, clock, limitsFor } = options;
  return function rateLimit(req: Request, res: Response, next: NextFunction): void {
    const caller: Caller = res.locals.caller ?? {
      kind: "anonymous",
      address: callerAddress(req),
      failure: "missing",
    };
    const subject = rateLimitSubject(caller);
    if (res.locals.uncounted === true || res.locals.optionsAllow !== undefined) {
      const peeked = limiter.peek(subject, limitsFor(caller), clock());
      if (peeked instanceof Promise)
        peeked.then((decision) => headersOnly(decision, res, next), next);
      else headersOnly(peeked, res, next);
      return;
    }
    const decided = limiter.consume(subject, limitsFor(caller), clock(), {
      banEligible: caller.kind === "key",
    });
    if (decided instanceof Promise) decided.then((decision) => apply(decision, res, next), next);
    else apply(decided, res, next);
  };
}

/** Sets the X-RateLimit-* headers of `decision` (anything with setHeader: a response, a raw answer). */
export function setRateLimitHeaders(
  target: { setHeader(name: string, value: number): unknown },
  decision: RateLimitDecision,
): void {
  target.setHeader("X-RateLimit-Limit", decision.limit);
  target.setHeader("X-RateLimit-Remaining", decision.remaining);
  target.setHeader("X-RateLimit-Reset", decision.reset);
}

/** Sets X-RateLimit-* from `decision` and passes on, never refusing. */
function headersOnly(decision: RateLimitDecision, res: Response, next: NextFunction): void {
  setRateLimitHeaders(res, decision);
  next();
}

/** Sets X-RateLimit-* from `decision` and passes on, with a 429 when it refuses. */
function apply(decision: RateLimitDecision, res: Response, next: NextFunction): void {
  setRateLimitHeaders(res, decision);
  next(decision.allowed ? undefined : refusal(decision));
}
