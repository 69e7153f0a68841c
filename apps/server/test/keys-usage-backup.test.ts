/**
 * `keys usage`: a key's counts this minute and today against its plan, from the live rate-limit
 * store: from Redis when the counters are shared (REDIS_URL), else from the running server's
 * metrics listener, per instance (and said so). `keys backup`: an online copy of the SQLite file.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { useService } from "@animal-store/test-support";
import { freePort } from "@animal-store/test-support/free-port";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { contract, policy, roomyPlan } from "./support/contract.js";
import {
  createKeyIn,
  kill,
  runKeys,
  type ServerProcess,
  spawnServer,
} from "./support/server-process.js";
import { tempDir } from "./support/test-app.js";

const redisService = await useService("redis", "server: keys usage from Redis");
const temp = tempDir();
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => kill(server, "SIGTERM")));
  temp.remove();
});

interface UsageRow {
  id: string;
  plan: string;
  scope: string;
  minute: { used: number; limit: number };
  day: { used: number; limit: number };
}

async function sendAndReadUsage(env: Record<string, string>, database: string) {
  const key = await createKeyIn(database, { plan: roomyPlan, name: "usage" });
  const server = await spawnServer(env);
  servers.push(server);
  // The requests and the reading in one UTC minute: the minute's count starts again at its end.
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${server.url}${contract.basePath}/pets`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
  }
  const listed = await runKeys(["list", "--json"], env);
  const [{ id }] = JSON.parse(listed.stdout) as [{ id: string }];
  const result = await runKeys(["usage", id, "--json"], env);
  expect(result.code, result.stderr).toBe(0);
  const [row] = JSON.parse(result.stdout) as [UsageRow];
  const limits = policy.plans[roomyPlan];
  expect(row).toMatchObject({
    id,
    plan: roomyPlan,
    minute: { used: 3, limit: limits?.perMinute },
    day: { used: 3, limit: limits?.perDay },
  });
  return { row, stderr: result.stderr };
}

describe("keys usage", { timeout: 120_000 }, () => {
  it("without Redis: the running instance's counts, from its metrics listener, said to be per instance", async () => {
    const database = join(temp.dir, "memory.db");
    const env = { DATABASE_URL: `file:${database}`, METRICS_PORT: String(await freePort()) };
    const { row, stderr } = await sendAndReadUsage(env, database);
    expect(row.scope).toBe("instance");
    expect(stderr).toMatch(/that instance's alone/);
  });

  it.skipIf(!redisService.available)("with REDIS_URL: the shared counts, from Redis", async () => {
    if (!redisService.available) return;
    const prefix = `usage:${randomBytes(6).toString("hex")}:`;
    const database = join(temp.dir, "redis.db");
    const env = {
      DATABASE_URL: `file:${database}`,
      REDIS_URL: redisService.url,
      RATE_LIMIT_REDIS_PREFIX: prefix,
    };
    try {
      const { row } = await sendAndReadUsage(env, database);
      expect(row.scope).toBe("shared");
    } finally {
      const redis = new Redis(redisService.url);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it("refuses an unknown key id", async () => {
    const database = join(temp.dir, "memory.db");
    const result = await runKeys(["usage", "key_0000000000000000"], {
      DATABASE_URL: `file:${database}`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no key with id key_0000000000000000/);
  });
});

describe("keys backup", { timeout: 60_000 }, () => {
  it("copies the SQLite database while the server runs; a server on the copy has its data", async () => {
    const database = join(temp.dir, "live.db");
    const key = await createKeyIn(database, { plan: roomyPlan, name: "backup" });
    const env = { DATABASE_URL: `file:${database}` };
    const server = await spawnServer(env);
    servers.push(server);
    const created = await fetch(`${server.url}${contract.basePath}/pets`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Backed", categoryId: 1, status: "available" }),
    });
    expect(created.status).toBe(201);
    const copy = join(temp.dir, "backups", "copy.db");
    const result = await runKeys(["backup", copy], env);
    expect(result.code, result.stderr).toBe(0);
    expect((await runKeys(["backup", copy], env)).stderr).toMatch(/never overwrites/);
    const restored = await spawnServer({ DATABASE_URL: `file:${copy}` });
    servers.push(restored);
    const listed = await fetch(`${restored.url}${contract.basePath}/pets`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await listed.json()).toEqual([await created.json()]);
  });
});
