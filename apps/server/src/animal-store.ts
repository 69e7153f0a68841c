/**
 * The Animal Store, composed: the contract it serves, the names it gives everything the engine
 * leaves unnamed, its store and its handlers. The one place where the application meets the
 * engine (`@animal-store/openapi-engine`); main.ts, the keys CLI, the tests and the bench start
 * from here.
 */
import { fileURLToPath } from "node:url";
import { type LoadedSpec, loadBundledSpec } from "@animal-store/openapi";
import {
  type ApiApplication,
  type AppConfig,
  type ApplicationNames,
  type Contract,
  compileContract,
  createEngineApp,
  type EngineDeps,
  type RunningServer as EngineRunningServer,
  loadConfig,
  type StartOptions,
  startApiServer,
} from "@animal-store/openapi-engine";
import type { Express } from "express";
import { createHandlers } from "./handlers.js";
import { openStore, type Store } from "./store/index.js";
import { openSqliteStore } from "./store/sqlite.js";

/** What the Animal Store calls things: its logs, its default database, its docs, its Redis keys. */
export const names: ApplicationNames = {
  service: "animal-store",
  databaseUrl: "file:./data/animal-store.db",
  // apps/docs builds the page; from dist/ (or src/) this is apps/docs/dist/index.html.
  docsHtmlPath: fileURLToPath(new URL("../../docs/dist/index.html", import.meta.url)),
  docsBuildHint: "pnpm run docs",
  redisKeyPrefix: "animal-store:rl:",
};

/** The Animal Store's configuration: `env` validated, its own defaults where `env` is silent. */
export function configFrom(env: Record<string, string | undefined>): AppConfig {
  return loadConfig(env, names);
}

/** The dependencies of the app; everything stateful comes in from outside. */
export type AppDeps = Omit<EngineDeps, "contract" | "handlers" | "store"> & {
  store: Store;
  /** The compiled contract to serve; else `spec` compiled; else the bundled contract. */
  contract?: Contract;
  spec?: LoadedSpec;
};

/** The Animal Store API as an Express app: the engine with the Animal Store's handlers. */
export function createApp(deps: AppDeps): Express {
  const contract = deps.contract ?? compileContract(deps.spec ?? loadBundledSpec());
  return createEngineApp({ ...deps, contract, handlers: createHandlers(deps.store, contract) });
}

/** The Animal Store as an application of the engine. */
export const animalStore: ApiApplication<Store> = {
  names,
  get spec() {
    return loadBundledSpec();
  },
  openStore,
  // An in-memory SQLite database with the same schema: warm-up writes go there and vanish.
  openScratchStore: () => openSqliteStore(":memory:"),
  createApp,
};

/** A running Animal Store server. */
export type RunningServer = EngineRunningServer<Store>;

/** Starts the Animal Store server on `env`; resolves once listening and warmed up. */
export function startServer(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions = {},
): Promise<RunningServer> {
  return startApiServer(animalStore, env, options);
}
