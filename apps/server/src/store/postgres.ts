/**
 * The PostgreSQL store: the same Kysely queries as SQLite over the engine's pg pool. When
 * PostgreSQL is unreachable at start the store is returned anyway, answering 503 until its
 * database is prepared (retried in the background).
 */

import type { NewPet, Pet } from "@animal-store/api-types";
import {
  classified,
  classifyPostgresError,
  type ErrorClassifier,
  openPostgresDatabase,
  type PostgresOptions,
  preparedLater,
  StoreUnavailableError,
} from "@animal-store/openapi-engine/storage";
import type { Insertable, Kysely } from "kysely";
import type pg from "pg";
import { BatchedCreates } from "./batched-creates.js";
import {
  inIdOrder,
  type PostgresTextColumn,
  postgresJsonPageSql,
  postgresTextPageSql,
  type TextProperty,
} from "./json-pages.js";
import { KyselyStore, pageShape, petsPageQuery } from "./kysely-store.js";
import { petStoreMigrations } from "./migrations.js";
import { arrayMapperFor, toPet, toPets, toRow } from "./pet-rows.js";
import { type TableColumn, type UnnestInsert, unnestInsert } from "./postgres-inserts.js";
import type { Database, PetsTable } from "./schema.js";
import type { PetQuery, PetsText, Store } from "./types.js";

/** What the table's columns allow: pages read as JSON, creates inserted from arrays. */
interface TableShape {
  jsonPages: JsonPages | undefined;
  insert: UnnestInsert | undefined;
  columns: (TableColumn & PostgresTextColumn)[];
  /** The text page queries of each list of item properties asked for (json-pages.ts). */
  textPages: Map<readonly TextProperty[], PageQueries | undefined>;
}

/** A page query of each shape, and the batched ones of the shapes read that way. */
interface PageQueries {
  queries: { name: string; text: string }[];
  batched: ({ name: string; text: string } | undefined)[];
}

/** A text page query's row (postgresTextPageSql). */
interface TextPageRow {
  page: string;
  count: number;
  last_id: number | null;
  more: boolean;
  exact: boolean;
}

/**
 * The pages of the table as JSON, and how to read a row of them: one page per statement by shape
 * (`queries`), and several pages of one shape per statement, one array of values per parameter
 * (batchedPageSql), for the shapes read that way (`batched`).
 */
interface JsonPages extends PageQueries {
  idIndex: number;
  toPet: (row: unknown[]) => Pet;
}

/** A page asked for in this turn of the event loop, waiting for its statement's row. */
export interface PageRequest {
  values: unknown[];
  /** The page's row: `page` and, for a text page, what postgresTextPageSql answers beside it. */
  resolve(row: { page: unknown }): void;
  reject(err: unknown): void;
}

/**
 * The most pages one statement reads: PostgreSQL reads a statement's pages one after another in one
 * backend, so a bound keeps one statement's time (and the last page's wait) bounded too.
 */
export const MAX_PAGES_PER_STATEMENT = 32;

/**
 * The pages of one shape in one statement: `single` (a JSON page query whose parameters are $1..$n)
 * run once per row of the arrays given as parameters, its $k replaced by that row's k-th value.
 * `types` are the parameters' PostgreSQL types. Each row answers the position of its values and
 * its page, so every caller gets its own.
 */
export function batchedPageSql(single: string, types: readonly string[]): string {
  const { inner, args } = perRowOfArrays(single, types);
  return `select page_args.n::int as n, (${inner}) as page from ${args}`;
}

/** batchedPageSql for a query answering several columns (a text page's): each row's are kept. */
export function batchedRowsSql(single: string, types: readonly string[]): string {
  const { inner, args } = perRowOfArrays(single, types);
  return `select page_args.n::int as n, page_row.* from ${args}, lateral (${inner}) as page_row`;
}

/** `single` with its $k read from `page_args`, and `page_args`: the arrays' rows, numbered. */
function perRowOfArrays(single: string, types: readonly string[]) {
  const columns = types.map((_, i) => `a${i + 1}`);
  const inner = single.replace(/\$(\d+)\b/g, (_, k: string) => `page_args.a${k}`);
  const arrays = types.map((type, i) => `$${i + 1}::${type}[]`).join(", ");
  return {
    inner,
    args: `unnest(${arrays}) with ordinality as page_args(${columns.join(", ")}, n)`,
  };
}

/**
 * The distinct pages of `asked` (one shape's requests of one turn): requests with the same values
 * share one read and its answer. Exact, not a cache: the statement starts after every one of them
 * was asked, as it would for each alone. Each caller still builds its own pets from the rows.
 */
export function distinctPages(asked: PageRequest[]): PageRequest[] {
  if (asked.length < 2) return asked;
  const byValues = new Map<string, PageRequest[]>();
  for (const request of asked) {
    const key = JSON.stringify(request.values);
    const same = byValues.get(key);
    if (same === undefined) byValues.set(key, [request]);
    else same.push(request);
  }
  if (byValues.size === asked.length) return asked;
  return Array.from(byValues.values(), (same) =>
    same.length === 1
      ? (same[0] as PageRequest)
      : {
          values: (same[0] as PageRequest).values,
          resolve: (row: { page: unknown }) => {
            for (const request of same) request.resolve(row);
          },
          reject: (err: unknown) => {
            for (const request of same) request.reject(err);
          },
        },
  );
}

/** The advisory lock Animal Store instances take turns migrating under (the schema is appended). */
const MIGRATION_LOCK = "animal-store";

/** Options of the PostgreSQL store. */
export interface PostgresStoreOptions extends Omit<PostgresOptions, "lockName"> {
  /** Skip creating and migrating the schema (for a store whose database is known to be down). */
  skipMigrations?: boolean;
}

/**
 * The Kysely store with group commit for creates (batched-creates.ts): a multi-row insert per
 * batch, each caller acknowledged after its commit. Migration 0002's trigger fires once per
 * statement, so a batch draws consecutive ids under one advisory lock and becomes visible at once.
 */
export class PostgresStore extends KyselyStore {
  private readonly creates = new BatchedCreates((pets) => this.insertMany(pets));
  /**
   * The page query of each shape (with or without status, after an id or not): Kysely's own SQL
   * (the one the plan tests pin), compiled once and run as a named statement, which each
   * connection parses and plans once instead of on every request.
   */
  private readonly pageQueries: { name: string; text: string }[];
  /**
   * What the table's columns allow (json-pages.ts, postgres-inserts.ts): read at the first list or
   * create (the database may be down at start), then kept.
   */
  private tableShape: Promise<TableShape | undefined> | undefined;
  /** The same, once read. */
  private knownShape: TableShape | undefined;
  /**
   * The JSON pages asked for in this turn of the event loop, by shape: the pages of a shape without
   * a status filter are read in one statement (batchedPageSql), saving a round trip, a write, a
   * result and a plan's start per page; a page alone, or filtered, is read by its own statement.
   * A page asked for more than once in the turn (the same shape and values) is read once.
   * Each statement starts after all of its pages were asked for, so none misses a write
   * acknowledged before it was asked.
   */
  private readonly pendingPages: PageRequest[][] = [[], [], [], []];
  /** The same for text pages, by their queries (one set in practice: the served contract's). */
  private readonly pendingTextPages = new Map<PageQueries, PageRequest[][]>();
  private pagesScheduled = false;

  constructor(
    db: Kysely<Database>,
    classify: ErrorClassifier,
    private readonly pool: pg.Pool,
  ) {
    super("postgres", db, classify);
    this.pageQueries = [0, 1, 2, 3].map((shape) => ({
      name: `animal_store_pets_page_${shape}`,
      text: petsPageQuery(db, {
        limit: 1,
        status: shape & 1 ? "available" : undefined,
        afterId: shape & 2 ? 1 : undefined,
      }).compile().sql,
    }));
  }

  override listPets(query: PetQuery): Promise<Pet[]> {
    const { shape, params: values } = pageShape(query);
    return classified(this.classify, async () => {
      // Known after the first read: no promise to wait for on every list.
      const pages = (this.knownShape ?? (await this.readTableShape()))?.jsonPages;
      if (pages !== undefined) {
        const { page } = await new Promise<{ page: unknown }>((resolve, reject) => {
          (this.pendingPages[shape] as PageRequest[]).push({ values, resolve, reject });
          this.schedulePendingPages();
        });
        return inIdOrder(page as unknown[][], pages.idIndex).map(pages.toPet);
      }
      const { name, text } = this.pageQueries[shape] as { name: string; text: string };
      const result = await this.pool.query({ name, text, values });
      return toPets(result.rows);
    });
  }

  /**
   * The page `listPets` would read (asked for one more pet), as its JSON text
   * (json-pages.ts postgresTextPageSql), read in this turn's statements as the JSON pages are.
   */
  override listPetsText(
    query: PetQuery,
    items: readonly TextProperty[],
  ): Promise<PetsText | undefined> {
    // One pet more than the page: postgresTextPageSql tells from it whether more follow.
    const { shape, params: values } = pageShape({ ...query, limit: query.limit + 1 });
    return classified(this.classify, async () => {
      const table = this.knownShape ?? (await this.readTableShape());
      const queries = table === undefined ? undefined : this.textPagesOf(table, items);
      if (queries === undefined) return undefined;
      let row: TextPageRow;
      try {
        row = (await new Promise<{ page: unknown }>((resolve, reject) => {
          let pending = this.pendingTextPages.get(queries);
          if (pending === undefined) {
            pending = [[], [], [], []];
            this.pendingTextPages.set(queries, pending);
          }
          (pending[shape] as PageRequest[]).push({ values, resolve, reject });
          this.schedulePendingPages();
        })) as unknown as TextPageRow;
      } catch {
        // Whatever failed (an outage too), `listPets` answers the page or fails with its error.
        return undefined;
      }
      if (!row.exact) return undefined;
      const lastId = row.last_id ?? undefined;
      return { text: row.page, count: row.count, lastId, more: row.more };
    });
  }

  private textPagesOf(table: TableShape, items: readonly TextProperty[]): PageQueries | undefined {
    if (table.textPages.has(items)) return table.textPages.get(items);
    const texts = this.pageQueries.map(({ text }) =>
      postgresTextPageSql(text, items, table.columns),
    );
    let queries: PageQueries | undefined;
    if (texts.every((text) => text !== undefined)) {
      // Named per list of items: another list is another statement text.
      const tag = `${table.textPages.size}`;
      queries = {
        queries: texts.map((text, shape) => ({
          name: `animal_store_pets_text_page_${tag}_${shape}`,
          text,
        })),
        // Batched as the JSON pages are, and for the same reason only without the status filter.
        batched: texts.map((text, shape) =>
          shape & 1
            ? undefined
            : {
                name: `animal_store_pets_text_pages_${tag}_${shape}`,
                text: batchedRowsSql(text, [...(shape & 2 ? ["bigint"] : []), "bigint"]),
              },
        ),
      };
    }
    table.textPages.set(items, queries);
    return queries;
  }

  private schedulePendingPages(): void {
    if (this.pagesScheduled) return;
    this.pagesScheduled = true;
    setImmediate(() => {
      this.pagesScheduled = false;
      const pages = this.knownShape?.jsonPages;
      if (pages !== undefined) this.readPending(this.pendingPages, pages);
      for (const [queries, pending] of this.pendingTextPages) this.readPending(pending, queries);
    });
  }

  /**
   * Reads the pages asked for in this turn: each distinct page once, one statement per shape and up
   * to MAX_PAGES_PER_STATEMENT distinct pages.
   */
  private readPending(pending: PageRequest[][], pages: PageQueries): void {
    for (const [shape, asked] of pending.entries()) {
      if (asked.length === 0) continue;
      pending[shape] = [];
      const waiting = distinctPages(asked);
      const batched = pages.batched[shape];
      const size = batched === undefined ? 1 : MAX_PAGES_PER_STATEMENT;
      for (let from = 0; from < waiting.length; from += size) {
        const requests = waiting.slice(from, from + size);
        const read =
          batched === undefined || requests.length === 1
            ? this.readOnePage(pages.queries[shape] as { name: string; text: string }, requests)
            : this.readPages(batched, requests);
        read.catch((err: unknown) => {
          for (const request of requests) request.reject(err);
        });
      }
    }
  }

  private async readOnePage(query: { name: string; text: string }, [request]: PageRequest[]) {
    const result = await this.pool.query<{ page: unknown }>({
      ...query,
      values: (request as PageRequest).values,
    });
    (request as PageRequest).resolve(result.rows[0] as { page: unknown });
  }

  private async readPages(query: { name: string; text: string }, requests: PageRequest[]) {
    // One array per parameter: the k-th holds every request's k-th value.
    const values = (requests[0] as PageRequest).values.map((_, k) =>
      requests.map((request) => request.values[k]),
    );
    const result = await this.pool.query<{ n: number; page: unknown }>({ ...query, values });
    const answered = new Set<number>();
    for (const row of result.rows) {
      answered.add(row.n);
      requests[row.n - 1]?.resolve(row);
    }
    if (answered.size !== requests.length) throw new Error("a batched page read lost a page");
  }

  /** The table's shape, read the first time its columns can be read. */
  private readTableShape(): Promise<TableShape | undefined> {
    this.tableShape ??= this.pool
      .query<TableColumn & PostgresTextColumn>(
        `select column_name as name, data_type as type, column_default as "default",
            is_nullable = 'YES' as nullable
          from information_schema.columns
          where table_schema = current_schema() and table_name = 'pets' order by ordinal_position`,
      )
      .then(({ rows: columns }) => {
        if (columns.length === 0) {
          // No table yet (its migration has not run): ask again next time.
          this.tableShape = undefined;
          return undefined;
        }
        this.knownShape = {
          jsonPages: this.jsonPagesOf(columns),
          insert: unnestInsert(columns),
          columns,
          textPages: new Map(),
        };
        return this.knownShape;
      })
      .catch(() => {
        // Unreadable now (the database is down): the generic queries answer (or fail) this
        // time, and the next call asks again.
        this.tableShape = undefined;
        return undefined;
      });
    return this.tableShape;
  }

  private jsonPagesOf(columns: TableColumn[]): JsonPages | undefined {
    const names = columns.map((column) => column.name);
    const queries = this.pageQueries.map(({ name, text }) => ({
      name: name.replace("pets_page", "pets_json_page"),
      text: postgresJsonPageSql(text, columns),
    }));
    if (queries.some((query) => query.text === undefined)) return undefined;
    // Only the shapes without a status filter are batched: run once per row of the arrays, the
    // filter's value is unknown when PostgreSQL plans, and it then picks the primary key with a
    // filter over the (status, id) index, reading every row of other statuses up to the page.
    const batched = queries.map(({ name, text }, shape) =>
      shape & 1
        ? undefined
        : {
            name: name.replace("json_page", "json_pages"),
            // The parameters in Kysely's order: the id after which, the limit.
            text: batchedPageSql(text as string, [...(shape & 2 ? ["bigint"] : []), "bigint"]),
          },
    );
    return {
      queries: queries as { name: string; text: string }[],
      batched,
      idIndex: names.indexOf("id"),
      toPet: arrayMapperFor(names),
    };
  }

  override createPet(pet: NewPet): Promise<Pet> {
    return this.creates.add(pet);
  }

  private insertMany(pets: NewPet[]): Promise<Pet[]> {
    return classified(this.classify, async () => {
      const insert = (this.knownShape ?? (await this.readTableShape()))?.insert;
      if (insert !== undefined) {
        const result = await this.pool.query({
          name: "animal_store_pets_insert",
          text: insert.text,
          values: insert.values(pets),
        });
        return result.rows.map(toPet);
      }
      const rows = await this.db
        .insertInto("pets")
        .values(pets.map((pet) => toRow(pet) as Insertable<PetsTable>))
        .returningAll()
        .execute();
      return rows.map(toPet);
    });
  }

  override async close(): Promise<void> {
    await this.creates.idle();
    await super.close();
  }
}

/** Creates the pool, the schema and the tables (migrations) and returns the store. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const { db, pool, prepare } = openPostgresDatabase<Database>(
    { ...options, lockName: MIGRATION_LOCK },
    petStoreMigrations,
  );
  const store = new PostgresStore(db, classifyPostgresError, pool);
  if (options.skipMigrations) return store;
  try {
    await prepare();
  } catch (err) {
    if (classifyPostgresError(err) instanceof StoreUnavailableError) {
      return preparedLater(store, prepare, undefined, err);
    }
    await db.destroy();
    throw new Error(`cannot prepare the PostgreSQL database: ${(err as Error).message}`);
  }
  return store;
}
