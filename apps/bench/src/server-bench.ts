/**
 * Server throughput and latency: every scenario against every variant in interleaved rounds (the
 * variant order rotates each round), so a noisy moment on a shared machine hits all of them alike.
 */
import { cpus } from "node:os";
import { basePath, pageMax } from "./base-path.js";
import { otherWork, readWork } from "./machine.js";
import { groupedMedianInterval, median, ratio } from "./stats.js";
import {
  cpuMs,
  type RunningVariant,
  rssMb,
  startVariant,
  stopVariant,
  type VariantId,
} from "./variant-process.js";
import { runWrk, type WrkLoad, type WrkRequest, type WrkResult } from "./wrk.js";

/** One request shape the server bench measures. */
export interface Scenario {
  id: "list20" | "list100" | "create";
  label: string;
  request(key: string): WrkRequest;
}

const NEW_PET = JSON.stringify({ name: "Bench", categoryId: 1, status: "available" });

/** GET list (limit 20 and 100) and POST create, as the issue asks. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: "list20",
    label: `GET ${basePath}/pets?limit=20`,
    request: (key) => ({ method: "GET", path: `${basePath}/pets?limit=20`, headers: bearer(key) }),
  },
  {
    id: "list100",
    label: `GET ${basePath}/pets?limit=${pageMax}`,
    request: (key) => ({
      method: "GET",
      path: `${basePath}/pets?limit=${pageMax}`,
      headers: bearer(key),
    }),
  },
  {
    id: "create",
    label: `POST ${basePath}/pets`,
    request: (key) => ({
      method: "POST",
      path: `${basePath}/pets`,
      headers: { ...bearer(key), "content-type": "application/json" },
      body: NEW_PET,
    }),
  },
];

function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** A variant to start: its id, label and environment. */
export interface VariantSpec {
  id: VariantId;
  label: string;
  env: Record<string, string>;
}

/** One wrk run plus the server's CPU time per request during it. */
export interface RoundResult extends WrkResult {
  /** Server CPU (user + system, all its threads) per request: work done, less sensitive to load. */
  cpuUsPerRequest: number;
  /**
   * Cores' worth of CPU other processes used during the run (neither the server, the bench nor
   * its wrk), and the hypervisor's steal share: what says whether the machine was quiet. Absent
   * in results from before they were measured.
   */
  otherCores?: number;
  stealShare?: number;
}

/** The figures of one variant on one scenario. */
export interface ScenarioFigures {
  rounds: RoundResult[];
  reqPerSec: number;
  cpuUsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  /** Medians of the rounds' other processes' CPU (cores) and steal share (NaN: not measured). */
  otherCores: number;
  stealShare: number;
  errors: number;
  vsExpress: number;
  vsRaw: number;
  /** req/s against Fastify + fastify-openapi-glue (NaN when that variant did not run). */
  vsFastify: number;
  /** CPU µs per request against raw node:http's and Fastify's, same rounds (lower is better). */
  cpuVsRaw: number;
  cpuVsFastify: number;
  /** req/s against (a), ours on SQLite as shipped, same rounds: the scale-out path's figure. */
  vsSqlite: number;
  /** Against the `--compare` snapshot of an earlier build (NaN without one). */
  vsBefore: number;
  /** CPU per request against the shipped server with METRICS_PORT=0, paired by round. */
  cpuVsNoMetrics: number;
}

/** Everything measured about one variant. */
export interface VariantFigures {
  id: VariantId;
  label: string;
  startMs: number;
  firstRequestMs: number;
  rssAfterMb: number;
  scenarios: Partial<Record<Scenario["id"], ScenarioFigures>>;
}

/** Two variants measured run against run on some scenarios: `subject` against `baseline`. */
export interface PairSpec {
  subject: VariantId;
  baseline: VariantId;
  scenarios: readonly Scenario["id"][];
}

/** One scenario of a pair: the runs side by side and their ratios. */
export interface PairFigures {
  subject: VariantId;
  baseline: VariantId;
  scenario: Scenario["id"];
  /**
   * Each subject run with the baseline run right before or after it, and the pair launch (one
   * pair of processes) it ran in (absent in results files from before pairs had launches).
   */
  runs: { subject: RoundResult; baseline: RoundResult; launch?: number }[];
  /** Medians of the runs. */
  subjectCpuUs: number;
  baselineCpuUs: number;
  /** CPU µs per request, subject over baseline: the median of the runs' ratios. */
  cpuRatio: number;
  /** The lowest and highest of those ratios. */
  cpuRatioRange: [number, number];
  /** req/s, subject over baseline: the median of the runs' ratios. */
  reqPerSecRatio: number;
}

/** What a server bench run measured: every variant in rounds, and the pairs run against run. */
export interface ServerBenchResult {
  variants: VariantFigures[];
  pairs: PairFigures[];
}

/** Options of a server bench run. */
export interface ServerBenchOptions {
  /** Scenarios to run (default all). */
  scenarios?: readonly Scenario["id"][];
  rounds: number;
  /** Processes each variant runs in, one after another, the rounds split between them (default 1). */
  launches?: number;
  warmupSeconds: number;
  /** Seconds of the same load, not counted, right before each measured run (0 or absent: none). */
  roundWarmupSeconds?: number;
  load: WrkLoad;
  /**
   * Pairs measured after the rounds, in `launches` launches of their own: in each, the pair's two
   * variants alone are started, warmed up and measured, then stopped. `runs` runs of each side in
   * all, split between the launches, `seconds` each, the two sides back to back and their order
   * swapped every run.
   */
  pairs?: { specs: readonly PairSpec[]; runs: number; seconds: number; launches: number };
  seedPets: number;
  scratchDir: string;
  log(line: string): void;
}

/** One wrk run of `scenario` against `variant`, with the server's CPU time per request. */
async function measureRun(
  variant: RunningVariant,
  scenario: Scenario,
  load: WrkLoad,
  scratchDir: string,
): Promise<RoundResult> {
  const before = readWork([variant.child.pid]);
  const cpuBefore = await cpuMs(variant.child.pid);
  const run = await runWrk(variant.url, scenario.request(variant.key), load, scratchDir);
  const cpuUsPerRequest = (((await cpuMs(variant.child.pid)) - cpuBefore) * 1000) / run.requests;
  const others = otherWork(before, readWork([variant.child.pid]), cpus().length);
  return { ...run, cpuUsPerRequest, ...others };
}

/** Adds `count` pets through the API so limit=100 returns a full page on every variant. */
export async function seed(variant: RunningVariant, count: number): Promise<void> {
  const scenario = SCENARIOS.find((s) => s.id === "create") as Scenario;
  const { headers, body } = scenario.request(variant.key);
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${variant.url}${basePath}/pets`, {
      method: "POST",
      headers,
      body: body ?? "",
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`${variant.id}: seeding answered ${res.status}`);
  }
}

/**
 * The order variants run in, in round `round`: rotated by one each round, so no variant always goes
 * first, and reversed every other round, so no variant always runs right after the same one (a
 * variant that shares code and files with the one before it, as the shipped server with and
 * without metrics do, finds them warm in the machine's caches).
 */
export function roundOrder<T>(variants: readonly T[], round: number): T[] {
  const rotated = variants.map((_, i) => variants[(i + round) % variants.length] as T);
  return round % 2 === 0 ? rotated : rotated.reverse();
}

/** The rounds of launch `launch` of `launches`: consecutive, split as evenly as they go. */
export function roundsOfLaunch(rounds: number, launches: number, launch: number): [number, number] {
  return [Math.round((launch * rounds) / launches), Math.round(((launch + 1) * rounds) / launches)];
}

/**
 * Runs the whole server bench; every variant child is stopped before it returns or throws. Each
 * variant runs in `launches` processes one after another (all stopped and started again between
 * them, the same database kept), the rounds split between them: a process's code and memory
 * layout (what V8 inlined, where the heap and the database's pages landed) moves a variant's
 * CPU per request by a few percent for as long as it runs, which more rounds in one process
 * would not average out. Start-up figures are the first launch's (migrations included), RSS the
 * last's.
 */
export async function runServerBench(
  specs: readonly VariantSpec[],
  options: ServerBenchOptions,
): Promise<ServerBenchResult> {
  const running: RunningVariant[] = [];
  const scenarios = SCENARIOS.filter((s) => options.scenarios?.includes(s.id) ?? true);
  const launches = Math.max(1, Math.min(options.launches ?? 1, options.rounds));
  try {
    const results = new Map<string, RoundResult[]>();
    const figures: VariantFigures[] = [];
    const pairRuns = new Map<string, PairFigures["runs"]>();
    for (let launch = 0; launch < launches; launch++) {
      for (const spec of specs) {
        const variant = await startVariant(spec.id, spec.env, `${basePath}/pets?limit=20`);
        running.push(variant);
        options.log(
          `  ${spec.id}: ${launches > 1 ? `launch ${launch + 1}, ` : ""}ready in ${variant.startMs.toFixed(0)} ms, first request ${variant.firstRequestMs.toFixed(1)} ms`,
        );
        if (launch === 0) {
          figures.push({
            id: spec.id,
            label: spec.label,
            startMs: variant.startMs,
            firstRequestMs: variant.firstRequestMs,
            rssAfterMb: 0,
            scenarios: {},
          });
          await seed(variant, options.seedPets);
        }
      }
      const warmup = { ...options.load, seconds: options.warmupSeconds };
      for (const variant of running) {
        for (const scenario of scenarios) {
          await runWrk(variant.url, scenario.request(variant.key), warmup, options.scratchDir);
        }
      }
      const [from, to] = roundsOfLaunch(options.rounds, launches, launch);
      for (let round = from; round < to; round++) {
        for (const scenario of scenarios) {
          const order = roundOrder(running, round);
          for (const variant of order) {
            if ((options.roundWarmupSeconds ?? 0) > 0) {
              const roundWarmup = { ...options.load, seconds: options.roundWarmupSeconds ?? 0 };
              await runWrk(
                variant.url,
                scenario.request(variant.key),
                roundWarmup,
                options.scratchDir,
              );
            }
            const result = await measureRun(variant, scenario, options.load, options.scratchDir);
            const key = `${variant.id}/${scenario.id}`;
            results.set(key, [...(results.get(key) ?? []), result]);
            options.log(
              `  round ${round + 1} ${scenario.id.padEnd(7)} ${variant.id.padEnd(13)} ${result.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${result.p99Ms.toFixed(2)} ms  ${result.cpuUsPerRequest.toFixed(0)} µs CPU/req  others ${result.otherCores?.toFixed(2)} cores${result.errors ? `  ERRORS ${result.errors}` : ""}`,
            );
          }
        }
      }
      if (launch === launches - 1) {
        for (const variant of running) {
          const figure = figures.find((f) => f.id === variant.id) as VariantFigures;
          figure.rssAfterMb = await rssMb(variant.child.pid);
        }
      }
      await Promise.all(running.splice(0).map((variant) => stopVariant(variant)));
    }
    if (options.pairs !== undefined) {
      await runPairLaunches(specs, scenarios, options, options.pairs, running, pairRuns);
    }
    const pairs = (options.pairs?.specs ?? []).flatMap((pair) =>
      scenarios.flatMap((scenario) => {
        const runs = pairRuns.get(pairKey(pair, scenario.id));
        return runs === undefined ? [] : [summarisePair(pair, scenario.id, runs)];
      }),
    );
    return { variants: summarise(figures, results), pairs };
  } finally {
    await Promise.all(running.map((variant) => stopVariant(variant)));
  }
}

function pairKey(pair: PairSpec, scenario: Scenario["id"]): string {
  return `${pair.subject}/${pair.baseline}/${scenario}`;
}

/**
 * The pairs, in launches of their own after the rounds: in each launch, pair by pair, the pair's
 * two variants alone are started (nothing else of the bench running), each scenario warmed up on
 * both, then that launch's share of the runs, each side back to back, the order swapped every
 * run (A B, B A, A B, ...); then both are stopped. Why back to back: on a shared machine the same
 * work's CPU time moves by tens of percent from one few seconds to the next (other machines' work
 * on the same hardware), so a ratio holds only between runs seconds apart. Why many launches: a
 * process's own luck (what V8 inlined, where its heap and code landed) moves its CPU per request
 * by a few percent for as long as it runs, so the runs of one pair of processes share that luck,
 * and a ratio from two pairs of processes reads a few percent off from one bench run to the
 * next (apps/bench/README.md); spread over many, the lucks average out. Launches go round the
 * pairs, so a slow stretch of the host falls on every pair alike.
 */
async function runPairLaunches(
  specs: readonly VariantSpec[],
  scenarios: readonly Scenario[],
  options: ServerBenchOptions,
  settings: NonNullable<ServerBenchOptions["pairs"]>,
  running: RunningVariant[],
  into: Map<string, PairFigures["runs"]>,
): Promise<void> {
  const load = { ...options.load, seconds: settings.seconds };
  const warmup = { ...options.load, seconds: options.warmupSeconds };
  const launches = Math.max(1, Math.min(settings.launches, settings.runs));
  for (let launch = 0; launch < launches; launch++) {
    const [first, end] = roundsOfLaunch(settings.runs, launches, launch);
    for (const pair of settings.specs) {
      const subjectSpec = specs.find((s) => s.id === pair.subject);
      const baselineSpec = specs.find((s) => s.id === pair.baseline);
      const pairScenarios = scenarios.filter((s) => pair.scenarios.includes(s.id));
      if (subjectSpec === undefined || baselineSpec === undefined || pairScenarios.length === 0)
        continue;
      const firstPath = `${basePath}/pets?limit=20`;
      const subject = await startVariant(subjectSpec.id, subjectSpec.env, firstPath);
      running.push(subject);
      const baseline = await startVariant(baselineSpec.id, baselineSpec.env, firstPath);
      running.push(baseline);
      for (const scenario of pairScenarios) {
        for (const variant of [subject, baseline]) {
          await runWrk(variant.url, scenario.request(variant.key), warmup, options.scratchDir);
        }
        const key = pairKey(pair, scenario.id);
        const runs = into.get(key) ?? [];
        into.set(key, runs);
        for (let run = first; run < end; run++) {
          const [earlier, later] = pairRunOrder(subject, baseline, run);
          const a = await measureRun(earlier, scenario, load, options.scratchDir);
          const b = await measureRun(later, scenario, load, options.scratchDir);
          runs.push(
            earlier === subject
              ? { subject: a, baseline: b, launch }
              : { subject: b, baseline: a, launch },
          );
          options.log(
            `  pair launch ${launch + 1} ${scenario.id.padEnd(7)} ${pair.subject} vs ${pair.baseline}: ${runs.at(-1)?.subject.cpuUsPerRequest.toFixed(0)} / ${runs.at(-1)?.baseline.cpuUsPerRequest.toFixed(0)} µs CPU/req`,
          );
        }
      }
      await Promise.all(running.splice(0).map((variant) => stopVariant(variant)));
    }
  }
}

/** Run `run` of a pair: the subject first on even runs, the baseline first on odd ones. */
export function pairRunOrder<T>(subject: T, baseline: T, run: number): [T, T] {
  return run % 2 === 0 ? [subject, baseline] : [baseline, subject];
}

/** A pair's medians and ratios from its runs. */
export function summarisePair(
  pair: PairSpec,
  scenario: Scenario["id"],
  runs: PairFigures["runs"],
): PairFigures {
  const cpuRatios = runs.map(runRatio);
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

/** A run's CPU ratio, subject over baseline. */
function runRatio(r: PairFigures["runs"][number]): number {
  return ratio(r.subject.cpuUsPerRequest, r.baseline.cpuUsPerRequest);
}

/** The runs' CPU ratios grouped by the pair launch they ran in, in launch order (none: one group). */
function ratiosByLaunch(runs: PairFigures["runs"]): number[][] {
  if (runs.some((r) => r.launch === undefined)) return [runs.map(runRatio)];
  const launches = [...new Set(runs.map((r) => r.launch as number))].sort((a, b) => a - b);
  return launches.map((launch) => runs.filter((r) => r.launch === launch).map(runRatio));
}

/**
 * The CPU ratio (median of the runs' ratios) of each launch's runs, in launch order: how far one
 * pair of processes' own luck moved it. Runs that carry their launch are grouped by it; older
 * results files' runs by the split of `total` runs between `launches` (empty when the runs are
 * not that split, or for one launch).
 */
export function launchRatios(runs: PairFigures["runs"], total: number, launches: number): number[] {
  if (runs.length > 0 && runs.every((r) => r.launch !== undefined)) {
    const groups = ratiosByLaunch(runs);
    return groups.length < 2 ? [] : groups.map(median);
  }
  if (runs.length !== total || launches < 2) return [];
  return Array.from({ length: launches }, (_, launch) => {
    const [first, end] = roundsOfLaunch(total, launches, launch);
    return median(runs.slice(first, end).map(runRatio));
  });
}

/**
 * The 95% bootstrap interval of a pair's CPU ratio (the median of its runs' ratios): how far that
 * median could land in another run as noisy as this one. Runs that carry their pair launch are
 * resampled launch first, then run (stats.ts, groupedMedianInterval), so the launches' own luck
 * is in the interval. Computed when the report is rendered, so older results files show it too.
 */
export function cpuRatioInterval(runs: PairFigures["runs"]): [number, number] {
  return groupedMedianInterval(ratiosByLaunch(runs).map((g) => g.filter(Number.isFinite)));
}

/**
 * What a ratio's interval says about a goal it must stay at or under: where the whole interval
 * lies, or that the goal is inside it (this run alone cannot tell which side the ratio is on).
 */
export function intervalVerdict(interval: [number, number], atMost: number): string {
  const [low, high] = interval;
  if (!Number.isFinite(low) || !Number.isFinite(high)) return "no interval";
  if (high <= atMost) return "all of it within the goal";
  if (low > atMost) return "all of it over the goal";
  return "the goal inside it: not settled by these runs";
}

/** The median of the figures that were measured (absent in older results, NaN without /proc). */
function measuredMedian(values: readonly (number | undefined)[]): number {
  return median(values.filter((v): v is number => v !== undefined && v >= 0));
}

/**
 * Medians of the rounds, and each variant's ratios to bare Express and raw node:http as the median
 * of per-round ratios: each round's pair ran seconds apart, so a load spike on a shared machine
 * moves both sides of a ratio instead of one.
 */
export function summarise(figures: VariantFigures[], results: Map<string, RoundResult[]>) {
  const roundsOf = (id: VariantId, scenario: Scenario["id"]) =>
    results.get(`${id}/${scenario}`) ?? [];
  // Each round's pair ran seconds apart, so the median of per-round ratios.
  const paired = (rounds: RoundResult[], baseline: RoundResult[], field: keyof RoundResult) =>
    median(
      rounds.flatMap((r, i) => {
        const base = baseline[i];
        return base ? [ratio(r[field] as number, base[field] as number)] : [];
      }),
    );
  for (const variant of figures) {
    for (const scenario of SCENARIOS) {
      const rounds = roundsOf(variant.id, scenario.id);
      if (rounds.length === 0) continue;
      variant.scenarios[scenario.id] = {
        rounds,
        reqPerSec: median(rounds.map((r) => r.reqPerSec)),
        cpuUsPerRequest: median(rounds.map((r) => r.cpuUsPerRequest)),
        p50Ms: median(rounds.map((r) => r.p50Ms)),
        p99Ms: median(rounds.map((r) => r.p99Ms)),
        otherCores: measuredMedian(rounds.map((r) => r.otherCores)),
        stealShare: measuredMedian(rounds.map((r) => r.stealShare)),
        errors: rounds.reduce((sum, r) => sum + r.errors, 0),
        vsExpress: paired(rounds, roundsOf("bare-express", scenario.id), "reqPerSec"),
        vsRaw: paired(rounds, roundsOf("raw-http", scenario.id), "reqPerSec"),
        vsFastify: paired(rounds, roundsOf("fastify-glue", scenario.id), "reqPerSec"),
        cpuVsRaw: paired(rounds, roundsOf("raw-http", scenario.id), "cpuUsPerRequest"),
        cpuVsFastify: paired(rounds, roundsOf("fastify-glue", scenario.id), "cpuUsPerRequest"),
        vsSqlite: paired(rounds, roundsOf("ours-sqlite", scenario.id), "reqPerSec"),
        vsBefore: paired(rounds, roundsOf("ours-before", scenario.id), "reqPerSec"),
        cpuVsNoMetrics: paired(rounds, roundsOf("ours-no-metrics", scenario.id), "cpuUsPerRequest"),
      };
    }
  }
  return figures;
}
