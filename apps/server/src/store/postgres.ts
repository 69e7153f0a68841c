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
import { BatchedCreates } from "./batched-creates.js";
import { KyselyStore } from "./kysely-store.js";
import { petStoreMigrations } from "./migrations.js";
import { toPet, toRow } from "./pet-rows.js";
import type { Database, PetsTable } from "./schema.js";
import type { Store } from "./types.js";

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

  constructor(db: Kysely<Database>, classify: ErrorClassifier) {
    super("postgres", db, classify);
  }

  override createPet(pet: NewPet): Promise<Pet> {
    return this.creates.add(pet);
  }

  private insertMany(pets: NewPet[]): Promise<Pet[]> {
    return classified(this.classify, async () => {
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
  const { db, prepare } = openPostgresDatabase<Database>(
    { ...options, lockName: MIGRATION_LOCK },
    petStoreMigrations,
  );
  const store = new PostgresStore(db, classifyPostgresError);
  if (options.skipMigrations) return store;
  try {
    await prepare();
  } catch (err) {
    if (classifyPostgresError(err) instanceof StoreUnavailableError) {
      return preparedLater(store, prepare);
    }
    await db.destroy();
    throw new Error(`cannot prepare the PostgreSQL database: ${(err as Error).message}`);
  }
  return store;
}
