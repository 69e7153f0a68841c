/**
 * The PostgreSQL store: the same Kysely queries as SQLite over a pg pool. `schema` puts the
 * tables in their own PostgreSQL schema (created when missing), so deployments or test suites
 * can share a database without seeing each other.
 */
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { POSTGRES_SCHEMA_NAME } from "../config.js";
import { StoreUnavailableError } from "../errors.js";
import { KyselyStore } from "./kysely-store.js";
import { migrateToLatest } from "./migrations.js";
import { preparedLater } from "./prepared-later.js";
import type { Database as Schema } from "./schema.js";
import type { Store } from "./types.js";

const INT8_OID = 20;
// Connection failures (Node socket codes) and PostgreSQL's own "cannot serve you now" classes:
// 08 connection exception, 53 insufficient resources, 57P0x shutdown / cannot connect now.
const NODE_UNAVAILABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE"]);
const PG_UNAVAILABLE = /^(08|53|57P0)/;
const POOL_UNAVAILABLE =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout/i;
/** Bound on connecting and on waiting for a query's answer: a hung database is a 503, not a hang. */
const TIMEOUT_MS = 5000;

function classifyPostgresError(err: unknown): unknown {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const unreachable =
    (typeof code === "string" && (NODE_UNAVAILABLE.has(code) || PG_UNAVAILABLE.test(code))) ||
    (typeof message === "string" && POOL_UNAVAILABLE.test(message));
  return unreachable
    ? new StoreUnavailableError(`PostgreSQL unavailable (${String(code ?? "connection")})`, {
        cause: err,
      })
    : err;
}

/** Options of the PostgreSQL store. */
export interface PostgresStoreOptions {
  url: string;
  schema?: string | undefined;
  /** Pool size per process. */
  maxConnections?: number;
  /** Skip creating and migrating the schema (for a store whose database is known to be down). */
  skipMigrations?: boolean;
}

/**
 * Creates the pool, the schema and the tables (migrations) and returns the store. When PostgreSQL
 * is unreachable at start, the store is returned anyway and prepares itself once it is back.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
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
    // Ids and category ids are bigint; the contract caps them at 2^53-1, so numbers are exact.
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
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const store = new KyselyStore("postgres", db, classifyPostgresError);
  if (options.skipMigrations) return store;
  // Instances starting together take turns: one creates and migrates, the others find it done.
  const prepare = () =>
    db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(hashtext(${`animal-store:${schema}`}))`.execute(conn);
      try {
        await conn.schema.createSchema(schema).ifNotExists().execute();
        await migrateToLatest(db as Kysely<unknown>, "postgres", schema);
      } finally {
        await sql`select pg_advisory_unlock(hashtext(${`animal-store:${schema}`}))`.execute(conn);
      }
    });
  try {
    await prepare();
  } catch (err) {
    const classified = classifyPostgresError(err);
    if (classified instanceof StoreUnavailableError) return preparedLater(store, prepare);
    await db.destroy();
    throw new Error(`cannot prepare the PostgreSQL database: ${(err as Error).message}`);
  }
  return store;
}
