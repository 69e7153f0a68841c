/**
 * An application of the engine over any fixture contract, for the suites of one feature family
 * (answers, no extensions): a store that holds the engine's key table only (SQLite, on a scratch
 * file or in memory) and the suite's own handlers, which keep whatever they serve in memory.
 * Nothing of any real application.
 */
import type { LoadedSpec } from "@animal-store/openapi";
import { sql } from "kysely";
import type { Application } from "../../src/application.js";
import type { HandlerSet } from "../../src/compiled-operation.js";
import {
  type ApiKeyStore,
  type ApiKeysTable,
  classified,
  classifySqliteError,
  createApiKeysTable,
  kyselyApiKeyStore,
  type MigrationList,
  openSqliteDatabase,
} from "../../src/storage/index.js";

/** The store: the engine's keys, nothing else. */
export interface KeysOnlyStore extends ApiKeyStore {
  readonly engine: "sqlite";
  check(): Promise<void>;
  close(): Promise<void>;
}

const migrations: MigrationList = () => ({
  "0001_keys": { up: (db) => createApiKeysTable(db) },
});

async function openKeysOnlyStore(path: string): Promise<KeysOnlyStore> {
  const { db } = await openSqliteDatabase<{ api_keys: ApiKeysTable }>(path, migrations);
  return {
    ...kyselyApiKeyStore(db as never, classifySqliteError),
    engine: "sqlite",
    check: () =>
      classified(classifySqliteError, async () => void (await sql`select 1`.execute(db))),
    close: () => db.destroy(),
  };
}

/** The application serving `spec` with the handlers `handlers()` makes (once per store). */
export function fixtureApplication(
  spec: LoadedSpec,
  handlers: () => HandlerSet,
): Application<KeysOnlyStore> {
  return {
    names: {
      service: "fixture-app",
      databaseUrl: "file:./data/fixture-app.db",
      docsHtmlPath: "/nonexistent/fixture-app/docs.html",
      docsBuildHint: "no docs for a fixture",
      redisKeyPrefix: "fixture-app:rl:",
    },
    spec,
    openStore: (database) => {
      if (database.engine !== "sqlite") throw new Error("the fixture application is SQLite only");
      return openKeysOnlyStore(database.path);
    },
    openScratchStore: () => openKeysOnlyStore(":memory:"),
    handlers: () => handlers(),
  };
}
