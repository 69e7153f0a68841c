/**
 * `pnpm bench`: measures the server, paging, the client, `pnpm dev` and the mock
 * against their baselines in one run, and writes bench/results/latest.{md,json}. It reports
 * targets; it never fails a run for a missed one. Every process it starts is stopped before it
 * exits.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureClientSize, runClientBench } from "./client-bench.js";
import { runDevBench } from "./dev-bench.js";
import { currentLoad, describeMachine, probeSteadiness } from "./machine.js";
import { runMockBench } from "./mock-bench.js";
import { wholeNumberOption } from "./options.js";
import { runPagingBench } from "./paging-bench.js";
import { type PairSpec, runPairs } from "./pairs.js";
import { cleanUpWhenStopped, installCleanup, stopAll, stoppedEarly } from "./processes.js";
import { renderMarkdown } from "./report-markdown.js";
import type { BenchResults, Section, Settings } from "./results.js";
import { runServerBench, SCENARIOS } from "./server-bench.js";
import { round } from "./stats.js";
import { evaluateTargets } from "./targets.js";
import { createVariantSpecs } from "./variant-env.js";
import { warmFetch } from "./variant-process.js";
import { wrkMissingMessage } from "./wrk.js";

// A full run takes about 14 minutes; the budget only bounds a run that hangs.
const BUDGET_MS = 25 * 60_000;
const SECTIONS = ["server", "paging", "client", "mock", "dev"] as const;
const root = fileURLToPath(new URL("../../../", import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const listOption = (name: string) =>
  args
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(",");
const numberOption = (name: string, full: number, quickly: number) => {
  try {
    return wholeNumberOption(name, listOption(name)?.[0]) ?? (quick ? quickly : full);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exit(2);
  }
};
const only = listOption("only");
const log = (line: string) => console.log(line);

/** Section `name`'s figures, or why it has none (not selected, stopped, failed). */
async function measure<T>(
  name: (typeof SECTIONS)[number],
  run: () => Promise<T>,
): Promise<Section<T>> {
  if (only !== undefined && !only.includes(name))
    return { ok: false, reason: "not selected (--only)" };
  const stopped = stoppedEarly();
  if (stopped !== null) return { ok: false, reason: `the run was stopped (${stopped})` };
  log(`\n== ${name}`);
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`  not measured: ${reason}`);
    return { ok: false, reason: reason.split("\n")[0] ?? reason };
  }
}

/**
 * The comparisons the targets rest on: the shipped server against Fastify + glue and against
 * itself with metrics off, on every scenario; the scale-out path against SQLite on the two it
 * has targets for.
 */
const every = ["list20", "list100", "create"] as const;
const PAIRS: readonly PairSpec[] = [
  { subject: "ours-sqlite", baseline: "fastify-glue", scenarios: every },
  { subject: "ours-sqlite", baseline: "ours-no-metrics", scenarios: every },
  { subject: "ours-pg-redis", baseline: "ours-sqlite", scenarios: ["list20", "create"] },
];

async function main(): Promise<void> {
  installCleanup(BUDGET_MS);
  const missing = wrkMissingMessage();
  if (missing !== null) {
    console.error(missing);
    process.exit(1);
  }
  const started = Date.now();
  const machine = describeMachine();
  // Many pair launches of few runs: a process's luck moves a ratio more than one run's noise does.
  const settings: Settings = {
    rounds: numberOption("rounds", 3, 1),
    seconds: numberOption("seconds", 3, 2),
    warmupSeconds: 1,
    connections: 32,
    threads: 1,
    pairLaunches: numberOption("pair-launches", 8, 1),
    pairRunsPerLaunch: numberOption("pair-runs", 2, 2),
    pairSeconds: numberOption("pair-seconds", 1, 1),
  };
  const load = { connections: 32, threads: 1, seconds: settings.seconds };
  const scratchDir = await mkdtemp(join(tmpdir(), "animal-store-bench-"));
  log(`bench: ${machine.cpuModel}, ${machine.cores} cores, load ${machine.loadAtStart.join(" ")}`);
  const steadyAtStart = probeSteadiness(quick ? 1 : 4);
  log(`bench: steadiness at start ${steadyAtStart.spread}x (p90/p10 of the same work's CPU time)`);
  await warmFetch();
  // --compare=<dir>: the dist/ of an earlier server build (a worktree of its commit), run as (a0).
  const compare = args.find((a) => a.startsWith("--compare="))?.slice("--compare=".length);
  const variants = await createVariantSpecs(scratchDir, compare);
  // Run by stopAll, in the finally below or on Ctrl-C, SIGTERM or the time budget.
  cleanUpWhenStopped(variants.cleanup);
  cleanUpWhenStopped(() => rm(scratchDir, { recursive: true, force: true }));
  // --variants=ours-sqlite,fastify-glue and --scenarios=list20 narrow a focused comparison.
  const picked = listOption("variants");
  const specs = variants.specs.filter((s) => picked?.includes(s.id) ?? true);
  const scenarios = SCENARIOS.filter((s) => listOption("scenarios")?.includes(s.id) ?? true);
  const notes: string[] = [];
  if (variants.skipped !== null) {
    notes.push(`Variant (d) PostgreSQL + Redis not run: ${variants.skipped}.`);
    log(`bench: ${notes.at(-1)}`);
  }
  try {
    const common = { scenarios, load, warmupSeconds: settings.warmupSeconds, scratchDir, log };
    const server = await measure("server", () =>
      runServerBench(specs, { ...common, rounds: settings.rounds, seedPets: 120 }),
    );
    const pairs = server.ok
      ? await measure("server", () =>
          runPairs(specs, {
            ...common,
            specs: PAIRS,
            launches: settings.pairLaunches,
            runsPerLaunch: settings.pairRunsPerLaunch,
            load: { ...load, seconds: settings.pairSeconds },
          }),
        )
      : server;
    // Shorter runs than the server's (eight scenarios), but four rounds: fewer left a ratio to
    // one round's noise on a shared machine.
    const pagingLoad = { ...load, seconds: 2 };
    const paging = await measure("paging", () =>
      runPagingBench({ ...common, quick, rounds: quick ? 1 : 4, load: pagingLoad }),
    );
    const client = await measure("client", () =>
      runClientBench(variants.specs, quick ? 600 : 4500),
    );
    const clientSize = await measure("client", measureClientSize);
    const mockRounds = quick ? 1 : 3;
    const mock = await measure("mock", () =>
      runMockBench({ rounds: mockRounds, load, scratchDir }),
    );
    const dev = await measure("dev", () => runDevBench(root, quick ? 1 : 3));
    const stopped = stoppedEarly();
    if (stopped !== null) {
      log(`bench: stopped (${stopped}); bench/results/latest.{md,json} left as they were`);
      return;
    }
    const run = {
      startedAt: new Date(started).toISOString(),
      durationSeconds: (Date.now() - started) / 1000,
      machine,
      loadAtEnd: currentLoad(),
      steadiness: { start: steadyAtStart, end: probeSteadiness(quick ? 1 : 4) },
      settings,
      notes,
      server,
      pairs,
      paging,
      client,
      clientSize,
      dev,
      mock,
    };
    const results: BenchResults = { ...run, targets: evaluateTargets(run) };
    await writeResults(results);
    log(`bench: wrote bench/results/latest.{md,json} in ${results.durationSeconds.toFixed(0)} s`);
  } finally {
    await stopAll();
  }
}

/** Writes latest.json (numbers to 3 decimals) and latest.md, and prints the Markdown. */
async function writeResults(results: BenchResults): Promise<void> {
  const outDir = join(root, "bench/results");
  const markdown = renderMarkdown(results);
  const json = JSON.stringify(results, (_key, v) => (typeof v === "number" ? round(v, 3) : v), 2);
  await writeFile(join(outDir, "latest.json"), `${json}\n`);
  await writeFile(join(outDir, "latest.md"), markdown);
  log(`\n${markdown}`);
}

await main();
