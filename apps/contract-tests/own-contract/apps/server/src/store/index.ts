/** Opens the store: the engine's SQLite database with its `api_keys` table, and no data yet. */
import type { DatabaseConfig } from "@animal-store/openapi-engine";
import {
  type ApiKeysTable,
  classifySqliteError,
  createApiKeysTable,
  kyselyApiKeyStore,
  type MigrationList,
  openSqliteDatabase,
} from "@animal-store/openapi-engine/storage";
import { sql } from "kysely";
import type { Store } from "./types.js";

export type { FerryStore, Store } from "./types.js";

/** Every migration, oldest first: never rename one, never edit one that has been released. */
const migrations: MigrationList = () => ({ "0001_api_keys": { up: createApiKeysTable } });

/** Opens and migrates the SQLite database at `path` (":memory:" allowed). */
export async function openSqliteStore(path: string): Promise<Store> {
  const { db } = await openSqliteDatabase<{ api_keys: ApiKeysTable }>(path, migrations);
  return {
    ...kyselyApiKeyStore(db, classifySqliteError),
    engine: "sqlite",
    async check() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/** Opens the configured database: SQLite only, until the team adds PostgreSQL. */
export function openStore(database: DatabaseConfig): Promise<Store> {
  if (database.engine !== "sqlite") {
    return Promise.reject(new Error("this store runs on SQLite only: DATABASE_URL=file:<path>"));
  }
  return openSqliteStore(database.path);
}
