/**
 * Public API of @animal-store/server: the Animal Store as an application of the engine, for
 * tests, benchmarks and gates of other packages.
 */
export type { Plan } from "@animal-store/api-types";
export { animalStore, configFrom, type RunningServer, startServer } from "./animal-store.js";
export { createHandlers, type Handlers, type PetHandler } from "./handlers/index.js";
export { openStore, type PetStore, type Store } from "./store/index.js";
export { openPostgresStore } from "./store/postgres.js";
export { openSqliteStore, SqliteStore } from "./store/sqlite.js";
