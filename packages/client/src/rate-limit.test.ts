import { describe, expect, it } from "vitest";
import { parseRateLimit } from "./rate-limit.js";

const headers = (limit: string, remaining: string, reset: string) =>
  new Headers({
    "X-RateLimit-Limit": limit,
    "X-RateLimit-Remaining": remaining,
    "X-RateLimit-Reset": reset,
  });

describe("parseRateLimit", () => {
  it("reads the three headers into numbers and a Date", () => {
    expect(parseRateLimit(headers("1000", "0", "1767225660"))).toEqual({
      limit: 1000,
      remaining: 0,
      resetAt: new Date("2026-01-01T00:01:00Z"),
    });
  });

  it("is undefined when a header is missing or not a non-negative integer", () => {
    expect(parseRateLimit(new Headers())).toBeUndefined();
    expect(parseRateLimit(new Headers({ "X-RateLimit-Limit": "60" }))).toBeUndefined();
    expect(parseRateLimit(headers("60", "-1", "1767225660"))).toBeUndefined();
    expect(parseRateLimit(headers("60", "59", "soon"))).toBeUndefined();
    expect(parseRateLimit(headers("6e1", "59", "1767225660"))).toBeUndefined();
  });
});
