import { describe, expect, it } from "vitest";
import { type PoolInput, poolPairs, renderPool } from "./pool.js";
import type { PairFigures, RoundResult } from "./server-bench.js";

const result = (cpuUsPerRequest: number): RoundResult => ({
  requests: 1000,
  durationMs: 1000,
  reqPerSec: 1000,
  p50Ms: 1,
  p99Ms: 5,
  maxMs: 10,
  errors: 0,
  cpuUsPerRequest,
});

// A pair whose runs read subject / baseline = each of `ratios`.
const pair = (
  subject: PairFigures["subject"],
  baseline: PairFigures["baseline"],
  ratios: number[],
): PairFigures => ({
  subject,
  baseline,
  scenario: "list20",
  runs: ratios.map((r) => ({ subject: result(100 * r), baseline: result(100) })),
  subjectCpuUs: 100,
  baselineCpuUs: 100,
  cpuRatio: ratios.toSorted((a, b) => a - b)[Math.floor(ratios.length / 2)] as number,
  cpuRatioRange: [Math.min(...ratios), Math.max(...ratios)],
  reqPerSecRatio: 1,
});

const input = (name: string, pairs: PairFigures[]): PoolInput => ({
  name,
  commit: "abc1234",
  startedAt: "2026-11-28T13:00:00.000Z",
  pairs,
});

describe("poolPairs", () => {
  it("takes the median over every file's runs together, not the median of the files' medians", () => {
    // File 1's median is 0.90, file 2's 1.10 and file 3's 1.05: the files' medians have 1.05 in
    // the middle, every run together has 0.95.
    const pooled = poolPairs([
      input("a.json", [pair("ours-sqlite", "fastify-glue", [0.9, 0.9, 0.9])]),
      input("b.json", [pair("ours-sqlite", "fastify-glue", [0.95, 1.1, 1.2])]),
      input("c.json", [pair("ours-sqlite", "fastify-glue", [0.95, 1.05, 1.05])]),
    ]);
    expect(pooled).toHaveLength(1);
    expect(pooled[0]?.runs).toHaveLength(9);
    expect(pooled[0]?.cpuRatio).toBeCloseTo(0.95, 6);
    expect(pooled[0]?.fileRatios).toEqual([0.9, 1.1, 1.05]);
    const [low, high] = pooled[0]?.interval ?? [];
    expect(low).toBeLessThanOrEqual(0.95);
    expect(high).toBeGreaterThanOrEqual(0.95);
  });

  it("keeps each file's launches apart, a file from before pair launches as one launch", () => {
    const launched = pair("ours-sqlite", "fastify-glue", [0.9, 0.92, 1.0, 1.02]);
    const withLaunches = {
      ...launched,
      runs: launched.runs.map((run, i) => ({ ...run, launch: Math.floor(i / 2) })),
    };
    const pooled = poolPairs([
      input("a.json", [withLaunches]),
      input("b.json", [withLaunches]),
      input("old.json", [pair("ours-sqlite", "fastify-glue", [0.95, 0.96])]),
    ]);
    const launches = new Set(pooled[0]?.runs.map((run) => run.launch));
    expect(launches.size).toBe(5);
  });

  it("keeps pairs apart and judges only those with a CPU goal", () => {
    const pooled = poolPairs([
      input("a.json", [
        pair("ours-sqlite", "fastify-glue", [0.9, 0.91, 0.92, 0.93]),
        pair("ours-pg-redis", "ours-sqlite", [1.2, 1.3]),
      ]),
    ]);
    expect(pooled.map((p) => `${p.subject}/${p.baseline}`)).toEqual([
      "ours-sqlite/fastify-glue",
      "ours-pg-redis/ours-sqlite",
    ]);
    const markdown = renderPool([input("a.json", [])], pooled);
    expect(markdown).toContain("| a.json | abc1234 | 2026-11-28 13:00 |");
    expect(markdown).toMatch(
      /fastify-glue \| list20 \| [^\n]*\| <= 1.00x \| all of it within the goal \|/,
    );
    expect(markdown).toMatch(
      /ours-pg-redis \| ours-sqlite \|[^\n]*\| none \(judged on req\/s\) \| n\/a \|/,
    );
  });
});
