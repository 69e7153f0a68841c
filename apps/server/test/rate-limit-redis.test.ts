import { randomUUID } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { useService } from "@animal-store/test-support";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRedisRateLimiter, type RateLimiter } from "../src/rate-limit/index.js";
import { limiterContract, T0 } from "./rate-limit-contract.js";

const redisService = await useService("redis", "Redis rate limiter");
const url = redisService.available ? redisService.url : "";
const suitePrefix = `test:rl:${randomUUID()}:`;
const open: RateLimiter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

describe.skipIf(!redisService.available)("Redis limiter", () => {
  const admin = new Redis(url);
  afterAll(async () => {
    const keys = await admin.keys(`${suitePrefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  const make = async (ban: { threshold: number; seconds: number }, keyPrefix?: string) => {
    const limiter = createRedisRateLimiter({
      url,
      keyPrefix: keyPrefix ?? `${suitePrefix}${randomUUID()}:`,
      ban,
    });
    await limiter.check();
    return limiter;
  };

  limiterContract(make, (l) => open.push(l));

  it("shares counters between instances with the same prefix", async () => {
    const prefix = `${suitePrefix}shared:`;
    const ban = { threshold: 10, seconds: 600 };
    const [a, b] = [await make(ban, prefix), await make(ban, prefix)];
    open.push(a, b);
    const limits = { perMinute: 3, perDay: 100 };
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).consume("key:x", limits, T0)),
    );
    expect(outcomes.filter((d) => d.allowed)).toHaveLength(3);
  });

  it("gives every key it writes a time to live", async () => {
    const prefix = `${suitePrefix}ttl:`;
    const l = await make({ threshold: 0, seconds: 60 }, prefix);
    open.push(l);
    const limits = { perMinute: 1, perDay: 100 };
    await l.consume("key:y", limits, T0, { banEligible: true });
    await l.consume("key:y", limits, T0, { banEligible: true }); // banned at once (threshold 0)
    await l.consume("addr:192.0.2.1", limits, T0);
    await l.consume("addr:192.0.2.1", limits, T0);
    const keys = await admin.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThanOrEqual(5);
    for (const key of keys) {
      const ttl = await admin.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(86_400_000 + 60_000);
    }
  });
});

describe("Redis limiter with Redis unreachable", () => {
  let closedPort = 0;
  const sockets = new Set<Socket>();
  const blackhole: Server = createServer((socket) => {
    sockets.add(socket.pause());
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    if (blackhole.listening) await new Promise((resolve) => blackhole.close(resolve));
  });

  it("fails open onto per-instance counting, keeps deciding, and reports not ready", async () => {
    const probe = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => probe.once("listening", resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const warnings: string[] = [];
    const l = createRedisRateLimiter({
      url: `redis://127.0.0.1:${closedPort}`,
      keyPrefix: suitePrefix,
      connectTimeoutMs: 200,
      log: { warn: (m) => warnings.push(m), info: () => {} },
    });
    open.push(l);
    const limits = { perMinute: 2, perDay: 100 };
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await l.consume("key:z", limits, T0));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    await expect(l.check()).rejects.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/counting per instance/);
  });

  it("bounds each command when Redis accepts connections but never answers", async () => {
    blackhole.listen(0, "127.0.0.1");
    await new Promise((resolve) => blackhole.once("listening", resolve));
    const port = (blackhole.address() as { port: number }).port;
    const l = createRedisRateLimiter({
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: suitePrefix,
      connectTimeoutMs: 200,
      commandTimeoutMs: 200,
    });
    open.push(l);
    const decision = await l.consume("key:w", { perMinute: 5, perDay: 100 }, T0);
    expect(decision).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
    await expect(l.check()).rejects.toThrow();
  });
});
