import { randomUUID } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";
import { rateLimitPolicy } from "@animal-store/openapi";
import { useService } from "@animal-store/test-support";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from "../src/rate-limit/index.js";
import { windowsAt } from "../src/rate-limit/limits.js";
import { limiterContract, T0 } from "./rate-limit-contract.js";
import { loadFixture } from "./support/fixture-contract.js";

// A contract's ban rule, as the server would read it (the tests use the Animal Store's).
const policy = rateLimitPolicy(loadFixture().spec);

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

  it("counts one turn's requests of a subject in one script call, deciding as one after another would", async () => {
    // Between the limiter and Redis, a proxy that counts the script calls sent.
    let scriptCalls = 0;
    const target = new URL(url);
    const proxy = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      client.on("data", (chunk: Buffer) => {
        scriptCalls +=
          chunk.toString("latin1").match(/\r\nevalsha\r\n|\r\neval\r\n/gi)?.length ?? 0;
        upstream.write(chunk);
      });
      upstream.pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => proxy.once("listening", resolve));
    const ban = { threshold: 2, seconds: 60 };
    const limiter = createRedisRateLimiter({
      url: `redis://127.0.0.1:${(proxy.address() as { port: number }).port}`,
      keyPrefix: `${suitePrefix}${randomUUID()}:`,
      ban,
    });
    try {
      await limiter.check();
      const limits = { perMinute: 4, perDay: 100 };
      await limiter.consume("key:warm", limits, T0); // loads the script
      const before = scriptCalls;
      // Allowed up to the minute's limit, refused, then banned past the threshold.
      const together = await Promise.all(
        Array.from({ length: 9 }, () =>
          limiter.consume("key:burst", limits, T0, { banEligible: true }),
        ),
      );
      expect(scriptCalls - before).toBe(1);
      const reference = createMemoryRateLimiter({ ban });
      const oneByOne = [];
      for (let i = 0; i < 9; i++) {
        oneByOne.push(await reference.consume("key:burst", limits, T0, { banEligible: true }));
      }
      await reference.close();
      expect(together).toEqual(oneByOne);
      expect(new Set(together.map((d) => d.code ?? "allowed"))).toEqual(
        new Set(["allowed", "rate_limited", "api_key_banned"]),
      );
    } finally {
      await limiter.close();
      await new Promise((resolve) => proxy.close(resolve));
    }
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
      ban: policy.ban,
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
      ban: policy.ban,
      connectTimeoutMs: 200,
      commandTimeoutMs: 200,
    });
    open.push(l);
    const decision = await l.consume("key:w", { perMinute: 5, perDay: 100 }, T0);
    expect(decision).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
    await expect(l.check()).rejects.toThrow();
  });
});

/** A TCP proxy to Redis that can hold traffic, as a network partition does, and count commands. */
async function partitionableProxy(target: string) {
  const { hostname, port } = new URL(target);
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const state = { partitioned: false, heldCommands: "" };
  const server = createServer((client) => {
    const upstream = connect(Number(port || 6379), hostname);
    sockets.add(client).add(upstream);
    const pipe = (from: Socket, to: Socket, outbound: boolean) =>
      from.on("data", (chunk) => {
        if (!state.partitioned) return void to.write(chunk);
        if (outbound) state.heldCommands += chunk.toString("latin1");
        held.push(() => to.destroyed || to.write(chunk));
      });
    pipe(client, upstream, true);
    pipe(upstream, client, false);
    for (const socket of [client, upstream]) {
      socket.on("error", () => {});
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`,
    state,
    heal() {
      state.partitioned = false;
      for (const flush of held.splice(0)) flush();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!redisService.available)("Redis limiter across a network partition", () => {
  it("pays one command timeout, counts per instance meanwhile, then shares counters again", async () => {
    const proxy = await partitionableProxy(url);
    const admin = new Redis(url);
    const prefix = `${suitePrefix}partition:`;
    const l = createRedisRateLimiter({
      url: proxy.url,
      keyPrefix: prefix,
      ban: policy.ban,
      commandTimeoutMs: 200,
    });
    try {
      await l.check();
      const limits = { perMinute: 50, perDay: 1000 };
      expect(await l.consume("key:p", limits, T0)).toMatchObject({ allowed: true, remaining: 49 });
      proxy.state.partitioned = true;
      const during = [];
      for (let i = 0; i < 10; i++) during.push(await l.consume("key:p", limits, T0));
      expect(during.every((d) => d.allowed && d.limit === 50)).toBe(true);
      // Only the first request tried Redis; the others went straight to the in-memory counters.
      expect(proxy.state.heldCommands.match(/evalsha|\beval\b/gi)).toHaveLength(1);
      proxy.heal();
      // The limiter reconnects by itself; wait (bounded) until it answers again.
      for (let attempt = 0; ; attempt++) {
        const ready = await l.check().then(
          () => true,
          () => false,
        );
        if (ready) break;
        if (attempt === 50) throw new Error("the limiter did not reconnect");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Back on Redis: the decision comes from the shared counter (the timed-out command may
      // or may not have run there once the partition healed, as on a real network).
      const minuteKey = `${prefix}{key:p}:m:${windowsAt(T0).minuteIndex}`;
      const before = Number(await admin.get(minuteKey));
      expect([1, 2]).toContain(before);
      const after = await l.consume("key:p", limits, T0);
      expect(Number(await admin.get(minuteKey))).toBe(before + 1);
      expect(after).toMatchObject({ allowed: true, remaining: 50 - (before + 1) });
    } finally {
      await l.close();
      await admin.quit();
      await proxy.close();
    }
  });
});
