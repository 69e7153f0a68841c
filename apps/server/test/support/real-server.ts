/**
 * The real server (`startServer`, SQLite file in a scratch directory) for one suite, with a key
 * on the contract's first plan; the suites that talk raw HTTP to it use this.
 */
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type RunningServer, startServer } from "../../src/animal-store.js";
import { contract } from "./contract.js";
import { tempDir } from "./test-app.js";

/** What a suite gets: the server and a key, both set before its first test. */
export interface SuiteServer {
  readonly server: RunningServer;
  readonly key: string;
  /** `${url}${basePath}${path}`. */
  api(path: string): string;
}

/** Starts the server before the suite's tests (with `env` added) and stops it after them. */
export function useRealServer(name: string, env: Record<string, string> = {}): SuiteServer {
  const temp = tempDir();
  const state: { server?: RunningServer; key?: string } = {};
  beforeAll(async () => {
    state.server = await startServer({
      NODE_ENV: "test",
      PORT: "0",
      LOG_LEVEL: "silent",
      DATABASE_URL: `file:${join(temp.dir, `${name}.db`)}`,
      ...env,
    });
    state.key = await state.server.createKey({
      plan: contract.rateLimit.planNames[0] as string,
      name,
    });
  });
  afterAll(async () => {
    await state.server?.close();
    temp.remove();
  });
  return {
    get server() {
      return state.server as RunningServer;
    },
    get key() {
      return state.key as string;
    },
    api: (path) => `${state.server?.url}${contract.basePath}${path}`,
  };
}
