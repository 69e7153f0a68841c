/**
 * Issue 26's targets: the shipped server's CPU per request against Fastify + fastify-openapi-glue
 * on every scenario, the PostgreSQL + Redis path against SQLite, and p99 at 32 connections on
 * every SQLite scenario with the load average beside it (a loaded machine says so in the row).
 */
import type { Target } from "./results.js";
import type { Scenario, ScenarioFigures, VariantFigures } from "./server-bench.js";

const LABELS: Record<Scenario["id"], string> = {
  list20: "GET limit=20",
  list100: "GET limit=100",
  create: "POST create",
};

function measured(
  label: string,
  goal: string,
  value: number | undefined,
  show: (v: number) => string,
  ok: (v: number) => boolean,
): Target {
  if (value === undefined || !Number.isFinite(value))
    return { label, goal, actual: "not measured", met: null };
  return { label, goal, actual: show(value), met: ok(value) };
}

/** The issue-26 rows of the targets table; `load` is the machine's load average during the run. */
export function serverTargets(
  variants: readonly VariantFigures[] | undefined,
  load: { start: number; end: number; cores: number },
): Target[] {
  const of = (id: string) => variants?.find((v) => v.id === id)?.scenarios;
  const ours = of("ours-sqlite");
  const scaled = of("ours-pg-redis");
  const ids = Object.keys(LABELS) as Scenario["id"][];
  const x = (v: number) => `${v.toFixed(2)}x`;
  const cpu = (f: ScenarioFigures | undefined) => (f === undefined ? undefined : f.cpuVsFastify);
  // A machine whose load average exceeds its cores is not quiet: latency says little there.
  const quiet = Math.max(load.start, load.end) <= load.cores * 0.5;
  const loadNote = `load average ${load.start} at start, ${load.end} at end${quiet ? "" : ", machine not quiet"}`;
  return [
    ...ids.map((id) =>
      measured(
        `CPU µs/req vs Fastify + glue, ${LABELS[id]}`,
        "<= 1.00x",
        cpu(ours?.[id]),
        (v) => `${x(v)} (${ours?.[id]?.cpuUsPerRequest.toFixed(0)} µs)`,
        (v) => v <= 1,
      ),
    ),
    measured(
      "PostgreSQL + Redis create vs SQLite",
      ">= 0.60x",
      scaled?.create?.vsSqlite,
      x,
      (v) => v >= 0.6,
    ),
    measured(
      "PostgreSQL + Redis GET limit=20 vs SQLite",
      ">= 0.85x",
      scaled?.list20?.vsSqlite,
      x,
      (v) => v >= 0.85,
    ),
    ...ids.map((id) =>
      measured(
        `p99 at 32 connections, SQLite ${LABELS[id]}`,
        "< 10 ms",
        ours?.[id]?.p99Ms,
        (v) => `${v.toFixed(2)} ms (${loadNote})`,
        (v) => v < 10,
      ),
    ),
  ];
}
