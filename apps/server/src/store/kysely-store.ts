/**
 * The Store on Kysely: one set of typed queries for SQLite and PostgreSQL. Each engine supplies
 * its Kysely instance and says which of its errors mean "the database is unreachable" (503).
 */
import type { NewPet, Pet } from "@animal-store/api-types";
import { type Kysely, type Selectable, sql } from "kysely";
import type { ApiKeyRecord } from "../auth.js";
import type { ApiKeysTable, Database, PetsTable } from "./schema.js";
import type { NewApiKey, Store } from "./types.js";

/** Maps a driver error to what the server should throw (StoreUnavailableError for outages). */
export type ErrorClassifier = (err: unknown) => unknown;

/** A `pets` row as the API shows it. */
export function toPet(row: Selectable<PetsTable>): Pet {
  const pet: Pet = { id: row.id, name: row.name, categoryId: row.category_id };
  // A pet created without status has no status field: never null.
  if (row.status !== null) pet.status = row.status;
  return pet;
}

function toApiKey(row: Omit<Selectable<ApiKeysTable>, "key_hash">): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    perMinute: row.per_minute,
    perDay: row.per_day,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

const KEY_COLUMNS = [
  "id",
  "name",
  "plan",
  "per_minute",
  "per_day",
  "created_at",
  "revoked_at",
] as const;

/** A Store over any Kysely dialect whose schema was created by `migrateToLatest`. */
export class KyselyStore implements Store {
  constructor(
    readonly engine: "sqlite" | "postgres",
    private readonly db: Kysely<Database>,
    private readonly classify: ErrorClassifier,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw this.classify(err);
    }
  }

  listPets({ limit, status }: Parameters<Store["listPets"]>[0]): Promise<Pet[]> {
    return this.run(async () => {
      let query = this.db.selectFrom("pets").selectAll();
      if (status !== undefined) query = query.where("status", "=", status);
      const rows = await query.orderBy("id").limit(limit).execute();
      return rows.map(toPet);
    });
  }

  createPet(pet: NewPet): Promise<Pet> {
    return this.run(async () => {
      const row = await this.db
        .insertInto("pets")
        .values({ name: pet.name, category_id: pet.categoryId, status: pet.status ?? null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toPet(row);
    });
  }

  getPet(id: number): Promise<Pet | null> {
    return this.run(async () => {
      const row = await this.db
        .selectFrom("pets")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? toPet(row) : null;
    });
  }

  insertApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.run(async () => {
      const row = await this.db
        .insertInto("api_keys")
        .values({
          id: key.id,
          name: key.name,
          plan: key.plan,
          per_minute: key.perMinute,
          per_day: key.perDay,
          key_hash: key.keyHash,
          created_at: key.createdAt,
          revoked_at: null,
        })
        .returning(KEY_COLUMNS)
        .executeTakeFirstOrThrow();
      return toApiKey(row);
    });
  }

  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.run(async () => {
      const row = await this.db
        .selectFrom("api_keys")
        .select(KEY_COLUMNS)
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
      return row ? toApiKey(row) : null;
    });
  }

  listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.run(async () => {
      const rows = await this.db
        .selectFrom("api_keys")
        .select(KEY_COLUMNS)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toApiKey);
    });
  }

  revokeApiKey(id: string, revokedAt: string): Promise<ApiKeyRecord | null> {
    return this.run(async () => {
      await this.db
        .updateTable("api_keys")
        .set({ revoked_at: revokedAt })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
      const row = await this.db
        .selectFrom("api_keys")
        .select(KEY_COLUMNS)
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? toApiKey(row) : null;
    });
  }

  countApiKeys(): Promise<number> {
    return this.run(async () => {
      const row = await this.db
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    });
  }

  check(): Promise<void> {
    return this.run(async () => {
      await sql`select 1`.execute(this.db);
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await this.onClose();
  }
}
