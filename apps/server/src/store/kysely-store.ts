/**
 * The Store on Kysely: one set of typed queries for SQLite and PostgreSQL, the pets here and the
 * API keys from the engine (whose queries classify their own errors). Each database supplies its
 * Kysely instance and says which of its errors mean "the database is unreachable" (503).
 */
import type { NewPet, Pet } from "@animal-store/api-types";
import {
  type ApiKeyRecord,
  type ApiKeyStore,
  classified,
  type ErrorClassifier,
  kyselyApiKeyStore,
} from "@animal-store/openapi-engine/storage";
import { type Insertable, type Kysely, sql } from "kysely";
import { toPet, toPets, toRow } from "./pet-rows.js";
import type { Database, PetsTable } from "./schema.js";
import type { PetQuery, Store } from "./types.js";

/** A Store over any Kysely dialect whose schema `petStoreMigrations` created. */
export class KyselyStore implements Store {
  private readonly keys: ApiKeyStore;

  constructor(
    readonly engine: "sqlite" | "postgres",
    protected readonly db: Kysely<Database>,
    protected readonly classify: ErrorClassifier,
  ) {
    // The key queries only touch api_keys; Kysely's database type is invariant, hence the cast.
    this.keys = kyselyApiKeyStore(db as unknown as Kysely<Pick<Database, "api_keys">>, classify);
  }

  listPets({ limit, status }: PetQuery): Promise<Pet[]> {
    return classified(this.classify, async () => {
      let query = this.db.selectFrom("pets").selectAll();
      if (status !== undefined) query = query.where("status", "=", status);
      const rows = await query.orderBy("id").limit(limit).execute();
      return toPets(rows);
    });
  }

  createPet(pet: NewPet): Promise<Pet> {
    return classified(this.classify, async () => {
      const row = await this.db
        .insertInto("pets")
        .values(toRow(pet) as Insertable<PetsTable>)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toPet(row);
    });
  }

  getPet(id: number): Promise<Pet | null> {
    return classified(this.classify, async () => {
      const row = await this.db
        .selectFrom("pets")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? toPet(row) : null;
    });
  }

  insertApiKey(key: Parameters<ApiKeyStore["insertApiKey"]>[0]): Promise<ApiKeyRecord> {
    return this.keys.insertApiKey(key);
  }

  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.keys.findApiKeyByHash(keyHash);
  }

  listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.keys.listApiKeys();
  }

  revokeApiKey(id: string, revokedAt: string): Promise<ApiKeyRecord | null> {
    return this.keys.revokeApiKey(id, revokedAt);
  }

  countApiKeys(): Promise<number> {
    return this.keys.countApiKeys();
  }

  check(): Promise<void> {
    return classified(this.classify, async () => {
      await sql`select 1`.execute(this.db);
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
