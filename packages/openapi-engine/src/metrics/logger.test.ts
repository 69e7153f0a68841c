import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { cachedIsoTime } from "./observe.js";

describe("cachedIsoTime", () => {
  it("writes what pino's isoTime writes, for every millisecond", () => {
    let now = Date.UTC(2030, 0, 2, 3, 4, 5, 6);
    const time = cachedIsoTime(() => now);
    const original = Date.now;
    try {
      for (const step of [0, 0, 1, 999, 86_400_000]) {
        now += step;
        Date.now = () => now;
        expect(time()).toBe(pino.stdTimeFunctions.isoTime());
      }
    } finally {
      Date.now = original;
    }
  });
});
