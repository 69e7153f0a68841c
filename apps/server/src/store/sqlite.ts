/**
 * The embedded SQLite store of the Animal Store: the engine's SQLite database (WAL,
 * synchronous=FULL) with group commit for creates.
 */
import type { NewPet, Pet } from "@animal-store/api-types";
import { classifySqliteError, openSqliteDatabase } from "@animal-store/openapi-engine/storage";
import type { Kysely } from "kysely";
import type Database from "libsql";
import {
  jsonPageSql,
  type PageColumn,
  pageRows,
  rowidAliasOf,
  sqliteOddRowSql,
  sqliteTextPageSql,
  type TableColumnInfo,
  type TextPageSql,
  type TextProperty,
  textOfPage,
} from "./json-pages.js";
import { KyselyStore, pageShape, petsPageQuery } from "./kysely-store.js";
import { petStoreMigrations } from "./migrations.js";
import { arrayMapperFor, compileRowValues, mapperFor, sqlIdentifier } from "./pet-rows.js";
import type { Database as Schema } from "./schema.js";
import { installTextGuard } from "./text-guard.js";
import type { PetQuery, PetsText } from "./types.js";

interface PendingCreate {
  pet: NewPet;
  resolve: (pet: Pet) => void;
  reject: (err: unknown) => void;
}

type Row = Record<string, unknown>;

/**
 * A prepared page query, its rows read as arrays, and the mapper of its columns; and the same
 * page read as one JSON text, where that is exact (json-pages.ts), with where the id is in a row.
 */
interface PageQuery {
  /** The page read row by row: prepared on first use, as only pages JSON cannot carry need it. */
  rowByRow: () => Database.Statement;
  /** The JSON page statement; prepared again after a failure (see `listPets`). */
  json: Database.Statement | undefined;
  jsonSql: string | undefined;
  idIndex: number;
  toPet: (row: unknown[]) => Pet;
  /** Kysely's SQL of the page, as prepared row by row. */
  inner: string;
}

/**
 * A page query answering the page's JSON text (json-pages.ts sqliteTextPageSql), in two forms:
 * `guarded`, which checks nothing while the text guard's table holds no row (text-guard.ts), and
 * `checked`, which checks the page on aggregates, asked when it does.
 */
interface TextPageQuery {
  removals: TextPageSql["removals"];
  guardedSql: string | undefined;
  /** Undefined when the guard could not be installed, or its statement could not be prepared. */
  guarded: Database.Statement | undefined;
  checkedSql: string;
  /** Prepared on first use, and again after a failure, as `PageQuery.json`. */
  checked: Database.Statement | undefined;
}

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
  /** One insert of every column the table has but the id, and its values, compiled at open. */
  private readonly insertPet: Database.Statement;
  private readonly valuesOf: (pet: NewPet) => unknown[];
  /** The same with the id too, for pets that have one already (replacePets). */
  private readonly insertWithId: Database.Statement;
  private readonly valuesWithId: (pet: Pet) => unknown[];
  private readonly rowToPet: (row: Row) => Pet;
  /** The page query of each shape (with or without status, after an id or not), prepared once. */
  private readonly pageQueries: PageQuery[];
  private readonly tableInfo: TableColumnInfo[];
  private readonly rowidAlias: string | undefined;
  /**
   * The text page query of each shape, by the item properties asked for (one list in practice:
   * the served contract's), prepared at their first page; undefined for a shape whose text could
   * not be written (a property without a column of its type).
   */
  private readonly textPages = new Map<readonly TextProperty[], (TextPageQuery | undefined)[]>();
  /** `anyAfter`'s statements, without and with the status filter. */
  private readonly existsAfter: (Database.Statement | undefined)[] = [undefined, undefined];

  constructor(
    db: Kysely<Schema>,
    private readonly raw: Database.Database,
  ) {
    super("sqlite", db, classifySqliteError);
    // The table's own columns (a migration may have added some): nothing here lists them.
    const tableInfo = raw.prepare("PRAGMA table_info(pets)").all() as TableColumnInfo[];
    const all = tableInfo.map((column) => column.name);
    const created = raw
      .prepare("select sql from sqlite_schema where type = 'table' and name = 'pets'")
      .get() as { sql: string } | undefined;
    const rowidAlias = rowidAliasOf(tableInfo, created?.sql ?? "");
    this.tableInfo = tableInfo;
    this.rowidAlias = rowidAlias;
    const written = all.filter((column) => column !== "id");
    const insertOf = (columns: string[]) => {
      const names = columns.map(sqlIdentifier).join(", ");
      const marks = columns.map(() => "?").join(", ");
      return raw.prepare(`insert into pets (${names}) values (${marks}) returning *`);
    };
    this.insertPet = insertOf(written);
    this.valuesOf = compileRowValues(written);
    this.insertWithId = insertOf(all);
    this.valuesWithId = compileRowValues(all);
    this.rowToPet = mapperFor(all);
    // Kysely's own SQL for each shape (the one the plan tests pin), compiled and prepared here
    // instead of built per request; its parameters come in the order status, afterId, limit.
    this.pageQueries = [0, 1, 2, 3].map((shape) => {
      const query = petsPageQuery(db, {
        limit: 1,
        status: shape & 1 ? "available" : undefined,
        afterId: shape & 2 ? 1 : undefined,
      });
      // Rows as arrays (raw): the driver builds no object per row; the mapper builds the pet.
      const inner = query.compile().sql;
      // Described once, then left to the garbage collector: a statement kept alive holds part of
      // the connection's lookaside memory, which every query draws on (engine storage/sqlite-database.ts).
      const described = raw.prepare(inner).columns() as PageColumn[];
      const columns = described.map((c) => c.name);
      const jsonSql = jsonPageSql(inner, described, rowidAlias);
      const json = jsonSql === undefined ? undefined : raw.prepare(jsonSql).raw(true);
      let statement: Database.Statement | undefined;
      const rowByRow = () => {
        statement ??= raw.prepare(inner).raw(true);
        return statement;
      };
      return {
        rowByRow,
        json,
        jsonSql,
        idIndex: columns.indexOf("id"),
        toPet: arrayMapperFor(columns),
        inner,
      };
    });
  }

  override listPets(query: PetQuery): Promise<Pet[]> {
    try {
      const { shape, params } = pageShape(query);
      const page = this.pageQueries[shape] as PageQuery;
      let rows: unknown[][] | undefined;
      if (page.json !== undefined) {
        try {
          // get(): the page is one row, so all()'s iterator would be work for nothing.
          rows = pageRows(page.json.get(...params) as unknown[], page.idIndex);
        } catch {
          // A value JSON cannot hold (a BLOB), or any other failure: the row-by-row read below
          // answers the page or fails with the error itself. libsql leaves a statement whose
          // get() failed failing with that error on every later call, so it is prepared again.
          page.json = this.raw.prepare(page.jsonSql as string).raw(true);
        }
      }
      rows ??= page.rowByRow().all(...params) as unknown[][];
      return Promise.resolve(rows.map(page.toPet));
    } catch (err) {
      return Promise.reject(classifySqliteError(err));
    }
  }

  /**
   * The page `listPets` would read, as its JSON text (json-pages.ts sqliteTextPageSql): one
   * statement, no object per pet, nothing serialized again. When the page is full, one more
   * statement asks whether a pet follows it (`anyAfter`).
   */
  override listPetsText(
    query: PetQuery,
    items: readonly TextProperty[],
  ): Promise<PetsText | undefined> {
    const { limit, status } = query;
    try {
      const { shape, params } = pageShape(query);
      const page = this.textPagesFor(items)[shape];
      if (page === undefined) return Promise.resolve(undefined);
      let answer = this.guardedAnswer(page, params);
      if (answer === undefined || answer[3] !== 1) {
        try {
          page.checked ??= this.raw.prepare(page.checkedSql).raw(true);
          answer = page.checked.get(...params) as unknown[];
        } catch {
          // A value the text cannot hold (a BLOB), a sum beyond 64 bits, or any other failure:
          // `listPets` answers the page or fails with the error itself. Prepared again, as a
          // statement whose get() failed keeps failing (see listPets).
          page.checked = undefined;
          return Promise.resolve(undefined);
        }
        if (answer[3] !== 1) return Promise.resolve(undefined);
      }
      const count = answer[1] as number;
      const lastId = count === 0 ? undefined : (answer[2] as number);
      const more = lastId !== undefined && count >= limit && this.anyAfter(status, lastId);
      const text = textOfPage(answer[0] as string, page.removals);
      return Promise.resolve({ text, count, lastId, more });
    } catch (err) {
      return Promise.reject(classifySqliteError(err));
    }
  }

  /**
   * Whether a pet of the query follows `lastId`: `exists` around the page query after an id,
   * limit 1, read with get(): all() would build libsql's iterator for that one row, on every
   * page that may have a next one.
   */
  private anyAfter(status: string | undefined, lastId: number): boolean {
    const shape = status === undefined ? 0 : 1;
    let statement = this.existsAfter[shape];
    if (statement === undefined) {
      const after = (this.pageQueries[shape | 2] as PageQuery).inner;
      statement = this.raw.prepare(`select exists (${after})`).raw(true);
      this.existsAfter[shape] = statement;
    }
    const params = status === undefined ? [lastId, 1] : [status, lastId, 1];
    try {
      return (statement.get(...params) as [number])[0] === 1;
    } catch (err) {
      // Prepared again on the next call: a statement whose get() failed keeps failing.
      this.existsAfter[shape] = undefined;
      throw err;
    }
  }

  /**
   * Prepares the text pages of `items` (and installs their guard) now rather than at the first
   * page: the guard's first scan reads the whole table once.
   */
  override prepareTextPages(items: readonly TextProperty[]): Promise<void> {
    try {
      this.textPagesFor(items);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(classifySqliteError(err));
    }
  }

  private textPagesFor(items: readonly TextProperty[]): (TextPageQuery | undefined)[] {
    let pages = this.textPages.get(items);
    if (pages === undefined) {
      const guard = this.textGuard(items);
      pages = this.pageQueries.map(({ inner }) => {
        const { tableInfo, rowidAlias } = this;
        const checked = sqliteTextPageSql(inner, items, tableInfo, rowidAlias);
        if (checked === undefined) return undefined;
        const guarded =
          guard === undefined
            ? undefined
            : sqliteTextPageSql(inner, items, tableInfo, rowidAlias, guard);
        return {
          removals: checked.removals,
          guardedSql: guarded?.sql,
          guarded: guarded && this.raw.prepare(guarded.sql).raw(true),
          checkedSql: checked.sql,
          checked: undefined,
        };
      });
      this.textPages.set(items, pages);
    }
    return pages;
  }

  /**
   * The guarded statement's answer, or undefined when it failed: a BLOB in the page (the guard
   * then says so too, but SQLite's JSON may refuse it first), or its guard's table dropped by
   * another connection. Prepared again, as a statement whose get() failed keeps failing (see
   * listPets); one that cannot be leaves the page to be checked as it is read, from then on.
   */
  private guardedAnswer(page: TextPageQuery, params: unknown[]): unknown[] | undefined {
    if (page.guarded === undefined) return undefined;
    try {
      return page.guarded.get(...params) as unknown[];
    } catch {
      try {
        page.guarded = this.raw.prepare(page.guardedSql as string).raw(true);
      } catch {
        page.guarded = undefined;
      }
      return undefined;
    }
  }

  /**
   * The guard of `items`' text (text-guard.ts), as the page query's condition; undefined when it
   * could not be installed (a database another connection holds locked, say): the pages are
   * then checked as they are read.
   */
  private textGuard(items: readonly TextProperty[]): string | undefined {
    const { tableInfo } = this;
    const id = items.find((item) => item.property === "id")?.column;
    if (id === undefined || sqliteOddRowSql(items, tableInfo, (c) => c) === undefined) {
      return undefined;
    }
    try {
      return installTextGuard(
        this.raw,
        id,
        (ref) => sqliteOddRowSql(items, tableInfo, ref) as string,
      );
    } catch {
      return undefined;
    }
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
    let rows: Row[];
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
          item.resolve(this.rowToPet(row as Row));
        } catch (single) {
          item.reject(classifySqliteError(single));
        }
      }
      return;
    }
    for (const [i, { resolve }] of batch.entries()) {
      resolve(this.rowToPet(rows[i] as Row));
    }
  }

  private insertInOneTransaction(pets: NewPet[]): Row[] {
    // BEGIN IMMEDIATE takes the write lock before any id is drawn and holds it to the commit, so
    // ids become visible in order, as keyset paging needs (see KyselyStore.createPet).
    this.raw.exec("BEGIN IMMEDIATE");
    try {
      // all(), not get(): a libsql statement whose get() failed keeps failing with that error.
      const rows = pets.map((pet) => this.insertPet.all(...this.valuesOf(pet))[0] as Row);
      this.raw.exec("COMMIT");
      return rows;
    } catch (err) {
      if (this.raw.inTransaction) this.raw.exec("ROLLBACK");
      throw err;
    }
  }

  /**
   * Replaces every pet with `pets`, each keeping its id, in one transaction; ids assigned later
   * continue above the highest of them, as after a fresh start on that data (the stateful mock's
   * seed and reset). Creates still waiting for their commit are committed first, then replaced.
   */
  replacePets(pets: readonly Pet[]): void {
    this.commitPending();
    this.raw.exec("BEGIN IMMEDIATE");
    try {
      this.raw.exec("delete from pets");
      // AUTOINCREMENT's high-water mark: without this, ids would go on from before the reset.
      this.raw.exec("delete from sqlite_sequence where name = 'pets'");
      for (const pet of pets) this.insertWithId.all(...this.valuesWithId(pet));
      this.raw.exec("COMMIT");
    } catch (err) {
      if (this.raw.inTransaction) this.raw.exec("ROLLBACK");
      throw classifySqliteError(err);
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
  const { db, raw } = await openSqliteDatabase<Schema>(path, petStoreMigrations);
  return new SqliteStore(db, raw);
}
