/**
 * Starting the engine over a fixture contract, for the engine's own HTTP tests: the real start
 * sequence (`startScratchServer`: warm-up, connection caps and all) or the app in-process
 * (`startScratchApp`), each serving the widgets application, and the checks every answer of the
 * fixture's shapes gets.
 */
import type { LoadedSpec } from "@animal-store/openapi";
import { afterAll, beforeAll, expect } from "vitest";
import type { NewKeyOptions } from "../../src/auth/security.js";
import type { Logger } from "../../src/metrics/observe.js";
import type { RateLimiter } from "../../src/rate-limit/index.js";
import {
  type ScratchApp,
  type ScratchServer,
  type ScratchServerOptions,
  startScratchApp,
  startScratchServer,
} from "../../src/testing/index.js";
import { loadFixture } from "./fixture-contract.js";
import { type WidgetStore, widgetApplication, widgetContract } from "./widget-app.js";

export { widgetContract as contract } from "./widget-app.js";

/** Starts the widgets application's real server on a scratch file (`startScratchServer`). */
export function startFixtureServer(
  options: ScratchServerOptions & { spec?: LoadedSpec } = {},
): Promise<ScratchServer<WidgetStore>> {
  return startScratchServer(widgetApplication(options.spec), options);
}

/** What a suite gets from useFixtureServer: the server and a key, both set before its first test. */
export interface SuiteServer {
  readonly server: ScratchServer<WidgetStore>["server"];
  readonly key: string;
  /** `${url}${basePath}${path}`. */
  api(path: string): string;
}

/**
 * The real server for one suite (with `env` added), started before its tests and stopped after
 * them, with a key on the contract's first plan.
 */
export function useFixtureServer(name: string, env: Record<string, string> = {}): SuiteServer {
  let scratch: ScratchServer<WidgetStore> | undefined;
  beforeAll(async () => {
    scratch = await startFixtureServer({
      name,
      env,
      key: { plan: widgetContract.rateLimit.planNames[0] as string },
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

/** A running in-process app for one suite. */
export interface FixtureApp {
  url: string;
  store: WidgetStore;
  /** A valid key (the roomiest plan) for authenticated requests. */
  key: string;
  createKey(options?: Partial<NewKeyOptions>): Promise<string>;
  /** fetch under the API base with the suite's key unless headers say otherwise. */
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
  scratch: ScratchApp<WidgetStore>;
}

/**
 * The widgets app in-process with response validation on, silent logs and no key cache (unless
 * `env` says otherwise); `store` defaults to a fresh SQLite file (a given one is closed with the
 * app too); `limiter` and `logger` replace the app's own.
 */
export async function startFixtureApp(
  options: {
    store?: WidgetStore;
    env?: Record<string, string>;
    spec?: LoadedSpec;
    limiter?: RateLimiter;
    logger?: Logger;
    clock?: () => number;
  } = {},
): Promise<FixtureApp> {
  const app = await startScratchApp(widgetApplication(options.spec), {
    ...options,
    env: { API_KEY_CACHE_TTL_MS: "0", ...options.env },
  });
  return {
    url: app.url,
    store: app.store,
    key: app.key,
    createKey: app.createKey,
    scratch: app,
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

/** JSON POST /widgets with the app's key. */
export function postJson(app: FixtureApp, body: unknown, headers: Record<string, string> = {}) {
  return app.api("/widgets", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const errorCodes = (
  loadFixture().spec.components as unknown as {
    schemas: { Error: { properties: { code: { enum: string[] } } } };
  }
).schemas.Error.properties.code.enum;

/** Asserts the fixture's Error body: exactly code/message/status, status = HTTP status. */
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

/** The contract's plan with published limits that allows the most requests a minute. */
export const roomyPlan = [
  ...widgetContract.rateLimit.planNames.filter(
    (name) => widgetContract.rateLimit.plans[name]?.custom === false,
  ),
].sort(
  (a, b) =>
    (widgetContract.rateLimit.plans[b]?.perMinute ?? 0) -
    (widgetContract.rateLimit.plans[a]?.perMinute ?? 0),
)[0] as string;
