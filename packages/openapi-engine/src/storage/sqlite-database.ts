/**
 * The embedded SQLite database (libsql, better-sqlite3 compatible). WAL with synchronous=FULL: a
 * commit is on disk before its answer leaves, so an acknowledged write survives a crash.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import {
  Kysely,
  type SqliteDatabase as KyselySqlite,
  SqliteAdapter,
  SqliteDialect,
  type SqliteStatement,
} from "kysely";
import Database from "libsql";
import { StoreUnavailableError } from "../errors.js";
import type { ErrorClassifier } from "./classify.js";
import { type MigrationList, migrateToLatest } from "./migrate.js";

// Errors that mean the file cannot be used right now (locked, disk, permissions), not a bug.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|PROTOCOL|NOTADB|CORRUPT)/;
const MAX_CACHED_STATEMENTS = 200;

/**
 * SQLite runs DDL inside transactions; Kysely's adapter says it does not (to be safe on every
 * SQLite), so its migrator would leave a failing migration half applied. Saying so lets a run
 * of migrations commit or roll back as one.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class SqliteDialectWithTransactionalDdl extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** SQLite's outage errors become StoreUnavailableError (503). */
export const classifySqliteError: ErrorClassifier = (err) => {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNAVAILABLE.test(code)) {
    return new StoreUnavailableError(`SQLite unavailable (${code})`, { cause: err });
  }
  return err;
};

/**
 * Kysely prepares every query anew; a store's queries are a small fixed set, so each SQL text is
 * prepared once and its statement reused (the single connection runs one at a time).
 *
 * Only a text seen a second time is kept. Every statement alive on a connection holds some of
 * SQLite's lookaside memory, the small-allocation pool each query draws on as it runs; once
 * statements hold most of it, every query's small allocations go to malloc under a mutex instead,
 * and a page of 100 items cost measurably more per request (apps/bench/README.md, "what each change
 * bought", has the figures). Migrations and start-up introspection run dozens of statements once: left in
 * the cache they would hold that memory for the life of the process.
 */
export function withStatementCache(db: {
  prepare(text: string): unknown;
  close(): unknown;
}): KyselySqlite {
  const statements = new Map<string, SqliteStatement>();
  const seenOnce = new Set<string>();
  return {
    close: () => {
      db.close();
    },
    prepare(text: string): SqliteStatement {
      const cached = statements.get(text);
      if (cached) return cached;
      const statement = db.prepare(text) as unknown as SqliteStatement;
      if (!seenOnce.has(text)) {
        if (seenOnce.size < MAX_CACHED_STATEMENTS) seenOnce.add(text);
      } else if (statements.size < MAX_CACHED_STATEMENTS) {
        seenOnce.delete(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** An open, migrated SQLite database: Kysely on top, the raw connection for what Kysely cannot do. */
export interface OpenSqlite<DB> {
  db: Kysely<DB>;
  raw: Database.Database;
}

/** Opens (creating when needed) and migrates the SQLite file at `path` (":memory:" allowed). */
export async function openSqliteDatabase<DB>(
  path: string,
  migrations: MigrationList,
): Promise<OpenSqlite<DB>> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  let raw: Database.Database;
  try {
    raw = new Database(path);
    // Another process (the keys CLI) may hold the lock for a moment: waited for from the first
    // statement on, since switching to WAL takes the lock too (set after it, a keys CLI still
    // closing the file made the server's start fail with "database is locked").
    raw.exec("PRAGMA busy_timeout = 5000");
    raw.exec("PRAGMA journal_mode = WAL");
    raw.exec("PRAGMA synchronous = FULL");
  } catch (err) {
    throw new Error(`cannot open the SQLite database at ${path}: ${(err as Error).message}`);
  }
  const db = new Kysely<DB>({
    dialect: new SqliteDialectWithTransactionalDdl({ database: withStatementCache(raw) }),
  });
  try {
    await migrateToLatest(db as Kysely<unknown>, migrations("sqlite"));
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, raw };
}
