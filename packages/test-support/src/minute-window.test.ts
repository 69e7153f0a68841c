import { describe, expect, it } from "vitest";
import { awayFromMinuteEdge, clockFromMinuteStart } from "./minute-window.js";

describe("awayFromMinuteEdge", () => {
  it("returns at once when the margin is left in the minute", async () => {
    const started = Date.now();
    await awayFromMinuteEdge(5_000, () => Date.UTC(2030, 0, 1, 12, 0, 10));
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("waits past the minute's end when less than the margin is left", async () => {
    const started = Date.now();
    // 200 ms left of the pretend minute: the wait is those plus 100 ms past the edge.
    await awayFromMinuteEdge(5_000, () => Date.UTC(2030, 0, 1, 12, 0, 59, 800));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe("clockFromMinuteStart", () => {
  it("reads the start of the current UTC minute, then runs on with the real clock", () => {
    let real = Date.UTC(2030, 0, 1, 12, 0, 59, 800);
    const clock = clockFromMinuteStart(() => real);
    expect(clock()).toBe(Date.UTC(2030, 0, 1, 12, 0, 0));
    real += 1_500;
    expect(clock()).toBe(Date.UTC(2030, 0, 1, 12, 0, 1, 500));
  });
});
