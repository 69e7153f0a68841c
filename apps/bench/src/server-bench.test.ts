import { describe, expect, it } from "vitest";
import {
  cpuRatioInterval,
  intervalVerdict,
  launchRatios,
  pairRunOrder,
  type RoundResult,
  roundOrder,
  roundsOfLaunch,
  summarise,
  summarisePair,
  type VariantFigures,
} from "./server-bench.js";

const run = (reqPerSec: number, p99Ms = 5): RoundResult => ({
  requests: reqPerSec,
  durationMs: 1000,
  reqPerSec,
  p50Ms: 1,
  p99Ms,
  maxMs: 10,
  errors: 0,
  cpuUsPerRequest: 1e6 / reqPerSec,
});

const variant = (id: VariantFigures["id"]): VariantFigures => ({
  id,
  label: id,
  startMs: 1,
  firstRequestMs: 1,
  rssAfterMb: 1,
  scenarios: {},
});

describe("summarise", () => {
  // Round 2 ran during a load spike that halved everything: paired ratios ignore it.
  const results = new Map<string, RoundResult[]>([
    ["ours-sqlite/list20", [run(1000), run(500), run(1100)]],
    ["bare-express/list20", [run(1000), run(500), run(1000)]],
    ["raw-http/list20", [run(4000), run(2000), run(4000)]],
    ["fastify-glue/list20", [run(2000), run(1000), run(2200)]],
  ]);
  const [ours] = summarise(
    [variant("ours-sqlite"), variant("bare-express"), variant("raw-http"), variant("fastify-glue")],
    results,
  );
  const list20 = ours?.scenarios.list20;

  it("takes medians of the rounds", () => {
    expect(list20?.reqPerSec).toBe(1000);
    expect(list20?.p99Ms).toBe(5);
    expect(list20?.cpuUsPerRequest).toBe(1000);
  });

  it("gives ratios as the median of per-round ratios", () => {
    expect(list20?.vsExpress).toBe(1);
    expect(list20?.vsRaw).toBe(0.25);
    expect(list20?.vsFastify).toBe(0.5);
  });

  it("gives CPU per request against node:http and Fastify as per-round ratios (lower is better)", () => {
    expect(list20?.cpuVsRaw).toBe(4);
    expect(list20?.cpuVsFastify).toBe(2);
  });

  it("leaves out a scenario that was not run, and a ratio without its baseline is NaN", () => {
    expect(ours?.scenarios.create).toBeUndefined();
    expect(ours?.scenarios.list20?.vsBefore).toBeNaN();
  });
});

describe("roundsOfLaunch", () => {
  it.each([
    [6, 2],
    [5, 2],
    [7, 3],
    [1, 1],
    [3, 3],
  ])("%i rounds in %i launches: each round once, in order, none empty", (rounds, launches) => {
    const spans = Array.from({ length: launches }, (_, i) => roundsOfLaunch(rounds, launches, i));
    expect(spans[0]?.[0]).toBe(0);
    expect(spans.at(-1)?.[1]).toBe(rounds);
    for (const [i, [from, to]] of spans.entries()) {
      expect(to).toBeGreaterThan(from);
      if (i > 0) expect(from).toBe(spans[i - 1]?.[1]);
    }
  });
});

describe("roundOrder", () => {
  const variants = ["a", "a1", "b", "c", "f", "d"];
  const rounds = Array.from({ length: 6 }, (_, round) => roundOrder(variants, round));

  it("runs every variant once per round", () => {
    for (const order of rounds) expect([...order].sort()).toEqual([...variants].sort());
  });

  it("puts each variant first at most twice in six rounds", () => {
    for (const v of variants)
      expect(rounds.filter((o) => o[0] === v).length).toBeLessThanOrEqual(2);
  });

  it("never has a variant always run right after the same one", () => {
    for (const v of variants) {
      const before = new Set(
        rounds.map((o) => o[o.indexOf(v) - 1]).filter((p): p is string => p !== undefined),
      );
      expect(before.size, v).toBeGreaterThan(1);
    }
  });
});

describe("pairRunOrder", () => {
  it("runs the two sides back to back, swapping which goes first every run", () => {
    const order = [0, 1, 2, 3].map((run) => pairRunOrder("ours", "fastify", run).join(" "));
    expect(order).toEqual(["ours fastify", "fastify ours", "ours fastify", "fastify ours"]);
  });
});

describe("pair runs across launches", () => {
  it("splits the runs between the launches, each run once, the order still swapping every run", () => {
    const launches = [0, 1].map((launch) => roundsOfLaunch(16, 2, launch));
    expect(launches).toEqual([
      [0, 8],
      [8, 16],
    ]);
    const runs = launches.flatMap(([first, end]) =>
      Array.from({ length: end - first }, (_, i) => first + i),
    );
    expect(runs).toEqual(Array.from({ length: 16 }, (_, i) => i));
    const firsts = runs.map((run) => pairRunOrder("ours", "fastify", run)[0]);
    expect(firsts.filter((f) => f === "ours")).toHaveLength(8);
    expect(firsts.slice(7, 9)).toEqual(["fastify", "ours"]);
  });
});

describe("summarisePair", () => {
  it("takes the median of the runs' ratios, not the ratio of medians, and their range", () => {
    const pair = summarisePair(
      { subject: "ours-sqlite", baseline: "fastify-glue", scenarios: ["list20"] },
      "list20",
      // Run 2 fell in a slow moment for both sides: its ratio is still 0.9.
      [
        { subject: run(1000), baseline: run(900) },
        { subject: run(500), baseline: run(450) },
        { subject: run(1000), baseline: run(1100) },
      ],
    );
    expect(pair.cpuRatio).toBeCloseTo(0.9, 6);
    expect(pair.cpuRatioRange.map((r) => r.toFixed(2))).toEqual(["0.90", "1.10"]);
    expect(pair.reqPerSecRatio).toBeCloseTo(1000 / 900, 6);
  });
});

describe("launchRatios", () => {
  it("gives the median ratio of each launch's share of the runs, in launch order", () => {
    // Launch 1's processes read ours 10% over, launch 2's 10% under, whatever the host did.
    const runs = [
      { subject: run(1000), baseline: run(1100) },
      { subject: run(500), baseline: run(550) },
      { subject: run(1000), baseline: run(1100) },
      { subject: run(1100), baseline: run(1000) },
      { subject: run(550), baseline: run(500) },
      { subject: run(1100), baseline: run(1000) },
    ];
    const [first, second] = launchRatios(runs, 6, 2);
    expect(first).toBeCloseTo(1.1, 6);
    expect(second).toBeCloseTo(1 / 1.1, 6);
  });

  it("groups runs that carry their pair launch by it, whatever split it was told", () => {
    const runs = [
      { subject: run(1000), baseline: run(1100), launch: 1 },
      { subject: run(1100), baseline: run(1000), launch: 0 },
      { subject: run(1000), baseline: run(1100), launch: 1 },
      { subject: run(1100), baseline: run(1000), launch: 0 },
    ];
    // run(x) reads x req/s, so 1e6 / x µs per request: launch 0 reads 1 / 1.1, launch 1 1.1.
    const [first, second] = launchRatios(runs, 16, 2);
    expect(first).toBeCloseTo(1 / 1.1, 6);
    expect(second).toBeCloseTo(1.1, 6);
    expect(launchRatios(runs.slice(0, 1), 1, 1)).toEqual([]);
  });

  it("gives none for one launch or for runs that are not the split it was told", () => {
    const runs = [{ subject: run(1000), baseline: run(1000) }];
    expect(launchRatios(runs, 1, 1)).toEqual([]);
    expect(launchRatios(runs, 16, 2)).toEqual([]);
  });
});

describe("cpuRatioInterval and intervalVerdict", () => {
  it("bounds the median of the runs' CPU ratios, inside their range, skipping unmeasured runs", () => {
    // Ratios 0.90, 0.95, 1.00, 1.05, 1.10 (CPU is 1e6 / req/s), twice, and one run without CPU.
    const runs = [0.9, 0.95, 1, 1.05, 1.1, 0.9, 0.95, 1, 1.05, 1.1].map((r) => ({
      subject: run(1000 / r),
      baseline: run(1000),
    }));
    const unmeasured = {
      subject: { ...run(1000), cpuUsPerRequest: Number.NaN },
      baseline: run(1000),
    };
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
    const ratios = [
      0.95, 0.96, 0.97, 0.98, 0.99, 1, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09, 1.1,
    ];
    const runs = ratios.map((r, i) => ({
      subject: run(1000 / r),
      baseline: run(1000),
      launch: Math.floor(i / 4),
    }));
    const unlaunched = runs.map(({ subject, baseline }) => ({ subject, baseline }));
    const width = ([low, high]: [number, number]) => high - low;
    expect(width(cpuRatioInterval(runs))).toBeGreaterThan(width(cpuRatioInterval(unlaunched)));
  });

  it("says where the interval lies against an at-most goal", () => {
    expect(intervalVerdict([0.9, 0.98], 1)).toBe("all of it within the goal");
    expect(intervalVerdict([1.01, 1.1], 1)).toBe("all of it over the goal");
    expect(intervalVerdict([0.96, 1.02], 1)).toBe("the goal inside it: not settled by these runs");
    expect(intervalVerdict([Number.NaN, Number.NaN], 1)).toBe("no interval");
  });
});
