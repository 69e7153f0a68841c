/**
 * A Redis key prefix per test file (the server's RATE_LIMIT_REDIS_PREFIX), so suites sharing the
 * machine's Redis never collide; its keys are deleted afterwards.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** A unique prefix and a way to remove every key under it. */
export interface RedisNamespace {
  readonly prefix: string;
  /** Number of keys currently under the prefix. */
  countKeys(): Promise<number>;
  cleanup(): Promise<void>;
}

async function scanKeys(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

/** Reserves `rel:<tag>:<random>:` on the Redis at `url`. */
export function createRedisNamespace(url: string, tag: string): RedisNamespace {
  const prefix = `rel:${tag}:${randomBytes(4).toString("hex")}:`;
  const withRedis = async <T>(fn: (r: Redis) => Promise<T>): Promise<T> => {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      return await fn(redis);
    } finally {
      redis.disconnect();
    }
  };
  return {
    prefix,
    countKeys: () => withRedis(async (r) => (await scanKeys(r, prefix)).length),
    cleanup: () =>
      withRedis(async (r) => {
        const keys = await scanKeys(r, prefix);
        if (keys.length > 0) await r.del(...keys);
      }),
  };
}
