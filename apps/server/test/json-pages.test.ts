/**
 * SQLite and PostgreSQL answer a page of pets as one JSON value where that is exact, and row by
 * row where it is not (src/store/json-pages.ts): either way the page is the one the store's
 * generic row-by-row read (Kysely's query, the mapper) gives, value for value.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { PetStatus } from "@animal-store/api-types";
import { openSqliteDatabase } from "@animal-store/openapi-engine/storage";
import { useService } from "@animal-store/test-support";
import type Database from "libsql";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { jsonPageSql, rowidAliasOf, type TableColumnInfo } from "../src/store/json-pages.js";
import { KyselyStore } from "../src/store/kysely-store.js";
import { petStoreMigrations } from "../src/store/migrations.js";
import {
  distinctPages,
  MAX_PAGES_PER_STATEMENT,
  openPostgresStore,
  type PageRequest,
  type PostgresStore,
} from "../src/store/postgres.js";
import type { Database as Schema } from "../src/store/schema.js";
import { SqliteStore } from "../src/store/sqlite.js";
import type { PetQuery } from "../src/store/types.js";
import { paging } from "./support/paging.js";
import { tempDir } from "./support/test-app.js";

const postgres = await useService("postgres", "PostgreSQL JSON pages");
const temp = tempDir();
afterAll(() => temp.remove());
let files = 0;

/**
 * Text SQLite's and PostgreSQL's JSON must escape, or could mangle if they did not; and that a
 * PostgreSQL array literal must quote (creates go to PostgreSQL as one array per column).
 */
const awkwardNames = [
  'a "quoted" name',
  "back\\slash",
  "tab\tnew\nline\r",
  "\u0001\u001f control",
  "line\u2028separator\u2029",
  "emoji 🐶 and ünïcödé",
  "x".repeat(5_000),
  "  ",
  "null",
  "NULL",
  "[1,2]",
  "{a,b}",
  "a, b",
];

/**
 * A store on a fresh file, `prepare` run on the raw connection first (added columns, odd rows),
 * and every SQL text the store runs recorded.
 */
async function storeWith(prepare: (raw: Database.Database) => void = () => {}) {
  const { db, raw } = await openSqliteDatabase<Schema>(
    join(temp.dir, `json-pages-${files++}.db`),
    petStoreMigrations,
  );
  prepare(raw);
  const ran: string[] = [];
  const recording = new Proxy(raw, {
    get(target, key) {
      if (key !== "prepare") return Reflect.get(target, key, target);
      return (source: string) => {
        const statement = target.prepare(source);
        const methods = statement as unknown as Record<string, (...params: unknown[]) => unknown>;
        for (const method of ["all", "get"]) {
          const run = (methods[method] as (...params: unknown[]) => unknown).bind(statement);
          methods[method] = (...params: unknown[]) => {
            ran.push(source);
            return run(...params);
          };
        }
        return statement;
      };
    },
  });
  const store = new SqliteStore(db, recording);
  return { store, raw, ran };
}

/** Every page shape: with and without the status filter, from the start and after an id. */
function queries(afterId: number): PetQuery[] {
  const status = paging.statuses[0] as PetStatus;
  return [0, 1, 7, paging.limit.maximum].flatMap((limit) => [
    { limit },
    { limit, status },
    { limit, afterId },
    { limit, status, afterId },
  ]);
}

/** The store's page, and the page of its generic row-by-row read (KyselyStore's). */
async function bothReads(store: SqliteStore | PostgresStore, query: PetQuery) {
  return {
    read: await store.listPets(query),
    rowByRow: await KyselyStore.prototype.listPets.call(store, query),
  };
}

describe("SQLite pages read as one JSON text", () => {
  it("read in one query, the same pages as row by row, awkward text and absent statuses included", async () => {
    const { store, ran } = await storeWith();
    try {
      const statuses = [...paging.statuses, undefined];
      for (const [i, name] of awkwardNames.entries()) {
        const status = statuses[i % statuses.length] as PetStatus | undefined;
        await store.createPet({ name, categoryId: i, ...(status ? { status } : {}) });
      }
      for (const query of queries(3)) {
        ran.length = 0;
        const { read, rowByRow } = await bothReads(store, query);
        expect(read, JSON.stringify(query)).toEqual(rowByRow);
        // The fast path was the one taken: one statement, the JSON page (Kysely's own read runs
        // on the connection itself, not through the recording).
        expect(ran.length, JSON.stringify(query)).toBe(1);
        expect(ran[0]).toMatch(/^select json_group_array\(json_array\(/);
      }
      const all = await store.listPets({ limit: paging.limit.maximum });
      expect(all.map((pet) => pet.name)).toEqual(awkwardNames);
    } finally {
      await store.close();
    }
  });

  it("an INTEGER column holding a REAL: that page is read row by row, the value exact", async () => {
    const { store, ran } = await storeWith((raw) => {
      raw.exec("alter table pets add column weight_kg bigint");
      // Written outside the API: INTEGER affinity keeps a value that is not an integer as REAL,
      // and SQLite's JSON would write it with 15 digits (0.3).
      raw.exec(`insert into pets (name, category_id, weight_kg) values
        ('light', 1, 0.1 + 0.2), ('heavy', 1, ${2 ** 64 + 2 ** 12}), ('whole', 1, 7)`);
    });
    try {
      ran.length = 0;
      const page = await store.listPets({ limit: 10 });
      expect(page.map((pet) => (pet as { weightKg?: number }).weightKg)).toEqual([
        0.1 + 0.2,
        2 ** 64 + 2 ** 12,
        7,
      ]);
      expect(ran[0]).toMatch(/^select json_group_array/);
      expect(ran[1]).not.toMatch(/json_group_array/);
      // A page without the REAL goes through JSON alone.
      ran.length = 0;
      expect(await store.listPets({ limit: 1, afterId: 2 })).toEqual([
        { id: 3, name: "whole", categoryId: 1, weightKg: 7 },
      ]);
      expect(ran).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("the table's rowid alias is left out of the REAL and BLOB check, every other column kept", async () => {
    const { store, raw, ran } = await storeWith();
    try {
      ran.length = 0;
      await store.listPets({ limit: 1 });
      // The migrated table's id is an INTEGER PRIMARY KEY: SQLite stores only integers there.
      expect(ran).toHaveLength(1);
      expect(ran[0]).toMatch(/typeof\("category_id"\) in \('real', 'blob'\)/);
      expect(ran[0]).toMatch(/'blob' in \(typeof\("name"\), typeof\("status"\)\)/);
      expect(ran[0]).not.toMatch(/typeof\("id"\)/);
      // Writing a REAL into it is refused (it is the rowid), so nothing can slip past.
      expect(() =>
        raw.exec("insert into pets (id, name, category_id) values (0.5, 'half', 1)"),
      ).toThrow(/datatype mismatch/i);
    } finally {
      await store.close();
    }
  });

  it("a primary key is named the rowid alias only where SQLite makes it one", async () => {
    const column = (name: string, type: string, pk: number): TableColumnInfo => ({
      name,
      type,
      pk,
      notnull: 0,
    });
    const id = (type: string) => [column("id", type, 1), column("n", "INTEGER", 0)];
    const table = 'create table "t" ("id" integer primary key autoincrement, "n" integer)';
    expect(rowidAliasOf(id("INTEGER"), table)).toBe("id");
    expect(rowidAliasOf(id("integer"), table)).toBe("id");
    // Not an alias: another declared type, a key of two columns, no rowid, or the DESC quirk.
    expect(rowidAliasOf(id("INT"), table)).toBeUndefined();
    expect(rowidAliasOf(id("BIGINT"), table)).toBeUndefined();
    expect(
      rowidAliasOf([column("a", "INTEGER", 1), column("b", "INTEGER", 2)], table),
    ).toBeUndefined();
    expect(rowidAliasOf(id("INTEGER"), `${table} without rowid`)).toBeUndefined();
    expect(
      rowidAliasOf(id("INTEGER"), 'create table "t" ("id" integer primary key desc, "n" integer)'),
    ).toBeUndefined();
    expect(rowidAliasOf([column("n", "INTEGER", 0)], table)).toBeUndefined();
    // The check of the page query: the alias left out, the other INTEGER column kept.
    const columns = [
      { name: "id", type: "INTEGER" },
      { name: "n", type: "INTEGER" },
    ];
    expect(jsonPageSql("select * from t", columns, "id")).toMatch(
      /count\(\*\) filter \(where typeof\("n"\) in \('real', 'blob'\)\) from/,
    );
    expect(jsonPageSql("select * from t", columns)).toMatch(
      /typeof\("id"\) in \('real', 'blob'\) or typeof\("n"\)/,
    );
  });

  it("a REAL column: the table is always read row by row", async () => {
    expect(
      jsonPageSql("select * from pets", [
        { name: "id", type: "INTEGER" },
        { name: "height_m", type: "REAL" },
      ]),
    ).toBeUndefined();
    const { store, ran } = await storeWith((raw) => {
      raw.exec("alter table pets add column height_m real");
      raw.exec("insert into pets (name, category_id, height_m) values ('tall', 1, 0.1 + 0.2)");
    });
    try {
      ran.length = 0;
      expect(await store.listPets({ limit: 5 })).toEqual([
        { id: 1, name: "tall", categoryId: 1, heightM: 0.1 + 0.2 },
      ]);
      expect(ran.some((source) => source.includes("json_group_array"))).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("a BLOB that SQLite's JSON would read as JSONB (null, true, {}): that page is read row by row", async () => {
    // x'00', x'01' and x'0C' are valid JSONB: json_array() writes them as null, true and {} with no
    // error, where the row-by-row read gives their bytes. Written outside the API, in each column.
    const { store, ran } = await storeWith((raw) => {
      raw.exec(`insert into pets (name, category_id, status) values
        (x'00', 1, 'available'), ('plain', x'01', 'available'), ('other', 1, x'0C'),
        ('clean', 2, 'sold')`);
    });
    try {
      const bytes = (value: unknown) => [...Buffer.from(value as ArrayBuffer)];
      // One page per row, so each column's check is what sends its page row by row.
      const pageOf = async (id: number) => {
        ran.length = 0;
        const [pet] = await store.listPets({ limit: 1, ...(id > 1 ? { afterId: id - 1 } : {}) });
        expect(ran[0], `pet ${id}`).toMatch(/^select json_group_array/);
        expect(ran[1], `pet ${id}`).not.toMatch(/json_group_array/);
        return pet as unknown as Record<string, unknown>;
      };
      expect(bytes((await pageOf(1)).name)).toEqual([0]);
      expect(bytes((await pageOf(2)).categoryId)).toEqual([1]);
      expect(bytes((await pageOf(3)).status)).toEqual([12]);
      // A page without them goes through JSON alone.
      ran.length = 0;
      expect(await store.listPets({ limit: 1, afterId: 3 })).toEqual([
        { id: 4, name: "clean", categoryId: 2, status: "sold" },
      ]);
      expect(ran).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("a BLOB in a text column (JSON cannot hold one): the page still answers, bytes and all", async () => {
    const { store, ran } = await storeWith((raw) => {
      raw.exec("insert into pets (name, category_id) values ('before', 1), (x'00ff10', 1)");
    });
    try {
      const read = await store.listPets({ limit: 5 });
      expect(read.map((pet) => pet.id)).toEqual([1, 2]);
      // The driver reads a BLOB as an ArrayBuffer row by row (Kysely's read, as a Buffer).
      expect([...Buffer.from(read[1]?.name as unknown as ArrayBuffer)]).toEqual([0, 255, 16]);
      // The JSON statement keeps working for the pages after: libsql's failed get() would fail
      // every later call too, which would send every page row by row.
      ran.length = 0;
      expect(await store.listPets({ limit: 1 })).toEqual([
        { id: 1, name: "before", categoryId: 1 },
      ]);
      expect(ran).toEqual([expect.stringMatching(/^select json_group_array/)]);
    } finally {
      await store.close();
    }
  });
});

describe("distinctPages: the pages of one turn, each read once", () => {
  function request(values: unknown[]) {
    const got: { row?: { page: unknown }; err?: unknown } = {};
    const asked: PageRequest = {
      values,
      resolve: (row) => {
        got.row = row;
      },
      reject: (err) => {
        got.err = err;
      },
    };
    return { asked, got };
  }

  it("requests with the same values share one read, its answer and its failure; the others stay their own", () => {
    const a = request(["available", 20]);
    const b = request(["available", 20]);
    const c = request(["sold", 20]);
    const d = request(["available", 21]);
    const reads = distinctPages([a.asked, b.asked, c.asked, d.asked]);
    expect(reads.map((read) => read.values)).toEqual([
      ["available", 20],
      ["sold", 20],
      ["available", 21],
    ]);
    expect(reads[1]).toBe(c.asked);
    const row = { page: [[1, "Rex"]] };
    reads[0]?.resolve(row);
    expect(a.got.row).toBe(row);
    expect(b.got.row).toBe(row);
    expect(c.got).toEqual({});
    const failure = new Error("down");
    reads[0]?.reject(failure);
    expect([a.got.err, b.got.err]).toEqual([failure, failure]);
  });

  it("requests that all differ are read as they were asked", () => {
    const asked = [request([1]).asked, request([2]).asked, request(["1"]).asked];
    expect(distinctPages(asked)).toBe(asked);
  });
});

describe.skipIf(!postgres.available)("PostgreSQL pages read as one JSON value", () => {
  const url = postgres.available ? postgres.url : "";
  const schemas: string[] = [];
  afterAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  });

  /** A store in a fresh schema, `prepare` run in it first, and the statements' names it runs. */
  async function storeWith(prepare: (client: pg.Client, schema: string) => Promise<void>) {
    const schema = `json_pages_${randomBytes(6).toString("hex")}`;
    schemas.push(schema);
    // Migrated by a first store, then prepared, then opened again: columns are read at the
    // first list, as a server started after a migration would.
    await (await openPostgresStore({ url, schema, maxConnections: 2 })).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await prepare(client, schema);
    } finally {
      await client.end();
    }
    const store = (await openPostgresStore({ url, schema, maxConnections: 2 })) as PostgresStore;
    const pool = (store as unknown as { pool: pg.Pool }).pool;
    const ran: string[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      if (typeof config === "object" && config !== null && "name" in config) {
        ran.push(String((config as { name: unknown }).name));
      }
      return query(config, ...rest);
    };
    return { store, ran };
  }

  /** One pet per awkward name, statuses (and none) in turn. */
  async function createAwkwardPets(store: PostgresStore): Promise<void> {
    const statuses = [...paging.statuses, undefined];
    for (const [i, name] of awkwardNames.entries()) {
      const status = statuses[i % statuses.length] as PetStatus | undefined;
      await store.createPet({ name, categoryId: i + 1, ...(status ? { status } : {}) });
    }
  }

  it("read in one query, the same pages as row by row, awkward text and absent statuses included", async () => {
    const { store, ran } = await storeWith(async () => {});
    try {
      await createAwkwardPets(store);
      for (const query of queries(3)) {
        ran.length = 0;
        const { read, rowByRow } = await bothReads(store, query);
        expect(read, JSON.stringify(query)).toEqual(rowByRow);
        expect(ran, JSON.stringify(query)).toEqual([expect.stringMatching(/_json_page_/)]);
      }
      const all = await store.listPets({ limit: paging.limit.maximum });
      expect(all.map((pet) => pet.name)).toEqual(awkwardNames);
    } finally {
      await store.close();
    }
  });

  it("pages asked for in one turn: each distinct page read once, one statement per unfiltered shape (a bounded number of pages), each caller its own page", async () => {
    const { store, ran } = await storeWith(async () => {});
    try {
      await createAwkwardPets(store);
      // Every shape, after every id, each asked for twice, plus more unfiltered first pages than
      // one statement reads.
      const asked: PetQuery[] = [
        ...Array.from({ length: awkwardNames.length + 1 }, (_, id) => queries(id)).flat(),
        ...Array.from({ length: MAX_PAGES_PER_STATEMENT + 8 }, (_, i) => ({ limit: (i % 7) + 1 })),
      ].flatMap((query) => [query, query]);
      const expected = [];
      for (const query of asked) {
        expected.push(await KyselyStore.prototype.listPets.call(store, query));
      }
      ran.length = 0;
      const together = await Promise.all(asked.map((query) => store.listPets(query)));
      expect(together).toEqual(expected);
      // Each caller its own pets, also where two asked for the same page.
      for (let i = 0; i < together.length; i += 2) {
        expect(together[i]).not.toBe(together[i + 1]);
        if ((together[i]?.length ?? 0) > 0) expect(together[i]?.[0]).not.toBe(together[i + 1]?.[0]);
      }
      // A page asked for twice is read once: the statements count distinct pages.
      const distinct = [...new Map(asked.map((q) => [JSON.stringify(q), q])).values()];
      const statements = (pattern: RegExp) => ran.filter((name) => pattern.test(name)).length;
      const unfiltered = (after: boolean) =>
        distinct.filter((q) => q.status === undefined && (q.afterId !== undefined) === after)
          .length;
      expect(statements(/_json_pages_0$/)).toBe(
        Math.ceil(unfiltered(false) / MAX_PAGES_PER_STATEMENT),
      );
      expect(statements(/_json_pages_2$/)).toBe(
        Math.ceil(unfiltered(true) / MAX_PAGES_PER_STATEMENT),
      );
      // Filtered pages are read one statement each (the batched plan would not use their index).
      expect(statements(/_json_page_[13]$/)).toBe(distinct.filter((q) => q.status).length);
      expect(ran).toHaveLength(statements(/_json_pages_[02]$/) + statements(/_json_page_[13]$/));
    } finally {
      await store.close();
    }
  });

  it("creates go in as one array per column, a batch in one statement, each caller getting its own pet", async () => {
    const { store, ran } = await storeWith(async () => {});
    try {
      ran.length = 0;
      const statuses = [...paging.statuses, undefined];
      const sent = awkwardNames.map((name, i) => {
        const status = statuses[i % statuses.length] as PetStatus | undefined;
        return { name, categoryId: i + 1, ...(status ? { status } : {}) };
      });
      // Sent in one turn: one batch.
      const created = await Promise.all(sent.map((pet) => store.createPet(pet)));
      expect(created.map(({ id: _id, ...pet }) => pet)).toEqual(sent);
      expect(new Set(created.map((pet) => pet.id)).size).toBe(sent.length);
      expect(ran.filter((name) => name === "animal_store_pets_insert")).toHaveLength(1);
      expect(await store.listPets({ limit: paging.limit.maximum })).toEqual(created);
    } finally {
      await store.close();
    }
  });

  it("a float8 column (its NaN is a JSON string): the table is read row by row, NaN and all", async () => {
    const { store, ran } = await storeWith(async (client, schema) => {
      await client.query(`alter table ${schema}.pets add column height_m double precision`);
      await client.query(`insert into ${schema}.pets (name, category_id, height_m)
        values ('odd', 1, 'NaN'), ('tall', 1, 0.1::float8 + 0.2::float8)`);
    });
    try {
      ran.length = 0;
      const { read, rowByRow } = await bothReads(store, { limit: 5 });
      expect(read).toEqual(rowByRow);
      expect(read.map((pet) => (pet as { heightM?: number }).heightM)).toEqual([
        Number.NaN,
        0.1 + 0.2,
      ]);
      expect(ran).toEqual([expect.stringMatching(/_pets_page_/)]);
    } finally {
      await store.close();
    }
  });
});
