import { tell } from "./call-options.js";
import { createClockSkew } from "./clock-skew.js";
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

/**
 * Why a call cannot be sent now: a wait longer than the client makes, or one that would end past the
 * call's deadline. `until` is when pacing would let it go (client ms).
 */
export interface HoldBackRefusal {
  readonly kind: "too-long" | "deadline";
  readonly until: number;
}

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
  /** When the window resets, in server ms (`X-RateLimit-Reset`, or `Date` plus `RateLimit`'s `t`). */
  readonly resetServerMs: number;
  /** The lowest remaining count seen for it: the freshest, since it only goes down. */
  remaining: number;
}

const COMPLETION = -1;

/** The pacer's interface to the transport. */
export interface Pacer {
  /** Resolves (or returns at once) when the call may send; it then counts as in flight. */
  acquire(context: HoldBackContext): undefined | Promise<void>;
  /** Ends an in-flight request: learns from its response's headers and wakes waiting calls. */
  settle(rateLimit: RateLimitInfo | undefined, date: string | null, receivedAt: number): void;
  /** Ends an in-flight request that got no response. */
  abandon(): void;
  /**
   * Holds every call back until `until` (client ms), as a 429's `Retry-After` asks, and no longer:
   * a window known to reset later is taken to reset then.
   */
  pauseUntil(until: number): void;
  /** How long a call sent now would be held back by a timer (not counting waits for answers). */
  timedWait(now: number): number;
}

/** The clock and hooks a pacer runs on. */
export interface PacerSettings {
  /** "pace": hold back before the window runs out; "pause": only after a 429 (pacing off). */
  readonly mode: "pace" | "pause";
  /** Longest hold-back: beyond it "pace" refuses the call, "pause" sends it anyway. */
  readonly maxWaitMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly onWait: ((event: PacingWaitEvent) => void) | undefined;
}

/**
 * Holds calls back so a client does not draw a 429: after a 429 until its `Retry-After`; and,
 * in "pace" mode, while the requests left in the key's window (the lowest remaining count seen,
 * rate-limit.ts, less the requests in flight) are used up, until the window's reset (corrected
 * for clock skew). When nothing is known yet (no response, or the window has reset), one request goes
 * alone and the others wait for its answer, so a burst of parallel calls cannot overrun a window.
 * In "pause" mode (pacing off) it only waits out a 429's pause, up to `maxWaitMs`, else sends.
 */
export function createPacer(settings: PacerSettings): Pacer {
  const { mode, maxWaitMs, now, sleep, onWait } = settings;
  const skew = createClockSkew();
  let inFlight = 0;
  let seenResponse = false;
  let window: Window | undefined;
  let pausedUntil = 0;
  let waiters: (() => void)[] = [];

  /** 0 to send now, ms to wait, or COMPLETION to wait for an in-flight answer. */
  const nextWait = (at: number): number => {
    if (pausedUntil > at) return pausedUntil - at;
    if (mode === "pause") return 0;
    const idleOrCompletion = inFlight > 0 ? COMPLETION : 0;
    // Nothing known yet: the first request probes alone.
    if (!seenResponse) return idleOrCompletion;
    if (!window) return 0;
    const resetAt = window.resetServerMs - skew.offsetMs();
    // The window has reset: its new count is unknown until one answer tells it.
    if (at >= resetAt) return idleOrCompletion;
    if (window.remaining - inFlight > 0) return 0;
    // In-flight answers may show requests left (they may already be counted); else wait it out.
    return inFlight > 0 ? COMPLETION : resetAt - at;
  };

  const learn = (rateLimit: RateLimitInfo, receivedAt: number): void => {
    const resetServerMs = rateLimit.resetAt.getTime();
    // A reset already past (a mock's example, a stale proxy answer) tells nothing about now.
    if (resetServerMs - skew.offsetMs() <= receivedAt) return;
    if (!window || resetServerMs > window.resetServerMs) {
      window = { resetServerMs, remaining: rateLimit.remaining };
    } else if (resetServerMs === window.resetServerMs) {
      window.remaining = Math.min(window.remaining, rateLimit.remaining);
    }
  };

  const wake = (): void => {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  };

  const nextSettle = (signal: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      signal.throwIfAborted();
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      waiters.push(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });

  const acquireAfterWaiting = async (context: HoldBackContext): Promise<void> => {
    for (;;) {
      const at = now();
      const wait = nextWait(at);
      if (wait === 0) break;
      if (wait === COMPLETION) {
        await nextSettle(context.signal);
        continue;
      }
      if (wait > maxWaitMs) {
        // Pacing off keeps the old rule: a pause longer than the client waits is not waited out.
        if (mode === "pause") break;
        throw context.refuse({ kind: "too-long", until: at + wait });
      }
      if (context.deadlineAt !== undefined && at + wait > context.deadlineAt) {
        throw context.refuse({ kind: "deadline", until: at + wait });
      }
      const reason = pausedUntil > at ? "retry-after" : "window";
      tell(onWait, { operationId: context.operationId, delayMs: wait, reason });
      await sleep(wait, context.signal);
      context.signal.throwIfAborted();
    }
    inFlight++;
  };

  return {
    acquire(context) {
      if (nextWait(now()) !== 0) return acquireAfterWaiting(context);
      inFlight++;
      return undefined;
    },
    settle(rateLimit, date, receivedAt) {
      inFlight--;
      seenResponse = true;
      if (mode === "pace" && rateLimit) {
        skew.observe(date, receivedAt);
        learn(rateLimit, receivedAt);
      }
      if (waiters.length > 0) wake();
    },
    abandon() {
      inFlight--;
      if (waiters.length > 0) wake();
    },
    pauseUntil(until) {
      pausedUntil = Math.max(pausedUntil, until);
      // The 429's Retry-After says when to try again; an X-RateLimit-Reset further out on the same
      // answer must not stretch that wait. After the pause the window counts as reset: one request
      // probes it alone.
      if (window && window.resetServerMs - skew.offsetMs() > until) {
        window = { resetServerMs: until + skew.offsetMs(), remaining: 0 };
      }
    },
    timedWait(at) {
      const wait = nextWait(at);
      return wait === COMPLETION ? 0 : wait;
    },
  };
}
