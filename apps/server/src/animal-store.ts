/**
 * The Animal Store, composed: the contract it serves, the names it gives everything the engine
 * leaves unnamed, its store and its handlers. The one place where the application meets the
 * engine (`@animal-store/openapi-engine`); main.ts, the tests and the bench start from here (the
 * keys CLI only from app-config.ts and the store, so it never needs the handler table).
 */
import { loadBundledSpec } from "@animal-store/openapi";
import {
  type Application,
  type RunningServer as EngineRunningServer,
  type StartOptions,
  startEngine,
} from "@animal-store/openapi-engine";
import { animalStoreNames } from "./app-config.js";
import { createHandlers } from "./handlers/index.js";
import { openStore, type Store } from "./store/index.js";
import { openSqliteStore } from "./store/sqlite.js";
import { checkStorage } from "./store/storage-check.js";

/** The Animal Store as an application of the engine. */
export const animalStore: Application<Store> = {
  names: animalStoreNames,
  get spec() {
    return loadBundledSpec();
  },
  openStore,
  // An in-memory SQLite database with the same schema: warm-up writes go there and vanish.
  openScratchStore: () => openSqliteStore(":memory:"),
  handlers: (store, contract) => createHandlers(store, contract.spec),
  checkStorage,
  // The Animal Store owns its process: it serves with V8's pretenuring off (the engine's
  // http-server/v8-tuning.ts says why).
  tuneV8ForServing: true,
};

export { configFrom } from "./app-config.js";

/** A running Animal Store server. */
export type RunningServer = EngineRunningServer<Store>;

/** Starts the Animal Store server on `env`; resolves once warmed up and listening. */
export function startServer(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions<Store> = {},
): Promise<RunningServer> {
  return startEngine(animalStore, env, options);
}
