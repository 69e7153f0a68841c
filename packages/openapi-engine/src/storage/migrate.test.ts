// A failing migration leaves the database as it was (the pending migrations run in one
// transaction, on SQLite too) and its error names the migration and the statement that failed.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, type Migration, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import type { MigrationList } from "./migrate.js";
import { openPostgresDatabase } from "./postgres-database.js";
import { openSqliteDatabase } from "./sqlite-database.js";

const dir = mkdtempSync(join(tmpdir(), "engine-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const createTable = (name: string): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createTable(name).addColumn("id", "integer").execute();
  },
});
const good: Record<string, Migration> = { "0001_a": createTable("a") };
const failing: Record<string, Migration> = {
  ...good,
  "0002_b_then_fails": {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable("b").addColumn("id", "integer").execute();
      await sql`insert into no_such_table (id) values (1)`.execute(db);
    },
  },
};
const list =
  (migrations: Record<string, Migration>): MigrationList =>
  () =>
    migrations;

const FAILED =
  /database migration 0002_b_then_fails failed: .*no_such_table.*\(statement: insert into no_such_table \(id\) values \(1\)\); the database is left as it was/;

describe("a failing migration on SQLite", () => {
  it("rolls back every migration of the run and names the statement", async () => {
    const file = join(dir, "fresh.db");
    await expect(openSqliteDatabase(file, list(failing))).rejects.toThrow(FAILED);
    const { db } = await openSqliteDatabase(file, list({}));
    try {
      const tables = await db.introspection.getTables();
      expect(tables.map((table) => table.name)).not.toContain("a");
      expect(tables.map((table) => table.name)).not.toContain("b");
    } finally {
      await db.destroy();
    }
  });

  it("leaves what earlier runs applied, and applies nothing of its own", async () => {
    const file = join(dir, "applied.db");
    await (await openSqliteDatabase(file, list(good))).db.destroy();
    await expect(openSqliteDatabase(file, list(failing))).rejects.toThrow(FAILED);
    const { db } = await openSqliteDatabase(file, list(good));
    try {
      const names = (await db.introspection.getTables()).map((table) => table.name);
      expect(names).toContain("a");
      expect(names).not.toContain("b");
      const ran = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
      expect(ran.rows.map((row) => row.name)).toEqual(["0001_a"]);
    } finally {
      await db.destroy();
    }
  });
});

const url = process.env.TEST_DATABASE_URL;
describe.skipIf(!url)("a failing migration on PostgreSQL", () => {
  it("leaves the schema as it was and names the statement", async () => {
    const schema = `migrate_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const open = (migrations: Record<string, Migration>) =>
      openPostgresDatabase(
        { url: url as string, schema, lockName: "migrate-test" },
        list(migrations),
      );
    const first = open(good);
    await first.prepare();
    await first.db.destroy();
    const second = open(failing);
    try {
      await expect(second.prepare()).rejects.toThrow(FAILED);
      const names = (await second.db.introspection.getTables()).map((table) => table.name);
      expect(names).toContain("a");
      expect(names).not.toContain("b");
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(second.db);
      await second.db.destroy();
    }
  });
});
