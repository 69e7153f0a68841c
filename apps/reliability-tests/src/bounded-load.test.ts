import { describe, expect, it } from "vitest";
import { runBoundedLoad } from "./bounded-load.js";

describe("runBoundedLoad", () => {
  it("runs exactly `total` tasks with at most `concurrency` in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const report = await runBoundedLoad({
      total: 50,
      concurrency: 4,
      deadlineMs: 10_000,
      task: async (i) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return i;
      },
    });
    expect(report.results.sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
    expect(peak).toBe(4);
    expect(report.stoppedByDeadline).toBe(false);
  });

  it("starts no task after the deadline", async () => {
    const report = await runBoundedLoad({
      total: 1_000_000,
      concurrency: 2,
      deadlineMs: 50,
      task: () => new Promise((r) => setTimeout(r, 5)),
    });
    expect(report.stoppedByDeadline).toBe(true);
    expect(report.started).toBeLessThan(1_000_000);
    expect(report.results).toHaveLength(report.started);
  });
});
