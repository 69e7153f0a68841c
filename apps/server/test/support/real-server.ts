/**
 * The real server (the engine's start sequence on a scratch SQLite file) for one suite, with a
 * key on the contract's first plan; the suites that talk raw HTTP to it use this.
 */
import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { afterAll, beforeAll } from "vitest";
import { animalStore, type RunningServer } from "../../src/animal-store.js";
import type { Store } from "../../src/store/index.js";
import { contract } from "./contract.js";

/** What a suite gets: the server and a key, both set before its first test. */
export interface SuiteServer {
  readonly server: RunningServer;
  readonly key: string;
  /** `${url}${basePath}${path}`. */
  api(path: string): string;
}

/** Starts the server before the suite's tests (with `env` added) and stops it after them. */
export function useRealServer(name: string, env: Record<string, string> = {}): SuiteServer {
  let scratch: ScratchServer<Store> | undefined;
  beforeAll(async () => {
    scratch = await startScratchServer(animalStore, {
      name,
      env,
      key: { plan: contract.rateLimit.planNames[0] as string },
    });
  });
  afterAll(async () => {
    await scratch?.close();
  });
  const started = () => {
    if (!scratch) throw new Error("the suite's server has not started");
    return scratch;
  };
  return {
    get server() {
      return started().server;
    },
    get key() {
      return started().key;
    },
    api: (path) => `${started().apiUrl}${path}`,
  };
}
