/**
 * startEngine, the start-up sequence, over the widgets fixture: listens on PORT=0, warms up
 * without writing anything, creates keys, and closes gracefully (idempotently); runs on a given
 * clock, an application's own key lookup and ops routes; refuses a bad environment or an ops
 * route under the base path before opening anything.
 */

import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type StartOptions, startEngine } from "../src/start.js";
import { scratchDirectory } from "../src/testing/index.js";
import { contract } from "./support/serve.js";
import { type WidgetStore, widgetApplication } from "./support/widget-app.js";
import { basePath } from "./support/widgets.js";

const temp = scratchDirectory("engine-start-");
afterAll(() => temp.remove());

/** Starts the widgets application on `env`. */
const startServer = (env: Record<string, string>, options: StartOptions<WidgetStore> = {}) =>
  startEngine(widgetApplication(), env, options);
const plan = contract.rateLimit.planNames[0] as string;

/** A test server's environment on the database file `name`. */
const env = (name: string) => ({
  NODE_ENV: "test",
  PORT: "0",
  LOG_LEVEL: "silent",
  DATABASE_URL: `file:${join(temp.dir, name)}`,
});

/** A key record no store holds: what a lookup of the application's own answers with. */
const ANY_KEY = {
  name: "any",
  plan: contract.rateLimit.planNames[0] as string,
  perMinute: null,
  perDay: null,
  createdAt: new Date(0).toISOString(),
  revokedAt: null,
};

describe("startEngine", () => {
  it("serves the API on an ephemeral port, with keys it creates, and closes", async () => {
    const server = await startServer({
      NODE_ENV: "test",
      PORT: "0",
      LOG_LEVEL: "silent",
      DATABASE_URL: `file:${join(temp.dir, "start.db")}`,
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.config.validateResponses).toBe(true);
      const key = await server.createKey({ plan, name: "start" });
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      // Warm-up ran a create; it must not have stored anything.
      expect(await (await fetch(`${server.url}${basePath}/widgets`, { headers })).json()).toEqual(
        [],
      );
      expect(await server.store.countApiKeys()).toBe(1);
      const created = await fetch(`${server.url}${basePath}/widgets`, {
        method: "POST",
        headers,
        body: JSON.stringify({ label: "Cog", sizeId: 1 }),
      });
      expect(created.status).toBe(201);
      expect(await server.store.listWidgets({ count: 10 })).toEqual([await created.json()]);
    } finally {
      await server.close();
    }
    await server.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it("runs on the clock it is given (rate-limit windows and sunsets)", async () => {
    // A minute far from now, a day before the first sunset the spec sets (if any): every
    // operation still answers, whichever the spec deprecates.
    const firstSunset = Math.min(
      ...contract.operations.map((op) =>
        op.operation["x-sunset"] === undefined
          ? Number.POSITIVE_INFINITY
          : Date.parse(`${op.operation["x-sunset"]}T00:00:00Z`),
      ),
      Date.UTC(2040, 0, 2, 12, 0),
    );
    expect(firstSunset).toBeLessThan(Date.UTC(2040, 0, 2, 12, 0));
    const minuteStart = Math.floor((firstSunset - 86_400_000) / 60_000) * 60_000;
    const server = await startServer(
      {
        NODE_ENV: "test",
        PORT: "0",
        LOG_LEVEL: "silent",
        DATABASE_URL: `file:${join(temp.dir, "clock.db")}`,
      },
      { clock: () => minuteStart + 1500 },
    );
    try {
      const key = await server.createKey({ plan, name: "clock" });
      const answer = await fetch(`${server.url}${basePath}/widgets`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(answer.status).toBe(200);
      // The window's reset is the end of the given clock's minute, not of the real one, and the
      // answer's Date is that clock's too (clients correct their clock skew with it).
      expect(answer.headers.get("x-ratelimit-reset")).toBe(String((minuteStart + 60_000) / 1000));
      expect(answer.headers.get("date")).toBe(new Date(minuteStart + 1500).toUTCString());
    } finally {
      await server.close();
    }
  });

  it("takes the application's own key lookup: the engine still checks the credential's form first", async () => {
    const looked: string[] = [];
    const server = await startServer(env("lookup.db"), {
      keyLookup: (token) => {
        looked.push(token);
        return { ...ANY_KEY, id: `any_${looked.length}` };
      },
    });
    try {
      const asKey = (authorization: string) =>
        fetch(`${server.url}${basePath}/widgets`, { headers: { authorization } });
      expect((await asKey("Bearer never-issued")).status).toBe(200);
      // Not a bearer token at all: refused before the lookup sees it, as on the server.
      const malformed = await asKey("Bearer not a token");
      expect(malformed.status).toBe(401);
      expect(await malformed.json()).toMatchObject({ code: "invalid_api_key" });
      expect(looked).toEqual(["never-issued"]);
    } finally {
      await server.close();
    }
  });

  it("answers the application's own ops routes outside the base path, uncounted", async () => {
    let calls = 0;
    const server = await startServer(env("ops.db"), {
      opsRoutes: [
        {
          path: "/__ops/poke",
          method: "POST",
          handle: (_req, res) => {
            calls++;
            res.json({ calls });
          },
        },
      ],
    });
    try {
      const poke = (method: string) => fetch(`${server.url}/__ops/poke`, { method });
      const first = await poke("POST");
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ calls: 1 });
      const second = await poke("POST");
      // Read, never counted: the window stands where it stood.
      expect(second.headers.get("x-ratelimit-remaining")).toBe(
        first.headers.get("x-ratelimit-remaining"),
      );
      const wrong = await poke("GET");
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toBe("POST, OPTIONS");
      expect(await wrong.json()).toMatchObject({ code: "method_not_allowed", status: 405 });
      expect(calls).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("refuses an own ops route under the base path before opening anything", async () => {
    const route = { path: `${basePath}/poke`, method: "POST" as const, handle: () => {} };
    await expect(startServer(env("refused.db"), { opsRoutes: [route] })).rejects.toThrow(
      `ops route ${basePath}/poke`,
    );
  });

  it("refuses a bad environment before opening anything", async () => {
    await expect(startServer({ PORT: "0", LOG_LEVEL: "loud" })).rejects.toThrow(/^LOG_LEVEL/);
  });
});
