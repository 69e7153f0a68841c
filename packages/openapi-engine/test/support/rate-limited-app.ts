/**
 * A real app for the rate-limit suites: the widgets application's scratch app (response
 * validation on, TRUST_PROXY=1) with the limiter under test and a fake clock the suite sets.
 */
import type { LoadedSpec } from "@animal-store/openapi";
import type { NewKeyOptions } from "../../src/auth/security.js";
import type { RateLimiter } from "../../src/rate-limit/index.js";
import { startScratchApp } from "../../src/testing/index.js";
import { widgetApplication } from "./widget-app.js";

/** The running app, its clock (set `now`) and a request helper. */
export interface RateLimitedApp {
  url: string;
  now: number;
  createKey(options: Omit<NewKeyOptions, "name">): Promise<string>;
  /** fetch under the API base with `Bearer key` (none when null); bodies are sent as JSON. */
  call(key: string | null, path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the app with `limiter` (closed by close()), on the widgets fixture or `spec`. */
export async function startRateLimitedApp(
  limiter: RateLimiter,
  spec?: LoadedSpec,
): Promise<RateLimitedApp> {
  const state = { now: 0 };
  const app = await startScratchApp(widgetApplication(spec), {
    limiter,
    clock: () => state.now,
    env: { API_KEY_CACHE_TTL_MS: "0", TRUST_PROXY: "1" },
    ...(spec ? { spec } : {}),
  });
  if (!app.config.validateResponses) throw new Error("response validation must be on in tests");
  return {
    url: app.url,
    get now() {
      return state.now;
    },
    set now(ms: number) {
      state.now = ms;
    },
    createKey: (options) => app.createKey({ name: "rate-limit test", ...options }),
    call(key, path, init = {}) {
      const headers = new Headers(init.headers);
      if (key !== null) headers.set("authorization", `Bearer ${key}`);
      if (init.body !== undefined) headers.set("content-type", "application/json");
      return fetch(`${app.apiUrl}${path}`, { ...init, headers });
    },
    close: () => app.close(),
  };
}
