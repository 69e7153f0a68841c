import type { AddressInfo } from "node:net";
import { rateLimitPolicy, specOperations } from "@animal-store/openapi";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import { type Item, parseList, serializeList } from "structured-headers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import {
  type ApiKeyRecord,
  compileContractSecurity,
  identifyCaller,
  requireCredential,
} from "../auth/security.js";
import type { EngineError } from "../errors.js";
import {
  banEndSeconds,
  createMemoryRateLimiter,
  decide,
  limitsFor,
  POLICY_NAMES,
  policyField,
  rateLimit,
  SF_INTEGER_MAX,
  serializePolicy,
  serviceLimitField,
  windowsAt,
} from "./limits.js";

const fixture = loadFixture();
const policy = rateLimitPolicy(fixture.spec);
const anonymous = policy.plans[policy.anonymousPlan] as { perMinute: number };

const T0 = Date.UTC(2026, 0, 1, 12, 0, 30);
const limiter = createMemoryRateLimiter({ ban: { threshold: 1, seconds: 30 } });
const keys: Record<string, ApiKeyRecord> = {
  tiny: {
    id: "k-tiny",
    name: "tiny",
    plan: policy.planNames[0] as string,
    perMinute: 2,
    perDay: 50,
    createdAt: "2026-01-01T00:00:00Z",
    revokedAt: null,
  },
};
// The fixture's document security (one bearer scheme) over these keys.
const fixtureSecurity = compileContractSecurity(fixture.spec, specOperations(fixture.spec), {
  keyLookup: async (token) => keys[token] ?? null,
}).forDocument();
const app = express()
  .set("trust proxy", 1)
  .use(identifyCaller(fixtureSecurity.check) as RequestHandler)
  .use(
    rateLimit({
      limiter,
      clock: () => T0,
      limitsFor: limitsFor(policy),
      counted: () => true,
    }) as RequestHandler,
  )
  .use(requireCredential(fixtureSecurity.refuse) as RequestHandler)
  .get("/ok", (_req, res) => {
    res.json({ ok: true });
  })
  .use((err: EngineError, _req: Request, res: Response, _next: NextFunction) => {
    res.set(err.headers).status(err.status).json({ code: err.code, status: err.status });
  });
const server = app.listen(0, "127.0.0.1");
let base = "";
beforeAll(async () => {
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await limiter.close();
  await new Promise((resolve) => server.close(resolve));
});

const call = (headers: Record<string, string>) => fetch(`${base}/ok`, { headers });
const rateHeaders = (res: globalThis.Response) =>
  ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"].map((h) =>
    res.headers.get(h),
  );

describe("the rate-limit step", () => {
  it("sets the headers on success and refusal, bans a key, and keys by key id", async () => {
    const auth = { authorization: "Bearer tiny" };
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await call(auth));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 429, 429]);
    const minuteEnd = String(Date.UTC(2026, 0, 1, 12, 1) / 1000);
    const banEnd = String(T0 / 1000 + 30);
    expect(responses.map(rateHeaders)).toEqual([
      ["2", "1", minuteEnd, null],
      ["2", "0", minuteEnd, null],
      ["2", "0", minuteEnd, "30"],
      ["2", "0", banEnd, "30"],
    ]);
    expect(await responses[2]?.json()).toEqual({ code: "rate_limited", status: 429 });
    expect(await responses[3]?.json()).toEqual({ code: "api_key_banned", status: 429 });
  });

  it("counts callers without a valid key per address, on the anonymous plan, never banning them", async () => {
    const from = (ip: string, extra: Record<string, string> = {}) =>
      call({ "x-forwarded-for": ip, ...extra });
    const first = await from("198.51.100.1");
    expect(first.status).toBe(401);
    const limit = anonymous.perMinute;
    expect(rateHeaders(first).slice(0, 2)).toEqual([String(limit), String(limit - 1)]);
    expect(rateHeaders(await from("198.51.100.1", { authorization: "Bearer nope" }))[1]).toBe(
      String(limit - 2),
    );
    expect(rateHeaders(await from("198.51.100.2"))[1]).toBe(String(limit - 1));
    // Past the limit and past the ban threshold: limited, never banned.
    for (let i = 0; i < limit + 10; i++) await from("198.51.100.3");
    const limited = await from("198.51.100.3");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ code: "rate_limited", status: 429 });
  });
});

describe("windowsAt", () => {
  it("aligns the minute and the day to UTC", () => {
    const lastMs = Date.UTC(2026, 2, 31, 23, 59, 59, 999);
    expect(windowsAt(lastMs)).toMatchObject({
      minuteEndMs: Date.UTC(2026, 3, 1),
      dayEndMs: Date.UTC(2026, 3, 1),
    });
    const next = windowsAt(lastMs + 1);
    expect(next.minuteIndex).toBe(windowsAt(lastMs).minuteIndex + 1);
    expect(next.dayIndex).toBe(windowsAt(lastMs).dayIndex + 1);
    expect(next.minuteEndMs).toBe(Date.UTC(2026, 3, 1, 0, 1));
  });
});

describe("decide", () => {
  const limits = { perMinute: 10, perDay: 100 };
  const now = Date.UTC(2026, 0, 1, 8, 30, 0, 1);

  it("rounds Retry-After up, so it never points before the reset", () => {
    const refused = decide(
      { kind: "limited" },
      { minute: 10, day: 50 },
      limits,
      now,
      windowsAt(now),
    );
    expect(refused.reset).toBe(Date.UTC(2026, 0, 1, 8, 31) / 1000);
    expect(refused.retryAfter).toBe(60);
    expect((refused.reset * 1000 - now) / 1000).toBeLessThanOrEqual(refused.retryAfter ?? 0);
  });

  it("never reports a negative remaining when limits shrank below the count", () => {
    expect(
      decide({ kind: "limited" }, { minute: 3, day: 500 }, limits, now, windowsAt(now)),
    ).toMatchObject({
      limit: 100,
      remaining: 0,
    });
  });

  it("starts a ban at the current whole second, so Retry-After equals its length", () => {
    const until = banEndSeconds(now, 600);
    expect(
      decide(
        { kind: "banned", untilSeconds: until },
        { minute: 10, day: 10 },
        limits,
        now,
        windowsAt(now),
      ),
    ).toMatchObject({ reset: until, retryAfter: 600, code: "api_key_banned", remaining: 0 });
  });
});

const item = (name: string, params: Array<[string, number]>): Item => [name, new Map(params)];

describe("the RateLimit value", () => {
  it.each([
    [0, 0, 0, 0],
    [59, 45, 999, 52_185],
    [1, 60, 1, 86_400],
    [SF_INTEGER_MAX, 1, SF_INTEGER_MAX, 1],
  ])("r=%i;t=%i and r=%i;t=%i is the library's serialization of the same List", (a, b, c, d) => {
    const expected = serializeList([
      item(POLICY_NAMES.minute, [
        ["r", a],
        ["t", b],
      ]),
      item(POLICY_NAMES.day, [
        ["r", c],
        ["t", d],
      ]),
    ]);
    expect(serviceLimitField(a, b, c, d)).toBe(expected);
    expect(parseList(serviceLimitField(a, b, c, d))).toEqual(parseList(expected));
  });

  it("never writes an integer RFC 9651 cannot carry", () => {
    const field = serviceLimitField(Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER, 1);
    expect(() => parseList(field)).not.toThrow();
  });
});

describe("the RateLimit-Policy value", () => {
  it("states the minute and the day window with their quotas", () => {
    expect(parseList(serializePolicy({ perMinute: 30, perDay: 400 }))).toEqual([
      item("minute", [
        ["q", 30],
        ["w", 60],
      ]),
      item("day", [
        ["q", 400],
        ["w", 86_400],
      ]),
    ]);
  });

  it("is serialized once per limits object", () => {
    const limits = { perMinute: 7, perDay: 70 };
    const first = policyField(limits);
    limits.perMinute = 8;
    // The same object: the cached value (limits never change in place in the engine).
    expect(policyField(limits)).toBe(first);
    expect(policyField({ ...limits })).toBe(serializePolicy({ perMinute: 8, perDay: 70 }));
  });
});
