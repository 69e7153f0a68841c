/** The rate limiter's part of the environment, parsed once by the server's config. */
import type { BanSettings } from "./ban.js";

/** Validated rate-limit settings. */
export interface RateLimitConfig {
  /** The operator's overrides of the contract's ban rule; what is not set comes from the spec. */
  ban: Partial<BanSettings>;
  /** Shared counters live in Redis when set; otherwise in this process. */
  redisUrl: string | null;
  /** Prefix of every Redis key, so deployments sharing a Redis stay apart. */
  redisKeyPrefix: string;
}

function nonNegativeInteger(env: Record<string, string | undefined>, name: string) {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  if (!/^\d{1,9}$/.test(raw.trim())) {
    throw new Error(`${name} must be a whole number of at least 0 (got "${raw}")`);
  }
  return Number(raw.trim());
}

/**
 * Reads RATE_LIMIT_BAN_THRESHOLD, RATE_LIMIT_BAN_SECONDS, REDIS_URL and RATE_LIMIT_REDIS_PREFIX
 * (`defaultPrefix`, the application's, when unset); throws an Error naming the variable on a bad
 * value.
 */
export function parseRateLimitEnv(
  env: Record<string, string | undefined>,
  defaultPrefix: string,
): RateLimitConfig {
  const threshold = nonNegativeInteger(env, "RATE_LIMIT_BAN_THRESHOLD");
  const seconds = nonNegativeInteger(env, "RATE_LIMIT_BAN_SECONDS");
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl !== null) {
    let protocol: string;
    try {
      protocol = new URL(redisUrl).protocol;
    } catch {
      throw new Error("REDIS_URL is not a valid URL");
    }
    if (protocol !== "redis:" && protocol !== "rediss:") {
      throw new Error("REDIS_URL must start with redis:// or rediss://");
    }
  }
  const redisKeyPrefix = env.RATE_LIMIT_REDIS_PREFIX ?? defaultPrefix;
  const ban: Partial<BanSettings> = {};
  if (threshold !== undefined) ban.threshold = threshold;
  if (seconds !== undefined) ban.seconds = seconds;
  return { ban, redisUrl, redisKeyPrefix };
}
