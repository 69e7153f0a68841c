/**
 * The rate-limit step: runs right after the caller is identified, so every response, errors (401,
 * 404, 429, ...) included, carries X-RateLimit-*. A counted request over a limit is refused with
 * 429 and Retry-After; a request that is not counted (OPTIONS, ops routes) only reads its window.
 */
import type { Request, Response } from "express";
import type { Caller, CallerLocals } from "../auth/credentials.js";
import { engineErrors } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";
import type { RequestTracing } from "../tracing/hooks.js";
import type { RateLimitDecision } from "./decision.js";
import type { RateLimiter } from "./limiter.js";
import type { PlanLimits } from "./plans.js";

/** What the step needs: the counters, the clock (ms) and the limits of a caller. */
export interface RateLimitOptions {
  limiter: RateLimiter;
  clock: () => number;
  /** The contract's plans applied to a caller (plans.ts `limitsFor`). */
  limitsFor: (caller: Caller) => PlanLimits;
  /** Whether `req` counts against its window (else it only reads it, and is never refused). */
  counted: (req: Request) => boolean;
  /** Runs each counted decision in a span (tracing on); absent, nothing is wrapped. */
  tracing?: RequestTracing | undefined;
  /** Told of every 429 (the metrics' refusals by plan). */
  onRefused?: ((caller: Caller, code: string) => void) | undefined;
}

/** The subject counters are kept under: the key id, or the address of a caller without one. */
export function rateLimitSubject(caller: Caller): string {
  return caller.kind === "key" ? `key:${caller.key.id}` : `addr:${caller.address}`;
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

/** Counts the request (or reads its window), sets X-RateLimit-*, and refuses over a limit. */
export function rateLimit(options: RateLimitOptions) {
  const { limiter, clock, limitsFor, counted, onRefused, tracing } = options;
  return step<CallerLocals>(function rateLimit(req, res, next) {
    const { caller } = res.locals;
    const subject = rateLimitSubject(caller);
    if (!counted(req)) {
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
