/** Opens the store the configuration names: SQLite file by default, PostgreSQL on request. */
import type { DatabaseConfig } from "@animal-store/openapi-engine";
import { openPostgresStore } from "./postgres.js";
import { openSqliteStore } from "./sqlite.js";
import type { Store } from "./types.js";

export type { PetStore, Store } from "./types.js";

/** Opens and migrates the configured database. */
export function openStore(database: DatabaseConfig): Promise<Store> {
  return database.engine === "postgres"
    ? openPostgresStore({ url: database.url, schema: database.schema })
    : openSqliteStore(database.path);
}
