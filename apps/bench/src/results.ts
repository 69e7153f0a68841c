/**
 * The shape of bench/results/latest.json, and the targets evaluated against a run. Targets
 * are reported, never asserted: a missed target is a finding, not a failed run.
 */
import type { ClientFigures } from "./client-bench.js";
import type { ClientSize } from "./client-size.js";
import type { DevFigures } from "./dev-bench.js";
import type { InstructionsResult } from "./instructions-bench.js";
import type { MachineInfo, Steadiness } from "./machine.js";
import type { MockFigures } from "./mock-bench.js";
import type { PagingFigures } from "./paging-bench.js";
import {
  cpuRatioInterval,
  intervalVerdict,
  type PairFigures,
  type VariantFigures,
} from "./server-bench.js";
import { PAIR_CPU_GOALS, serverTargets } from "./server-targets.js";
import type { ToolchainFigure } from "./toolchain-bench.js";

/** A section's figures, or why it has none. */
export type Section<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Everything one `pnpm bench` run measured. */
export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  machine: MachineInfo;
  loadAtEnd: number;
  /** The machine's steadiness at the start and the end of the run (machine.ts). */
  steadiness?: { start: Steadiness; end: Steadiness };
  settings: {
    rounds: number;
    /** Processes each server variant ran in, the rounds split between them (absent: 1). */
    launches?: number;
    seconds: number;
    warmupSeconds: number;
    /** Seconds of the same load run, not counted, right before each measured round (0: none). */
    roundWarmupSeconds?: number;
    connections: number;
    threads: number;
    /** Runs of each side of a pair, and their length in seconds (absent: no pairs). */
    pairRuns?: number;
    pairSeconds?: number;
    /** Launches the pairs ran in, after the rounds (absent: the pairs ran in the rounds' launches). */
    pairLaunches?: number;
  };
  /** Anything that makes this run differ from a full one (a variant left out, and why). */
  notes: string[];
  server: Section<VariantFigures[]>;
  /** The pairs the server targets compare, measured run against run after the rounds. */
  pairs?: Section<PairFigures[]>;
  /** Instructions per request under callgrind, the shipped server against Fastify + glue. */
  instructions?: Section<InstructionsResult>;
  /** What a page costs deep in the list and in a large table (issue 22). */
  paging: Section<PagingFigures>;
  client: Section<ClientFigures>;
  clientSize: Section<ClientSize>;
  toolchain: Section<ToolchainFigure[]>;
  dev: Section<DevFigures>;
  mock: Section<MockFigures>;
  targets: Target[];
}

/** One target of the issue and whether this run met it (null: not measured). */
export interface Target {
  label: string;
  goal: string;
  actual: string;
  met: boolean | null;
}

function target(
  label: string,
  goal: string,
  value: number | undefined,
  unit: string,
  ok: (v: number) => boolean,
  digits = 2,
): Target {
  if (value === undefined || !Number.isFinite(value))
    return { label, goal, actual: "not measured", met: null };
  return { label, goal, actual: `${value.toFixed(digits)}${unit}`, met: ok(value) };
}

/** Metrics on vs off on its worst scenario, with that ratio's interval (server-bench.ts). */
function metricsTarget(worst: PairFigures | undefined): Target {
  const label = "CPU per request, metrics on vs off (worst scenario)";
  const goal = PAIR_CPU_GOALS["ours-sqlite/ours-no-metrics"] as number;
  const goalText = `<= ${goal.toFixed(2)}x`;
  if (worst === undefined) return { label, goal: goalText, actual: "not measured", met: null };
  const interval = cpuRatioInterval(worst.runs);
  const x = (v: number) => `${v.toFixed(2)}x`;
  return {
    label,
    goal: goalText,
    actual: `${x(worst.cpuRatio)} (${worst.scenario}; 95% interval ${interval.map(x).join(" to ")}, ${intervalVerdict(interval, goal)})`,
    met: worst.cpuRatio <= goal,
  };
}

/** The issues' targets for our server (SQLite, as shipped), the client, `pnpm dev` and the mock. */
export function evaluateTargets(results: Omit<BenchResults, "targets">): Target[] {
  const ours = results.server.ok
    ? results.server.value.find((v) => v.id === "ours-sqlite")
    : undefined;
  const s = ours?.scenarios;
  const worstP99 = s ? Math.max(...Object.values(s).map((f) => f.p99Ms)) : undefined;
  const client = results.client.ok ? results.client.value.againstOurs.oursVsRaw : undefined;
  const dev = results.dev.ok ? results.dev.value.specEditToRestartMs : undefined;
  const paging = results.paging.ok ? results.paging.value.ratios : [];
  // The largest of the table-size comparisons: each must stay within the target.
  const [deep, ...larger] = paging;
  const worstLarger = larger.length > 0 ? Math.max(...larger.map((r) => r.ratio)) : undefined;
  const stateful = results.mock.ok
    ? results.mock.value.modes.find((m) => m.id === "stateful")
    : undefined;
  const pairs = results.pairs?.ok ? results.pairs.value : [];
  // Metrics on (as shipped) against METRICS_PORT=0, run against run: the worst scenario.
  const metricsPairs = pairs
    .filter((p) => p.subject === "ours-sqlite" && p.baseline === "ours-no-metrics")
    .filter((p) => Number.isFinite(p.cpuRatio));
  const worstMetrics = metricsPairs.reduce<PairFigures | undefined>(
    (worst, p) => (worst === undefined || p.cpuRatio > worst.cpuRatio ? p : worst),
    undefined,
  );
  return [
    metricsTarget(worstMetrics),
    target("GET limit=20 vs bare Express", ">= 1.00x", s?.list20?.vsExpress, "x", (v) => v >= 1),
    target("GET limit=100 vs bare Express", ">= 1.00x", s?.list100?.vsExpress, "x", (v) => v >= 1),
    target("POST create vs bare Express", ">= 0.85x", s?.create?.vsExpress, "x", (v) => v >= 0.85),
    target(
      "p99 latency at 32 connections (worst scenario)",
      "< 25 ms",
      worstP99,
      " ms",
      (v) => v < 25,
    ),
    target("first request after start", "< 20 ms", ours?.firstRequestMs, " ms", (v) => v < 20, 1),
    target("server RSS after the run", "< 200 MB", ours?.rssAfterMb, " MB", (v) => v < 200, 0),
    target("client per call vs raw fetch", "<= 1.10x", client, "x", (v) => v <= 1.1),
    target("page 50 vs page 1 (cost ratio)", "<= 1.20x", deep?.ratio, "x", (v) => v <= 1.2),
    target(
      "a list on the largest table vs 1,000 pets (worst cost ratio)",
      "<= 1.20x",
      worstLarger,
      "x",
      (v) => v <= 1.2,
    ),
    target(
      "spec edit to restarted server (pnpm dev)",
      "< 3 s",
      dev === undefined ? undefined : dev / 1000,
      " s",
      (v) => v < 3,
    ),
    target(
      "stateful mock: start to ready",
      "< 3 s",
      stateful === undefined ? undefined : stateful.startMs / 1000,
      " s",
      (v) => v < 3,
    ),
    ...serverTargets(results.server.ok ? results.server.value : undefined, pairs, {
      start: results.machine.loadAtStart[0] ?? Number.NaN,
      end: results.loadAtEnd,
      cores: results.machine.cores,
      spread: results.steadiness
        ? Math.max(results.steadiness.start.spread, results.steadiness.end.spread)
        : undefined,
    }),
  ];
}
