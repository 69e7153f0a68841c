/**
 * Test harness: the real app (the engine's createApiApp with the Animal Store) on a temporary SQLite file, listening on port 0, with
 * response validation on, plus helpers that check every error against the contract's Error.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  deref,
  type LoadedSpec,
  loadBundledSpec,
  operationById,
  rateLimitPolicy,
  specOperations,
} from "@animal-store/openapi";
import {
  type ApiAppOptions,
  type AppConfig,
  createApiApp,
  createLogger,
  createMemoryRateLimiter,
  issueApiKey,
  type NewKeyOptions,
} from "@animal-store/openapi-engine";
import type { Express } from "express";
import { expect } from "vitest";
import { animalStore, configFrom } from "../../src/animal-store.js";
import type { Store } from "../../src/store/index.js";
import { openSqliteStore } from "../../src/store/sqlite.js";

import { roomyPlan } from "./contract.js";

export { policy, realm, roomyPlan } from "./contract.js";

const { spec } = loadBundledSpec();

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "animal-store-test-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Test configuration: response validation on, silent logs, no key cache unless asked. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  const config = configFrom({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    API_KEY_CACHE_TTL_MS: "0",
    ...env,
  });
  expect(config.validateResponses).toBe(true);
  return config;
}

/** A running app for one suite. */
export interface TestApp {
  url: string;
  store: Store;
  /** A valid key (the roomiest plan) for authenticated requests. */
  key: string;
  createKey(options?: Partial<NewKeyOptions>): Promise<string>;
  /** fetch under `${url}/v1` with the suite's key unless headers say otherwise. */
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Listens on an ephemeral loopback port. */
export async function listenOn(app: Express): Promise<{ server: Server; url: string }> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Stops a server, cutting keep-alive sockets. */
export async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Starts an app; `store` defaults to a fresh SQLite file, `spec` to the bundled contract (a
 * scratch edit of it, for spec-edit tests), `overrides` replace other deps.
 */
export async function startTestApp(
  options: {
    store?: Store;
    env?: Record<string, string>;
    spec?: LoadedSpec;
    overrides?: Partial<ApiAppOptions<Store>>;
  } = {},
): Promise<TestApp> {
  const temp = tempDir();
  const store = options.store ?? (await openSqliteStore(join(temp.dir, "pets.db")));
  const config = testConfig(options.env);
  const served = options.spec ?? loadBundledSpec();
  const servedPolicy = rateLimitPolicy(served.spec);
  // Real per-plan limits, counted per app (rate limits have their own suites).
  const limiter = createMemoryRateLimiter({ ban: servedPolicy.ban });
  const app = await createApiApp(animalStore, {
    store,
    limiter,
    config,
    logger: createLogger(config, animalStore.names.service),
    spec: served,
    ...options.overrides,
  });
  const { server, url } = await listenOn(app);
  const createKey = async (opts: Partial<NewKeyOptions> = {}) =>
    (await issueApiKey(store, servedPolicy, { plan: roomyPlan, name: "test", ...opts })).key;
  const key = await createKey();
  return {
    url,
    store,
    key,
    createKey,
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("authorization")) headers.set("authorization", `Bearer ${key}`);
      return fetch(`${url}/v1${path}`, { ...init, headers });
    },
    async close() {
      await stop(server);
      await limiter.close();
      await store.close();
      temp.remove();
    },
  };
}

/** JSON POST /pets with the suite's key. */
export function postJson(app: TestApp, body: unknown, headers: Record<string, string> = {}) {
  return app.api("/pets", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const errorCodes = (
  spec.components as unknown as { schemas: { Error: { properties: { code: { enum: string[] } } } } }
).schemas.Error.properties.code.enum;

/** Asserts the contract's Error body: exactly code/message/status, status = HTTP status. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
): Promise<{ code: string; message: string; status: number }> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { code: string; message: string; status: number };
  expect({ httpStatus: response.status, ...body }).toMatchObject({
    httpStatus: status,
    code,
    status,
  });
  expect(Object.keys(body).sort()).toEqual(["code", "message", "status"]);
  expect(errorCodes).toContain(body.code);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

/** Statuses the contract documents for an operation. */
export function documentedStatuses(operationId: string): number[] {
  return operationById(specOperations(spec), operationId).statuses.map(Number);
}

/** The contract's operations, for tests that go through each. */
export const operations = specOperations(spec);

/** `deref` on the bundled spec. */
export function resolve<T = Record<string, unknown>>(node: unknown): T {
  return deref<T>(spec, node);
}
