import { describe, expect, it } from "vitest";
import { TimeoutError } from "./call-errors.js";
import {
  backoffDelay,
  isRetryableFailure,
  isRetryableStatus,
  parseRetryAfter,
  resolveRetryPolicy,
  responseRetryDelay,
} from "./retry-policy.js";

const NOW = Date.UTC(2030, 0, 1, 0, 0, 0);

describe("parseRetryAfter", () => {
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter(" 42 ", NOW)).toBe(42_000);
  });

  it("reads an HTTP-date relative to now, never negative", () => {
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:00:10 GMT", NOW)).toBe(10_000);
    expect(parseRetryAfter("Mon, 31 Dec 2029 23:59:00 GMT", NOW)).toBe(0);
  });

  it("ignores what it cannot read", () => {
    for (const value of [null, "", "-1", "1.5", "soon", "Someday, 99 Foo 2030"]) {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    }
  });
});

describe("backoffDelay", () => {
  it("stays within [0, min(maxDelayMs, base * 2^retry)] for many samples", () => {
    for (let i = 0; i <= 1000; i++) {
      const r = i === 1000 ? 1 - Number.EPSILON : i / 1000;
      const policy = resolveRetryPolicy({ baseDelayMs: 250, maxDelayMs: 10_000, random: () => r });
      for (let retry = 0; retry < 12; retry++) {
        const delay = backoffDelay(retry, policy);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(10_000, 250 * 2 ** retry));
      }
    }
  });

  it("spans the whole range: 0 at the bottom, just under the cap at the top", () => {
    const low = resolveRetryPolicy({ baseDelayMs: 400, random: () => 0 });
    const high = resolveRetryPolicy({ baseDelayMs: 400, random: () => 1 - Number.EPSILON });
    expect(backoffDelay(2, low)).toBe(0);
    expect(backoffDelay(2, high)).toBe(1599);
  });
});

describe("what is retried", () => {
  const idempotent = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];
  const notIdempotent = ["POST", "PATCH"];

  it("429 for every method; 408, 500, 502, 503, 504 only for idempotent methods", () => {
    for (const method of [...idempotent, ...notIdempotent]) {
      expect(isRetryableStatus(429, method)).toBe(true);
    }
    for (const status of [408, 500, 502, 503, 504]) {
      for (const method of idempotent) expect(isRetryableStatus(status, method)).toBe(true);
      for (const method of notIdempotent) expect(isRetryableStatus(status, method)).toBe(false);
    }
    for (const status of [400, 401, 404, 405, 409, 410, 413, 415, 501, 505]) {
      expect(isRetryableStatus(status, "GET")).toBe(false);
    }
  });

  it("network errors and attempt timeouts only for idempotent methods, never after an abort", () => {
    const live = new AbortController().signal;
    const context = { operationId: "listPets", requestId: "r", attempts: 1 };
    const attemptTimeout = new TimeoutError("attempt", 100, context);
    for (const method of idempotent) {
      expect(isRetryableFailure(new TypeError("fetch failed"), method, live)).toBe(true);
      expect(isRetryableFailure(attemptTimeout, method, live)).toBe(true);
    }
    for (const method of notIdempotent) {
      expect(isRetryableFailure(new TypeError("fetch failed"), method, live)).toBe(false);
      expect(isRetryableFailure(attemptTimeout, method, live)).toBe(false);
    }
    expect(isRetryableFailure(new TimeoutError("deadline", 100, context), "GET", live)).toBe(false);
    expect(isRetryableFailure(new Error("bug in a custom fetch"), "GET", live)).toBe(false);
    expect(isRetryableFailure(new TypeError("x"), "GET", AbortSignal.abort())).toBe(false);
  });
});

describe("resolveRetryPolicy", () => {
  it("fills in the defaults", () => {
    const policy = resolveRetryPolicy();
    expect([policy.maxRetries, policy.baseDelayMs, policy.maxDelayMs]).toEqual([3, 500, 30_000]);
  });

  it("rejects nonsense with the field's name", () => {
    expect(() => resolveRetryPolicy({ maxRetries: -1 })).toThrow(/retry\.maxRetries/);
    expect(() => resolveRetryPolicy({ maxRetries: 1.5 })).toThrow(/retry\.maxRetries/);
    expect(() => resolveRetryPolicy({ baseDelayMs: Number.NaN })).toThrow(/retry\.baseDelayMs/);
    expect(() => resolveRetryPolicy({ maxDelayMs: 2 ** 31 })).toThrow(/retry\.maxDelayMs/);
  });
});

describe("responseRetryDelay", () => {
  const policy = resolveRetryPolicy({ now: () => NOW, random: () => 0.5, maxDelayMs: 10_000 });
  const reply = (status: number, retryAfter?: string) =>
    new Response(null, { status, headers: retryAfter ? { "Retry-After": retryAfter } : {} });

  it("waits exactly Retry-After, and never less", () => {
    expect(responseRetryDelay(reply(429, "2"), "POST", 0, policy)).toBe(2000);
    expect(responseRetryDelay(reply(429, "Tue, 01 Jan 2030 00:00:07 GMT"), "GET", 2, policy)).toBe(
      7000,
    );
    expect(responseRetryDelay(reply(503, "1"), "GET", 0, policy)).toBe(1000);
  });

  it("gives up rather than wait less than a Retry-After beyond maxDelayMs", () => {
    expect(responseRetryDelay(reply(429, "11"), "GET", 0, policy)).toBeUndefined();
  });

  it("backs off without Retry-After, and stops at maxRetries or a final status", () => {
    expect(responseRetryDelay(reply(429), "GET", 1, policy)).toBe(500);
    expect(responseRetryDelay(reply(429, "1"), "GET", 3, policy)).toBeUndefined();
    expect(responseRetryDelay(reply(503, "1"), "POST", 0, policy)).toBeUndefined();
    expect(responseRetryDelay(reply(200), "GET", 0, policy)).toBeUndefined();
  });
});
