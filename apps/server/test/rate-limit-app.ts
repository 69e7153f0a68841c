/**
 * A real app for the rate-limit suites: the engine's createApiApp on a temporary SQLite file, response validation
 * on, TRUST_PROXY=1, a settable fake clock and the limiter under test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LoadedSpec, loadBundledSpec, rateLimitPolicy } from "@animal-store/openapi";
import type { RateLimiter } from "@animal-store/openapi-engine";
import {
  createApiApp,
  createLogger,
  issueApiKey,
  type NewKeyOptions,
} from "@animal-store/openapi-engine";
import { animalStore, configFrom } from "../src/animal-store.js";
import { openSqliteStore } from "../src/store/sqlite.js";

/** The running app, its clock (set `now`) and a request helper. */
export interface RateLimitedApp {
  url: string;
  now: number;
  createKey(options: Omit<NewKeyOptions, "name">): Promise<string>;
  /** fetch `/v1${path}` with `Bearer key` (none when null); bodies are sent as JSON. */
  call(key: string | null, path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the app with `limiter` (closed by close()), on the bundled contract or `spec`. */
export async function startRateLimitedApp(
  limiter: RateLimiter,
  spec: LoadedSpec = loadBundledSpec(),
): Promise<RateLimitedApp> {
  const policy = rateLimitPolicy(spec.spec);
  const dir = mkdtempSync(join(tmpdir(), "animal-store-rl-"));
  const store = await openSqliteStore(join(dir, "pets.db"));
  const config = configFrom({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    API_KEY_CACHE_TTL_MS: "0",
    TRUST_PROXY: "1",
  });
  if (!config.validateResponses) throw new Error("response validation must be on in tests");
  const state = { now: 0 };
  const app = await createApiApp(animalStore, {
    store,
    limiter,
    clock: () => state.now,
    config,
    logger: createLogger(config, animalStore.names.service),
    spec,
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get now() {
      return state.now;
    },
    set now(ms: number) {
      state.now = ms;
    },
    createKey: async (options) =>
      (await issueApiKey(store, policy, { name: "rate-limit test", ...options })).key,
    call(key, path, init = {}) {
      const headers = new Headers(init.headers);
      if (key !== null) headers.set("authorization", `Bearer ${key}`);
      if (init.body !== undefined) headers.set("content-type", "application/json");
      return fetch(`${url}/v1${path}`, { ...init, headers });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await limiter.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
