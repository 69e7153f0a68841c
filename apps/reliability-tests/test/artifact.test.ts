/**
 * The artifact (`pnpm artifact <dir>`) outside the repository: moved to a temporary folder and
 * started from another working directory with its production defaults, once on a SQLite file (its
 * default place, inside the artifact) and once on PostgreSQL + Redis. Both serve the API under
 * the bundled spec's base path and the docs page; its keys CLI works on the same database; its
 * /metrics, on a listener of its own, counts what was sent.
 */

import { existsSync } from "node:fs";
import { basePathOf, loadBundledSpec } from "@animal-store/openapi";
import { useService } from "@animal-store/test-support";
import { freePort } from "@animal-store/test-support/free-port";
import { awayFromMinuteEdge } from "@animal-store/test-support/minute-window";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeployedArtifact, deployArtifact } from "../src/artifact.js";
import { contractLimits } from "../src/contract-limits.js";
import { checkMetricsAgainstRequests } from "../src/metrics-check.js";
import { createTestDatabase, type TestDatabase } from "../src/pg-database.js";
import { createRedisNamespace, type RedisNamespace } from "../src/redis-namespace.js";
import { createKeyWithCli, type ServerProcess, spawnServer } from "../src/server-process.js";

const base = basePathOf(loadBundledSpec().spec);
const limits = contractLimits();
const pg = await useService("postgres", "artifact on PostgreSQL + Redis");
const redis = await useService("redis", "artifact on PostgreSQL + Redis");

let artifact: DeployedArtifact;
beforeAll(() => {
  artifact = deployArtifact();
}, 180_000);
afterAll(() => artifact?.remove());

/** The artifact's server on `env`; NODE_ENV and DATABASE_URL left to the artifact unless given. */
async function startArtifact(
  env: Record<string, string>,
): Promise<{ server: ServerProcess; metricsUrl: string }> {
  const metricsPort = await freePort();
  const server = await spawnServer(
    { NODE_ENV: "", LOG_LEVEL: "info", METRICS_PORT: String(metricsPort), ...env },
    { entry: artifact.entry, cwd: artifact.cwd },
  );
  return { server, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}

/** Creates the keys the checks use with the artifact's CLI: a roomy one and one of 2 a minute. */
async function keys(env: Record<string, string>) {
  const roomyKey = await createKeyWithCli(env, {
    plan: limits.largest.name,
    name: "artifact",
    cli: artifact.keysCli,
  });
  const tightKey = await createKeyWithCli(env, {
    plan: limits.customPlan,
    name: "tight",
    perMinute: 2,
    perDay: 100,
    cli: artifact.keysCli,
  });
  return { roomyKey, tightKey, tightPlan: limits.customPlan, tightPerMinute: 2 };
}

async function servesApiAndDocs(server: ServerProcess, key: string): Promise<void> {
  const pets = await fetch(`${server.url}${base}/pets`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(pets.status, server.output()).toBe(200);
  expect(Array.isArray(await pets.json())).toBe(true);
  const docs = await fetch(`${server.url}/docs`);
  expect(docs.status).toBe(200);
  expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await docs.text()).toContain("<html");
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
}

describe("the artifact on its default SQLite file", () => {
  let server: ServerProcess;
  afterAll(async () => server?.kill());

  it("starts from another directory in production mode, serves the API and /docs, counts in /metrics", async () => {
    const started = await startArtifact({});
    server = started.server;
    const { metricsUrl } = started;
    // Production mode: no development key is created on the empty database.
    expect(server.output()).not.toContain("development API key");
    expect(existsSync(`${artifact.dir}/data/animal-store.db`)).toBe(true);
    expect(existsSync(`${artifact.cwd}/data`)).toBe(false);
    const made = await keys({});
    await servesApiAndDocs(server, made.roomyKey);
    await awayFromMinuteEdge(5000);
    await checkMetricsAgainstRequests({ apiUrl: server.url, metricsUrl, basePath: base, ...made });
  });
});

describe.skipIf(!pg.available || !redis.available)("the artifact on PostgreSQL + Redis", () => {
  let db: TestDatabase;
  let ns: RedisNamespace;
  let server: ServerProcess;
  afterAll(async () => {
    await server?.kill();
    await ns?.cleanup();
    await db?.drop();
  });

  it("starts from another directory, serves the API and /docs, counts in /metrics", async () => {
    if (!pg.available || !redis.available) return;
    db = await createTestDatabase(pg.url, "artifact");
    ns = createRedisNamespace(redis.url, "artifact");
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url, RATE_LIMIT_REDIS_PREFIX: ns.prefix };
    const started = await startArtifact(env);
    server = started.server;
    const { metricsUrl } = started;
    const made = await keys(env);
    await servesApiAndDocs(server, made.roomyKey);
    await awayFromMinuteEdge(5000);
    await checkMetricsAgainstRequests({ apiUrl: server.url, metricsUrl, basePath: base, ...made });
    expect(await ns.countKeys()).toBeGreaterThan(0);
  });
});
