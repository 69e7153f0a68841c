/**
 * `pnpm dev`: time from saving openapi.yaml to a restarted server, measured by the dev watcher's own
 * measurement script so the bench and the watcher agree on what "restarted" means.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";

/** Spec-edit-to-restart times in ms. */
export interface DevFigures {
  specEditToRestartMs: number;
  runs: number[];
  note: string;
}

/** Runs scripts/dev/measure.mjs; throws (section not measured) when it is not there. */
export async function runDevBench(root: string): Promise<DevFigures> {
  const script = join(root, "scripts/dev/measure.mjs");
  await access(script).catch(() => {
    throw new Error("scripts/dev/measure.mjs (the pnpm dev measurement) is not in the repo yet");
  });
  throw new Error("TODO");
}
