/**
 * Server throughput and latency: every scenario against every variant in interleaved rounds, so a
 * slow moment of a shared machine falls on all of them alike.
 */
import { basePath, pageMax } from "./base-path.js";
import { median, ratio } from "./stats.js";
import type { VariantSpec } from "./variant-env.js";
import {
  cpuMs,
  type RunningVariant,
  rssMb,
  startVariant,
  stopVariant,
  type VariantId,
} from "./variant-process.js";
import { runWrk, type WrkLoad, type WrkRequest, type WrkResult } from "./wrk.js";

export interface Scenario {
  id: "list20" | "list100" | "create";
  label: string;
  request(key: string): WrkRequest;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const list = (limit: number) => (key: string) =>
  ({ method: "GET", path: `${basePath}/pets?limit=${limit}`, headers: bearer(key) }) as const;

export const SCENARIOS: readonly Scenario[] = [
  { id: "list20", label: `GET ${basePath}/pets?limit=20`, request: list(20) },
  { id: "list100", label: `GET ${basePath}/pets?limit=${pageMax}`, request: list(pageMax) },
  {
    id: "create",
    label: `POST ${basePath}/pets`,
    request: (key) => ({
      method: "POST",
      path: `${basePath}/pets`,
      headers: { ...bearer(key), "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench", categoryId: 1, status: "available" }),
    }),
  },
];

/** One wrk run and the server's CPU (user + system, all its threads) per request during it. */
export interface RoundResult extends WrkResult {
  cpuUsPerRequest: number;
}

/** Ratios of a variant's figures to another's in the same rounds: [baseline, figure]. */
const PAIRED = {
  vsExpress: ["bare-express", "reqPerSec"],
  vsRaw: ["raw-http", "reqPerSec"],
  vsFastify: ["fastify-glue", "reqPerSec"],
  vsBefore: ["ours-before", "reqPerSec"],
  cpuVsRaw: ["raw-http", "cpuUsPerRequest"],
  cpuVsFastify: ["fastify-glue", "cpuUsPerRequest"],
  cpuVsNoMetrics: ["ours-no-metrics", "cpuUsPerRequest"],
} as const satisfies Record<string, [VariantId, keyof RoundResult]>;

/** The figures of one variant on one scenario: medians of the rounds, ratios (NaN: no baseline). */
export type ScenarioFigures = Record<keyof typeof PAIRED, number> & {
  rounds: RoundResult[];
  reqPerSec: number;
  cpuUsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
};

export interface VariantFigures {
  id: VariantId;
  label: string;
  startMs: number;
  firstRequestMs: number;
  rssAfterMb: number;
  scenarios: Partial<Record<Scenario["id"], ScenarioFigures>>;
}

export interface ServerBenchOptions {
  scenarios: readonly Scenario[];
  rounds: number;
  /** Seconds of the same load, not counted, right before each measured run. */
  warmupSeconds: number;
  load: WrkLoad;
  seedPets: number;
  scratchDir: string;
  log(line: string): void;
}

/** One wrk run of `scenario` against `variant`, with the server's CPU per request. */
export async function measureRun(
  variant: RunningVariant,
  scenario: Scenario,
  load: WrkLoad,
  scratchDir: string,
): Promise<RoundResult> {
  const cpuBefore = await cpuMs(variant.child.pid);
  const run = await runWrk(variant.url, scenario.request(variant.key), load, scratchDir);
  const cpuUsPerRequest = (((await cpuMs(variant.child.pid)) - cpuBefore) * 1000) / run.requests;
  return { ...run, cpuUsPerRequest };
}

/** Adds `count` pets through the API so the largest page is full on every variant. */
export async function seed(variant: RunningVariant, count: number): Promise<void> {
  const { request } = SCENARIOS.find((s) => s.id === "create") as Scenario;
  const { path, headers, body } = request(variant.key);
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${variant.url}${path}`, { method: "POST", headers, body });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`${variant.id}: seeding answered ${res.status}`);
  }
}

/**
 * The order variants run in, in round `round`: rotated by one each round, so no variant always goes
 * first, and reversed every other round, so no variant always runs right after the same one (the
 * shipped server with and without metrics share code and files, which the one before leaves warm
 * in the machine's caches).
 */
export function roundOrder<T>(variants: readonly T[], round: number): T[] {
  const rotated = variants.map((_, i) => variants[(i + round) % variants.length] as T);
  return round % 2 === 0 ? rotated : rotated.reverse();
}

/**
 * Starts and seeds every variant, runs the rounds, and stops them all (whatever happens). Each
 * measured run comes right after a warm-up of the same scenario on the same variant: a variant
 * idles while the others run, and a run that starts from idle measures V8 and the CPU caches
 * waking up (its p99 above all), not the server under load.
 */
export async function runServerBench(
  specs: readonly VariantSpec[],
  options: ServerBenchOptions,
): Promise<VariantFigures[]> {
  const running: RunningVariant[] = [];
  const results = new Map<string, RoundResult[]>();
  const figures: VariantFigures[] = [];
  try {
    for (const spec of specs) {
      const variant = await startVariant(spec.id, spec.env, `${basePath}/pets?limit=20`);
      running.push(variant);
      const { startMs, firstRequestMs } = variant;
      options.log(
        `  ${spec.id}: ready in ${startMs.toFixed(0)} ms, first request ${firstRequestMs.toFixed(1)} ms`,
      );
      const { id, label } = spec;
      figures.push({ id, label, startMs, firstRequestMs, rssAfterMb: 0, scenarios: {} });
      await seed(variant, options.seedPets);
    }
    const { load, scratchDir } = options;
    const warmup = { ...load, seconds: options.warmupSeconds };
    for (let round = 0; round < options.rounds; round++) {
      for (const scenario of options.scenarios) {
        for (const variant of roundOrder(running, round)) {
          await measureRun(variant, scenario, warmup, scratchDir);
          const result = await measureRun(variant, scenario, load, scratchDir);
          const key = `${variant.id}/${scenario.id}`;
          results.set(key, [...(results.get(key) ?? []), result]);
          options.log(
            `  round ${round + 1} ${scenario.id.padEnd(7)} ${variant.id.padEnd(15)} ${result.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${result.p99Ms.toFixed(2)} ms  ${result.cpuUsPerRequest.toFixed(0)} µs CPU/req${result.errors ? `  ERRORS ${result.errors}` : ""}`,
          );
        }
      }
    }
    for (const [i, variant] of running.entries()) {
      (figures[i] as VariantFigures).rssAfterMb = await rssMb(variant.child.pid);
    }
    return summarise(figures, results);
  } finally {
    await Promise.all(running.map(stopVariant));
  }
}

/**
 * Medians of the rounds, and each ratio to a baseline as the median of per-round ratios: a
 * round's two runs ran seconds apart, so a slow moment moves both sides of a ratio, not one.
 */
export function summarise(figures: VariantFigures[], results: Map<string, RoundResult[]>) {
  const roundsOf = (id: VariantId, scenario: Scenario["id"]) =>
    results.get(`${id}/${scenario}`) ?? [];
  for (const variant of figures) {
    for (const scenario of SCENARIOS) {
      const rounds = roundsOf(variant.id, scenario.id);
      if (rounds.length === 0) continue;
      const ratios = Object.entries(PAIRED).map(([name, [id, field]]) => {
        const base = roundsOf(id, scenario.id);
        const each = rounds.flatMap((r, i) => {
          const b = base[i];
          return b === undefined ? [] : [ratio(r[field], b[field])];
        });
        return [name, median(each)];
      });
      variant.scenarios[scenario.id] = {
        ...(Object.fromEntries(ratios) as Record<keyof typeof PAIRED, number>),
        rounds,
        reqPerSec: median(rounds.map((r) => r.reqPerSec)),
        cpuUsPerRequest: median(rounds.map((r) => r.cpuUsPerRequest)),
        p50Ms: median(rounds.map((r) => r.p50Ms)),
        p99Ms: median(rounds.map((r) => r.p99Ms)),
        errors: rounds.reduce((sum, r) => sum + r.errors, 0),
      };
    }
  }
  return figures;
}
