/**
 * The IETF fields (draft-ietf-httpapi-ratelimit-headers-10) through the real app with an injected
 * clock: `RateLimit-Policy` states every window of the caller's limits, `RateLimit` each window's
 * requests left and seconds to reset, and both agree with X-RateLimit-* of the same answer (the
 * binding window's item has its remaining, and now + t is its reset) on 200, 401, 429, a ban and
 * OPTIONS. Fields are parsed with an RFC 9651 library, never by this suite; plans and limits
 * are read off the fixture contract.
 */

import { parseList } from "structured-headers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../src/rate-limit/index.js";
import { type RateLimitedApp, startRateLimitedApp } from "./support/rate-limited-app.js";
import { contract } from "./support/serve.js";
import { anonymousLimits, customPlan, fixedPlans, limitsOf } from "./support/widgets.js";

const T0 = Date.UTC(2026, 5, 1, 9, 30, 15, 250);
const NOW_SECONDS = Math.floor(T0 / 1000);
const MINUTE_END = Date.UTC(2026, 5, 1, 9, 31) / 1000;
const DAY_END = Date.UTC(2026, 5, 2) / 1000;
const ban = contract.rateLimit.ban;

let app: RateLimitedApp;
beforeAll(async () => {
  app = await startRateLimitedApp(createMemoryRateLimiter({ ban }));
});
afterAll(() => app.close());

/** Each member of a List field as [name, parameters]; throws when the field is malformed. */
function members(res: Response, field: string): Array<[string, Record<string, unknown>]> {
  const value = res.headers.get(field);
  if (value === null) throw new Error(`${field} missing (status ${res.status})`);
  return parseList(value).map((member) => {
    const [name, params] = member;
    if (typeof name !== "string") throw new Error(`${field}: a member that is not an sf-string`);
    return [name, Object.fromEntries(params)];
  });
}

const legacy = (res: Response) => ({
  limit: Number(res.headers.get("x-ratelimit-limit")),
  remaining: Number(res.headers.get("x-ratelimit-remaining")),
  reset: Number(res.headers.get("x-ratelimit-reset")),
});

/** The policy of `limits` as the field must state it: a minute and a day window. */
const policyOf = (limits: { perMinute: number; perDay: number }) => [
  ["minute", { q: limits.perMinute, w: 60 }],
  ["day", { q: limits.perDay, w: 86_400 }],
];

/**
 * The item X-RateLimit-* describes (the window whose quota is the X-RateLimit-Limit), checked to
 * agree with it: the same remaining, and a reset `t` seconds from the clock.
 */
function expectAgreement(res: Response, nowSeconds = NOW_SECONDS): void {
  const policy = members(res, "ratelimit-policy");
  const limits = members(res, "ratelimit");
  expect(limits.map(([name]) => name)).toEqual(policy.map(([name]) => name));
  const old = legacy(res);
  // Both windows may have the same quota (a custom key): the binding one is the later to reset.
  const bound = policy
    .map(([name, p], i) => ({ name, q: p.q, item: limits[i]?.[1] ?? {} }))
    .filter((m) => m.q === old.limit && m.item.r === old.remaining)
    .map((m) => nowSeconds + Number(m.item.t));
  expect(bound, res.headers.get("ratelimit") ?? "").toContain(old.reset);
}

describe("RateLimit-Policy and RateLimit through the app", () => {
  it.each(fixedPlans)("a %s key gets its plan's windows, and a count per window", async (plan) => {
    app.now = T0;
    const key = await app.createKey({ plan });
    const first = await app.call(key, "/widgets");
    const second = await app.call(key, "/widgets");
    expect([first.status, second.status]).toEqual([200, 200]);
    const limits = limitsOf(plan);
    expect(members(second, "ratelimit-policy")).toEqual(policyOf(limits));
    expect(members(second, "ratelimit")).toEqual([
      ["minute", { r: limits.perMinute - 2, t: MINUTE_END - NOW_SECONDS }],
      ["day", { r: limits.perDay - 2, t: DAY_END - NOW_SECONDS }],
    ]);
    expectAgreement(first);
    expectAgreement(second);
  });

  it("a key's own limits are its policy; over the minute, a 429 whose Retry-After is the minute's t", async () => {
    const own = { perMinute: anonymousLimits.perMinute, perDay: anonymousLimits.perDay * 2 };
    const key = await app.createKey({ plan: customPlan, ...own });
    // One request the minute before: the day has counted one more than the minute.
    app.now = T0 - 60_000;
    expect((await app.call(key, "/widgets")).status).toBe(200);
    app.now = T0;
    const first = await app.call(key, "/widgets");
    expect(members(first, "ratelimit")).toEqual([
      ["minute", { r: own.perMinute - 1, t: MINUTE_END - NOW_SECONDS }],
      ["day", { r: own.perDay - 2, t: DAY_END - NOW_SECONDS }],
    ]);
    expectAgreement(first);
    let last = first;
    for (let i = 1; i < own.perMinute; i++) last = await app.call(key, "/widgets");
    expect(last.status).toBe(200);
    expect(members(last, "ratelimit-policy")).toEqual(policyOf(own));
    app.now = T0 + 2000;
    const refused = await app.call(key, "/widgets");
    expect(refused.status).toBe(429);
    const t = MINUTE_END - (NOW_SECONDS + 2);
    expect(members(refused, "ratelimit")).toEqual([
      ["minute", { r: 0, t }],
      ["day", { r: own.perDay - own.perMinute - 1, t: DAY_END - (NOW_SECONDS + 2) }],
    ]);
    expect(refused.headers.get("retry-after")).toBe(String(t));
    expectAgreement(refused, NOW_SECONDS + 2);
  });

  it("during a ban every window says none left until the ban's end (its Retry-After)", async () => {
    app.now = T0;
    const key = await app.createKey({ plan: customPlan, perMinute: 1, perDay: 10 });
    await app.call(key, "/widgets");
    let banned: Response | undefined;
    for (let i = 0; i <= ban.threshold + 1 && banned === undefined; i++) {
      const res = await app.call(key, "/widgets");
      if (((await res.json()) as { code: string }).code === "api_key_banned") banned = res;
    }
    if (!banned) throw new Error("no ban after the contract's threshold");
    expect(banned.headers.get("retry-after")).toBe(String(ban.seconds));
    expect(members(banned, "ratelimit")).toEqual([
      ["minute", { r: 0, t: ban.seconds }],
      ["day", { r: 0, t: ban.seconds }],
    ]);
    expectAgreement(banned);
  });

  it("401s (a bad key, an unknown path without one) and an OPTIONS carry them, agreeing with X-RateLimit-*", async () => {
    app.now = T0;
    const ip = { "x-forwarded-for": "203.0.113.77" };
    const answers = [
      await app.call("not-a-key", "/widgets", { headers: ip }),
      await app.call(null, "/no-such-path", { headers: ip }),
      await app.call(null, "/widgets", { method: "OPTIONS", headers: ip }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 204]);
    for (const answer of answers) {
      expect(members(answer, "ratelimit-policy")).toEqual(policyOf(anonymousLimits));
      expectAgreement(answer);
    }
    // OPTIONS reads the window, never counts: the same counts as the answer before it.
    expect(answers[2]?.headers.get("ratelimit")).toBe(answers[1]?.headers.get("ratelimit"));
  });
});
