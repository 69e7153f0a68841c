/**
 * `pnpm --filter @animal-store/bench pool -- <results.json>... [--out=<file.md>]`: pools the pair
 * runs of several `pnpm bench` runs into one median per pair and scenario, with its 95% bootstrap
 * interval. On a shared host one run's median of 16 pair runs lands a few percent either side of
 * where the next run's does (the bench README measures how far); n runs pooled narrow that by
 * about the square root of n, enough to tell differences of a percent or two. Pool only runs of
 * the same server code: the commits are listed so a reader can check.
 */
import { readFile, writeFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { table, times } from "./report-markdown.js";
import type { BenchResults } from "./results.js";
import {
  cpuRatioInterval,
  intervalVerdict,
  type PairFigures,
  type Scenario,
  summarisePair,
} from "./server-bench.js";
import { PAIR_CPU_GOALS } from "./server-targets.js";
import type { VariantId } from "./variant-process.js";

/** One results file's pairs, by name. */
export interface PoolInput {
  name: string;
  commit: string | null;
  startedAt: string;
  pairs: readonly PairFigures[];
}

/** One pair and scenario over every file that measured it. */
export interface PooledPair {
  subject: string;
  baseline: string;
  scenario: string;
  /** Each file's own median, in the order given. */
  fileRatios: number[];
  runs: PairFigures["runs"];
  cpuRatio: number;
  interval: [number, number];
  /** The goal the ratio is judged against, if it has one (PAIR_CPU_GOALS). */
  goal: number | undefined;
}

/** Pools every file's runs of each pair and scenario, in the order they first appear. */
export function poolPairs(inputs: readonly PoolInput[]): PooledPair[] {
  const pooled = new Map<string, PooledPair>();
  for (const [file, input] of inputs.entries()) {
    for (const pair of input.pairs) {
      const key = `${pair.subject}/${pair.baseline}/${pair.scenario}`;
      const entry = pooled.get(key) ?? {
        subject: pair.subject,
        baseline: pair.baseline,
        scenario: pair.scenario,
        fileRatios: [],
        runs: [],
        cpuRatio: Number.NaN,
        interval: [Number.NaN, Number.NaN] as [number, number],
        goal: PAIR_CPU_GOALS[`${pair.subject}/${pair.baseline}`],
      };
      entry.fileRatios.push(pair.cpuRatio);
      // Launches numbered apart file by file, so the interval resamples each file's launches as
      // launches of their own; a file from before pairs had launches is one launch.
      entry.runs.push(
        ...pair.runs.map((run) => ({ ...run, launch: file * 1000 + (run.launch ?? 0) })),
      );
      pooled.set(key, entry);
    }
  }
  // The same estimator as one run's pair (summarisePair), over every file's runs together.
  return [...pooled.values()].map((entry) => ({
    ...entry,
    cpuRatio: summarisePair(
      { subject: entry.subject as VariantId, baseline: entry.baseline as VariantId, scenarios: [] },
      entry.scenario as Scenario["id"],
      entry.runs,
    ).cpuRatio,
    interval: cpuRatioInterval(entry.runs),
  }));
}

/** The pooled pairs as Markdown: the files, then one row per pair and scenario. */
export function renderPool(inputs: readonly PoolInput[], pooled: readonly PooledPair[]): string {
  return [
    "# Pairs pooled over several `pnpm bench` runs",
    "",
    table(
      ["file", "commit", "started (UTC)"],
      inputs.map((i) => [i.name, i.commit ?? "?", i.startedAt.slice(0, 16).replace("T", " ")]),
    ),
    "",
    "A pooled ratio is the median of every file's run ratios together (subject's CPU µs per request over the baseline's); its 95% interval is the bootstrap interval of that median.",
    "",
    table(
      [
        "subject",
        "baseline",
        "scenario",
        "each file's ratio",
        "runs",
        "pooled CPU ratio",
        "95% interval",
        "goal",
        "the interval and the goal",
      ],
      pooled.map((p) => [
        p.subject,
        p.baseline,
        p.scenario,
        p.fileRatios.map(times).join(" "),
        String(p.runs.length),
        times(p.cpuRatio),
        p.interval.map(times).join(" to "),
        p.goal === undefined ? "none (judged on req/s)" : `<= ${times(p.goal)}`,
        p.goal === undefined ? "n/a" : intervalVerdict(p.interval, p.goal),
      ]),
    ),
    "",
  ].join("\n");
}

/** Reads one results file's pairs, or says why it cannot. */
export async function readPoolInput(path: string): Promise<PoolInput> {
  let results: BenchResults;
  try {
    results = JSON.parse(await readFile(path, "utf8")) as BenchResults;
  } catch (error) {
    throw new Error(`${path}: not a readable results file (${(error as Error).message})`);
  }
  if (results.pairs?.ok !== true)
    throw new Error(
      `${path}: has no pairs (a run from before the pairs, or one that skipped them)`,
    );
  return {
    name: basename(path),
    commit: results.machine?.commit ?? null,
    startedAt: results.startedAt ?? "",
    pairs: results.pairs.value,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  const outArg = args.find((a) => a.startsWith("--out="))?.slice("--out=".length);
  // pnpm runs the script in apps/bench; a relative path means the directory it was typed in.
  const from = process.env.INIT_CWD ?? process.cwd();
  const paths = args.filter((a) => !a.startsWith("--")).map((a) => resolve(from, a));
  if (paths.length === 0) {
    console.error("usage: pool <results.json>... [--out=<file.md>]");
    process.exit(2);
  }
  let inputs: PoolInput[];
  try {
    inputs = await Promise.all(paths.map(readPoolInput));
  } catch (error) {
    console.error(`pool: ${(error as Error).message}`);
    process.exit(2);
  }
  const markdown = renderPool(inputs, poolPairs(inputs));
  if (outArg === undefined) process.stdout.write(markdown);
  else await writeFile(resolve(from, outArg), markdown);
}

if (process.argv[1]?.endsWith("pool.js")) await main();
