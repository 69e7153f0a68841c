/**
 * The embedded SQLite store (libsql, better-sqlite3 compatible). WAL with synchronous=FULL: a
 * commit is on disk before the 201 leaves, so an acknowledged pet survives a crash.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { NewPet, Pet } from "@animal-store/api-types";
import {
  Kysely,
  type Selectable,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
} from "kysely";
import Database from "libsql";
import { StoreUnavailableError } from "../errors.js";
import { KyselyStore, toPet } from "./kysely-store.js";
import { migrateToLatest } from "./migrations.js";
import type { PetsTable, Database as Schema } from "./schema.js";

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

interface PendingCreate {
  pet: NewPet;
  resolve: (pet: Pet) => void;
  reject: (err: unknown) => void;
}

const INSERT_PET = "insert into pets (name, category_id, status) values (?, ?, ?) returning *";

/**
 * The SQLite store, with group commit for creates, and able to report the durability settings its
 * connection runs with.
 *
 * Group commit: with synchronous=FULL every commit waits for an fsync, and libsql's calls are
 * synchronous, so one commit per create stalls the whole event loop once per create. Creates that
 * arrive in the same turn of the event loop are instead written in one transaction, one fsync for
 * all of them, and each promise settles only after that commit: nothing is acknowledged before it
 * is on disk, and if the commit fails, none of the batch is stored and every caller gets the error.
 */
export class SqliteStore extends KyselyStore {
  private pending: PendingCreate[] = [];
  private readonly insertPet: Database.Statement;

  constructor(
    db: Kysely<Schema>,
    private readonly raw: Database.Database,
  ) {
    super("sqlite", db, classifySqliteError);
    this.insertPet = raw.prepare(INSERT_PET);
  }

  override createPet(pet: NewPet): Promise<Pet> {
    return new Promise((resolve, reject) => {
      this.pending.push({ pet, resolve, reject });
      // setImmediate runs after this turn's I/O callbacks: requests read together commit together.
      if (this.pending.length === 1) setImmediate(() => this.commitPending());
    });
  }

  /** Writes every pending create in one transaction (one fsync), then settles their promises. */
  private commitPending(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    let rows: Array<Selectable<PetsTable>>;
    try {
      rows = this.insertInOneTransaction(batch.map(({ pet }) => pet));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(classifySqliteError(err));
        return;
      }
      // Nothing of the batch was stored. Retry each on its own, so that a create the database
      // refuses fails alone and the others are still stored.
      for (const item of batch) {
        try {
          const [row] = this.insertInOneTransaction([item.pet]);
          item.resolve(toPet(row as Selectable<PetsTable>));
        } catch (single) {
          item.reject(classifySqliteError(single));
        }
      }
      return;
    }
    for (const [i, { resolve }] of batch.entries()) {
      resolve(toPet(rows[i] as Selectable<PetsTable>));
    }
  }

  private insertInOneTransaction(pets: NewPet[]): Array<Selectable<PetsTable>> {
    this.raw.exec("BEGIN IMMEDIATE");
    try {
      // all(), not get(): a libsql statement whose get() failed keeps failing with that error.
      const rows = pets.map(
        (pet) =>
          this.insertPet.all(
            pet.name,
            pet.categoryId,
            pet.status ?? null,
          )[0] as Selectable<PetsTable>,
      );
      this.raw.exec("COMMIT");
      return rows;
    } catch (err) {
      if (this.raw.inTransaction) this.raw.exec("ROLLBACK");
      throw err;
    }
  }

  override async close(): Promise<void> {
    this.commitPending();
    await super.close();
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
