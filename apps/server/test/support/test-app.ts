/**
 * Test harness: the Animal Store's app in-process (the engine's scratch app) on a temporary
 * SQLite file, listening on port 0, with response validation on and a key, plus helpers that
 * check every error against the contract's Error.
 */
import {
  deref,
  type LoadedSpec,
  loadBundledSpec,
  operationById,
  specOperations,
} from "@animal-store/openapi";
import type { Logger, NewKeyOptions, RateLimiter } from "@animal-store/openapi-engine";
import {
  type ScratchDirectory,
  scratchDirectory,
  startScratchApp,
} from "@animal-store/openapi-engine/testing";
import { expect } from "vitest";
import { animalStore } from "../../src/animal-store.js";
import type { Store } from "../../src/store/index.js";

export { policy, realm, roomyPlan } from "./contract.js";

const { spec } = loadBundledSpec();

/** A fresh temporary directory for one suite's files. */
export function tempDir(): ScratchDirectory {
  return scratchDirectory("animal-store-test-");
}

/** A running app for one suite. */
export interface TestApp {
  url: string;
  store: Store;
  /** A valid key (the roomiest plan) for authenticated requests. */
  key: string;
  createKey(options?: Partial<NewKeyOptions>): Promise<string>;
  /** fetch under the API base with the suite's key unless headers say otherwise. */
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts an app with response validation on, silent logs and no key cache (unless `env` says
 * otherwise); `store` defaults to a fresh SQLite file (a given one is closed with the app too),
 * `spec` to the bundled contract (a scratch edit of it, for spec-edit tests); `limiter` and
 * `logger` replace the app's own.
 */
export async function startTestApp(
  options: {
    store?: Store;
    env?: Record<string, string>;
    spec?: LoadedSpec;
    limiter?: RateLimiter;
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  const app = await startScratchApp(animalStore, {
    ...options,
    env: { API_KEY_CACHE_TTL_MS: "0", ...options.env },
  });
  expect(app.config.validateResponses).toBe(true);
  return {
    url: app.url,
    store: app.store,
    key: app.key,
    createKey: app.createKey,
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("authorization")) headers.set("authorization", `Bearer ${app.key}`);
      return fetch(`${app.apiUrl}${path}`, { ...init, headers });
    },
    async close() {
      await app.close();
      await options.store?.close();
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
