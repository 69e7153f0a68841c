/**
 * Two server processes on different ports sharing one PostgreSQL database and one Redis: writes
 * on one are read on the other, a Free key's per-minute quota and a ban are shared, and
 * concurrent creates through both lose nothing and never reuse an id.
 */

import { useService } from "@animal-store/test-support";
import { awayFromMinuteEdge } from "@animal-store/test-support/minute-window";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBoundedLoad } from "../src/bounded-load.js";
import { contractLimits } from "../src/contract-limits.js";
import { jsonBody, type RawResponse, send } from "../src/http-client.js";
import { createTestDatabase, type TestDatabase } from "../src/pg-database.js";
import { createRedisNamespace, type RedisNamespace } from "../src/redis-namespace.js";
import { createKeyWithCli, type ServerProcess, spawnServer } from "../src/server-process.js";

const pg = await useService("postgres", "reliability: two instances on PostgreSQL + Redis");
const redis = await useService("redis", "reliability: two instances on PostgreSQL + Redis");
const limits = contractLimits();

describe.skipIf(!pg.available || !redis.available)(
  "two instances, one PostgreSQL, one Redis",
  () => {
    let db: TestDatabase;
    let ns: RedisNamespace;
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      if (!pg.available || !redis.available) return;
      db = await createTestDatabase(pg.url, "multi");
      ns = createRedisNamespace(redis.url, "multi");
      env = { DATABASE_URL: db.url, REDIS_URL: redis.url, RATE_LIMIT_REDIS_PREFIX: ns.prefix };
      // Started together: both migrate the same empty database at once.
      [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all([a?.kill(), b?.kill()]);
      await ns?.cleanup();
      await db?.drop();
    });

    const get = (server: ServerProcess, target: string, key: string) =>
      send(server.url, { method: "GET", target, headers: { authorization: `Bearer ${key}` } });
    const create = (server: ServerProcess, key: string, pet: object) =>
      send(server.url, {
        method: "POST",
        target: `${basePath}/pets`,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(pet),
      });
    const code = (res: RawResponse) => jsonBody<{ code: string }>(res).code;

    it("a pet created on one instance is read on the other", async () => {
      const key = await createKeyWithCli(env, { plan: limits.largest.name, name: "read-across" });
      const created = await create(a, key, { name: "Across", categoryId: 7, status: "sold" });
      expect(created.status).toBe(201);
      const pet = jsonBody<{ id: number }>(created);
      const read = await get(b, `${basePath}/pets/${pet.id}`, key);
      expect(read.status).toBe(200);
      expect(jsonBody(read)).toEqual(pet);
      const listed = await get(b, `${basePath}/pets?status=sold&limit=${pagedList().max}`, key);
      expect(jsonBody<unknown[]>(listed)).toContainEqual(pet);
    });

    it("a Free key's per-minute quota is counted across both, and a ban holds on both", async () => {
      const key = await createKeyWithCli(env, { plan: limits.smallest.name, name: "shared-quota" });
      const { perMinute } = limits.smallest;
      await awayFromMinuteEdge(15_000);
      for (let i = 0; i < perMinute; i++) {
        const res = await get(i % 2 === 0 ? a : b, `${basePath}/pets?limit=1`, key);
        expect(res.status, `request ${i + 1}`).toBe(200);
        expect(res.headers.get("x-ratelimit-limit")).toBe(String(perMinute));
        expect(res.headers.get("x-ratelimit-remaining"), `request ${i + 1}`).toBe(
          String(perMinute - 1 - i),
        );
      }
      for (const server of [a, b]) {
        const over = await get(server, `${basePath}/pets?limit=1`, key);
        expect(over.status).toBe(429);
        expect(code(over)).toBe("rate_limited");
        expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      // The two refusals above count toward the ban; the rest of the threshold goes to A alone.
      for (let i = 2; i < limits.ban.rejectedRequestsBeforeBan; i++) {
        expect(code(await get(a, `${basePath}/pets?limit=1`, key))).toBe("rate_limited");
      }
      const banned = await get(a, `${basePath}/pets?limit=1`, key);
      expect(banned.status).toBe(429);
      expect(code(banned)).toBe("api_key_banned");
      const onOther = await get(b, `${basePath}/pets?limit=1`, key);
      expect(onOther.status).toBe(429);
      expect(code(onOther)).toBe("api_key_banned");
      const retryAfter = Number(onOther.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(limits.ban.banSeconds - 5);
      expect(retryAfter).toBeLessThanOrEqual(limits.ban.banSeconds);
    });

    it("concurrent creates from many clients through both lose nothing and get unique ids", async () => {
      const key = await createKeyWithCli(env, {
        plan: limits.customPlan,
        name: "concurrent",
        perMinute: 1_000_000,
        perDay: 10_000_000,
      });
      const total = 400;
      const report = await runBoundedLoad({
        total,
        concurrency: 32,
        deadlineMs: 60_000,
        task: async (i) => {
          const sent = { name: `mi-${i}`, categoryId: 1 + (i % 5) };
          const res = await create(i % 2 === 0 ? a : b, key, sent);
          return { i, sent, res };
        },
      });
      expect(report.results).toHaveLength(total);
      for (const { i, res } of report.results) expect(res.status, `create ${i}`).toBe(201);
      const pets = report.results.map(({ res }) => jsonBody<{ id: number; name: string }>(res));
      expect(new Set(pets.map((p) => p.id)).size).toBe(total);
      // Each pet is read back through the instance that did not create it.
      const readBack = await runBoundedLoad({
        total,
        concurrency: 32,
        deadlineMs: 60_000,
        task: async (j) => {
          const { i } = report.results[j] ?? { i: -1 };
          const pet = pets[j];
          if (!pet) throw new Error("no pet");
          const res = await get(i % 2 === 0 ? b : a, `${basePath}/pets/${pet.id}`, key);
          return { pet, res };
        },
      });
      for (const { pet, res } of readBack.results) {
        expect(res.status).toBe(200);
        expect(jsonBody(res)).toEqual(pet);
      }
      const rows = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pets WHERE name LIKE 'mi-%'",
      );
      expect(rows).toEqual([{ n: total }]);
    }, 120_000);

    it("a burst split over both instances on a key with M remaining gets exactly M successes", async () => {
      const quota = 40;
      const burst = 160;
      const key = await createKeyWithCli(env, {
        plan: limits.customPlan,
        name: "split-burst",
        perMinute: quota,
        perDay: 1_000_000,
      });
      await awayFromMinuteEdge(10_000);
      const report = await runBoundedLoad({
        total: burst,
        concurrency: burst,
        deadlineMs: 30_000,
        task: (i) => get(i % 2 === 0 ? a : b, `${basePath}/pets?limit=1`, key),
      });
      expect(report.results).toHaveLength(burst);
      const ok = report.results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(quota);
      expect(report.results.filter((r) => r.status === 429)).toHaveLength(burst - quota);
      const remaining = ok.map((r) => Number(r.headers.get("x-ratelimit-remaining")));
      expect(remaining.sort((x, y) => x - y)).toEqual([...Array(quota).keys()]);
    });
  },
);
