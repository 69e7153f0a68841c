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
import type { TextProperty } from "./json-pages.js";
import { toPet, toPets, toRow } from "./pet-rows.js";
import type { Database, PetsTable } from "./schema.js";
import type { PetQuery, PetsText, Store } from "./types.js";

/**
 * The query of one page of pets. A keyset seek: with the (status, id) index, or the primary key
 * without a filter, a page deep in the list reads as few rows as the first one (no offset to skip
 * through, no sort). Exported so the suites can ask each engine for its plan.
 */
export function petsPageQuery(db: Kysely<Database>, { limit, status, afterId }: PetQuery) {
  let query = db.selectFrom("pets").selectAll();
  if (status !== undefined) query = query.where("status", "=", status);
  if (afterId !== undefined) query = query.where("id", ">", afterId);
  return query.orderBy("id").limit(limit);
}

/**
 * Which of the four prepared shapes of `petsPageQuery` a query has (bit 1: a status filter, bit
 * 2: after an id), and its parameters in Kysely's order: status, id after which, `limit`.
 */
export function pageShape({ limit, status, afterId }: PetQuery): {
  shape: number;
  params: unknown[];
} {
  const params: unknown[] = [];
  if (status !== undefined) params.push(status);
  if (afterId !== undefined) params.push(afterId);
  params.push(limit);
  return { shape: (status === undefined ? 0 : 1) | (afterId === undefined ? 0 : 2), params };
}

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

  async columnsOf(table: string): Promise<string[]> {
    const query =
      this.engine === "postgres"
        ? sql<{ name: string }>`select column_name as name from information_schema.columns
            where table_schema = current_schema() and table_name = ${table}`
        : sql<{ name: string }>`select name from pragma_table_info(${table})`;
    return (await query.execute(this.db)).rows.map((row) => row.name);
  }

  /**
   * No page as JSON text here: the handler reads the pets (`listPets`). SQLite's store writes
   * pages as text; a store that cannot still answers, so a proxy over either (the fault tests')
   * finds the method on both.
   */
  listPetsText(_query: PetQuery, _items: readonly TextProperty[]): Promise<PetsText | undefined> {
    return Promise.resolve(undefined);
  }

  /** Nothing to prepare where `listPetsText` writes no text. */
  prepareTextPages(_items: readonly TextProperty[]): Promise<void> {
    return Promise.resolve();
  }

  listPets(query: PetQuery): Promise<Pet[]> {
    return classified(this.classify, async () =>
      toPets(await petsPageQuery(this.db, query).execute()),
    );
  }

  /**
   * Inserts one pet. Keyset paging (listPets after an id) relies on ids becoming visible in
   * order: a reader that has seen id N must already see every id below N that will ever exist.
   * - SQLite: one writer at a time holds the write lock from drawing the id to the commit.
   * - PostgreSQL: the `pets_commit_in_id_order` trigger (migration 0002) makes every insert
   *   statement take a transaction-scoped advisory lock before it draws an id; the lock is held
   *   until the commit. Advisory locks belong to the database, so this holds across every
   *   instance sharing it. It costs one lock per transaction: creates commit one after another.
   * A batched insert (many rows in one statement or one transaction) keeps the guarantee as is:
   * the trigger fires once per statement and the lock lasts until the transaction commits, so a
   * batch draws consecutive ids and becomes visible at once. What would break it: an identity
   * sequence with CACHE > 1 (each connection would draw from its own block of ids), or inserting
   * through a path that disables triggers (`session_replication_role = replica`).
   */
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

  listUsableApiKeys(): ReturnType<ApiKeyStore["listUsableApiKeys"]> {
    return this.keys.listUsableApiKeys();
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
