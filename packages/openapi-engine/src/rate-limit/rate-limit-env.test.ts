import { describe, expect, it } from "vitest";
import { parseRateLimitEnv as parseWith } from "./rate-limit-env.js";

/** The application's prefix, used when RATE_LIMIT_REDIS_PREFIX is not set. */
const DEFAULT_PREFIX = "app:rl:";
const parseRateLimitEnv = (env: Record<string, string>) => parseWith(env, DEFAULT_PREFIX);

describe("parseRateLimitEnv", () => {
  it("overrides nothing of the contract's ban by default, and counts in-process", () => {
    expect(parseRateLimitEnv({})).toEqual({
      ban: {},
      redisUrl: null,
      redisKeyPrefix: DEFAULT_PREFIX,
    });
  });

  it("reads the ban settings, the Redis URL and the key prefix", () => {
    expect(
      parseRateLimitEnv({
        RATE_LIMIT_BAN_THRESHOLD: "3",
        RATE_LIMIT_BAN_SECONDS: "0",
        REDIS_URL: "redis://127.0.0.1:6379/2",
        RATE_LIMIT_REDIS_PREFIX: "eu1:",
      }),
    ).toEqual({
      ban: { threshold: 3, seconds: 0 },
      redisUrl: "redis://127.0.0.1:6379/2",
      redisKeyPrefix: "eu1:",
    });
  });

  it.each([
    ["RATE_LIMIT_BAN_THRESHOLD", "-1"],
    ["RATE_LIMIT_BAN_THRESHOLD", "ten"],
    ["RATE_LIMIT_BAN_SECONDS", "1.5"],
    ["RATE_LIMIT_BAN_SECONDS", "1e3"],
    ["REDIS_URL", "not a url"],
    ["REDIS_URL", "http://127.0.0.1:6379"],
  ])("rejects %s=%s, naming the variable", (name, value) => {
    expect(() => parseRateLimitEnv({ [name]: value })).toThrow(name);
  });

  it("never repeats a Redis password in its error", () => {
    expect(() => parseRateLimitEnv({ REDIS_URL: "http://user:s3cret@host" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("s3cret") }),
    );
  });
});

describe("parseRateLimitEnv with one override", () => {
  it("keeps the other number for the contract to give", () => {
    expect(parseRateLimitEnv({ RATE_LIMIT_BAN_SECONDS: "30" }).ban).toEqual({ seconds: 30 });
  });
});
