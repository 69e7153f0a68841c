/**
 * `pnpm dev`: time from saving openapi.yaml to a restarted server answering with the new spec,
 * measured by the dev loop's own script (packages/dev-loop/src/measure.mjs) so the bench and the
 * loop agree on what "restarted" means. The script adds a marker to the spec and removes it again.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { runTimed } from "./processes.js";
import { median } from "./stats.js";

/** Spec-edit-to-restart times in ms. */
export interface DevFigures {
  specEditToRestartMs: number;
  runs: number[];
  /** The loop's own account of each save (lint, bundle, generate, restart). */
  note: string;
}

interface MeasureOutput {
  results: { run: number; serverMs: number; loopReport: string }[];
}

/** Parses measure.mjs --json output (the whole of stdout is one JSON document). */
export function parseMeasureOutput(stdout: string): DevFigures {
  const start = stdout.indexOf("{");
  const parsed = JSON.parse(stdout.slice(start)) as MeasureOutput;
  if (!Array.isArray(parsed.results) || parsed.results.length === 0) {
    throw new Error("the dev-loop measurement reported no runs");
  }
  const runs = parsed.results.map((r) => r.serverMs);
  return {
    specEditToRestartMs: median(runs),
    runs,
    note: `Last save as the loop reported it: ${parsed.results.at(-1)?.loopReport ?? "?"}.`,
  };
}

/** Runs the dev loop's measurement `runs` times; throws (section not measured) when it is absent. */
export async function runDevBench(root: string, runs: number): Promise<DevFigures> {
  const script = join(root, "packages/dev-loop/src/measure.mjs");
  await access(script).catch(() => {
    throw new Error("packages/dev-loop/src/measure.mjs (the pnpm dev measurement) is not there");
  });
  const run = await runTimed(process.execPath, [script, "--runs", String(runs), "--json"], {
    cwd: root,
    timeoutMs: 180_000,
  });
  if (run.code !== 0) {
    throw new Error(
      `the dev-loop measurement exited ${run.code}: ${run.stderr.trim().split("\n").at(-1)}`,
    );
  }
  return parseMeasureOutput(run.stdout);
}
