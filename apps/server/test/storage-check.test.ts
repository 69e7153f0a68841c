/**
 * Storage follows the schema, or the server says why not: an optional property added to the
 * create body (`NewPet`) without its column stops the server at start, in production as in
 * development, naming the property, the table and the migration to write; once the column exists
 * (what the migration adds), what a client sends is stored and read back as sent, on SQLite and
 * on PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { type LoadedSpec, loadBundledSpec } from "@animal-store/openapi";
import { useService } from "@animal-store/test-support";
import { edited, optionalProperty } from "@animal-store/test-support/spec-edits";
import { propertiesOf } from "@animal-store/test-support/spec-values";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../src/index.js";
import { openPostgresStore } from "../src/store/postgres.js";
import { openSqliteStore } from "../src/store/sqlite.js";
import { checkStorage, storedProperties } from "../src/store/storage-check.js";
import type { Store } from "../src/store/types.js";
import { startTestApp, tempDir } from "./support/test-app.js";

const temp = tempDir();
afterAll(() => temp.remove());
const postgres = await useService("postgres", "storage check on PostgreSQL");

/**
 * The property added: `color`, or, when the spec already has one (the spec-edit drill adds it,
 * with its migration), another name neither schema has, so that the edit still adds something.
 */
const added = ["color", "marking", "temperament"].find(
  (name) =>
    !propertiesOf("Pet").names.includes(name) && !propertiesOf("NewPet").names.includes(name),
) as string;
const color = { type: "string", maxLength: 30, pattern: "^[^\\u0000-\\u001f\\u007f]*$" };
/** The bundle with that optional property on Pet and NewPet, as a person adds it. */
function withColor(): LoadedSpec {
  const spec = edited(
    loadBundledSpec().spec,
    optionalProperty("Pet", added, color),
    optionalProperty("NewPet", added, color),
  );
  return { spec, text: JSON.stringify(spec) };
}

const MISSING = [
  `NewPet.${added} (sent to createPet) has no column pets.${added}`,
  `pnpm migration add-property NewPet ${added}`,
];

describe("storage follows the schema", () => {
  it("maps every property of the bundle's create bodies to a column today", async () => {
    const store = await openSqliteStore(":memory:");
    try {
      expect(storedProperties(loadBundledSpec().spec).length).toBeGreaterThan(0);
      await expect(checkStorage(store, loadBundledSpec().spec)).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it.each(["production", "development"])(
    "in %s, a create-body property without its column stops the server, naming property, table and migration",
    async (mode) => {
      const env = {
        NODE_ENV: mode,
        PORT: "0",
        LOG_LEVEL: "silent",
        DATABASE_URL: `file:${join(temp.dir, `${mode}.db`)}`,
      };
      const started = startServer(env, { spec: withColor() });
      await expect(started).rejects.toThrow(MISSING[0]);
      await expect(started).rejects.toThrow(MISSING[1]);
    },
  );

  /** With the column the migration adds, a pet's color is stored and read back as sent. */
  async function roundTrip(store: Store) {
    const app = await startTestApp({ store, spec: withColor() });
    try {
      const sent = { name: "Rex", categoryId: 1, [added]: "brindle ünd 🐶" };
      const created = await app.api("/pets", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(sent),
      });
      expect(created.status).toBe(201);
      const pet = (await created.json()) as { id: number };
      expect(pet).toEqual({ id: expect.any(Number), ...sent });
      expect(await (await app.api(`/pets/${pet.id}`)).json()).toEqual(pet);
    } finally {
      await app.close();
    }
  }

  it("SQLite: with the column added, color is stored and read back as sent", async () => {
    const file = join(temp.dir, "migrated.db");
    const before = await openSqliteStore(file);
    await expect(checkStorage(before, withColor().spec)).rejects.toThrow(MISSING[0]);
    await (before as unknown as { db: { schema: KyselySchema } }).db.schema
      .alterTable("pets")
      .addColumn(added, "text")
      .execute();
    await before.close();
    // Opened again, as the server opens it after its migrations: the insert covers the column.
    const store = await openSqliteStore(file);
    await expect(checkStorage(store, withColor().spec)).resolves.toBeUndefined();
    await roundTrip(store);
  });

  it.skipIf(!postgres.available)(
    "PostgreSQL: with the column added, color is stored and read back as sent",
    async () => {
      const schema = `storage_check_${randomBytes(6).toString("hex")}`;
      const url = postgres.available ? postgres.url : "";
      const store = await openPostgresStore({ url, schema });
      try {
        await expect(checkStorage(store, withColor().spec)).rejects.toThrow(MISSING[0]);
        await (store as unknown as { db: { schema: KyselySchema } }).db.schema
          .alterTable("pets")
          .addColumn(added, "text")
          .execute();
        await expect(checkStorage(store, withColor().spec)).resolves.toBeUndefined();
        await roundTrip(store);
      } finally {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    },
  );
});

/** The part of Kysely's schema builder the tests use to add the column a migration would. */
interface KyselySchema {
  alterTable(table: string): {
    addColumn(column: string, type: "text"): { execute(): Promise<unknown> };
  };
}
