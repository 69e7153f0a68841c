import { afterEach, describe, expect, it } from "vitest";
import { createMemoryRateLimiter, type RateLimiter } from "../src/rate-limit/index.js";
import { limiterContract, T0 } from "./rate-limit-contract.js";

const open: RateLimiter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

describe("in-process limiter", () => {
  limiterContract(
    async (ban) => createMemoryRateLimiter({ ban }),
    (l) => open.push(l),
  );

  it("forgets subjects whose day and ban have passed", async () => {
    const l = createMemoryRateLimiter({ ban: { threshold: 0, seconds: 2 * 86_400 } });
    open.push(l);
    const limits = { perMinute: 1, perDay: 5 };
    await l.consume("a", limits, T0);
    await l.consume("b", limits, T0);
    await l.consume("b", limits, T0, { banEligible: true }); // b is banned for two days
    l.sweep(T0 + 60_000);
    expect(l.size()).toBe(2);
    l.sweep(T0 + 86_400_000);
    expect(l.size()).toBe(1);
    l.sweep(T0 + 3 * 86_400_000);
    expect(l.size()).toBe(0);
  });
});
