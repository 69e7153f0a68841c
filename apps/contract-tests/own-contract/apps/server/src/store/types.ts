/**
 * Harbour Ferries' storage: what its handlers read and write (nothing yet: `pnpm scaffold` adds a
 * signature per operation), next to the engine's API keys, on one SQLite database.
 */
import type { ApiKeyStore, StoreLifecycle } from "@animal-store/openapi-engine/storage";

/** What the handlers read and write. */
// biome-ignore lint/suspicious/noEmptyInterface: `pnpm scaffold` writes a method per operation into it.
export interface FerryStore {
  // scaffold: new store methods above this line (optional until the store implements them)
}

/** The whole store of the server. */
export type Store = FerryStore & ApiKeyStore & StoreLifecycle;
