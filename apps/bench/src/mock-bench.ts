/**
 * The Prism mock as `pnpm mock` launches it (its launcher, default log level), so frontends know
 * what throughput to expect from it.
 */
import { spawnTracked, stopTracked } from "./processes.js";
import { SCENARIOS, type Scenario } from "./server-bench.js";
import { median } from "./stats.js";
import { runWrk, type WrkLoad, type WrkResult } from "./wrk.js";

/** Mock throughput per scenario (median of rounds). */
export interface MockFigures {
  startMs: number;
  scenarios: {
    id: string;
    label: string;
    reqPerSec: number;
    p50Ms: number;
    p99Ms: number;
    errors: number;
    rounds: WrkResult[];
  }[];
}

const URL_LINE = /at (http:\/\/\S+?)\/v1\b/;

/** Starts the mock launcher on an ephemeral port and measures it; the mock is always stopped. */
export async function runMockBench(
  root: string,
  options: { rounds: number; load: WrkLoad; scratchDir: string },
): Promise<MockFigures> {
  const started = performance.now();
  const child = spawnTracked(
    "pnpm",
    ["--filter", "@animal-store/mock", "run", "start", "--", "--port=0"],
    {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(
        () => reject(new Error(`mock not ready after 60 s:\n${output}`)),
        60_000,
      );
      const onData = (chunk: Buffer) => {
        output += chunk;
        const match = URL_LINE.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk;
      });
      child.once("exit", (code) => reject(new Error(`mock exited ${code}:\n${output}`)));
    });
    const startMs = performance.now() - started;
    const scenarios = SCENARIOS.filter((s) => s.id !== "list100");
    const rounds = new Map<string, WrkResult[]>();
    // Prism accepts any bearer token; it checks only that one is sent.
    const request = (scenario: Scenario) => scenario.request("mock-accepts-any-key");
    const warmup = { ...options.load, seconds: 1 };
    for (const scenario of scenarios) {
      await runWrk(origin, request(scenario), warmup, options.scratchDir);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const scenario of scenarios) {
        const result = await runWrk(origin, request(scenario), options.load, options.scratchDir);
        rounds.set(scenario.id, [...(rounds.get(scenario.id) ?? []), result]);
      }
    }
    return {
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
    };
  } finally {
    await stopTracked(child);
  }
}
