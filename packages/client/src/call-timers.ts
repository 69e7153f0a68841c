import { type CallFailureContext, TimeoutError } from "./call-errors.js";

/** A signal that never aborts: the wait signal of a call without a caller's signal or deadline. */
export const NEVER_ABORTED = new AbortController().signal;

/**
 * The clocks of one timed call (`timeoutMs` or `deadlineMs` set): a deadline that aborts every
 * wait and attempt of the call, and per-attempt timers. A caller's abort is passed on with its
 * own reason, so it wins over both.
 */
export class CallTimers {
  /** Aborts the call's waits: the caller's abort, or the deadline with a TimeoutError. */
  readonly signal: AbortSignal;
  /** Client ms the deadline falls on (undefined without `deadlineMs`). */
  readonly deadlineAt: number | undefined;
  private readonly deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly unlinkCaller: () => void;

  constructor(
    private readonly timeoutMs: number | undefined,
    /** The call's `deadlineMs`, if any. */
    readonly deadlineMs: number | undefined,
    callerSignal: AbortSignal | undefined,
    now: number,
    private readonly context: () => CallFailureContext,
  ) {
    if (deadlineMs === undefined) {
      this.signal = callerSignal ?? NEVER_ABORTED;
      this.unlinkCaller = () => undefined;
      return;
    }
    const deadline = new AbortController();
    this.deadlineAt = now + deadlineMs;
    this.signal = deadline.signal;
    this.deadlineTimer = setTimeout(
      () => deadline.abort(new TimeoutError("deadline", deadlineMs, context())),
      deadlineMs,
    );
    this.unlinkCaller = link(callerSignal, deadline);
  }

  /**
   * Arms one attempt: `attempt` aborts when the call's signal does, or with a TimeoutError after
   * `timeoutMs`. Returns the disarm function, and whether the attempt's own timer fired.
   */
  arm(attempt: AbortController): { disarm: () => void; timedOut: () => boolean } {
    const unlink = link(this.signal, attempt);
    let fired = false;
    const timer =
      this.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            fired = true;
            attempt.abort(new TimeoutError("attempt", this.timeoutMs ?? 0, this.context()));
          }, this.timeoutMs);
    return {
      disarm: () => {
        if (timer !== undefined) clearTimeout(timer);
        unlink();
      },
      timedOut: () => fired,
    };
  }

  /** Stops the deadline and lets go of the caller's signal. */
  dispose(): void {
    if (this.deadlineTimer !== undefined) clearTimeout(this.deadlineTimer);
    this.unlinkCaller();
  }
}

/** Aborts `target` with `source`'s reason when `source` aborts; returns the unlink function. */
function link(source: AbortSignal | undefined, target: AbortController): () => void {
  if (!source) return () => undefined;
  if (source.aborted) {
    target.abort(source.reason);
    return () => undefined;
  }
  const onAbort = () => target.abort(source.reason);
  source.addEventListener("abort", onAbort, { once: true });
  return () => source.removeEventListener("abort", onAbort);
}
