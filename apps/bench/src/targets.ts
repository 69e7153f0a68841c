/**
 * The issues' targets evaluated against a run. Targets are reported, never asserted: a missed
 * target is a finding, not a failed run.
 */
import { STEADY_SPREAD } from "./machine.js";
import { cpuRatioInterval, intervalVerdict, type PairFigures } from "./pairs.js";
import type { BenchResults, Target } from "./results.js";
import type { Scenario } from "./server-bench.js";
import { ratio } from "./stats.js";

const LABELS: Record<Scenario["id"], string> = {
  list20: "GET limit=20",
  list100: "GET limit=100",
  create: "POST create",
};
const FASTIFY_GOAL = 1;
const METRICS_GOAL = 1.03;
const x = (v: number) => `${v.toFixed(2)}x`;

interface Goal {
  text: string;
  ok(v: number): boolean;
}
const atMost = (g: number): Goal => ({ text: `<= ${x(g)}`, ok: (v) => v <= g });
const atLeast = (g: number): Goal => ({ text: `>= ${x(g)}`, ok: (v) => v >= g });
const under = (g: number, unit: string): Goal => ({ text: `< ${g} ${unit}`, ok: (v) => v < g });
const fixed = (digits: number, unit: string) => (v: number) => `${v.toFixed(digits)} ${unit}`;

/** A target on `value`, shown by `show`; "not measured" when there is no value. */
function target(label: string, goal: Goal, value: number | undefined, show = x): Target {
  if (value === undefined || !Number.isFinite(value))
    return { label, goal: goal.text, actual: "not measured", met: null };
  return { label, goal: goal.text, actual: show(value), met: goal.ok(value) };
}

/** A pair's CPU ratio interval and what it says about the goal. */
function interval(p: PairFigures, goal: number): string {
  const bounds = cpuRatioInterval(p.runs);
  return `95% interval ${bounds.map(x).join(" to ")}, ${intervalVerdict(bounds, goal)}`;
}

type Run = Omit<BenchResults, "targets">;

/**
 * Whether the machine was quiet enough to judge a p99 by: the steadiness probe read a steady
 * speed (the host's other machines), and the load average showed no other work on this one: at
 * the start, before the bench runs anything, at most one task per core; at the end, at most two
 * more (the bench's own server and wrk).
 */
function machineNote(r: Run): string {
  const spread = Math.max(r.steadiness.start.spread, r.steadiness.end.spread);
  const busy =
    (r.machine.loadAtStart[0] ?? 0) > r.machine.cores || r.loadAtEnd > r.machine.cores + 2;
  const quiet = spread <= STEADY_SPREAD && !busy ? "" : ", machine not quiet";
  return `steadiness ${x(spread)}, load average ${r.machine.loadAtStart[0]} at start, ${r.loadAtEnd} at end${quiet}`;
}

export function evaluateTargets(r: Run): Target[] {
  const ours = r.server.ok ? r.server.value.find((v) => v.id === "ours-sqlite") : undefined;
  const s = ours?.scenarios;
  const pairs = r.pairs.ok ? r.pairs.value : [];
  const pair = (subject: string, baseline: string, scenario: Scenario["id"]) =>
    pairs.find((p) => p.subject === subject && p.baseline === baseline && p.scenario === scenario);
  const worstMetrics = pairs
    .filter((p) => p.subject === "ours-sqlite" && p.baseline === "ours-no-metrics")
    .filter((p) => Number.isFinite(p.cpuRatio))
    .sort((a, b) => b.cpuRatio - a.cpuRatio)[0];
  const [deep, ...larger] = r.paging.ok ? r.paging.value.ratios : [];
  const stateful = r.mock.ok ? r.mock.value.modes.find((m) => m.id === "stateful") : undefined;
  const ids = Object.keys(LABELS) as Scenario["id"][];
  const client = r.client.ok ? r.client.value.againstOurs : undefined;
  const pg = (id: Scenario["id"]) => pair("ours-pg-redis", "ours-sqlite", id)?.reqPerSecRatio;
  return [
    target(
      "CPU per request, metrics on vs off (worst scenario)",
      atMost(METRICS_GOAL),
      worstMetrics?.cpuRatio,
      (v) =>
        `${x(v)} (${worstMetrics?.scenario}; ${interval(worstMetrics as PairFigures, METRICS_GOAL)})`,
    ),
    target("GET limit=20 vs bare Express", atLeast(1), s?.list20?.vsExpress),
    target("GET limit=100 vs bare Express", atLeast(1), s?.list100?.vsExpress),
    target("POST create vs bare Express", atLeast(0.85), s?.create?.vsExpress),
    target(
      "p99 latency at 32 connections (worst scenario)",
      under(25, "ms"),
      s ? Math.max(...Object.values(s).map((f) => f.p99Ms)) : undefined,
      fixed(2, "ms"),
    ),
    target("first request after start", under(20, "ms"), ours?.firstRequestMs, fixed(1, "ms")),
    target("server RSS after the run", under(200, "MB"), ours?.rssAfterMb, fixed(0, "MB")),
    target(
      "client per call vs raw fetch",
      atMost(1.1),
      client && ratio(client.ours.us, client.rawFetch.us),
    ),
    target("page 50 vs page 1 (cost ratio)", atMost(1.2), deep?.ratio),
    target(
      "a list on the largest table vs 1,000 pets (worst cost ratio)",
      atMost(1.2),
      larger.length > 0 ? Math.max(...larger.map((l) => l.ratio)) : undefined,
    ),
    target(
      "spec edit to restarted server (pnpm dev)",
      under(3, "s"),
      r.dev.ok ? r.dev.value.specEditToRestartMs / 1000 : undefined,
      fixed(2, "s"),
    ),
    target(
      "stateful mock: start to ready",
      under(3, "s"),
      stateful && stateful.startMs / 1000,
      fixed(2, "s"),
    ),
    ...ids.map((id) => {
      const p = pair("ours-sqlite", "fastify-glue", id);
      const show = (v: number) =>
        `${x(v)} (${interval(p as PairFigures, FASTIFY_GOAL)}; ${p?.subjectCpuUs.toFixed(0)} against ${p?.baselineCpuUs.toFixed(0)} µs; runs ${p?.cpuRatioRange.map(x).join(" to ")})`;
      return target(
        `CPU µs/req vs Fastify + glue, ${LABELS[id]}`,
        atMost(FASTIFY_GOAL),
        p?.cpuRatio,
        show,
      );
    }),
    target("PostgreSQL + Redis create vs SQLite", atLeast(0.6), pg("create")),
    target("PostgreSQL + Redis GET limit=20 vs SQLite", atLeast(0.85), pg("list20")),
    ...ids.map((id) =>
      target(
        `p99 at 32 connections, SQLite ${LABELS[id]}`,
        under(10, "ms"),
        s?.[id]?.p99Ms,
        (v) => `${v.toFixed(2)} ms (${machineNote(r)})`,
      ),
    ),
  ];
}
