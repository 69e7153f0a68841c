/**
 * PostgreSQL: a pg pool under Kysely, with bounded connect and query times (a hung database is a
 * 503, not a hang), tables in their own schema when asked (so deployments or test suites can
 * share a database), and preparation (schema, migrations) that instances starting together take
 * turns at. When PostgreSQL is unreachable at start, preparation is left to the caller to retry.
 */
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";

import { StoreUnavailableError } from "../errors.js";
import type { ErrorClassifier } from "./classify.js";
import { type MigrationList, migrateToLatest } from "./migrate.js";
import { POSTGRES_SCHEMA_NAME } from "./schema-name.js";

const INT8_OID = 20;
// Connection failures (Node socket codes) and PostgreSQL's own "cannot serve you now" classes:
// 08 connection exception, 53 insufficient resources, 57P0x shutdown / cannot connect now.
const NODE_UNAVAILABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE"]);
const PG_UNAVAILABLE = /^(08|53|57P0)/;
const POOL_UNAVAILABLE =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout/i;
/** Bound on connecting and on waiting for a query's answer: a hung database is a 503, not a hang. */
const TIMEOUT_MS = 5000;

/** PostgreSQL's outage errors become StoreUnavailableError (503). */
export const classifyPostgresError: ErrorClassifier = (err) => {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const unreachable =
    (typeof code === "string" && (NODE_UNAVAILABLE.has(code) || PG_UNAVAILABLE.test(code))) ||
    (typeof message === "string" && POOL_UNAVAILABLE.test(message));
  return unreachable
    ? new StoreUnavailableError(`PostgreSQL unavailable (${String(code ?? "connection")})`, {
        cause: err,
      })
    : err;
};

/** Options of a PostgreSQL database. */
export interface PostgresOptions {
  url: string;
  schema?: string | undefined;
  /** Pool size per process. */
  maxConnections?: number;
  /**
   * Names the advisory lock instances starting together take turns under (the schema is
   * appended): the application's own, so applications sharing a database never wait on each other.
   */
  lockName: string;
}

/** A PostgreSQL database: Kysely on a pool, and how to create and migrate its schema. */
export interface OpenPostgres<DB> {
  db: Kysely<DB>;
  /** Kysely's pool, for a query the application runs as a named (server-side prepared) statement. */
  pool: pg.Pool;
  /** Creates the schema and runs the migrations; instances starting together take turns. */
  prepare(): Promise<void>;
}

/** Creates the pool (no connection is made yet) and the preparation step. */
export function openPostgresDatabase<DB>(
  options: PostgresOptions,
  migrations: MigrationList,
): OpenPostgres<DB> {
  const schema = options.schema ?? "public";
  if (!POSTGRES_SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema "${schema}"`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: TIMEOUT_MS,
    // A partitioned connection answers nothing: give up on the query (the connection stays in
    // protocol order, a late answer is discarded) rather than hold the request forever.
    query_timeout: TIMEOUT_MS,
    keepAlive: true,
    options: `-c search_path=${schema}`,
    // 64-bit integers as numbers: the contract caps every one at 2^53-1, so they are exact.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID
          ? Number
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on("error", () => {});
  // Nor a checked-out one: its queries are rejected (a 503) and the pool drops it on release, but
  // the 'error' event it also emits would otherwise be unhandled and kill the process.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const lock = `${options.lockName}:${schema}`;
  const prepare = () =>
    db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(hashtext(${lock}))`.execute(conn);
      try {
        await conn.schema.createSchema(schema).ifNotExists().execute();
        await migrateToLatest(db as Kysely<unknown>, migrations("postgres"), schema);
      } finally {
        await sql`select pg_advisory_unlock(hashtext(${lock}))`.execute(conn);
      }
    });
  return { db, pool, prepare };
}
