/**
 * The PostgreSQL store: the same Kysely queries as SQLite over the engine's pg pool. When
 * PostgreSQL is unreachable at start the store is returned anyway, answering 503 until its
 * database is prepared (retried in the background).
 */

import {
  classifyPostgresError,
  openPostgresDatabase,
  type PostgresOptions,
  preparedLater,
  StoreUnavailableError,
} from "@animal-store/openapi-engine/storage";
import { KyselyStore } from "./kysely-store.js";
import { petStoreMigrations } from "./migrations.js";
import type { Database } from "./schema.js";
import type { Store } from "./types.js";

/** The advisory lock Animal Store instances take turns migrating under (the schema is appended). */
const MIGRATION_LOCK = "animal-store";

/** Options of the PostgreSQL store. */
export interface PostgresStoreOptions extends Omit<PostgresOptions, "lockName"> {
  /** Skip creating and migrating the schema (for a store whose database is known to be down). */
  skipMigrations?: boolean;
}

/** Creates the pool, the schema and the tables (migrations) and returns the store. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const { db, prepare } = openPostgresDatabase<Database>(
    { ...options, lockName: MIGRATION_LOCK },
    petStoreMigrations,
  );
  const store = new KyselyStore("postgres", db, classifyPostgresError);
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
