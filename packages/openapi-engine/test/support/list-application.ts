/**
 * An application of the engine for its own HTTP suites: a given bundled contract (one of the
 * engine's fixtures, `fixture-contract.ts`), a store holding only API keys (SQLite, on the engine's `./storage`) that counts its key
 * lookups, and one handler: for each operation that takes no path parameter and documents a 200
 * whose JSON body is an array, an empty array. Every other operation answers 500 not_implemented.
 */
import { deref, type JsonObject, type LoadedSpec, specOperations } from "@animal-store/openapi";
import type { Application } from "../../src/application.js";
import type { Handler } from "../../src/responses/handler-types.js";
import {
  type ApiKeyStore,
  type ApiKeysTable,
  classifySqliteError,
  createApiKeysTable,
  kyselyApiKeyStore,
  openSqliteDatabase,
} from "../../src/storage/index.js";
import type { StoreLifecycle } from "../../src/storage/store-lifecycle.js";

/** A store of API keys only, with the number of single-key lookups it has answered. */
export type KeyOnlyStore = ApiKeyStore & StoreLifecycle & { lookups: number };

export async function openKeyOnlyStore(path: string): Promise<KeyOnlyStore> {
  const { db } = await openSqliteDatabase<{ api_keys: ApiKeysTable }>(path, () => ({
    "0001_api_keys": { up: createApiKeysTable },
  }));
  const keys = kyselyApiKeyStore(db, classifySqliteError);
  const store: KeyOnlyStore = {
    ...keys,
    lookups: 0,
    findApiKeyByHash(hash) {
      store.lookups++;
      return keys.findApiKeyByHash(hash);
    },
    engine: "sqlite",
    async check() {},
    close: () => db.destroy(),
  };
  return store;
}

/** The operations a request can reach with no parameter and get 200 with an empty list. */
export function listOperations(loaded: LoadedSpec) {
  return specOperations(loaded.spec).filter((op) => {
    if (op.method !== "GET" || op.path.includes("{")) return false;
    const ok = deref<JsonObject>(loaded.spec, (op.operation.responses as JsonObject)?.["200"]);
    const media = (ok?.content as JsonObject | undefined)?.["application/json"] as JsonObject;
    const schema = media ? deref<JsonObject>(loaded.spec, media.schema) : undefined;
    return schema?.type === "array";
  });
}

export function listApplication(spec: LoadedSpec): Application<KeyOnlyStore> {
  const empty: Handler<never, never> = async ({ reply }) =>
    (reply as (status: number, body: unknown) => never)(200, []);
  return {
    names: {
      service: "engine-test",
      databaseUrl: "file:./data/engine-test.db",
      docsHtmlPath: "./docs.html",
      docsBuildHint: "no docs here",
      redisKeyPrefix: "engine-test:",
    },
    spec,
    openStore: async (database) => openKeyOnlyStore((database as { path: string }).path),
    openScratchStore: async () => openKeyOnlyStore(":memory:"),
    handlers: () => Object.fromEntries(listOperations(spec).map((op) => [op.operationId, empty])),
  };
}
