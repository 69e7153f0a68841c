/**
 * The embedded SQLite store (libsql, better-sqlite3 compatible). WAL with synchronous=FULL: a
 * commit is on disk before the 201 leaves, so an acknowledged pet survives a crash.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement } from "kysely";
import Database from "libsql";
import { StoreUnavailableError } from "../errors.js";
import { KyselyStore } from "./kysely-store.js";
import { migrateToLatest } from "./migrations.js";
import type { Database as Schema } from "./schema.js";

// Errors that mean the file cannot be used right now (locked, disk, permissions), not a bug.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|PROTOCOL|NOTADB|CORRUPT)/;
const MAX_CACHED_STATEMENTS = 200;

function classifySqliteError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNAVAILABLE.test(code)) {
    return new StoreUnavailableError(`SQLite unavailable (${code})`, { cause: err });
  }
  return err;
}

/**
 * Kysely prepares every query anew; the queries of this store are a small fixed set, so each SQL
 * text is prepared once and its statement reused (the single connection runs one at a time).
 */
function withStatementCache(db: Database.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(text: string): SqliteStatement {
      let statement = statements.get(text);
      if (!statement) {
        statement = db.prepare(text) as unknown as SqliteStatement;
        if (statements.size < MAX_CACHED_STATEMENTS) statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** The SQLite store, which can report the durability settings its connection runs with. */
export class SqliteStore extends KyselyStore {
  constructor(
    db: Kysely<Schema>,
    private readonly raw: Database.Database,
  ) {
    super("sqlite", db, classifySqliteError);
  }

  /** The connection's journal mode and synchronous level (2 = FULL). */
  durability(): { journalMode: string; synchronous: number } {
    const journalMode = this.raw.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
    const synchronous = this.raw.prepare("PRAGMA synchronous").get() as { synchronous: number };
    return { journalMode: journalMode.journal_mode, synchronous: synchronous.synchronous };
  }
}

/** Opens (creating when needed) and migrates the SQLite file at `path` (":memory:" allowed). */
export async function openSqliteStore(path: string): Promise<SqliteStore> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  let raw: Database.Database;
  try {
    raw = new Database(path);
    raw.exec("PRAGMA journal_mode = WAL");
    raw.exec("PRAGMA synchronous = FULL");
    // Another process (the keys CLI) may hold the write lock for a moment.
    raw.exec("PRAGMA busy_timeout = 5000");
  } catch (err) {
    throw new Error(`cannot open the SQLite database at ${path}: ${(err as Error).message}`);
  }
  const db = new Kysely<Schema>({
    dialect: new SqliteDialect({ database: withStatementCache(raw) }),
  });
  try {
    await migrateToLatest(db as Kysely<unknown>, "sqlite");
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return new SqliteStore(db, raw);
}
