/**
 * Redis faults through a TCP proxy (the machine's Redis is never stopped), with two instances on
 * one PostgreSQL database. The limiter is documented to FAIL OPEN: while Redis is unreachable each
 * instance counts on its own (responses keep their X-RateLimit-* headers), /readyz answers 200
 * "degraded" naming the rate-limit store (503 would pull every instance sharing that Redis), and
 * once Redis is back counting is shared again without a restart.
 */

import { useService } from "@animal-store/test-support";
import { awayFromMinuteEdge } from "@animal-store/test-support/minute-window";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { contractLimits } from "../src/contract-limits.js";
import { waitUntil } from "../src/fault-expectations.js";
import {
  type FaultMode,
  type FaultProxy,
  serviceAddress,
  startFaultProxy,
} from "../src/fault-proxy.js";
import { type RawResponse, send } from "../src/http-client.js";
import { createTestDatabase, type TestDatabase } from "../src/pg-database.js";
import { createRedisNamespace, type RedisNamespace } from "../src/redis-namespace.js";
import { createKeyWithCli, type ServerProcess, spawnServer } from "../src/server-process.js";
import { listOperations, loadSpec } from "../src/spec.js";
import { createSpecValidator } from "../src/spec-validator.js";

const pg = await useService("postgres", "reliability: Redis faults (instances on PostgreSQL)");
const redis = await useService("redis", "reliability: Redis faults");
const doc = loadSpec();
const listPetsOp = listOperations(doc).find((o) => o.operationId === "listPets");
const { checkResponse } = createSpecValidator(doc);
const limits = contractLimits();
const free = limits.smallest;
/** How long a request may take while Redis is unreachable, and how long recovery may take. */
const FAULT_BOUND_MS = 3000;
const RECOVERY_BOUND_MS = 15_000;

describe.skipIf(!pg.available || !redis.available)("Redis faults (limiter fails open)", () => {
  let db: TestDatabase;
  let ns: RedisNamespace;
  let proxy: FaultProxy;
  let env: Record<string, string>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    if (!pg.available || !redis.available) return;
    db = await createTestDatabase(pg.url, "redisfault");
    ns = createRedisNamespace(redis.url, "redisfault");
    proxy = await startFaultProxy(serviceAddress(redis.url, 6379));
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: proxy.rewrite(redis.url),
      RATE_LIMIT_REDIS_PREFIX: ns.prefix,
    };
  }, 30_000);

  afterEach(() => proxy?.restore());

  afterAll(async () => {
    await Promise.all([a?.kill("SIGKILL"), b?.kill("SIGKILL")]);
    await proxy?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  const list = (server: ServerProcess, key: string) =>
    send(
      server.url,
      {
        method: "GET",
        target: `${basePath}/pets?limit=1`,
        headers: { authorization: `Bearer ${key}` },
      },
      FAULT_BOUND_MS + 2000,
    );
  const remaining = (res: RawResponse) => Number(res.headers.get("x-ratelimit-remaining"));

  function expectServedAlone(res: RawResponse, what: string) {
    expect(res.status, `${what}: ${res.bodyText.slice(0, 200)}`).toBe(200);
    expect(res.elapsedMs, what).toBeLessThan(FAULT_BOUND_MS);
    if (listPetsOp) expect(checkResponse(listPetsOp, res), what).toEqual([]);
  }

  function expectReadyzNamesLimiter(res: RawResponse) {
    expect(res.status).toBe(200);
    expect(res.elapsedMs).toBeLessThan(FAULT_BOUND_MS);
    expect(JSON.parse(res.bodyText)).toEqual({
      status: "degraded",
      degraded: ["rate-limit store"],
    });
  }

  async function expectReadyWithin(server: ServerProcess, bound: number) {
    return waitUntil(
      server.url,
      { method: "GET", target: "/readyz" },
      (r) => r.status === 200 && JSON.parse(r.bodyText).status === "ready",
      bound,
    );
  }

  /** Proves counting is shared: requests on A then one on B see one running count. */
  async function expectSharedCounting(key: string) {
    await awayFromMinuteEdge(5000);
    const first = await list(a, key);
    const second = await list(a, key);
    const third = await list(b, key);
    expect(remaining(second)).toBe(remaining(first) - 1);
    expect(remaining(third)).toBe(remaining(first) - 2);
  }

  it("down at start: instances start, serve within the bound, report /readyz degraded, then share counts", async () => {
    proxy.cut("reset");
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    const key = await createKeyWithCli(
      { DATABASE_URL: db.url },
      { plan: free.name, name: "start" },
    );
    expectServedAlone(await list(a, key), "A while Redis is down");
    expectServedAlone(await list(b, key), "B while Redis is down");
    const ready = await send(a.url, { method: "GET", target: "/readyz" }, FAULT_BOUND_MS + 2000);
    expectReadyzNamesLimiter(ready);
    proxy.restore();
    const recovered = await expectReadyWithin(a, RECOVERY_BOUND_MS);
    await expectReadyWithin(b, RECOVERY_BOUND_MS);
    console.info(
      `[fault] Redis down at start: readyz degraded in ${Math.round(ready.elapsedMs)} ms; ` +
        `ready again ${Math.round(recovered)} ms after restore`,
    );
    await expectSharedCounting(key);
  }, 60_000);

  for (const mode of ["reset", "blackhole", "freeze"] as FaultMode[]) {
    it(`lost mid-run (${mode}): bounded answers with headers, /readyz degraded, shared again after`, async () => {
      const key = await createKeyWithCli({ DATABASE_URL: db.url }, { plan: free.name, name: mode });
      await expectSharedCounting(key);
      proxy.cut(mode);
      const slowest = { ms: 0 };
      for (let i = 0; i < 3; i++) {
        const res = await list(i % 2 ? b : a, key);
        expectServedAlone(res, `request ${i} while Redis is ${mode}`);
        slowest.ms = Math.max(slowest.ms, res.elapsedMs);
      }
      const ready = await send(b.url, { method: "GET", target: "/readyz" }, FAULT_BOUND_MS + 2000);
      expectReadyzNamesLimiter(ready);
      proxy.restore();
      const recovered = await expectReadyWithin(a, RECOVERY_BOUND_MS);
      await expectReadyWithin(b, RECOVERY_BOUND_MS);
      console.info(
        `[fault] Redis ${mode}: requests served in <= ${Math.round(slowest.ms)} ms, readyz degraded in ` +
          `${Math.round(ready.elapsedMs)} ms; ready again ${Math.round(recovered)} ms after restore`,
      );
      await expectSharedCounting(key);
    }, 60_000);
  }

  it("restarted (connections dropped, counters lost): counting starts over and stays shared", async () => {
    const key = await createKeyWithCli(
      { DATABASE_URL: db.url },
      { plan: free.name, name: "restart" },
    );
    await awayFromMinuteEdge(10_000);
    for (let i = 0; i < 5; i++) expect((await list(a, key)).status).toBe(200);
    // A restarted Redis here keeps nothing on disk: drop the connections and this suite's keys.
    proxy.cut("reset");
    await ns.cleanup();
    proxy.restore();
    await expectReadyWithin(a, RECOVERY_BOUND_MS);
    await expectReadyWithin(b, RECOVERY_BOUND_MS);
    const after = await list(b, key);
    expect(after.status).toBe(200);
    expect(remaining(after)).toBeGreaterThanOrEqual(free.perMinute - 2);
    await expectSharedCounting(key);
  }, 60_000);

  it("cut in the middle of a stream of requests: every one answered 200 within the bound", async () => {
    const key = await createKeyWithCli(
      { DATABASE_URL: db.url },
      { plan: limits.customPlan, name: "stream", perMinute: 1_000_000, perDay: 10_000_000 },
    );
    const answers: RawResponse[] = [];
    let stop = false;
    const reader = async (r: number) => {
      while (!stop) answers.push(await list(r % 2 ? b : a, key));
    };
    const readers = Array.from({ length: 8 }, (_, r) => reader(r));
    await new Promise((r) => setTimeout(r, 300 + Math.random() * 400));
    proxy.cut("reset");
    await new Promise((r) => setTimeout(r, 500));
    proxy.restore();
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(readers);
    console.info(
      `[fault] Redis reset mid-stream: ${answers.length} requests, statuses ` +
        `${[...new Set(answers.map((x) => x.status))].join(",")}, slowest ` +
        `${Math.round(Math.max(...answers.map((x) => x.elapsedMs)))} ms`,
    );
    for (const res of answers) expectServedAlone(res, "stream request");
    await expectReadyWithin(a, RECOVERY_BOUND_MS);
    await expectReadyWithin(b, RECOVERY_BOUND_MS);
  }, 60_000);
});
