/**
 * Rate limits and getPet's deprecation through the real app (createApp, a temporary SQLite file,
 * response validation on) with an injected clock: header arithmetic on every status, windows
 * and their reset, refusals not counting, bans, custom limits, anonymous callers per address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../src/rate-limit/index.js";
import { GET_PET_SUNSET } from "../src/sunset.js";
import { type RateLimitedApp, startRateLimitedApp } from "./rate-limit-app.js";

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
    const key = await app.createKey({ plan: "enterprise", perMinute: 5, perDay: 1000 });
    const responses = [
      await app.call(key, "/pets"),
      await app.call(key, "/pets?limit=0"),
      await app.call(key, "/pets/999999"),
      await app.call(key, "/pets", { method: "POST", body: '{"name":"Rex","categoryId":1}' }),
      await app.call(key, "/pets/1"),
    ];
    app.now = T0 + 2000;
    const refused = await app.call(key, "/pets");
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
    expect(limitHeaders(await app.call(key, "/pets"))).toEqual([
      "5",
      "4",
      String(MINUTE_END + 60),
      null,
    ]);
  });

  it("holds the day's quota across minutes, untouched by refusals, until UTC midnight", async () => {
    const key = await app.createKey({ plan: "enterprise", perMinute: 2, perDay: 5 });
    const statuses: number[] = [];
    for (const [minute, calls] of [
      [0, 3],
      [1, 3],
      [2, 2],
    ] as const) {
      app.now = T0 + minute * 60_000;
      for (let i = 0; i < calls; i++) statuses.push((await app.call(key, "/pets")).status);
    }
    // 2 + 2 + 1: the day's 5 went to counted requests only, none to the refusals.
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429, 200, 429]);
    app.now = T0 + 3 * 60_000;
    const dayRefusal = await app.call(key, "/pets");
    expect(limitHeaders(dayRefusal)).toEqual([
      "5",
      "0",
      String(DAY_END),
      String(Math.ceil(DAY_END - app.now / 1000)),
    ]);
    expect(await dayRefusal.json()).toMatchObject({ code: "rate_limited" });
    app.now = DAY_END * 1000;
    expect(limitHeaders(await app.call(key, "/pets"))).toEqual([
      "2",
      "1",
      String(DAY_END + 60),
      null,
    ]);
  });

  it("gives each plan its table row and an Enterprise key its own limits", async () => {
    app.now = T0;
    for (const [plan, limit] of [
      ["free", "60"],
      ["pro", "300"],
      ["business", "1000"],
    ] as const) {
      const res = await app.call(await app.createKey({ plan }), "/pets");
      expect(limitHeaders(res)).toEqual([
        limit,
        String(Number(limit) - 1),
        String(MINUTE_END),
        null,
      ]);
    }
    const custom = await app.createKey({ plan: "enterprise", perMinute: 50_000, perDay: 40 });
    expect(limitHeaders(await app.call(custom, "/pets"))).toEqual([
      "40",
      "39",
      String(DAY_END),
      null,
    ]);
  });

  it("bans a key that keeps calling while limited, holds the ban across windows, then lifts it", async () => {
    app.now = T0;
    const key = await app.createKey({ plan: "enterprise", perMinute: 1, perDay: 100 });
    expect((await app.call(key, "/pets")).status).toBe(200);
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push(((await (await app.call(key, "/pets")).json()) as { code: string }).code);
    expect(codes).toEqual(["rate_limited", "rate_limited", "api_key_banned", "api_key_banned"]);
    const banEnd = Math.floor(T0 / 1000) + 90;
    app.now = MINUTE_END * 1000 + 10_000; // a fresh minute, still inside the ban
    expect(MINUTE_END + 10).toBeLessThan(banEnd);
    const banned = await app.call(key, "/pets");
    expect(banned.status).toBe(429);
    expect(limitHeaders(banned)).toEqual([
      "1",
      "0",
      String(banEnd),
      String(banEnd - MINUTE_END - 10),
    ]);
    expect(await banned.json()).toMatchObject({ code: "api_key_banned", status: 429 });
    app.now = banEnd * 1000;
    expect((await app.call(key, "/pets")).status).toBe(200);
  });

  it("limits callers without a valid key per client address on the Free plan, 401s included", async () => {
    app.now = T0 + 60 * 60_000;
    const reset = String(MINUTE_END + 60 * 60);
    const anon = (ip: string, auth?: string) =>
      app.call(auth ?? null, "/pets", { headers: { "x-forwarded-for": ip } });
    const first = await anon("198.51.100.7");
    expect(first.status).toBe(401);
    expect(limitHeaders(first)).toEqual(["60", "59", reset, null]);
    // TRUST_PROXY=1: only the last hop counts, so a forged left-most entry changes nothing.
    const invalid = await anon("203.0.113.66, 198.51.100.7", "Bearer ask_not-a-real-key");
    expect([invalid.status, limitHeaders(invalid)[1]]).toEqual([401, "58"]);
    expect(limitHeaders(await anon("198.51.100.8"))[1]).toBe("59");
    for (let i = 0; i < 58; i++) await anon("198.51.100.7");
    const limited = await anon("198.51.100.7");
    expect(limited.status).toBe(429);
    expect(limitHeaders(limited)).toEqual([
      "60",
      "0",
      reset,
      String(Math.ceil(Number(reset) - app.now / 1000)),
    ]);
    for (let i = 0; i < 10; i++) await anon("198.51.100.7");
    expect(await (await anon("198.51.100.7")).json()).toMatchObject({ code: "rate_limited" });
  });
});

describe("getPet's deprecation through the app", () => {
  const expectDeprecated = (res: Response) => {
    expect(res.headers.get("deprecation")).toBe("@1767225600");
    expect(res.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
    expect(res.headers.get("link")).toBe('</v1/pets>; rel="successor-version"');
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  };

  it("carries Deprecation, Sunset and Link on 200 and 404, and none on the other operations", async () => {
    app.now = T0;
    const key = await app.createKey({ plan: "pro" });
    const created = await app.call(key, "/pets", {
      method: "POST",
      body: '{"name":"Tom","categoryId":2}',
    });
    const { id } = (await created.json()) as { id: number };
    const found = await app.call(key, `/pets/${id}`);
    expect(found.status).toBe(200);
    expectDeprecated(found);
    const missing = await app.call(key, "/pets/424242");
    expect(missing.status).toBe(404);
    expectDeprecated(missing);
    expect((await app.call(key, "/pets")).headers.get("deprecation")).toBeNull();
  });

  it("carries them on getPet's 401 and 429 too", async () => {
    app.now = T0;
    const unauthorized = await app.call(null, "/pets/1", {
      headers: { "x-forwarded-for": "192.0.2.44" },
    });
    expect(unauthorized.status).toBe(401);
    expectDeprecated(unauthorized);
    const key = await app.createKey({ plan: "enterprise", perMinute: 1, perDay: 10 });
    await app.call(key, "/pets");
    const limited = await app.call(key, "/pets/1");
    expect(limited.status).toBe(429);
    expectDeprecated(limited);
  });

  it("answers 410 gone from the sunset instant on, with the headers", async () => {
    app.now = GET_PET_SUNSET.getTime() - 1;
    const key = await app.createKey({ plan: "pro" });
    expect((await app.call(key, "/pets/1")).status).not.toBe(410);
    app.now = GET_PET_SUNSET.getTime();
    const gone = await app.call(key, "/pets/1");
    expect(gone.status).toBe(410);
    expectDeprecated(gone);
    expect(await gone.json()).toEqual({
      code: "gone",
      message: "GET /pets/{petId} was removed on 2030-12-05; use GET /pets?status= instead.",
      status: 410,
    });
    expect((await app.call(key, "/pets")).status).toBe(200);
  });
});
