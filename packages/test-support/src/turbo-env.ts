/**
 * The environment variables turbo hashes into every task (turbo.json's `globalEnv`), as this
 * process has them.
 *
 * A test that runs a repository command (`pnpm artifact`, `pnpm start`) in a minimal environment,
 * as a user's shell would have it, must still pass these on: without them every task hash
 * differs from the surrounding `pnpm test` run's, turbo rebuilds instead of finding its outputs,
 * and tsc rewrites apps/server/dist file by file while other suites start the server from it (a
 * server then failed to import a module caught half-written).
 */
import { readFileSync } from "node:fs";

const TURBO_JSON = new URL("../../../turbo.json", import.meta.url);

/** `globalEnv`'s variables that are set here, with their values. */
export function turboHashedEnv(): Record<string, string> {
  const { globalEnv = [] } = JSON.parse(readFileSync(TURBO_JSON, "utf8")) as {
    globalEnv?: string[];
  };
  const picked: Record<string, string> = {};
  for (const name of globalEnv) {
    const value = process.env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}
