/**
 * Where API keys live: the interface the engine needs, the `api_keys` table, and its queries on
 * Kysely (SQLite or PostgreSQL alike). An application's store includes these next to its own.
 * The queries classify their own errors: an outage is a StoreUnavailableError (503).
 */
import type { Kysely, Selectable } from "kysely";
import { classified, type ErrorClassifier } from "./classify.js";

/** An API key as the server knows it: never the key itself, only what it stands for. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** One of the contract's plans (info.x-rate-limit-plans). */
  plan: string;
  /** Own limits (required for a plan with custom limits); null means the plan's. */
  perMinute: number | null;
  perDay: number | null;
  createdAt: string;
  revokedAt: string | null;
}

/** What a new key is stored with; the key itself is never stored, only its hash. */
export interface NewApiKey extends Omit<ApiKeyRecord, "revokedAt"> {
  keyHash: string;
}

/** A key that is not revoked, and the hash it is found by. */
export interface UsableApiKey {
  keyHash: string;
  record: ApiKeyRecord;
}

/** The API keys of a store. */
export interface ApiKeyStore {
  insertApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The key with this hash, revoked or not; null when there is none. */
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /**
   * Every key not revoked, with its hash: the directory the credential check judges keys by
   * (auth/security.ts), reloaded every API_KEY_CACHE_TTL_MS. The table is small: one row per
   * issued key.
   */
  listUsableApiKeys(): Promise<UsableApiKey[]>;
  /** Marks a key revoked (first revocation time wins); null when no key has this id. */
  revokeApiKey(id: string, revokedAt: string): Promise<ApiKeyRecord | null>;
  countApiKeys(): Promise<number>;
}

/** Table `api_keys`: key hashes with their plan; timestamps are ISO-8601 UTC strings. */
export interface ApiKeysTable {
  id: string;
  name: string;
  plan: string;
  per_minute: number | null;
  per_day: number | null;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** Creates the `api_keys` table (a step of an application's first migration). */
export async function createApiKeysTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("plan", "text", (col) => col.notNull())
    .addColumn("per_minute", "integer")
    .addColumn("per_day", "integer")
    .addColumn("key_hash", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("revoked_at", "text")
    .execute();
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

/**
 * The ApiKeyStore queries over a database that has the `api_keys` table; `classify` tells the
 * database's outages (503) from its other errors.
 */
export function kyselyApiKeyStore(
  db: Kysely<{ api_keys: ApiKeysTable }>,
  classify: ErrorClassifier,
): ApiKeyStore {
  const queries: ApiKeyStore = {
    async insertApiKey(key) {
      const row = await db
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
    },
    async findApiKeyByHash(keyHash) {
      const row = await db
        .selectFrom("api_keys")
        .select(KEY_COLUMNS)
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
      return row ? toApiKey(row) : null;
    },
    async listApiKeys() {
      const rows = await db
        .selectFrom("api_keys")
        .select(KEY_COLUMNS)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toApiKey);
    },
    async listUsableApiKeys() {
      const rows = await db
        .selectFrom("api_keys")
        .select([...KEY_COLUMNS, "key_hash"])
        .where("revoked_at", "is", null)
        .execute();
      return rows.map((row) => ({ keyHash: row.key_hash, record: toApiKey(row) }));
    },
    async revokeApiKey(id, revokedAt) {
      await db
        .updateTable("api_keys")
        .set({ revoked_at: revokedAt })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
      const row = await db
        .selectFrom("api_keys")
        .select(KEY_COLUMNS)
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? toApiKey(row) : null;
    },
    async countApiKeys() {
      const row = await db
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
  return {
    insertApiKey: (key) => classified(classify, () => queries.insertApiKey(key)),
    findApiKeyByHash: (hash) => classified(classify, () => queries.findApiKeyByHash(hash)),
    listApiKeys: () => classified(classify, () => queries.listApiKeys()),
    listUsableApiKeys: () => classified(classify, () => queries.listUsableApiKeys()),
    revokeApiKey: (id, at) => classified(classify, () => queries.revokeApiKey(id, at)),
    countApiKeys: () => classified(classify, () => queries.countApiKeys()),
  };
}
