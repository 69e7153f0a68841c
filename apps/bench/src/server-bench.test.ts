import { describe, expect, it } from "vitest";
import { type RoundResult, roundOrder, summarise, type VariantFigures } from "./server-bench.js";

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
