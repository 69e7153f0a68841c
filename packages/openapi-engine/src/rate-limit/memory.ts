/**
 * In-process counters: one Map entry per subject, O(1) per request, entries whose windows and
 * ban have all passed are swept by an unref'd timer. consume() does its read-modify-write with no
 * await in between, so concurrent requests on one subject cannot both take the last slot.
 */
import type { BanSettings } from "./ban.js";
import { banEndSeconds, bindingWindow, decide, isExhausted, windowsAt } from "./decision.js";
import type { RateLimiter } from "./limiter.js";

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
