/**
 * What every response carries and how failures look, over the widgets fixture: security headers, no-store, request ids,
 * CORS for configured origins, 500 with a request id and nothing internal, 503 when the store is
 * unreachable, and response validation really being on.
 */

import { Writable } from "node:stream";
import { documentedHeaderNames } from "@animal-store/openapi";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../src/errors.js";
import { contract, expectError, type FixtureApp, startFixtureApp } from "./support/serve.js";
import { openPostgresWidgetStore, type Widget, type WidgetStore } from "./support/widget-app.js";
import { basePath } from "./support/widgets.js";

let app: FixtureApp;
beforeAll(async () => {
  app = await startFixtureApp();
});
afterAll(() => app.close());

describe("headers on every response", () => {
  it("security headers, no-store and no X-Powered-By on success and error", async () => {
    for (const response of [
      await app.api("/widgets"),
      await fetch(`${app.url}${basePath}/widgets`),
    ]) {
      expect(response.headers.get("x-powered-by")).toBeNull();
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
      expect(response.headers.get("etag")).toBeNull();
      await response.arrayBuffer();
    }
  });

  it("echoes a sane X-Request-Id and replaces anything else", async () => {
    const kept = await app.api("/widgets", { headers: { "x-request-id": "trace-42.a:b_c" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-42.a:b_c");
    for (const bad of ["has space", "x".repeat(129), "<script>"]) {
      const replaced = await app.api("/widgets", { headers: { "x-request-id": bad } });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const generated = await fetch(`${app.url}/healthz`);
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("never answers HTML, whatever the client accepts", async () => {
    const html = { accept: "text/html", authorization: `Bearer ${app.key}` };
    for (const path of [
      `${basePath}/nothing`,
      `${basePath}/widgets?count=0`,
      `${basePath}/widgets/%E0%A4%A`,
      "/%",
    ]) {
      const response = await fetch(`${app.url}${path}`, { headers: html });
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.status).toBeGreaterThanOrEqual(400);
      const body = (await response.json()) as { status: number };
      expect(body.status).toBe(response.status);
    }
    const ok = await fetch(`${app.url}${basePath}/widgets`, { headers: html });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("CORS", () => {
  const origin = "https://app.example.com";
  let corsApp: FixtureApp;
  beforeAll(async () => {
    corsApp = await startFixtureApp({ env: { CORS_ORIGINS: `${origin},http://localhost:5173` } });
  });
  afterAll(() => corsApp.close());

  it("lets a configured origin preflight the bearer header", async () => {
    const response = await fetch(`${corsApp.url}${basePath}/widgets`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "authorization",
    );
  });

  it("exposes every header the contract documents to the configured origin, errors included", async () => {
    const documented = documentedHeaderNames(contract.spec, contract.operations);
    expect(documented.length).toBeGreaterThan(0);
    for (const response of [
      await corsApp.api("/widgets", { headers: { origin } }),
      await fetch(`${corsApp.url}${basePath}/widgets`, { headers: { origin } }),
    ]) {
      expect(response.headers.get("access-control-allow-origin")).toBe(origin);
      const exposed = (response.headers.get("access-control-expose-headers") ?? "").split(",");
      expect(exposed).toEqual(expect.arrayContaining([...documented, "X-Request-Id", "Date"]));
      await response.arrayBuffer();
    }
  });

  it("allows exactly the contract's methods in a preflight", async () => {
    const response = await fetch(`${corsApp.url}${basePath}/widgets`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "GET" },
    });
    const allowed = (response.headers.get("access-control-allow-methods") ?? "").split(",");
    expect(allowed.sort()).toEqual([...new Set(contract.operations.map((op) => op.method))].sort());
  });

  it("says nothing to other origins, and nothing at all when no origin is configured", async () => {
    const other = await corsApp.api("/widgets", { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const none = await app.api("/widgets", { headers: { origin } });
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
  });
});

/** A store that delegates to `base` except for the methods given; closing it leaves `base` open. */
function storeWith(base: WidgetStore, overrides: Partial<WidgetStore>): WidgetStore {
  return Object.assign(Object.create(base) as WidgetStore, { close: async () => {} }, overrides);
}

describe("unexpected failures", () => {
  it("500 internal_error with the request id, logged, nothing internal in the body", async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const secret = "boom in /srv/app/internal.ts";
    const broken = await startFixtureApp({
      logger,
      store: storeWith(app.store, {
        listWidgets: () => Promise.reject(new TypeError(secret)),
      }),
    });
    try {
      const response = await broken.api("/widgets", {
        headers: { "x-request-id": "req-500-test" },
      });
      const body = await expectError(response, 500, "internal_error");
      expect(body.message).toBe("Internal error (request id req-500-test).");
      expect(JSON.stringify(body)).not.toContain("boom");
      const logged = lines.map((line) => JSON.parse(line)).find((line) => line.level === 50);
      expect(logged).toMatchObject({
        reqId: "req-500-test",
        error: { type: "TypeError", message: secret },
      });
      expect(JSON.stringify(logged)).not.toMatch(/ at |stack/);
      expect(lines.join("")).not.toContain(broken.key);
    } finally {
      await broken.close();
    }
  });

  it("response validation is on: a body off the contract becomes a 500, never reaches the client", async () => {
    const offContract = { id: 1, label: "Cog", sizeId: 1, shade: null } as unknown as Widget;
    const broken = await startFixtureApp({
      store: storeWith(app.store, { getWidget: async () => offContract }),
    });
    try {
      await expectError(await broken.api("/widgets/1"), 500, "internal_error");
    } finally {
      await broken.close();
    }
  });

  it("503 service_unavailable when the database is unreachable, and /readyz says so", async () => {
    const down = openPostgresWidgetStore("postgres://postgres@127.0.0.1:1/unreachable");
    const unreachable = await startFixtureApp({
      store: storeWith(down, {
        insertApiKey: (key) => app.store.insertApiKey(key),
        close: () => down.close(),
      }),
    });
    try {
      const response = await unreachable.api("/widgets", {
        headers: { authorization: `Bearer ${app.key}` },
      });
      await expectError(response, 503, "service_unavailable");
      await expectError(await fetch(`${unreachable.url}/readyz`), 503, "service_unavailable");
      expect(new StoreUnavailableError("x")).toBeInstanceOf(Error);
    } finally {
      await unreachable.close();
    }
  });
});
