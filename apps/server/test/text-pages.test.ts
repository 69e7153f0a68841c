/**
 * A page of pets answered as the JSON text SQLite writes (src/store/json-pages.ts
 * sqliteTextPageSql; handlers/list-pets.ts) is byte for byte the answer of the same pets read as
 * objects and written by the serializer compiled from the contract: every character a name can
 * hold, every filter and page size, every page of a walk. A page holding a value the text would
 * not carry exactly is answered from the objects, as before; a text that breaks the contract is
 * caught where responses are validated.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { deref, type JsonObject, type OpenApiDocument } from "@animal-store/openapi";
import { issueApiKey } from "@animal-store/openapi-engine";
import { openSqliteDatabase } from "@animal-store/openapi-engine/storage";
import { type ScratchApp, startScratchApp } from "@animal-store/openapi-engine/testing";
import { useService } from "@animal-store/test-support";
import { nextLinkTarget } from "@animal-store/test-support/links";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import type Database from "libsql";
import { afterAll, describe, expect, it } from "vitest";
import { animalStore } from "../src/animal-store.js";
import type { Store } from "../src/store/index.js";
import { textPageItems } from "../src/store/json-pages.js";
import { petStoreMigrations } from "../src/store/migrations.js";
import { openPostgresStore } from "../src/store/postgres.js";
import type { Database as Schema } from "../src/store/schema.js";
import { SqliteStore } from "../src/store/sqlite.js";
import { TEXT_GUARD_PREFIX } from "../src/store/text-guard.js";
import type { PetQuery, PetsText } from "../src/store/types.js";
import { contract, policy, roomyPlan } from "./support/contract.js";
import { paging } from "./support/paging.js";
import { startTestApp, tempDir } from "./support/test-app.js";

const postgres = await useService("postgres", "PostgreSQL text pages");
const list = pagedList();
const { spec } = contract;
const items = textPageItems(spec, list.op.operationId);
const temp = tempDir();
let files = 0;
afterAll(() => temp.remove());

/** A SQLite store on a fresh file, with its raw connection for writing what the API would not. */
async function rawStore(prepare: (raw: Database.Database) => void = () => {}) {
  const { db, raw } = await openSqliteDatabase<Schema>(
    join(temp.dir, `text-pages-${files++}.db`),
    petStoreMigrations,
  );
  prepare(raw);
  return { store: new SqliteStore(db, raw), raw };
}

/** A store that delegates to `base` except for the methods given; closing it leaves `base` open. */
function storeWith(base: Store, overrides: Partial<Store>): Store {
  return Object.assign(Object.create(base) as Store, { close: async () => {} }, overrides);
}

/** Names holding every character of the BMP but surrogates (a name is at most 100 of them). */
function everyCharacter(): string[] {
  const names: string[] = [];
  let name = "";
  for (let code = 0; code <= 0xffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    name += String.fromCharCode(code);
    if (name.length === 100) {
      names.push(name);
      name = "";
    }
  }
  return [...names, name];
}

const awkward = [
  'a "quoted" name',
  "back\\slash\\",
  '\\"',
  "tab\tnew\nline\r",
  "line\u2028separator\u2029",
  "emoji 🐶 and ünïcödé 𝄞",
  "null",
  ',"status":null',
  '{"status":null,',
  "x".repeat(5_000),
];

/** Production apps on one store: answering from its text, and from the pets read as objects. */
interface Pair {
  text: ScratchApp<Store>;
  objects: ScratchApp<Store>;
  key: string;
  /** How many pages the text app answered as text. */
  texts: () => number;
  close(): Promise<void>;
}

async function startPair(store: Store): Promise<Pair> {
  let texts = 0;
  const counted = storeWith(store, {
    listPetsText: async (
      query: PetQuery,
      asked: Parameters<NonNullable<Store["listPetsText"]>>[1],
    ) => {
      const page = await store.listPetsText?.(query, asked);
      if (page !== undefined) texts++;
      return page;
    },
  });
  const env = { NODE_ENV: "production", API_KEY_CACHE_TTL_MS: "0" };
  const text = await startScratchApp(animalStore, { store: counted, env });
  const objects = await startScratchApp(animalStore, {
    store: storeWith(store, { listPetsText: () => Promise.resolve(undefined) }),
    env,
  });
  const key = (await issueApiKey(store, policy, { plan: roomyPlan, name: "text pages" })).key;
  return {
    text,
    objects,
    key,
    texts: () => texts,
    close: async () => {
      await text.close();
      await objects.close();
    },
  };
}

/** One answer: status, the headers a page is written with, and the body's exact text. */
async function answer(base: string, key: string, pathAndQuery: string) {
  const res = await fetch(`${base}${basePath}${pathAndQuery}`, {
    headers: { authorization: `Bearer ${key}`, "x-request-id": "text-pages" },
  });
  return {
    status: res.status,
    contentType: res.headers.get("content-type"),
    contentLength: res.headers.get("content-length"),
    link: res.headers.get("link"),
    body: await res.text(),
  };
}

/** Walks every page from `first`, comparing both apps' answers; how many pages were walked. */
async function walkBoth(pair: Pair, first: string, maxPages = Number.POSITIVE_INFINITY) {
  let target: string | undefined = first;
  let pages = 0;
  while (target !== undefined && pages < maxPages) {
    const fromText = await answer(pair.text.url, pair.key, target);
    const fromObjects = await answer(pair.objects.url, pair.key, target);
    expect(fromText, target).toEqual(fromObjects);
    expect(fromText.status, target).toBe(200);
    const next = nextLinkTarget(fromText.link);
    target = next === undefined ? undefined : `${list.op.path}${next}`;
    pages++;
  }
  return pages;
}

/** Every page of every filter and page size from both apps, compared; how many pages. */
async function walkEverything(pair: Pair): Promise<number> {
  const filters = ["", ...paging.statuses.map((status) => `&status=${status}`)];
  let pages = 0;
  for (const filter of filters) {
    for (const size of [list.max, 7]) {
      pages += await walkBoth(pair, `${list.op.path}?${list.pageSize}=${size}${filter}`);
    }
    pages += await walkBoth(pair, `${list.op.path}?${list.pageSize}=${list.min}${filter}`, 5);
    pages += await walkBoth(pair, `${list.op.path}${filter.replace("&", "?")}`);
  }
  return pages;
}

const names = [...awkward, ...everyCharacter()];

/**
 * One pet per name, the statuses (and none) and categories in turn, up to the largest safe.
 * PostgreSQL's text holds every character but NUL (`noNul`).
 */
async function createNamedPets(store: Store, noNul = false): Promise<void> {
  const statuses = [...paging.statuses, undefined];
  const categories = [1, 2, Number.MAX_SAFE_INTEGER];
  for (const [i, each] of names.entries()) {
    const name = noNul ? each.replaceAll("\u0000", "") : each;
    const status = statuses[i % statuses.length];
    await store.createPet({
      name,
      categoryId: categories[i % categories.length] as number,
      ...(status === undefined ? {} : { status: status as "available" }),
    });
  }
}

describe("a page as JSON text", () => {
  it("the contract's items are ones the text writes exactly", () => {
    const page = deref<JsonObject>(spec, pageSchema(spec));
    const item = deref<JsonObject>(spec, page.items);
    expect(items?.map((p) => p.property)).toEqual(Object.keys(item.properties as JsonObject));
  });

  it("SQLite: every page of every filter and page size is byte for byte the objects' answer", async () => {
    const { store } = await rawStore();
    await createNamedPets(store);
    const pair = await startPair(store);
    try {
      const pages = await walkEverything(pair);
      // Every page of the text app was text: the comparison compared the two paths.
      expect(pair.texts()).toBe(pages);
      expect(pages).toBeGreaterThan(names.length / list.max);
    } finally {
      await pair.close();
      await store.close();
    }
  });

  it.skipIf(!postgres.available)(
    "PostgreSQL: every page of every filter and page size is byte for byte the objects' answer",
    async () => {
      const url = postgres.available ? postgres.url : "";
      const schema = `text_pages_${randomBytes(6).toString("hex")}`;
      const store = await openPostgresStore({ url, schema, maxConnections: 4 });
      try {
        await createNamedPets(store, true);
        const pair = await startPair(store);
        try {
          const pages = await walkEverything(pair);
          expect(pair.texts()).toBe(pages);
          expect(pages).toBeGreaterThan(names.length / list.max);
          // Pages asked for together (the unfiltered ones are read in one statement).
          const path = `${list.op.path}?${list.pageSize}=${list.max}`;
          const together = await Promise.all(
            [0, 1, 2, 3].map(() => answer(pair.text.url, pair.key, path)),
          );
          const alone = await answer(pair.objects.url, pair.key, path);
          for (const one of together) expect(one).toEqual(alone);
          // A bigint JavaScript does not hold exactly, written outside the API: objects answer.
          const { default: pg } = await import("pg");
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            await client.query(
              `update ${schema}.pets set category_id = ${Number.MAX_SAFE_INTEGER} + 2 where id = 2`,
            );
          } finally {
            await client.end();
          }
          const page = { limit: list.max, afterId: 0 };
          expect(await store.listPetsText?.(page, needItems())).toBeUndefined();
          expect(await store.listPetsText?.({ ...page, afterId: 2 }, needItems())).toBeDefined();
          const texts = pair.texts();
          expect(await answer(pair.text.url, pair.key, path)).toEqual(
            await answer(pair.objects.url, pair.key, path),
          );
          expect(pair.texts()).toBe(texts);
        } finally {
          await pair.close();
        }
      } finally {
        await store.close();
        const { default: pg } = await import("pg");
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    },
  );
});

const max = Number.MAX_SAFE_INTEGER;
// Each written outside the API, into the second of three pets.
const odd: [string, string][] = [
  ["a REAL in an integer column", "update pets set category_id = 1.5 where id = 2"],
  ["text in an integer column", "update pets set category_id = 'abc' where id = 2"],
  ["a number as text in an integer column", "update pets set category_id = '12x' where id = 2"],
  ["an integer beyond 2^53", `update pets set category_id = ${max} + 2 where id = 2`],
  ["an integer below -2^53", `update pets set category_id = -${max} - 2 where id = 2`],
  ["a BLOB in a text column", "update pets set name = x'41' where id = 2"],
  ["a BLOB that is valid JSONB", "update pets set status = x'00' where id = 2"],
  ["a BLOB in an integer column", "update pets set category_id = x'01' where id = 2"],
  ["a sum beyond 64 bits", "update pets set category_id = 4611686018427387904 where id >= 2"],
];

describe("pages the text would not carry exactly are read as objects", () => {
  it.each(odd)("%s", async (_what, write) => {
    const { store, raw } = await rawStore();
    const pair = await startPair(store);
    try {
      for (const name of ["one", "two", "three"]) await store.createPet({ name, categoryId: 1 });
      raw.exec(write);
      expect(
        await store.listPetsText({ limit: list.max, afterId: 0 }, needItems()),
      ).toBeUndefined();
      // Past the odd pet the page is text again.
      if (write.endsWith("id = 2")) {
        expect(
          await store.listPetsText({ limit: list.max, afterId: 2 }, needItems()),
        ).toBeDefined();
      }
      const path = `${list.op.path}?${list.pageSize}=${list.max}`;
      const fromText = await answer(pair.text.url, pair.key, path);
      expect(fromText).toEqual(await answer(pair.objects.url, pair.key, path));
      // Asked, refused, answered from the objects.
      expect(pair.texts()).toBe(0);
    } finally {
      await pair.close();
      await store.close();
    }
  });

  it("a required property's null (a nullable column) is read as objects", async () => {
    const { store, raw } = await rawStore((db) => {
      db.exec("drop table pets");
      db.exec(
        "create table pets (id integer primary key autoincrement, name text, category_id bigint not null, status text)",
      );
    });
    const pair = await startPair(store);
    try {
      await store.createPet({ name: "one", categoryId: 1 });
      expect(await store.listPetsText({ limit: list.max, afterId: 0 }, needItems())).toBeDefined();
      raw.exec("update pets set name = null");
      expect(
        await store.listPetsText({ limit: list.max, afterId: 0 }, needItems()),
      ).toBeUndefined();
      const path = `${list.op.path}?${list.pageSize}=${list.max}`;
      expect(await answer(pair.text.url, pair.key, path)).toEqual(
        await answer(pair.objects.url, pair.key, path),
      );
    } finally {
      await pair.close();
      await store.close();
    }
  });
});

describe("the text guard: the rows the text would not write exactly, kept by triggers", () => {
  /** The guard's tables and triggers (text-guard.ts), triggers first. */
  function guardObjects(raw: Database.Database) {
    const found = raw
      .prepare("select type, name from sqlite_schema where substr(name, 1, ?) = ?")
      .all(TEXT_GUARD_PREFIX.length, TEXT_GUARD_PREFIX) as { type: string; name: string }[];
    return found.sort((a, b) => b.type.localeCompare(a.type) || a.name.localeCompare(b.name));
  }
  /** The ids the guard holds. */
  function guarded(raw: Database.Database): unknown[] {
    const tables = guardObjects(raw).filter((o) => o.type === "table");
    expect(tables).toHaveLength(1);
    const table = (tables[0] as { name: string }).name;
    const rows = raw.prepare(`select id from "${table}" order by id`).all() as { id: unknown }[];
    return rows.map((row) => row.id);
  }
  const firstPage = (store: SqliteStore) =>
    store.listPetsText({ limit: list.max, afterId: 0 }, needItems());
  /** Runs `test` on a fresh store of three pets (its guard installed first when `guardFirst`). */
  async function withThreePets(
    guardFirst: boolean,
    test: (store: SqliteStore, raw: Database.Database) => Promise<void>,
  ) {
    const { store, raw } = await rawStore();
    try {
      if (guardFirst) await store.prepareTextPages(needItems());
      for (const name of ["one", "two", "three"]) await store.createPet({ name, categoryId: 1 });
      await test(store, raw);
    } finally {
      await store.close();
    }
  }

  it.each(odd)(
    "%s, written before the guard was installed, is found by its first scan",
    async (_what, write) => {
      await withThreePets(false, async (store, raw) => {
        raw.exec(write);
        expect(guardObjects(raw)).toEqual([]);
        expect(await firstPage(store)).toBeUndefined();
        expect(guarded(raw)).toContain(2);
        if (write.endsWith("id = 2")) {
          expect(
            await store.listPetsText({ limit: list.max, afterId: 2 }, needItems()),
          ).toBeDefined();
        }
      });
    },
  );

  it("holds exactly the odd rows through inserts, updates and deletes; while it is empty no page is checked", async () => {
    await withThreePets(true, async (store, raw) => {
      // The statements the store prepares while it reads the first page.
      const prepare = raw.prepare.bind(raw);
      const read = async () => {
        const prepared: string[] = [];
        raw.prepare = ((sql: string) => {
          prepared.push(sql);
          return prepare(sql);
        }) as typeof raw.prepare;
        try {
          return { page: await firstPage(store), prepared };
        } finally {
          raw.prepare = prepare;
        }
      };
      const clean = await read();
      expect(clean.page).toBeDefined();
      expect(guarded(raw)).toEqual([]);
      // The guarded statement answered: no checking statement was prepared.
      expect(clean.prepared).toEqual([]);
      raw.exec("update pets set category_id = 1.5 where id = 2");
      expect(guarded(raw)).toEqual([2]);
      const dirty = await read();
      expect(dirty.page).toBeUndefined();
      expect(dirty.prepared).toHaveLength(1);
      raw.exec("insert into pets (name, category_id) values (x'41', 1)");
      expect(guarded(raw)).toEqual([2, 4]);
      raw.exec("update pets set category_id = 2 where id = 2");
      expect(guarded(raw)).toEqual([4]);
      raw.exec("update pets set id = 40 where id = 4");
      expect(guarded(raw)).toEqual([40]);
      raw.exec("delete from pets where id = 40");
      expect(guarded(raw)).toEqual([]);
      const page = await firstPage(store);
      expect(JSON.parse(page?.text ?? "")).toEqual(await store.listPets({ limit: list.max }));
    });
  });

  it("a contract whose text writes other items gets a guard of its own; the earlier one is dropped", async () => {
    const { store, raw } = await rawStore();
    try {
      await store.prepareTextPages(needItems());
      const before = guardObjects(raw);
      expect(before.map((o) => o.type)).toEqual(["trigger", "trigger", "trigger", "table"]);
      const fewer = needItems().filter((item) => item.property === "id");
      await store.prepareTextPages(fewer);
      const after = guardObjects(raw);
      expect(after).toHaveLength(before.length);
      for (const object of after) expect(before).not.toContainEqual(object);
      await store.createPet({ name: "one", categoryId: 1 });
      expect(await store.listPetsText({ limit: list.max, afterId: 0 }, fewer)).toMatchObject({
        count: 1,
      });
    } finally {
      await store.close();
    }
  });

  it("a guard dropped by another writer leaves each page checked as it is read", async () => {
    await withThreePets(true, async (store, raw) => {
      for (const { type, name } of guardObjects(raw)) raw.exec(`drop ${type} "${name}"`);
      expect(await firstPage(store)).toBeDefined();
      raw.exec("update pets set category_id = 1.5 where id = 2");
      expect(await firstPage(store)).toBeUndefined();
    });
  });
});

describe("the text page's count, last id and whether more follow", () => {
  it("as the objects' page of one more pet says", async () => {
    const { store } = await rawStore();
    try {
      const total = 5;
      for (let i = 0; i < total; i++) await store.createPet({ name: `pet ${i}`, categoryId: 1 });
      const page = (limit: number, afterId: number) =>
        store.listPetsText({ limit, afterId }, needItems()) as Promise<PetsText>;
      expect(await page(total, 0)).toMatchObject({ count: total, lastId: total, more: false });
      expect(await page(total - 1, 0)).toMatchObject({
        count: total - 1,
        lastId: total - 1,
        more: true,
      });
      expect(await page(total, total - 1)).toMatchObject({ count: 1, lastId: total, more: false });
      expect(await page(total, total)).toEqual({
        text: "[]",
        count: 0,
        lastId: undefined,
        more: false,
      });
      for (let limit = 1; limit <= total; limit++) {
        const objects = await store.listPets({ limit: limit + 1, afterId: 0 });
        const text = await page(limit, 0);
        expect(JSON.parse(text.text)).toEqual(objects.slice(0, limit));
        expect(text.more).toBe(objects.length > limit);
      }
    } finally {
      await store.close();
    }
  });
});

describe("text that breaks the contract, where responses are validated", () => {
  it.each([
    ["a page off its schema", '[{"id":"one"}]'],
    ["not JSON", "[{"],
  ])("%s is a 500, logged", async (_what, text) => {
    const { store } = await rawStore();
    const app = await startTestApp({
      store: storeWith(store, {
        listPetsText: () => Promise.resolve({ text, count: 1, lastId: 1, more: false }),
      }),
    });
    try {
      const res = await app.api(list.op.path);
      expect(res.status).toBe(500);
      expect(((await res.json()) as { code: string }).code).toBe("internal_error");
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe("which items the text writes (textPageItems)", () => {
  /** The spec with the paged list's item schema (its properties inlined) changed by `edit`. */
  function withItem(edit: (item: JsonObject, other: JsonObject) => void): OpenApiDocument {
    const copy = structuredClone(spec);
    const item = deref<JsonObject>(copy, deref<JsonObject>(copy, pageSchema(copy)).items);
    const properties = item.properties as JsonObject;
    for (const [name, schema] of Object.entries(properties)) {
      properties[name] = structuredClone(deref<JsonObject>(copy, schema));
    }
    const other = Object.keys(properties).find((name) => name !== "id") as string;
    edit(item, properties[other] as JsonObject);
    return copy;
  }

  it("the served items each have their column", () => {
    for (const item of needItems()) expect(item.column).toMatch(/^[a-z0-9_]+$/);
    // Inlined, the same schema writes the same items: what the edits below start from.
    expect(
      textPageItems(
        withItem(() => {}),
        list.op.operationId,
      ),
    ).toEqual(items);
  });

  it.each<[string, (item: JsonObject, other: JsonObject) => void]>([
    ["a property with a default", (_item, other) => Object.assign(other, { default: "x" })],
    ["a number", (_item, other) => Object.assign(other, { type: "number" })],
    [
      "a string format",
      (_item, other) => Object.assign(other, { type: "string", format: "date-time" }),
    ],
    [
      "a nested object",
      (item) => {
        (item.properties as JsonObject).extra = { type: "object", properties: {} };
      },
    ],
    ["extra properties allowed", (item) => Object.assign(item, { additionalProperties: true })],
    ["a combinator", (item) => Object.assign(item, { anyOf: [{ required: ["id"] }] })],
    [
      "no id",
      (item) => {
        delete (item.properties as JsonObject).id;
      },
    ],
  ])("none for %s", (_what, edit) => {
    expect(textPageItems(withItem(edit), list.op.operationId)).toBeUndefined();
  });
});

function needItems() {
  if (items === undefined) throw new Error("the contract's items are not ones the text writes");
  return items;
}

/** The paged list's 200 schema (a $ref or the schema). */
function pageSchema(document: OpenApiDocument): unknown {
  const responses = deref<JsonObject>(document, list.op.operation.responses);
  const ok = deref<JsonObject>(document, responses["200"]);
  return ((ok.content as JsonObject)["application/json"] as JsonObject).schema;
}
