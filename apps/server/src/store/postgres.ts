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
import type pg from "pg";
import { BatchedCreates } from "./batched-creates.js";
import { KyselyStore, petsPageQuery } from "./kysely-store.js";
import { petStoreMigrations } from "./migrations.js";
import { toPet, toPets, toRow } from "./pet-rows.js";
import type { Database, PetsTable } from "./schema.js";
import type { PetQuery, Store } from "./types.js";

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
  /**
   * The page query of each shape (with or without status, after an id or not): Kysely's own SQL
   * (the one the plan tests pin), compiled once and run as a named statement, which each
   * connection parses and plans once instead of on every request.
   */
  private readonly pageQueries: { name: string; text: string }[];

  constructor(
    db: Kysely<Database>,
    classify: ErrorClassifier,
    private readonly pool: pg.Pool,
  ) {
    super("postgres", db, classify);
    this.pageQueries = [0, 1, 2, 3].map((shape) => ({
      name: `animal_store_pets_page_${shape}`,
      text: petsPageQuery(db, {
        limit: 1,
        status: shape & 1 ? "available" : undefined,
        afterId: shape & 2 ? 1 : undefined,
      }).compile().sql,
    }));
  }

  override listPets({ limit, status, afterId }: PetQuery): Promise<Pet[]> {
    const shape = (status === undefined ? 0 : 1) | (afterId === undefined ? 0 : 2);
    const values: unknown[] = [];
    if (status !== undefined) values.push(status);
    if (afterId !== undefined) values.push(afterId);
    values.push(limit);
    return classified(this.classify, async () => {
      const { name, text } = this.pageQueries[shape] as { name: string; text: string };
      const result = await this.pool.query({ name, text, values });
      return toPets(result.rows);
    });
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
  const { db, pool, prepare } = openPostgresDatabase<Database>(
    { ...options, lockName: MIGRATION_LOCK },
    petStoreMigrations,
  );
  const store = new PostgresStore(db, classifyPostgresError, pool);
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
