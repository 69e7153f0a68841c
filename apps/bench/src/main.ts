/**
 * `pnpm bench`: measures the server, paging, the client, the toolchain, `pnpm dev` and the mock
 * against their baselines in one run, and writes bench/results/latest.{md,json}. It reports targets; it
 * never fails a run for a missed one. Every process it starts is stopped before it exits.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runClientSection } from "./client-section.js";
import { measureClientSize } from "./client-size.js";
import { runDevBench } from "./dev-bench.js";
import { callgrindMissing, runInstructionsBench } from "./instructions-bench.js";
import { currentLoad, describeMachine, probeSteadiness } from "./machine.js";
import { runMockBench } from "./mock-bench.js";
import { wholeNumberOption } from "./options.js";
import { runPagingBench } from "./paging-bench.js";
import { cleanUpWhenStopped, installCleanup, stopAll, stoppedEarly } from "./processes.js";
import { renderMarkdown } from "./report-markdown.js";
import { type BenchResults, evaluateTargets, type Section } from "./results.js";
import { type PairSpec, runServerBench, SCENARIOS, type Scenario } from "./server-bench.js";
import { round } from "./stats.js";
import { runToolchainBench } from "./toolchain-bench.js";
import { createVariantSpecs } from "./variant-env.js";
import { warmFetch } from "./variant-process.js";
import { wrkMissingMessage } from "./wrk.js";

// Well above a full run's length (`durationSeconds` in bench/results/latest.json), so a slower
// machine finishes; still a bound on a run that hangs.
const BUDGET_MS = 32 * 60_000;
const SECTIONS = [
  "server",
  "instructions",
  "paging",
  "client",
  "mock",
  "dev",
  "toolchain",
] as const;
const root = fileURLToPath(new URL("../../../", import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
// A snapshot of an earlier server build (snapshot-server) to measure a change before and after.
const compare = args.find((a) => a.startsWith("--compare="))?.slice("--compare=".length);
/** `--name=a,b` as a list, or undefined when not given. */
const listOption = (name: string) =>
  args
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(",");
const numberOption = (name: string) => {
  try {
    return wholeNumberOption(name, listOption(name)?.[0]);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exit(2);
  }
};
const only = listOption("only");
const wanted = (name: (typeof SECTIONS)[number]) => only === undefined || only.includes(name);
const log = (line: string) => console.log(line);

async function measure<T>(name: string, run: () => Promise<T>): Promise<Section<T>> {
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

const skipped = { ok: false, reason: "not selected (--only)" } as const;

/**
 * The comparisons the targets rest on, each measured run against run: the shipped server
 * against Fastify + glue and against itself with metrics off, on every scenario; the scale-out
 * path against SQLite on the two it has targets for.
 */
const PAIRS: readonly PairSpec[] = [
  { subject: "ours-sqlite", baseline: "fastify-glue", scenarios: ["list20", "list100", "create"] },
  {
    subject: "ours-sqlite",
    baseline: "ours-no-metrics",
    scenarios: ["list20", "list100", "create"],
  },
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
  const settings = {
    // The rounds give every variant's figures; the targets' ratios come from the pairs below.
    rounds: numberOption("rounds") ?? (quick ? 1 : 4),
    // Two processes per server variant, two rounds each (server-bench.ts says why).
    launches: numberOption("launches") ?? (quick ? 1 : 2),
    seconds: numberOption("seconds") ?? (quick ? 2 : 3),
    warmupSeconds: 1,
    // Each variant idles while the others run (about 20 s between its runs); a run that starts
    // from idle measures V8 and the caches waking up, not the server under load (README).
    roundWarmupSeconds: quick ? 0 : 1,
    connections: 32,
    threads: 1,
    // The pairs the targets compare, run against run after the rounds, in launches of their own
    // (server-bench.ts says why): 4 runs of each side per launch, two in each order.
    pairRuns: numberOption("pair-runs") ?? (quick ? 2 : 32),
    pairLaunches: numberOption("pair-launches") ?? (quick ? 1 : 8),
    pairSeconds: numberOption("pair-seconds") ?? 1,
  };
  const load = {
    connections: settings.connections,
    threads: settings.threads,
    seconds: settings.seconds,
  };
  const scratchDir = await mkdtemp(join(tmpdir(), "animal-store-bench-"));
  log(`bench: ${machine.cpuModel}, ${machine.cores} cores, load ${machine.loadAtStart.join(" ")}`);
  const steadyAtStart = probeSteadiness(quick ? 1 : 4);
  log(`bench: steadiness at start ${steadyAtStart.spread}x (p90/p10 of the same work's CPU time)`);
  await warmFetch();
  const variants = await createVariantSpecs(scratchDir, compare);
  // Run by stopAll, in the finally below or on Ctrl-C, SIGTERM or the time budget.
  cleanUpWhenStopped(variants.cleanup);
  cleanUpWhenStopped(() => rm(scratchDir, { recursive: true, force: true }));
  // --variants=ours-sqlite,ours-before,bare-express narrows a focused comparison.
  const pickedVariants = listOption("variants");
  const serverSpecs = variants.specs.filter((s) => pickedVariants?.includes(s.id) ?? true);
  const scenarios = listOption("scenarios") as Scenario["id"][] | undefined;
  const notes: string[] = [];
  if (variants.skipped !== null) {
    notes.push(`Variant (d) PostgreSQL + Redis not run: ${variants.skipped}.`);
    log(`bench: ${notes.at(-1)}`);
  }
  try {
    const serverRun = wanted("server")
      ? await measure("server", () =>
          runServerBench(serverSpecs, {
            ...settings,
            scenarios,
            load,
            pairs: {
              specs: PAIRS,
              runs: settings.pairRuns,
              seconds: settings.pairSeconds,
              launches: settings.pairLaunches,
            },
            seedPets: 120,
            scratchDir,
            log,
          }),
        )
      : skipped;
    const server = serverRun.ok
      ? { ok: true as const, value: serverRun.value.variants }
      : serverRun;
    const pairs = serverRun.ok ? { ok: true as const, value: serverRun.value.pairs } : serverRun;
    // The steady figure beside the pairs' CPU time: the shipped server against Fastify + glue.
    const instructions = wanted("instructions")
      ? await measure("instructions (callgrind)", async () => {
          const missing = await callgrindMissing();
          if (missing !== null) throw new Error(missing);
          // --variants picks the servers counted too (the ratio is the first over the second).
          const ids = pickedVariants ?? ["ours-sqlite", "fastify-glue"];
          return runInstructionsBench({
            specs: ids.flatMap((id) => variants.specs.filter((s) => s.id === id)),
            scenarios: SCENARIOS.filter((s) => scenarios?.includes(s.id) ?? true),
            counted: quick ? 300 : 1500,
            warmup: quick ? 1000 : 3000,
            scratchDir,
            log,
          });
        })
      : skipped;
    const paging = wanted("paging")
      ? await measure("paging", () =>
          runPagingBench({
            quick,
            // Shorter rounds than the server section (this one runs eight scenarios), but five:
            // three left a ratio to one round's noise on a shared machine.
            rounds: quick ? 1 : 5,
            load: { ...load, seconds: Math.min(settings.seconds, 2) },
            warmupSeconds: settings.warmupSeconds,
            scratchDir,
            log,
          }),
        )
      : skipped;
    const client = wanted("client")
      ? await measure("client", () => runClientSection(variants.specs, { quick }))
      : skipped;
    const clientSize = wanted("client") ? await measure("client size", measureClientSize) : skipped;
    const mock = wanted("mock")
      ? await measure("mock", () => runMockBench({ rounds: quick ? 1 : 5, load, scratchDir }))
      : skipped;
    const dev = wanted("dev")
      ? await measure("pnpm dev", () => runDevBench(root, quick ? 1 : 3))
      : skipped;
    const toolchain = wanted("toolchain")
      ? await measure("toolchain", () =>
          runToolchainBench({ root, scratchDir, repeats: quick ? 1 : 3, log }),
        )
      : skipped;
    const partial = {
      startedAt: new Date(started).toISOString(),
      durationSeconds: (Date.now() - started) / 1000,
      machine,
      loadAtEnd: currentLoad(),
      steadiness: { start: steadyAtStart, end: probeSteadiness(quick ? 1 : 4) },
      settings,
      notes,
      server,
      pairs,
      instructions,
      paging,
      client,
      clientSize,
      toolchain,
      dev,
      mock,
    };
    const stopped = stoppedEarly();
    if (stopped !== null) {
      log(`bench: stopped (${stopped}); bench/results/latest.{md,json} left as they were`);
      return;
    }
    const results: BenchResults = { ...partial, targets: evaluateTargets(partial) };
    const outDir = join(root, "bench/results");
    await mkdir(outDir, { recursive: true });
    const markdown = renderMarkdown(results);
    const json = JSON.stringify(results, (_key, v) => (typeof v === "number" ? round(v, 3) : v), 2);
    await writeFile(join(outDir, "latest.json"), `${json}\n`);
    await writeFile(join(outDir, "latest.md"), markdown);
    log(`\n${markdown}`);
    log(`bench: wrote bench/results/latest.{md,json} in ${results.durationSeconds.toFixed(0)} s`);
  } finally {
    await stopAll();
  }
}

await main();
