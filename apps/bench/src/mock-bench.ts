/**
 * Both mock modes as `pnpm mock` launches them (its launcher, default log level), Prism and the
 * stateful mock: how soon each answers after start and what throughput to expect, beside the
 * server's own figures. Each is timed from spawn to the line that names its address.
 */
import { fileURLToPath } from "node:url";
import { loadBundledSpec, rateLimitPolicy } from "@animal-store/openapi";
import { basePath } from "./base-path.js";
import { spawnTracked, stopTracked } from "./processes.js";
import { SCENARIOS, type Scenario } from "./server-bench.js";
import { median } from "./stats.js";
import { runWrk, type WrkLoad } from "./wrk.js";

/** One mode's start-to-ready and, per scenario, the medians of its rounds. */
export interface MockModeFigures {
  id: "prism" | "stateful";
  label: string;
  startMs: number;
  scenarios: { id: Scenario["id"]; reqPerSec: number; p99Ms: number; errors: number }[];
}

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

/** Starts the launcher with `args` on an ephemeral port: its process, origin and start time. */
async function launch(args: string[]) {
  const started = performance.now();
  const child = spawnTracked(process.execPath, [LAUNCHER, "--port=0", ...args], {
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mock not ready after 60 s:\n${output}`)),
      60_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = URL_LINE.exec(output)?.[1];
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`mock exited ${code}:\n${output}`)));
  }).catch(async (error) => {
    await stopTracked(child);
    throw error;
  });
  return { child, origin, startMs: performance.now() - started };
}

export async function runMockBench(options: {
  rounds: number;
  load: WrkLoad;
  scratchDir: string;
}): Promise<MockFigures> {
  // The stateful mock on the spec's custom plan, with limits no run reaches.
  const policy = rateLimitPolicy(loadBundledSpec().spec);
  const custom = policy.planNames.find((name) => policy.plans[name]?.custom);
  const unreached = ["--per-minute", "1000000000", "--per-day", "1000000000"];
  const plan = custom ? ["--plan", custom, ...unreached] : [];
  const modes = [
    { id: "prism", label: "Prism (`pnpm mock`)", args: [] },
    { id: "stateful", label: "stateful (`pnpm mock --stateful`)", args: ["--stateful", ...plan] },
  ] as const;
  const scenarios = SCENARIOS.filter((s) => s.id !== "list100");
  const figures: MockModeFigures[] = [];
  for (const { id, label, args } of modes) {
    const { child, origin, startMs } = await launch([...args]);
    try {
      const run = (s: Scenario, seconds: number) =>
        runWrk(origin, s.request(KEY), { ...options.load, seconds }, options.scratchDir);
      for (const s of scenarios) await run(s, 1);
      const rounds = new Map(scenarios.map((s) => [s, [] as Awaited<ReturnType<typeof run>>[]]));
      for (let round = 0; round < options.rounds; round++) {
        for (const s of scenarios) rounds.get(s)?.push(await run(s, options.load.seconds));
      }
      const summary = [...rounds].map(([s, r]) => ({
        id: s.id,
        reqPerSec: median(r.map((x) => x.reqPerSec)),
        p99Ms: median(r.map((x) => x.p99Ms)),
        errors: r.reduce((sum, x) => sum + x.errors, 0),
      }));
      figures.push({ id, label, startMs, scenarios: summary });
    } finally {
      await stopTracked(child);
    }
  }
  return { modes: figures };
}
