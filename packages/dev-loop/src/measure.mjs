#!/usr/bin/env node
// @ts-check
// Measures the edit loop: how long from saving openapi.yaml until the restarted server answers
// with the new spec. It starts `pnpm dev`'s loop on free ports and a scratch database, then, per
// run, writes a top-level `x-dev-loop-measure` marker into openapi.yaml and polls the server's
// GET /openapi.json until the marker is there. The marker is removed again at the end (also on
// Ctrl-C or failure) and the bundle rebuilt without it; it changes neither the generated types
// nor any lint verdict.
//
//   node packages/dev-loop/src/measure.mjs [--runs 5] [--json] [--config <file>]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "@animal-store/test-support/free-port";
import { findConfig, loadConfig } from "./config.mjs";
import { createSpecPipeline } from "./spec-pipeline.mjs";
import { stopChild } from "./supervisor.mjs";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    runs: { type: "string", default: "5" },
    json: { type: "boolean" },
    config: { type: "string" },
  },
});
const runs = Number(values.runs);
const MARKER = /^x-dev-loop-measure: .*\n/m;
const configPath = findConfig(values.config);
const layout = (await loadConfig(configPath)).spec;

/** openapi.yaml with the marker set to `value` (or removed for null); never touches the rest. */
function setMarker(/** @type {string | null} */ value) {
  const text = readFileSync(layout.specPath, "utf8").replace(MARKER, "");
  const next =
    value === null ? text : `${text.replace(/\n*$/, "\n")}x-dev-loop-measure: '${value}'\n`;
  writeFileSync(layout.specPath, next);
}

const [port, mockPort] = [await freePort(), await freePort()];
const dataDir = mkdtempSync(join(tmpdir(), "animal-store-measure-"));
const output = /** @type {string[]} */ ([]);
const main = new URL("./main.mjs", import.meta.url).pathname;
const loop = spawn(process.execPath, [main, "--config", configPath], {
  env: {
    ...process.env,
    HOST: "127.0.0.1",
    PORT: String(port),
    MOCK_PORT: String(mockPort),
    DATABASE_URL: `file:${join(dataDir, "dev.db")}`,
    LOG_LEVEL: "warn",
  },
  stdio: ["ignore", "pipe", "pipe"],
});
for (const stream of [loop.stdout, loop.stderr]) {
  stream.setEncoding("utf8");
  stream.on("data", (/** @type {string} */ chunk) => output.push(...chunk.split("\n")));
}

/** Waits until the loop has printed a line matching `pattern` after line `from`. */
async function printed(
  /** @type {RegExp} */ pattern,
  /** @type {number} */ from,
  timeoutMs = 120_000,
) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const line = output.slice(from).find((l) => pattern.test(l));
    if (line) return line;
    if (loop.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the loop did not print ${pattern}:\n${output.join("\n")}`);
}

/** Polls GET /openapi.json until it carries `value`; the time it first does. */
async function serverServes(/** @type {string} */ value) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      if ((await res.text()).includes(value)) return Date.now();
    } catch {
      // restarting
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the server never served ${value}`);
}

/** Polls GET /openapi.json until it no longer carries the marker (the loop took the removal). */
async function serverDropsMarker() {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const text = await fetch(`http://127.0.0.1:${port}/openapi.json`)
      .then((res) => res.text())
      .catch(() => "x-dev-loop-measure");
    if (!text.includes("x-dev-loop-measure")) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const cleanUp = async () => {
  setMarker(null);
  if (loop.exitCode === null) await serverDropsMarker();
  await stopChild(loop);
  // Whatever happened above, dist/ and the generated files end up matching the spec on disk.
  const pipeline = await createSpecPipeline(layout);
  const result = await pipeline.run();
  if (!result.ok) console.error(`openapi/dist may be stale: ${result.problems.join("; ")}`);
  rmSync(dataDir, { recursive: true, force: true });
};
process.once("SIGINT", () => cleanUp().finally(() => process.exit(130)));

const results = /** @type {{ run: number, serverMs: number, loopReport: string }[]} */ ([]);
try {
  await printed(/\[dev\] watching/, 0);
  await printed(/docs rebuilt|docs build failed/, 0);
  const id = Date.now().toString(36);
  for (let run = 1; run <= runs; run++) {
    const from = output.length;
    const value = `${id}-${run}`;
    const savedAt = Date.now();
    setMarker(value);
    const servedAt = await serverServes(value);
    const loopReport = (await printed(/after the save/, from)).replace(/^\[dev\] /, "");
    results.push({ run, serverMs: servedAt - savedAt, loopReport });
    // Let the background docs build finish so runs do not overlap.
    await printed(/docs rebuilt|docs build failed/, from);
  }
} finally {
  await cleanUp();
}

const sorted = results.map((r) => r.serverMs).sort((a, b) => a - b);
const summary = {
  runs: results.length,
  medianMs: sorted[Math.floor(sorted.length / 2)],
  minMs: sorted[0],
  maxMs: sorted[sorted.length - 1],
  results,
};
if (values.json) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  for (const r of results)
    console.log(`run ${r.run}: ${r.serverMs} ms to a restarted server (${r.loopReport})`);
  console.log(
    `save → restarted server answering with the new spec: median ${summary.medianMs} ms (min ${summary.minMs}, max ${summary.maxMs}, ${summary.runs} runs)`,
  );
}
