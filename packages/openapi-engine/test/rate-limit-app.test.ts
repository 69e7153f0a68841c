/**
 * Rate limits and deprecation through the real app (the widgets application in-process, a
 * temporary SQLite file, response validation on) with an injected clock: header arithmetic on every status, windows and their
 * reset, refusals not counting, bans, custom limits, anonymous callers per address; every plan,
 * limit and deprecated operation read off the fixture contract.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../src/rate-limit/index.js";
import { type RateLimitedApp, startRateLimitedApp } from "./support/rate-limited-app.js";
import {
  anonymousLimits,
  currentOperations,
  customPlan,
  deprecatedOperations,
  exampleCall,
  fixedPlans,
  goneMessageOf,
  limitsOf,
  promisedDeprecationHeaders,
  sunsetOf,
} from "./support/widgets.js";

const T0 = Date.UTC(2026, 5, 1, 9, 30, 15, 250);
const MINUTE_END = Date.UTC(2026, 5, 1, 9, 31) / 1000;
const DAY_END = Date.UTC(2026, 5, 2) / 1000;

let app: RateLimitedApp;
beforeAll(async () => {
  app = await startRateLimitedApp(createMemoryRateLimiter({ ban: { threshold: 2, seconds: 90 } }));
});
afterAll(() => app.close());

const limitHeaders = (res: Response) =>
  ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"].map((name) =>
    res.headers.get(name),
  );

describe("X-RateLimit-* through the app", () => {
  it("counts 200, 201, 400, 404 alike and refuses the next with 429 and a matching Retry-After", async () => {
    app.now = T0;
    const key = await app.createKey({ plan: customPlan, perMinute: 5, perDay: 1000 });
    const responses = [
      await app.call(key, "/widgets"),
      await app.call(key, "/widgets?count=0"),
      await app.call(key, "/widgets/999999"),
      await app.call(key, "/widgets", { method: "POST", body: '{"label":"Cog","sizeId":1}' }),
      await app.call(key, "/widgets/1"),
    ];
    app.now = T0 + 2000;
    const refused = await app.call(key, "/widgets");
    expect([...responses, refused].map((r) => r.status)).toEqual([200, 400, 404, 201, 200, 429]);
    const reset = String(MINUTE_END);
    expect([...responses, refused].map(limitHeaders)).toEqual([
      ["5", "4", reset, null],
      ["5", "3", reset, null],
      ["5", "2", reset, null],
      ["5", "1", reset, null],
      ["5", "0", reset, null],
      ["5", "0", reset, String(Math.ceil(MINUTE_END - (T0 + 2000) / 1000))],
    ]);
    expect(await refused.json()).toEqual({
      code: "rate_limited",
      message: "Rate limit exceeded; retry after 43 seconds.",
      status: 429,
    });
    app.now = MINUTE_END * 1000;
    expect(limitHeaders(await app.call(key, "/widgets"))).toEqual([
      "5",
      "4",
      String(MINUTE_END + 60),
      null,
    ]);
  });

  it("holds the day's quota across minutes, untouched by refusals, until UTC midnight", async () => {
    const key = await app.createKey({ plan: customPlan, perMinute: 2, perDay: 5 });
    const statuses: number[] = [];
    for (const [minute, calls] of [
      [0, 3],
      [1, 3],
      [2, 2],
    ] as const) {
      app.now = T0 + minute * 60_000;
      for (let i = 0; i < calls; i++) statuses.push((await app.call(key, "/widgets")).status);
    }
    // 2 + 2 + 1: the day's 5 went to counted requests only, none to the refusals.
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429, 200, 429]);
    app.now = T0 + 3 * 60_000;
    const dayRefusal = await app.call(key, "/widgets");
    expect(limitHeaders(dayRefusal)).toEqual([
      "5",
      "0",
      String(DAY_END),
      String(Math.ceil(DAY_END - app.now / 1000)),
    ]);
    expect(await dayRefusal.json()).toMatchObject({ code: "rate_limited" });
    app.now = DAY_END * 1000;
    expect(limitHeaders(await app.call(key, "/widgets"))).toEqual([
      "2",
      "1",
      String(DAY_END + 60),
      null,
    ]);
  });

  it("gives each plan its row of the contract's table and a custom-plan key its own limits", async () => {
    app.now = T0;
    expect(fixedPlans.length).toBeGreaterThan(0);
    for (const plan of fixedPlans) {
      const res = await app.call(await app.createKey({ plan }), "/widgets");
      const { perMinute } = limitsOf(plan);
      expect(limitHeaders(res)).toEqual([
        String(perMinute),
        String(perMinute - 1),
        String(MINUTE_END),
        null,
      ]);
    }
    const custom = await app.createKey({ plan: customPlan, perMinute: 50_000, perDay: 40 });
    expect(limitHeaders(await app.call(custom, "/widgets"))).toEqual([
      "40",
      "39",
      String(DAY_END),
      null,
    ]);
  });

  it("bans a key that keeps calling while limited, holds the ban across windows, then lifts it", async () => {
    app.now = T0;
    const key = await app.createKey({ plan: customPlan, perMinute: 1, perDay: 100 });
    expect((await app.call(key, "/widgets")).status).toBe(200);
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push(((await (await app.call(key, "/widgets")).json()) as { code: string }).code);
    expect(codes).toEqual(["rate_limited", "rate_limited", "api_key_banned", "api_key_banned"]);
    const banEnd = Math.floor(T0 / 1000) + 90;
    app.now = MINUTE_END * 1000 + 10_000; // a fresh minute, still inside the ban
    expect(MINUTE_END + 10).toBeLessThan(banEnd);
    const banned = await app.call(key, "/widgets");
    expect(banned.status).toBe(429);
    expect(limitHeaders(banned)).toEqual([
      "1",
      "0",
      String(banEnd),
      String(banEnd - MINUTE_END - 10),
    ]);
    expect(await banned.json()).toMatchObject({ code: "api_key_banned", status: 429 });
    app.now = banEnd * 1000;
    expect((await app.call(key, "/widgets")).status).toBe(200);
  });

  it("business rule: callers without a valid key are counted per client address on the anonymous plan, 401s included", async () => {
    app.now = T0 + 60 * 60_000;
    const reset = String(MINUTE_END + 60 * 60);
    const limit = anonymousLimits.perMinute;
    const anon = (ip: string, auth?: string) =>
      app.call(auth ?? null, "/widgets", { headers: { "x-forwarded-for": ip } });
    const first = await anon("198.51.100.7");
    expect(first.status).toBe(401);
    expect(limitHeaders(first)).toEqual([String(limit), String(limit - 1), reset, null]);
    // TRUST_PROXY=1: only the last hop counts, so a forged left-most entry changes nothing.
    const invalid = await anon("203.0.113.66, 198.51.100.7", "Bearer ask_not-a-real-key");
    expect([invalid.status, limitHeaders(invalid)[1]]).toEqual([401, String(limit - 2)]);
    expect(limitHeaders(await anon("198.51.100.8"))[1]).toBe(String(limit - 1));
    for (let i = 0; i < limit - 2; i++) await anon("198.51.100.7");
    const limited = await anon("198.51.100.7");
    expect(
      limited.status,
      `callers without a key are refused after ${limit} requests a minute per address (the anonymous plan's limit)`,
    ).toBe(429);
    expect(limitHeaders(limited)).toEqual([
      String(limit),
      "0",
      reset,
      String(Math.ceil(Number(reset) - app.now / 1000)),
    ]);
    // Past the ban threshold: callers without a key are limited, never banned.
    for (let i = 0; i < 10; i++) await anon("198.51.100.7");
    expect(await (await anon("198.51.100.7")).json()).toMatchObject({ code: "rate_limited" });
  });
});

describe.each(deprecatedOperations.map((op) => [op.operationId, op] as const))(
  "%s's deprecation through the app",
  (_id, op) => {
    const expectDeprecated = (res: Response) => {
      for (const [name, value] of Object.entries(promisedDeprecationHeaders(op))) {
        expect(res.headers.get(name), name).toBe(value);
      }
      expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    };
    const call = (key: string | null, extra: RequestInit = {}) => {
      const { path, init } = exampleCall(op);
      return app.call(key, path, { ...init, ...extra });
    };

    it("carries Deprecation, Sunset and Link, and the other operations none", async () => {
      app.now = T0;
      const key = await app.createKey({ plan: fixedPlans[0] as string });
      const answer = await call(key);
      expect(answer.status).toBeLessThan(500);
      expectDeprecated(answer);
      for (const other of currentOperations) {
        const { path, init } = exampleCall(other);
        const res = await app.call(key, path, init);
        expect(res.headers.get("deprecation"), other.operationId).toBeNull();
      }
    });

    it("carries them on its 401 and 429 too", async () => {
      app.now = T0;
      const unauthorized = await call(null, { headers: { "x-forwarded-for": "192.0.2.44" } });
      expect(unauthorized.status).toBe(401);
      expectDeprecated(unauthorized);
      const key = await app.createKey({ plan: customPlan, perMinute: 1, perDay: 10 });
      await app.call(key, "/widgets");
      const limited = await call(key);
      expect(limited.status).toBe(429);
      expectDeprecated(limited);
    });

    it("answers 410 gone from its sunset instant on, with the headers", async () => {
      app.now = sunsetOf(op) - 1;
      const key = await app.createKey({ plan: fixedPlans[0] as string });
      expect((await call(key)).status).not.toBe(410);
      app.now = sunsetOf(op);
      const gone = await call(key);
      expect(gone.status).toBe(410);
      expectDeprecated(gone);
      expect(await gone.json()).toEqual({ code: "gone", message: goneMessageOf(op), status: 410 });
      for (const other of currentOperations.filter((o) => o.method === "GET")) {
        const { path, init } = exampleCall(other);
        expect((await app.call(key, path, init)).status, other.operationId).not.toBe(410);
      }
    });
  },
);
