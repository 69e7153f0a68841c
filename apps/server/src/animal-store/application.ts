/** The Animal Store as an application of the engine: its store and its app. */
import type { ApiApplication } from "../engine/node/server.js";
import { createApp } from "./app.js";
import { openStore, type Store } from "./store/index.js";
import { openSqliteStore } from "./store/sqlite.js";

/** What `startApiServer` needs to run the Animal Store. */
export const animalStoreApplication: ApiApplication<Store> = {
  openStore,
  // An in-memory SQLite database with the same schema: warm-up writes go there and vanish.
  openScratchStore: () => openSqliteStore(":memory:"),
  createApp,
};
