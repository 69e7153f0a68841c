/**
 * The environment of each server variant: its own SQLite file in the scratch directory, or for (d) a
 * fresh PostgreSQL schema and a unique Redis key prefix, both removed when the run ends.
 */
import { join } from "node:path";
import { freePort } from "@animal-store/test-support/free-port";
import { Redis } from "ioredis";
import pg from "pg";
import type { VariantId } from "./variant-process.js";

export interface VariantSpec {
  id: VariantId;
  label: string;
  env: Record<string, string>;
}

/** Where PostgreSQL and Redis are (the test services of this repo; override with the same variables). */
const PG_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

async function withPostgres<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function withRedis<T>(use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
  });
  redis.on("error", () => {}); // a failed connect rejects `connect()` below
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** Why (d) cannot run (PostgreSQL or Redis not reachable), or null. */
async function scaleOutMissing(): Promise<string | null> {
  const why = (what: string) => (error: Error) => `${what} not reachable (${error.message})`;
  const pgDown = await withPostgres(async () => null).catch(why("PostgreSQL"));
  return pgDown ?? (await withRedis((redis) => redis.ping()).then(() => null, why("Redis")));
}

/** The variants to run, why (d) is left out if it is, and the cleanup of what (d) created. */
export async function createVariantSpecs(scratchDir: string, compareDist?: string) {
  const common = { PORT: "0", HOST: "127.0.0.1", PATH: process.env.PATH ?? "" };
  const sqlite = (name: string) => ({ ...common, DATABASE_URL: `file:${join(scratchDir, name)}` });
  const specs: VariantSpec[] = [
    // As shipped: metrics on, on a listener of its own (a free port here, 9464 by default).
    {
      id: "ours-sqlite",
      label: "(a) ours, SQLite, as shipped",
      env: { ...sqlite("ours.db"), METRICS_PORT: String(await freePort()) },
    },
    {
      id: "ours-no-metrics",
      label: "(a1) ours, SQLite, METRICS_PORT=0",
      env: { ...sqlite("no-metrics.db"), METRICS_PORT: "0" },
    },
    { id: "bare-express", label: "(b) bare Express 5", env: sqlite("express.db") },
    { id: "raw-http", label: "(c) raw node:http", env: sqlite("raw.db") },
    {
      id: "fastify-glue",
      label: "(f) Fastify 5 + fastify-openapi-glue",
      env: sqlite("fastify.db"),
    },
  ];
  if (compareDist !== undefined) {
    const env = { ...sqlite("before.db"), BENCH_SERVER_DIST: compareDist };
    specs.splice(1, 0, { id: "ours-before", label: "(a0) ours, SQLite, before the change", env });
  }
  const skipped = await scaleOutMissing();
  if (skipped !== null) return { specs, skipped, cleanup: async () => {} };
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`;
  const prefix = `animal-store-${schema}:`;
  specs.push({
    id: "ours-pg-redis",
    label: "(d) ours, PostgreSQL + Redis",
    env: {
      ...common,
      DATABASE_URL: PG_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: prefix,
      METRICS_PORT: String(await freePort()),
    },
  });
  const cleanup = async () => {
    const report = (what: string) => (e: Error) => console.error(`bench: ${what}: ${e.message}`);
    await withPostgres((c) => c.query(`drop schema if exists "${schema}" cascade`)).catch(
      report("drop schema"),
    );
    await withRedis(async (redis) => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }).catch(report("redis cleanup"));
  };
  return { specs, skipped, cleanup };
}
