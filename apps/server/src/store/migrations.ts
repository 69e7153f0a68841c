/**
 * The Animal Store's migrations, for both engines. They only differ where the engines must (how
 * an auto-assigned 64-bit id is declared). Names are recorded in each database: never rename one.
 */

import { createApiKeysTable, type MigrationList } from "@animal-store/openapi-engine/storage";
import type { Kysely } from "kysely";

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
});
