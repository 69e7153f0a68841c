/** Public API of the server: the application on the engine, for tests and other packages. */
export { animalStore, configFrom, type RunningServer, startServer } from "./animal-store.js";
export { createHandlers, type Handlers, type PetHandler } from "./handlers/index.js";
export { type FerryStore, openSqliteStore, openStore, type Store } from "./store/index.js";
