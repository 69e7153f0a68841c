/**
 * @animal-store/openapi-engine/storage: what an application builds its store from. SQLite and
 * PostgreSQL databases under Kysely with its migrations run, the `api_keys` table and its queries
 * (which the engine's credential check reads), outage classification (a 503, not a 500) and the
 * store that waits for a database unreachable at start.
 */

export { StoreUnavailableError } from "../errors.js";
export {
  type ApiKeyRecord,
  type ApiKeyStore,
  type ApiKeysTable,
  createApiKeysTable,
  kyselyApiKeyStore,
  type NewApiKey,
  type UsableApiKey,
} from "./api-key-store.js";
export { classified, type ErrorClassifier } from "./classify.js";
export { type Engine, type MigrationList, migrateToLatest } from "./migrate.js";
export {
  classifyPostgresError,
  type OpenPostgres,
  openPostgresDatabase,
  type PostgresOptions,
} from "./postgres-database.js";
export { preparedLater } from "./prepared-later.js";
export { classifySqliteError, type OpenSqlite, openSqliteDatabase } from "./sqlite-database.js";
export type { StoreLifecycle } from "./store-lifecycle.js";
