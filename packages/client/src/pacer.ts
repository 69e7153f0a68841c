import { ClockSkew } from "./clock-skew.js";
import type { RateLimitInfo } from "./rate-limit.js";

/** What `pacing.onWait` is told before the client holds a call back. */
export interface PacingWaitEvent {
  readonly operationId: string;
  /** How long the call waits, in ms. */
  readonly delayMs: number;
  /** "window": the key's requests are used up until the window resets; "retry-after": a 429 said so. */
  readonly reason: "window" | "retry-after";
}

/** Pacing settings: how long a call may be held back, and a hook to log it. */
export interface PacingOptions {
  /** Longest hold-back in ms (default 65 000: a minute window plus clock slack). */
  maxWaitMs?: number;
  /** Told before each hold-back. */
  onWait?: (event: PacingWaitEvent) => void;
}

/** The defaults of `PacingOptions`. */
export const PACING_DEFAULTS = { maxWaitMs: 65_000 } as const;

/** Why a call cannot be sent now: a wait too long for the client, or past the call's deadline. */
export type HoldBackRefusal = { readonly kind: "too-long"; readonly until: number } | { readonly kind: "deadline" };

/** What `acquire` needs from the call it holds back. */
export interface HoldBackContext {
  readonly operationId: string;
  /** Aborts every wait: the caller's abort or the call's deadline. */
  readonly signal: AbortSignal;
  /** Client ms past which the call may not wait. */
  readonly deadlineAt: number | undefined;
  /** Builds the error a refused call rejects with. */
  refuse(refusal: HoldBackRefusal): Error;
}

interface Window {
  /** When the window resets, in server ms (`X-RateLimit-Reset`). */
  readonly resetServerMs: number;
  /** The lowest `X-RateLimit-Remaining` seen for it: the freshest count, since it only goes down. */
  remaining: number;
}

const COMPLETION = -1;

/**
 * Holds calls back so a client does not draw a 429: after a 429 until its `Retry-After`; and,
 * in "pace" mode, while the requests left in the key's window (the lowest `X-RateLimit-Remaining`
 * seen, less the requests in flight) are used up, until `X-RateLimit-Reset` (corrected for clock
 * skew). When nothing is known yet (no response, or the window has reset), one request goes
 * alone and the others wait for its answer, so a burst of parallel calls cannot overrun a window.
 * In "pause" mode (pacing off) it only waits out a 429's pause, up to `maxWaitMs`, else sends.
 */
export class Pacer {
  private inFlight = 0;
  private seenResponse = false;
  private window: Window | undefined;
  private pausedUntil = 0;
  private waiters: (() => void)[] = [];
  private readonly skew = new ClockSkew();

  constructor(
    private readonly mode: "pace" | "pause",
    private readonly maxWaitMs: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>,
    private readonly onWait: ((event: PacingWaitEvent) => void) | undefined,
  ) {}

  /** Resolves (or returns at once) when the call may send; it then counts as in flight. */
  acquire(context: HoldBackContext): undefined | Promise<void> {
    if (this.nextWait(this.now()) === 0) {
      this.inFlight++;
      return undefined;
    }
    return this.acquireAfterWaiting(context);
  }

  /** Ends an in-flight request: learns from its response's headers and wakes waiting calls. */
  settle(rateLimit: RateLimitInfo | undefined, date: string | null, receivedAt: number): void {
    this.inFlight--;
    this.seenResponse = true;
    if (this.mode === "pace" && rateLimit) {
      this.skew.observe(date, receivedAt);
      this.learn(rateLimit, receivedAt);
    }
    this.wake();
  }

  /** Ends an in-flight request that got no response. */
  abandon(): void {
    this.inFlight--;
    this.wake();
  }

  /** Holds every call back until `until` (client ms), as a 429's `Retry-After` asks. */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** How long a call sent now would be held back by a timer (not counting waits for answers). */
  timedWait(now: number): number {
    const wait = this.nextWait(now);
    return wait === COMPLETION ? 0 : wait;
  }

  private async acquireAfterWaiting(context: HoldBackContext): Promise<void> {
    for (;;) {
      const now = this.now();
      const wait = this.nextWait(now);
      if (wait === 0) break;
      if (wait === COMPLETION) {
        await this.nextSettle(context.signal);
        continue;
      }
      if (wait > this.maxWaitMs) {
        // Pacing off keeps the old rule: a pause longer than the client waits is not waited out.
        if (this.mode === "pause") break;
        throw context.refuse({ kind: "too-long", until: now + wait });
      }
      if (context.deadlineAt !== undefined && now + wait > context.deadlineAt) {
        throw context.refuse({ kind: "deadline" });
      }
      const reason = this.pausedUntil > now ? "retry-after" : "window";
      this.onWait?.({ operationId: context.operationId, delayMs: wait, reason });
      await this.sleep(wait, context.signal);
      context.signal.throwIfAborted();
    }
    this.inFlight++;
  }

  /** 0 to send now, ms to wait, or COMPLETION to wait for an in-flight answer. */
  private nextWait(now: number): number {
    if (this.pausedUntil > now) return this.pausedUntil - now;
    if (this.mode === "pause") return 0;
    const idleOrCompletion = this.inFlight > 0 ? COMPLETION : 0;
    // Nothing known yet: the first request probes alone.
    if (!this.seenResponse) return idleOrCompletion;
    const window = this.window;
    if (!window) return 0;
    const resetAt = window.resetServerMs - this.skew.offsetMs();
    // The window has reset: its new count is unknown until one answer tells it.
    if (now >= resetAt) return idleOrCompletion;
    if (window.remaining - this.inFlight > 0) return 0;
    // In-flight answers may show requests left (they may already be counted); else wait it out.
    return this.inFlight > 0 ? COMPLETION : resetAt - now;
  }

  private learn(rateLimit: RateLimitInfo, receivedAt: number): void {
    const resetServerMs = rateLimit.resetAt.getTime();
    // A reset already past (a mock's example, a stale proxy answer) tells nothing about now.
    if (resetServerMs - this.skew.offsetMs() <= receivedAt) return;
    const window = this.window;
    if (!window || resetServerMs > window.resetServerMs) {
      this.window = { resetServerMs, remaining: rateLimit.remaining };
    } else if (resetServerMs === window.resetServerMs) {
      window.remaining = Math.min(window.remaining, rateLimit.remaining);
    }
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private nextSettle(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }
}
