/**
 * The deployments the load and crash suites run on: embedded SQLite with in-process limits, and
 * PostgreSQL with Redis limits. Each setup owns its data (a temp SQLite file, or a throwaway
 * database and Redis prefix) and removes it afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceStatus } from "@animal-store/test-support";
import { createTestDatabase } from "./pg-database.js";
import { createRedisNamespace } from "./redis-namespace.js";

/** One deployment's environment for the server processes, and its clean-up. */
export interface EngineSetup {
  name: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Embedded SQLite in a temporary directory; limits in the server's memory. */
export function sqliteSetup(tag: string): EngineSetup {
  const dir = mkdtempSync(join(tmpdir(), `rel-${tag}-`));
  return {
    name: "SQLite + in-process limits",
    env: { DATABASE_URL: `file:${join(dir, "pets.db")}` },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh PostgreSQL database and, when Redis is available, a fresh Redis prefix. */
export async function postgresSetup(
  tag: string,
  pg: ServiceStatus,
  redis: ServiceStatus | null,
): Promise<EngineSetup> {
  if (!pg.available) throw new Error("PostgreSQL is not available");
  const db = await createTestDatabase(pg.url, tag);
  const ns = redis?.available ? createRedisNamespace(redis.url, tag) : null;
  const env: Record<string, string> = { DATABASE_URL: db.url };
  if (ns && redis?.available) {
    env.REDIS_URL = redis.url;
    env.RATE_LIMIT_REDIS_PREFIX = ns.prefix;
  }
  return {
    name: ns ? "PostgreSQL + Redis limits" : "PostgreSQL + in-process limits",
    env,
    cleanup: async () => {
      await ns?.cleanup();
      await db.drop();
    },
  };
}
