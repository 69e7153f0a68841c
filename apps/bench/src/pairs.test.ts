import { describe, expect, it } from "vitest";
import {
  cpuRatioInterval,
  intervalVerdict,
  launchRatios,
  type PairRun,
  pairRunOrder,
  summarisePair,
} from "./pairs.js";
import type { RoundResult } from "./server-bench.js";

const run = (reqPerSec: number): RoundResult => ({
  requests: reqPerSec,
  durationMs: 1000,
  reqPerSec,
  p50Ms: 1,
  p99Ms: 5,
  maxMs: 10,
  errors: 0,
  cpuUsPerRequest: 1e6 / reqPerSec,
});

/** A run whose CPU ratio (subject over baseline) is `r`, in launch `launch`. */
const ratioRun = (r: number, launch = 0): PairRun => ({
  subject: run(1000 / r),
  baseline: run(1000),
  launch,
});

describe("pairRunOrder", () => {
  it("runs the two sides back to back, swapping which goes first every run", () => {
    const order = [0, 1, 2, 3].map((n) => pairRunOrder("ours", "fastify", n).join(" "));
    expect(order).toEqual(["ours fastify", "fastify ours", "ours fastify", "fastify ours"]);
  });
});

describe("summarisePair", () => {
  it("takes the median of the runs' ratios, not the ratio of medians, and their range", () => {
    const pair = summarisePair(
      { subject: "ours-sqlite", baseline: "fastify-glue", scenarios: ["list20"] },
      "list20",
      // Run 2 fell in a slow moment for both sides: its ratio is still 0.9.
      [
        { subject: run(1000), baseline: run(900), launch: 0 },
        { subject: run(500), baseline: run(450), launch: 0 },
        { subject: run(1000), baseline: run(1100), launch: 1 },
      ],
    );
    expect(pair.cpuRatio).toBeCloseTo(0.9, 6);
    expect(pair.cpuRatioRange.map((r) => r.toFixed(2))).toEqual(["0.90", "1.10"]);
    expect(pair.reqPerSecRatio).toBeCloseTo(1000 / 900, 6);
  });
});

describe("launchRatios", () => {
  it("gives the median ratio of each launch's runs, in launch order", () => {
    // Launch 1's processes read ours a tenth over, launch 0's a tenth under.
    const runs = [ratioRun(1.1, 1), ratioRun(1 / 1.1, 0), ratioRun(1.1, 1), ratioRun(1 / 1.1, 0)];
    const [first, second] = launchRatios(runs);
    expect(first).toBeCloseTo(1 / 1.1, 6);
    expect(second).toBeCloseTo(1.1, 6);
  });
});

describe("cpuRatioInterval and intervalVerdict", () => {
  it("bounds the median of the runs' CPU ratios, inside their range, skipping unmeasured runs", () => {
    const runs = [0.9, 0.95, 1, 1.05, 1.1, 0.9, 0.95, 1, 1.05, 1.1].map((r) => ratioRun(r));
    const unmeasured = { ...ratioRun(1), subject: { ...run(1000), cpuUsPerRequest: Number.NaN } };
    const [low, high] = cpuRatioInterval([...runs, unmeasured]);
    expect(low).toBeLessThanOrEqual(1);
    expect(high).toBeGreaterThanOrEqual(1);
    expect(low).toBeGreaterThanOrEqual(0.9);
    expect(high).toBeLessThanOrEqual(1.1);
    expect(high - low).toBeLessThan(0.2);
  });

  it("carries the launches' own luck: wider when the runs' launches disagree", () => {
    // The same sixteen ratios, read once as one launch, once as four launches of four whose
    // medians differ (launch luck); the launches drawn first widen the interval.
    const ratios = Array.from({ length: 16 }, (_, i) => 0.95 + i / 100);
    const launched = ratios.map((r, i) => ratioRun(r, Math.floor(i / 4)));
    const one = ratios.map((r) => ratioRun(r, 0));
    const width = ([low, high]: [number, number]) => high - low;
    expect(width(cpuRatioInterval(launched))).toBeGreaterThan(width(cpuRatioInterval(one)));
  });

  it("says where the interval lies against an at-most goal", () => {
    expect(intervalVerdict([0.9, 0.98], 1)).toBe("all of it within the goal");
    expect(intervalVerdict([1.01, 1.1], 1)).toBe("all of it over the goal");
    expect(intervalVerdict([0.96, 1.02], 1)).toBe("the goal inside it: not settled by these runs");
    expect(intervalVerdict([Number.NaN, Number.NaN], 1)).toBe("no interval");
  });
});
