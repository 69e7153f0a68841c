/**
 * `pnpm dev`: time from saving openapi.yaml to a restarted server answering with the new spec,
 * measured by the dev loop's own script (packages/dev-loop/src/measure.mjs) so the bench and the
 * loop agree on what "restarted" means. The script adds a marker to the spec and removes it again.
 */
import { join } from "node:path";
import { runTimed } from "./processes.js";
import { median } from "./stats.js";

/** Spec-edit-to-restart times in ms, and the loop's own account of its last save. */
export interface DevFigures {
  specEditToRestartMs: number;
  runs: number[];
  note: string;
}

/** Parses measure.mjs --json output (the whole of stdout is one JSON document). */
export function parseMeasureOutput(stdout: string): DevFigures {
  const parsed = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
    results?: { serverMs: number; loopReport: string }[];
  };
  const results = parsed.results ?? [];
  if (results.length === 0) throw new Error("the dev-loop measurement reported no runs");
  const runs = results.map((r) => r.serverMs);
  return {
    specEditToRestartMs: median(runs),
    runs,
    note: `Last save as the loop reported it: ${results.at(-1)?.loopReport ?? "?"}.`,
  };
}

/** Runs the dev loop's measurement `runs` times; throws (section not measured) when it fails. */
export async function runDevBench(root: string, runs: number): Promise<DevFigures> {
  const script = join(root, "packages/dev-loop/src/measure.mjs");
  const run = await runTimed(process.execPath, [script, "--runs", String(runs), "--json"], {
    cwd: root,
    timeoutMs: 180_000,
  });
  if (run.code !== 0) {
    const last = run.stderr.trim().split("\n").at(-1);
    throw new Error(`the dev-loop measurement exited ${run.code}: ${last}`);
  }
  return parseMeasureOutput(run.stdout);
}
