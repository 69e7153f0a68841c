/**
 * The Animal Store's migrations, for both engines. They only differ where the engines must (how
 * an auto-assigned 64-bit id is declared, how creates commit in id order). Names are recorded in
 * each database: never rename one, never edit one that has been released.
 */
import { createApiKeysTable, type MigrationList } from "@animal-store/openapi-engine/storage";
import { type Kysely, sql } from "kysely";
import { ADDED_COLUMNS } from "./added-columns.js";

/** Every migration, oldest first. */
export const petStoreMigrations: MigrationList = (engine) => ({
  "0001_pets_and_api_keys": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("pets")
        .addColumn("id", engine === "postgres" ? "bigint" : "integer", (col) =>
          engine === "postgres"
            ? col.primaryKey().generatedByDefaultAsIdentity()
            : // AUTOINCREMENT: an id is never handed out twice, even after the newest row goes.
              col.primaryKey().autoIncrement(),
        )
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("category_id", "bigint", (col) => col.notNull())
        .addColumn("status", "text")
        .execute();
      // The status filter and its id order in one index: listPets never sorts.
      await db.schema.createIndex("pets_status_id").on("pets").columns(["status", "id"]).execute();
      await createApiKeysTable(db);
    },
  },
  ...(engine === "postgres" ? { "0002_pets_commit_in_id_order": petsCommitInIdOrder } : {}),
  // Optional properties added to the contract since: a nullable column each (null: never sent).
  ...Object.fromEntries(
    ADDED_COLUMNS.map((added) => [
      added.name,
      {
        async up(db: Kysely<unknown>) {
          await db.schema
            .alterTable(added.table)
            .addColumn(added.column, sql.raw(added.type[engine]))
            .execute();
        },
      },
    ]),
  ),
});

/**
 * PostgreSQL only: every statement that inserts into `pets` first takes a transaction-scoped
 * advisory lock of that table, so ids are drawn and committed one transaction at a time, in
 * order. Without it, two creates draw ids 105 and 106 and may commit 106 first: a client paging
 * meanwhile (keyset on id) reads 106, moves its cursor past it, and never sees 105. See
 * `KyselyStore.createPet` for why this holds across instances and for batched inserts.
 *
 * A statement-level BEFORE trigger runs before the statement draws any id from the sequence (a
 * row's default is computed as the row is built, after the trigger), and the lock is released at
 * commit, after the transaction has become visible. The two-key advisory space keeps the lock
 * apart from the one-key locks the migrations take; the table's oid makes it per schema.
 * SQLite needs none of this: one writer at a time holds the database's write lock from the id's
 * assignment to the commit.
 */
const petsCommitInIdOrder = {
  async up(db: Kysely<unknown>) {
    await sql`
      create function pets_commit_in_id_order() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(TG_RELID::int4, hashtext('pets: commit in id order'));
        return null;
      end
      $$`.execute(db);
    await sql`
      create trigger pets_commit_in_id_order before insert on pets
      for each statement execute function pets_commit_in_id_order()`.execute(db);
  },
};
