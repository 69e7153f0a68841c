/** Scratch directories and the plan a suite's keys are made on: what every scratch set-up shares. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RateLimitPolicy } from "@animal-store/openapi";

/** A fresh temporary directory, and how to remove it. */
export interface ScratchDirectory {
  dir: string;
  remove(): void;
}

/** A fresh temporary directory whose name starts with `prefix`. */
export function scratchDirectory(prefix = "openapi-engine-"): ScratchDirectory {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The plan with published limits that allows the most requests a minute: a suite's default. */
export function roomiestPlan(policy: RateLimitPolicy): string {
  const fixed = policy.planNames.filter((name) => policy.plans[name]?.custom === false);
  const [roomiest] = fixed.sort(
    (a, b) => (policy.plans[b]?.perMinute ?? 0) - (policy.plans[a]?.perMinute ?? 0),
  );
  if (roomiest === undefined) throw new Error("the contract has no plan with published limits");
  return roomiest;
}

/** The environment a scratch server or app runs on: test mode, silent, loopback, any port. */
export function scratchEnv(databaseFile: string, env: Record<string, string> = {}) {
  return {
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: "0",
    // Many scratch servers run at once: no metrics listener unless a suite asks for one.
    METRICS_PORT: "0",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${databaseFile}`,
    ...env,
  };
}
