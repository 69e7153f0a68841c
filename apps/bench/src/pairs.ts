/**
 * The comparisons the targets rest on, measured run against run after the rounds. Why back to
 * back: on a VM whose host runs other machines' work, the same work's CPU time moves by tens of
 * percent from one few seconds to the next, so a ratio holds only between runs seconds apart.
 * Why many launches: a process's own luck (what V8 inlined, where its heap and the database's
 * pages landed) moves its CPU per request by a few percent for as long as it runs, which more
 * runs in one pair of processes do not average out; many pairs of processes do.
 */
import { basePath } from "./base-path.js";
import { measureRun, type RoundResult, type Scenario } from "./server-bench.js";
import { median, medianInterval, ratio } from "./stats.js";
import type { VariantSpec } from "./variant-env.js";
import {
  type RunningVariant,
  startVariant,
  stopVariant,
  type VariantId,
} from "./variant-process.js";
import type { WrkLoad } from "./wrk.js";

/** Two variants measured run against run on some scenarios: `subject` against `baseline`. */
export interface PairSpec {
  subject: VariantId;
  baseline: VariantId;
  scenarios: readonly Scenario["id"][];
}

/** One run of each side, back to back, and the launch (pair of processes) it ran in. */
export interface PairRun {
  subject: RoundResult;
  baseline: RoundResult;
  launch: number;
}

/** One scenario of a pair: its runs, their medians and the ratios of subject over baseline. */
export interface PairFigures {
  subject: VariantId;
  baseline: VariantId;
  scenario: Scenario["id"];
  runs: PairRun[];
  subjectCpuUs: number;
  baselineCpuUs: number;
  /** The median of the runs' CPU ratios, their lowest and highest, and req/s the same way. */
  cpuRatio: number;
  cpuRatioRange: [number, number];
  reqPerSecRatio: number;
}

/** Options of the pairs: `runsPerLaunch` runs of each side in each of `launches` launches. */
export interface PairOptions {
  specs: readonly PairSpec[];
  scenarios: readonly Scenario[];
  launches: number;
  runsPerLaunch: number;
  warmupSeconds: number;
  load: WrkLoad;
  scratchDir: string;
  log(line: string): void;
}

/** Run `run` of a pair: the subject first on even runs, the baseline first on odd ones. */
export function pairRunOrder<T>(subject: T, baseline: T, run: number): [T, T] {
  return run % 2 === 0 ? [subject, baseline] : [baseline, subject];
}

/**
 * Runs the pairs: in each launch, pair by pair, the pair's two variants alone are started (nothing
 * else of the bench running), each scenario warmed up on both and then measured, each side back
 * to back, the order swapped every run (A B, B A, ...); then both are stopped. The launches go
 * round the pairs, so a slow stretch of the host falls on every pair alike.
 */
export async function runPairs(
  variants: readonly VariantSpec[],
  options: PairOptions,
): Promise<PairFigures[]> {
  const runs = new Map<string, PairRun[]>();
  const key = (pair: PairSpec, scenario: Scenario) =>
    `${pair.subject}/${pair.baseline}/${scenario.id}`;
  const running: RunningVariant[] = [];
  const { load, scratchDir } = options;
  try {
    for (let launch = 0; launch < options.launches; launch++) {
      for (const pair of options.specs) {
        const sides = [pair.subject, pair.baseline].map((id) => variants.find((v) => v.id === id));
        const scenarios = options.scenarios.filter((s) => pair.scenarios.includes(s.id));
        if (sides.includes(undefined) || scenarios.length === 0) continue;
        for (const side of sides as VariantSpec[]) {
          running.push(await startVariant(side.id, side.env, `${basePath}/pets?limit=20`));
        }
        const [subject, baseline] = running as [RunningVariant, RunningVariant];
        for (const scenario of scenarios) {
          const warmup = { ...load, seconds: options.warmupSeconds };
          for (const side of running) await measureRun(side, scenario, warmup, scratchDir);
          const into = runs.get(key(pair, scenario)) ?? [];
          runs.set(key(pair, scenario), into);
          for (let run = 0; run < options.runsPerLaunch; run++) {
            const [first, second] = pairRunOrder(subject, baseline, run);
            const a = await measureRun(first, scenario, load, scratchDir);
            const b = await measureRun(second, scenario, load, scratchDir);
            const [s, base] = first === subject ? [a, b] : [b, a];
            into.push({ subject: s, baseline: base, launch });
            options.log(
              `  pair launch ${launch + 1} ${scenario.id.padEnd(7)} ${pair.subject} vs ${pair.baseline}: ${s.cpuUsPerRequest.toFixed(0)} / ${base.cpuUsPerRequest.toFixed(0)} µs CPU/req`,
            );
          }
        }
        await Promise.all(running.splice(0).map(stopVariant));
      }
    }
  } finally {
    await Promise.all(running.map(stopVariant));
  }
  return options.specs.flatMap((pair) =>
    options.scenarios.flatMap((scenario) => {
      const pairRuns = runs.get(key(pair, scenario));
      return pairRuns ? [summarisePair(pair, scenario.id, pairRuns)] : [];
    }),
  );
}

const cpuRatioOf = (r: PairRun) => ratio(r.subject.cpuUsPerRequest, r.baseline.cpuUsPerRequest);

export function summarisePair(
  pair: PairSpec,
  scenario: Scenario["id"],
  runs: PairRun[],
): PairFigures {
  const cpuRatios = runs.map(cpuRatioOf);
  return {
    subject: pair.subject,
    baseline: pair.baseline,
    scenario,
    runs,
    subjectCpuUs: median(runs.map((r) => r.subject.cpuUsPerRequest)),
    baselineCpuUs: median(runs.map((r) => r.baseline.cpuUsPerRequest)),
    cpuRatio: median(cpuRatios),
    cpuRatioRange: [Math.min(...cpuRatios), Math.max(...cpuRatios)],
    reqPerSecRatio: median(runs.map((r) => ratio(r.subject.reqPerSec, r.baseline.reqPerSec))),
  };
}

/** The runs' CPU ratios grouped by launch, in launch order (unmeasured runs left out). */
function ratiosByLaunch(runs: readonly PairRun[]): number[][] {
  const launches = [...new Set(runs.map((r) => r.launch))].sort((a, b) => a - b);
  return launches.map((launch) =>
    runs
      .filter((r) => r.launch === launch)
      .map(cpuRatioOf)
      .filter(Number.isFinite),
  );
}

/** Each launch's CPU ratio (the median of its runs'): how far one pair of processes' luck moved it. */
export const launchRatios = (runs: readonly PairRun[]) => ratiosByLaunch(runs).map(median);

/**
 * The bootstrap interval of a pair's CPU ratio, launches drawn first and then runs within them
 * (stats.ts): how far the median of another run as noisy as this one could land.
 */
export const cpuRatioInterval = (runs: readonly PairRun[]) => medianInterval(ratiosByLaunch(runs));

/**
 * What a ratio's interval says about a goal it must stay at or under: where the whole interval
 * lies, or that the goal is inside it (this run alone cannot tell which side the ratio is on).
 */
export function intervalVerdict([low, high]: [number, number], atMost: number): string {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return "no interval";
  if (high <= atMost) return "all of it within the goal";
  if (low > atMost) return "all of it over the goal";
  return "the goal inside it: not settled by these runs";
}
