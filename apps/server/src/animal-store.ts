/**
 * The Animal Store, composed: the contract it serves, the names it gives everything the engine
 * leaves unnamed, its store and its handlers. The one place where the application meets the
 * engine (`@animal-store/openapi-engine`); main.ts, the keys CLI, the tests and the bench start
 * from here.
 */
import { fileURLToPath } from "node:url";
import { loadBundledSpec } from "@animal-store/openapi";
import {
  type AppConfig,
  type Application,
  type RunningServer as EngineRunningServer,
  loadConfig,
  type StartOptions,
  startEngine,
} from "@animal-store/openapi-engine";
import { createHandlers } from "./handlers.js";
import { openStore, type Store } from "./store/index.js";
import { openSqliteStore } from "./store/sqlite.js";
import { checkStorage } from "./store/storage-check.js";

/** The Animal Store as an application of the engine. */
export const animalStore: Application<Store> = {
  names: {
    service: "animal-store",
    databaseUrl: "file:./data/animal-store.db",
    // apps/docs builds the page; from dist/ (or src/) this is apps/docs/dist/index.html.
    docsHtmlPath: fileURLToPath(new URL("../../docs/dist/index.html", import.meta.url)),
    docsBuildHint: "pnpm run docs",
    redisKeyPrefix: "animal-store:rl:",
  },
  get spec() {
    return loadBundledSpec();
  },
  openStore,
  // An in-memory SQLite database with the same schema: warm-up writes go there and vanish.
  openScratchStore: () => openSqliteStore(":memory:"),
  handlers: createHandlers,
  checkStorage,
};

/** The Animal Store's configuration: `env` validated, its own defaults where `env` is silent. */
export function configFrom(env: Record<string, string | undefined>): AppConfig {
  return loadConfig(env, animalStore.names);
}

/** A running Animal Store server. */
export type RunningServer = EngineRunningServer<Store>;

/** Starts the Animal Store server on `env`; resolves once warmed up and listening. */
export function startServer(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions<Store> = {},
): Promise<RunningServer> {
  return startEngine(animalStore, env, options);
}
