import { useService } from "@animal-store/test-support";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "./pg-database.js";
import { createRedisNamespace } from "./redis-namespace.js";

const pg = await useService("postgres", "reliability: per-file PostgreSQL databases");
const redis = await useService("redis", "reliability: per-file Redis prefixes");

describe.skipIf(!pg.available)("createTestDatabase (real PostgreSQL)", () => {
  it("creates an isolated database and drops it", async () => {
    if (!pg.available) return;
    const db = await createTestDatabase(pg.url, "selftest");
    await db.query("CREATE TABLE t (x int)");
    await db.query("INSERT INTO t VALUES (1), (2)");
    expect(await db.query("SELECT count(*)::int AS n FROM t")).toEqual([{ n: 2 }]);
    await db.drop();
    await expect(db.query("SELECT 1")).rejects.toThrow(/does not exist/);
  });
});

describe.skipIf(!redis.available)("createRedisNamespace (real Redis)", () => {
  it("counts and removes only its own keys", async () => {
    if (!redis.available) return;
    const ns = createRedisNamespace(redis.url, "selftest");
    const other = createRedisNamespace(redis.url, "selftest");
    const client = new Redis(redis.url);
    try {
      await client.set(`${ns.prefix}a`, "1");
      await client.set(`${ns.prefix}b`, "1");
      await client.set(`${other.prefix}a`, "1");
      expect(await ns.countKeys()).toBe(2);
      await ns.cleanup();
      expect(await ns.countKeys()).toBe(0);
      expect(await other.countKeys()).toBe(1);
    } finally {
      await other.cleanup();
      client.disconnect();
    }
  });
});
