/**
 * Both mock modes as `pnpm mock` launches them (its launcher, default log level): Prism and the
 * stateful mock, so frontends know how soon each answers after start and what throughput to
 * expect, beside the server's own figures. Each is started from a spawned process to the line
 * that names its address, as the server variants are timed to their ready message.
 */

import { fileURLToPath } from "node:url";
import { loadBundledSpec, rateLimitPolicy } from "@animal-store/openapi";
import { basePath } from "./base-path.js";
import { spawnTracked, stopTracked } from "./processes.js";
import { SCENARIOS, type Scenario } from "./server-bench.js";
import { median } from "./stats.js";
import { runWrk, type WrkLoad, type WrkResult } from "./wrk.js";

/** One mode's figures: start-to-ready and throughput per scenario (median of rounds). */
export interface MockModeFigures {
  id: "prism" | "stateful";
  label: string;
  startMs: number;
  scenarios: {
    id: Scenario["id"];
    label: string;
    reqPerSec: number;
    p50Ms: number;
    p99Ms: number;
    errors: number;
    rounds: WrkResult[];
  }[];
}

/** Both modes' figures. */
export interface MockFigures {
  modes: MockModeFigures[];
}

const URL_LINE = new RegExp(
  `at (http://\\S+?)${basePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`,
);
// From dist/ (or src/): apps/mock/src/main.mjs, what `pnpm mock` runs.
const LAUNCHER = fileURLToPath(new URL("../../mock/src/main.mjs", import.meta.url));
// Any well-formed key is accepted by both; each mode counts it as its arguments say.
const KEY = "mock-accepts-any-key";

/** The launcher's arguments for each mode: the stateful mock on the spec's custom plan with limits no run reaches. */
function modes(): { id: MockModeFigures["id"]; label: string; args: string[] }[] {
  const policy = rateLimitPolicy(loadBundledSpec().spec);
  const custom = policy.planNames.find((name) => policy.plans[name]?.custom);
  const unreached = ["--per-minute", "1000000000", "--per-day", "1000000000"];
  return [
    { id: "prism", label: "Prism (`pnpm mock`)", args: [] },
    {
      id: "stateful",
      label: "stateful (`pnpm mock --stateful`)",
      args: ["--stateful", ...(custom ? ["--plan", custom, ...unreached] : [])],
    },
  ];
}

/** Starts the launcher with `args` on an ephemeral port; resolves with its origin and the time it took. */
async function launch(args: string[]) {
  const started = performance.now();
  const child = spawnTracked(process.execPath, [LAUNCHER, "--port=0", ...args], {
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => reject(new Error(`mock not ready after 60 s:\n${output}`)),
      60_000,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = URL_LINE.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`mock exited ${code}:\n${output}`)));
  }).catch(async (error) => {
    await stopTracked(child);
    throw error;
  });
  return { child, origin, startMs: performance.now() - started };
}

/** Measures each mode in turn; every mock is stopped before it returns or throws. */
export async function runMockBench(options: {
  rounds: number;
  load: WrkLoad;
  scratchDir: string;
}): Promise<MockFigures> {
  const figures: MockModeFigures[] = [];
  const scenarios = SCENARIOS.filter((s) => s.id !== "list100");
  const warmup = { ...options.load, seconds: 1 };
  for (const mode of modes()) {
    const { child, origin, startMs } = await launch(mode.args);
    try {
      const rounds = new Map<string, WrkResult[]>();
      for (const scenario of scenarios) {
        await runWrk(origin, scenario.request(KEY), warmup, options.scratchDir);
      }
      for (let round = 0; round < options.rounds; round++) {
        for (const scenario of scenarios) {
          const result = await runWrk(
            origin,
            scenario.request(KEY),
            options.load,
            options.scratchDir,
          );
          rounds.set(scenario.id, [...(rounds.get(scenario.id) ?? []), result]);
        }
      }
      figures.push({
        id: mode.id,
        label: mode.label,
        startMs,
        scenarios: scenarios.map((s) => {
          const r = rounds.get(s.id) ?? [];
          return {
            id: s.id,
            label: s.label,
            reqPerSec: median(r.map((x) => x.reqPerSec)),
            p50Ms: median(r.map((x) => x.p50Ms)),
            p99Ms: median(r.map((x) => x.p99Ms)),
            errors: r.reduce((sum, x) => sum + x.errors, 0),
            rounds: r,
          };
        }),
      });
    } finally {
      await stopTracked(child);
    }
  }
  return { modes: figures };
}
