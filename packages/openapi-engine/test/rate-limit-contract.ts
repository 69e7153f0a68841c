/**
 * The behaviour every RateLimiter must have, run against the in-process and the Redis limiter
 * with a fake clock: windows and their reset, header arithmetic, refusals not counting, bans.
 */
import { expect, it } from "vitest";
import type { BanSettings, RateLimiter } from "../src/rate-limit/index.js";
import { serializePolicy } from "../src/rate-limit/limits.js";

/** 2026-01-01T12:00:10.500Z: half a second into second 10 of a minute. */
export const T0 = Date.UTC(2026, 0, 1, 12, 0, 10, 500);
const MINUTE_END = Date.UTC(2026, 0, 1, 12, 1) / 1000;
const DAY_END = Date.UTC(2026, 0, 2) / 1000;
const NEXT_MINUTE = Date.UTC(2026, 0, 1, 12, 1, 0, 0);

/** The IETF fields of a decision: the limits' policy, and each window's [left, seconds to reset]. */
const ietf = (
  limits: { perMinute: number; perDay: number },
  [minuteLeft, minuteSeconds]: [number, number],
  [dayLeft, daySeconds]: [number, number],
) => ({
  policy: serializePolicy(limits),
  serviceLimits: `"minute";r=${minuteLeft};t=${minuteSeconds}, "day";r=${dayLeft};t=${daySeconds}`,
});
/** Whole seconds from `ms` to `endSeconds`, rounded up. */
const until = (endSeconds: number, ms: number) => Math.ceil(endSeconds - ms / 1000);

/** Makes a fresh, isolated limiter (its own counters) with the given ban settings. */
export type MakeLimiter = (ban: BanSettings) => Promise<RateLimiter>;

async function repeat(
  limiter: RateLimiter,
  n: number,
  ...args: Parameters<RateLimiter["consume"]>
) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await limiter.consume(...args));
  return out;
}

/** Registers the contract's tests; `make` gives each test its own limiter, closed by `track`. */
export function limiterContract(make: MakeLimiter, track: (l: RateLimiter) => void): void {
  const fresh = async (ban: BanSettings = { threshold: 10, seconds: 600 }) => {
    const limiter = await make(ban);
    track(limiter);
    return limiter;
  };

  it("peeks at a window without counting, and reports a ban during one", async () => {
    const l = await fresh({ threshold: 0, seconds: 90 });
    const limits = { perMinute: 2, perDay: 100 };
    expect(await l.peek("p", limits, T0)).toMatchObject({
      limit: 2,
      remaining: 2,
      reset: MINUTE_END,
    });
    await l.consume("p", limits, T0, { banEligible: true });
    expect(await l.peek("p", limits, T0)).toMatchObject({ remaining: 1, reset: MINUTE_END });
    expect(await l.peek("p", limits, T0)).toMatchObject({ remaining: 1 });
    await l.consume("p", limits, T0, { banEligible: true });
    // Over the limit with a threshold of 0: the next one starts a ban; peeking shows it.
    await l.consume("p", limits, T0, { banEligible: true });
    const banEnd = Math.floor(T0 / 1000) + 90;
    expect(await l.peek("p", limits, T0 + 1000)).toMatchObject({ remaining: 0, reset: banEnd });
    expect(await l.peek("p", limits, NEXT_MINUTE + 60_000 * 5)).toMatchObject({ remaining: 2 });
  });

  it("counts the minute window down by one and resets it at the next UTC minute", async () => {
    const l = await fresh();
    const limits = { perMinute: 3, perDay: 100 };
    const allowed = await repeat(l, 3, "k", limits, T0);
    expect(allowed).toEqual(
      [2, 1, 0].map((remaining) => ({
        allowed: true,
        limit: 3,
        remaining,
        reset: MINUTE_END,
        ...ietf(limits, [remaining, until(MINUTE_END, T0)], [97 + remaining, until(DAY_END, T0)]),
      })),
    );
    expect(await l.consume("k", limits, T0 + 1000)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      reset: MINUTE_END,
      ...ietf(limits, [0, 49], [97, until(DAY_END, T0 + 1000)]),
      retryAfter: 49, // 48.5 s left, rounded up
      code: "rate_limited",
    });
    expect(await l.consume("k", limits, NEXT_MINUTE)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      reset: MINUTE_END + 60,
      ...ietf(limits, [2, 60], [96, until(DAY_END, NEXT_MINUTE)]),
    });
  });

  it("counts the day window, holds it across minutes and resets it at UTC midnight", async () => {
    const l = await fresh();
    const limits = { perMinute: 100, perDay: 3 };
    const allowed = await repeat(l, 3, "k", limits, T0);
    expect(allowed.map((d) => [d.limit, d.remaining, d.reset])).toEqual([
      [3, 2, DAY_END],
      [3, 1, DAY_END],
      [3, 0, DAY_END],
    ]);
    const later = Date.UTC(2026, 0, 1, 23, 59, 59, 1);
    expect(await l.consume("k", limits, later)).toMatchObject({
      allowed: false,
      remaining: 0,
      reset: DAY_END,
      retryAfter: 1,
      code: "rate_limited",
    });
    expect(await l.consume("k", limits, DAY_END * 1000)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      reset: DAY_END + 86_400,
      ...ietf(limits, [99, 60], [2, 86_400]),
    });
  });

  it("describes the window with fewer remaining, and the day on a tie", async () => {
    const l = await fresh();
    expect(await l.consume("a", { perMinute: 2, perDay: 10 }, T0)).toMatchObject({
      limit: 2,
      remaining: 1,
      reset: MINUTE_END,
    });
    expect(await l.consume("b", { perMinute: 10, perDay: 2 }, T0)).toMatchObject({
      limit: 2,
      remaining: 1,
      reset: DAY_END,
    });
    expect(await l.consume("c", { perMinute: 2, perDay: 2 }, T0)).toMatchObject({
      limit: 2,
      remaining: 1,
      reset: DAY_END,
    });
    // Both exhausted: only the day's reset lets a request through, so Retry-After points there.
    await l.consume("c", { perMinute: 2, perDay: 2 }, T0);
    expect(await l.consume("c", { perMinute: 2, perDay: 2 }, T0)).toMatchObject({
      allowed: false,
      reset: DAY_END,
      retryAfter: DAY_END - Math.floor(T0 / 1000),
    });
  });

  it("does not count a refused request toward the day or the minute", async () => {
    const l = await fresh();
    const limits = { perMinute: 2, perDay: 5 };
    const minute = (n: number) => T0 + n * 60_000;
    const outcomes = [
      ...(await repeat(l, 5, "k", limits, minute(0))),
      ...(await repeat(l, 5, "k", limits, minute(1))),
      ...(await repeat(l, 2, "k", limits, minute(2))),
    ].map((d) => d.allowed);
    // 2 + 2 + 1 allowed: the 6 refusals before the last one left the day's 5 intact.
    expect(outcomes).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      true,
      false,
      false,
      false,
      true,
      false,
    ]);
  });

  it("keeps subjects apart", async () => {
    const l = await fresh();
    const limits = { perMinute: 1, perDay: 10 };
    expect((await l.consume("key:a", limits, T0)).allowed).toBe(true);
    expect((await l.consume("key:a", limits, T0)).allowed).toBe(false);
    expect((await l.consume("key:b", limits, T0)).allowed).toBe(true);
  });

  it("bans on the threshold-th request after the first refusal, holds the ban, then lifts it", async () => {
    const l = await fresh({ threshold: 3, seconds: 120 });
    const limits = { perMinute: 1, perDay: 100 };
    const eligible = { banEligible: true };
    await l.consume("k", limits, T0, eligible);
    const refused = await repeat(l, 4, "k", limits, T0, eligible);
    expect(refused.map((d) => d.code)).toEqual([
      "rate_limited",
      "rate_limited",
      "rate_limited",
      "api_key_banned",
    ]);
    const banEnd = Math.floor(T0 / 1000) + 120;
    // During the ban every window says none left until its end.
    expect(refused[3]).toEqual({
      allowed: false,
      limit: 1,
      remaining: 0,
      reset: banEnd,
      ...ietf(limits, [0, 120], [0, 120]),
      retryAfter: 120,
      code: "api_key_banned",
    });
    // The minute resets, the ban holds, its Retry-After counting down to the same end.
    const left = banEnd - (NEXT_MINUTE + 5000) / 1000;
    expect(await l.consume("k", limits, NEXT_MINUTE + 5000, eligible)).toEqual({
      allowed: false,
      limit: 1,
      remaining: 0,
      reset: banEnd,
      ...ietf(limits, [0, left], [0, left]),
      retryAfter: left,
      code: "api_key_banned",
    });
    expect((await l.consume("k", limits, banEnd * 1000 - 1, eligible)).retryAfter).toBe(1);
    expect(await l.consume("k", limits, banEnd * 1000, eligible)).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    // Refusals start counting afresh after a ban.
    const again = await repeat(l, 4, "k", limits, banEnd * 1000, eligible);
    expect(again.map((d) => d.code)).toEqual([
      "rate_limited",
      "rate_limited",
      "rate_limited",
      "api_key_banned",
    ]);
  });

  it("counts refusals toward a ban per window, and never bans an ineligible subject", async () => {
    const l = await fresh({ threshold: 3, seconds: 120 });
    const limits = { perMinute: 1, perDay: 100 };
    const eligible = { banEligible: true };
    for (const at of [T0, NEXT_MINUTE]) {
      const codes = (await repeat(l, 4, "k", limits, at, eligible)).map((d) => d.code);
      expect(codes).toEqual([undefined, "rate_limited", "rate_limited", "rate_limited"]);
    }
    const anonymous = await repeat(l, 20, "addr:203.0.113.9", limits, T0);
    expect(anonymous.filter((d) => d.code === "api_key_banned")).toEqual([]);
  });

  it("never bans when the ban lasts 0 seconds", async () => {
    const l = await fresh({ threshold: 0, seconds: 0 });
    const codes = (
      await repeat(l, 5, "k", { perMinute: 1, perDay: 9 }, T0, { banEligible: true })
    ).map((d) => d.code);
    expect(codes).toEqual([
      undefined,
      "rate_limited",
      "rate_limited",
      "rate_limited",
      "rate_limited",
    ]);
  });

  it("lets exactly the remaining requests of a concurrent burst through", async () => {
    const l = await fresh();
    const limits = { perMinute: 20, perDay: 1000 };
    await repeat(l, 5, "k", limits, T0);
    const burst = await Promise.all(Array.from({ length: 50 }, () => l.consume("k", limits, T0)));
    expect(burst.filter((d) => d.allowed)).toHaveLength(15);
    expect(
      burst
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });
}
