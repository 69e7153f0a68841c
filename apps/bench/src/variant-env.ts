/**
 * The environment of each server variant: its own SQLite file in the scratch directory, or for (d) a
 * fresh PostgreSQL schema and a unique Redis key prefix, both removed when the run ends.
 */

import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import type { VariantSpec } from "./server-bench.js";

/** Where PostgreSQL and Redis are (the test services of this repo; override with the same variables). */
const PG_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function postgresReachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return null;
  } catch (error) {
    return `PostgreSQL not reachable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisReachable(url: string): Promise<string | null> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
  });
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return `Redis not reachable (${(error as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** The variants to run, why (d) is left out if it is, and the cleanup of what (d) created. */
export async function createVariantSpecs(
  scratchDir: string,
  compareDist?: string,
): Promise<{
  specs: VariantSpec[];
  skipped: string | null;
  cleanup(): Promise<void>;
}> {
  const common = { PORT: "0", HOST: "127.0.0.1", PATH: process.env.PATH ?? "" };
  const sqlite = (name: string) => ({
    ...common,
    DATABASE_URL: `file:${join(scratchDir, `${name}.db`)}`,
  });
  const specs: VariantSpec[] = [
    // As shipped: metrics on, on a listener of its own (a free port here, 9464 by default).
    {
      id: "ours-sqlite",
      label: "(a) ours, SQLite, as shipped",
      env: { ...sqlite("ours"), METRICS_PORT: String(await freePort()) },
    },
    {
      id: "ours-no-metrics",
      label: "(a1) ours, SQLite, METRICS_PORT=0",
      env: { ...sqlite("no-metrics"), METRICS_PORT: "0" },
    },
    { id: "bare-express", label: "(b) bare Express 5", env: sqlite("express") },
    { id: "raw-http", label: "(c) raw node:http", env: sqlite("raw") },
    {
      id: "fastify-glue",
      label: "(f) Fastify 5 + fastify-openapi-glue",
      env: sqlite("fastify"),
    },
    {
      id: "hono-ajv",
      label: "(h) Hono 4 + Ajv, fast-json-stringify",
      env: sqlite("hono"),
    },
  ];
  if (compareDist !== undefined) {
    const env = { ...sqlite("before"), BENCH_SERVER_DIST: compareDist };
    specs.splice(1, 0, { id: "ours-before", label: "(a0) ours, SQLite, before the change", env });
  }
  const unique = `bench_${process.pid}_${Date.now().toString(36)}`;
  const skipped = (await postgresReachable(PG_URL)) ?? (await redisReachable(REDIS_URL));
  if (skipped !== null) return { specs, skipped, cleanup: async () => {} };
  const prefix = `animal-store-${unique}:`;
  specs.push({
    id: "ours-pg-redis",
    label: "(d) ours, PostgreSQL + Redis",
    env: {
      ...common,
      DATABASE_URL: PG_URL,
      DATABASE_SCHEMA: unique,
      REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: prefix,
      METRICS_PORT: String(await freePort()),
    },
  });
  return {
    specs,
    skipped: null,
    cleanup: async () => {
      await dropSchema(PG_URL, unique).catch((e: Error) =>
        console.error(`bench: drop schema: ${e.message}`),
      );
      await deleteKeys(REDIS_URL, prefix).catch((e: Error) =>
        console.error(`bench: redis cleanup: ${e.message}`),
      );
    },
  };
}
