/**
 * Operational routes outside the base path (over the widgets fixture): /healthz (alive), /readyz (the store answers; the limiter's
 * store only degrades it, since the limiter fails open),
 * /openapi.json (the bundled contract, byte for byte). No key needed; other methods get 405.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../src/rate-limit/index.js";
import { loadFixture } from "./support/fixture-contract.js";
import { contract, expectError, type FixtureApp, startFixtureApp } from "./support/serve.js";

const policy = contract.rateLimit;

let app: FixtureApp;
beforeAll(async () => {
  app = await startFixtureApp();
});
afterAll(() => app.close());

describe("operational routes", () => {
  it("/healthz answers without a key", async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("/readyz is ready when the store and the limiter answer", async () => {
    const response = await fetch(`${app.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
  });

  it("/readyz is 200 but degraded when only the limiter's store does not answer", async () => {
    const limiter = createMemoryRateLimiter({ ban: policy.ban });
    const broken = await startFixtureApp({
      limiter: Object.assign(Object.create(limiter), {
        check: () => Promise.reject(new Error("redis down")),
      }),
    });
    try {
      const response = await fetch(`${broken.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "degraded", degraded: ["rate-limit store"] });
      expect((await fetch(`${broken.url}/healthz`)).status).toBe(200);
    } finally {
      await broken.close();
      await limiter.close();
    }
  });

  it("/openapi.json serves the bundled contract", async () => {
    const response = await fetch(`${app.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.text()).toBe(loadFixture().text);
  });

  it.each(["/healthz", "/readyz", "/openapi.json"])("405 with Allow for POST %s", async (path) => {
    const response = await fetch(`${app.url}${path}`, { method: "POST" });
    await expectError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
