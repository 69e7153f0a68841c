/**
 * A burst of concurrent requests over real HTTP on one key with M requests remaining gets exactly
 * M successes, with the in-process and with the Redis limiter; and the server started from the
 * environment wires REDIS_URL and stays up, headers included, when Redis is unreachable.
 */

import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { useService } from "@animal-store/test-support";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from "../src/rate-limit/index.js";
import { startRateLimitedApp } from "./support/rate-limited-app.js";
import { contract, startFixtureServer } from "./support/serve.js";
import { basePath, customPlan, limitsOf, tightestPlan } from "./support/widgets.js";

const policy = contract.rateLimit;

const redis = await useService("redis", "Redis rate-limit burst");
const prefix = `test:rl-burst:${randomUUID()}:`;

async function burst(limiter: RateLimiter) {
  const app = await startRateLimitedApp(limiter);
  try {
    app.now = Date.UTC(2026, 3, 1, 10, 0, 5);
    const key = await app.createKey({ plan: customPlan, perMinute: 25, perDay: 1000 });
    for (let i = 0; i < 5; i++) expect((await app.call(key, "/widgets")).status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => app.call(key, "/widgets")),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(20);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(40);
    const remaining = ok.map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  } finally {
    await app.close();
  }
}

describe("a concurrent burst on one key", () => {
  it("gets exactly the remaining requests through with the in-process limiter", async () => {
    await burst(createMemoryRateLimiter({ ban: policy.ban }));
  });

  it.skipIf(!redis.available)(
    "gets exactly the remaining requests through with Redis",
    async () => {
      const limiter = createRedisRateLimiter({
        url: redis.available ? redis.url : "",
        keyPrefix: prefix,
        ban: policy.ban,
      });
      await limiter.check();
      await burst(limiter);
    },
  );

  afterAll(async () => {
    if (!redis.available) return;
    const admin = new Redis(redis.url);
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });
});

describe("startEngine with REDIS_URL unreachable", () => {
  it("starts, counts per instance with the headers present, and reports not ready", async () => {
    const probe = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => probe.once("listening", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const scratch = await startFixtureServer({
      name: "redis-down",
      env: { REDIS_URL: `redis://127.0.0.1:${port}` },
    });
    const { server } = scratch;
    try {
      const key = await server.createKey({ plan: tightestPlan, name: "redis down" });
      const res = await fetch(`${server.url}${basePath}/widgets`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      expect([
        res.headers.get("x-ratelimit-limit"),
        res.headers.get("x-ratelimit-remaining"),
      ]).toEqual([
        String(limitsOf(tightestPlan).perMinute),
        String(limitsOf(tightestPlan).perMinute - 1),
      ]);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "degraded", degraded: ["rate-limit store"] });
    } finally {
      await scratch.close();
    }
  });
});
