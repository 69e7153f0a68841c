/** The Animal Store's storage: its pets, next to the engine's API keys, on one database. */
import type { NewPet, Pet, PetStatus } from "@animal-store/api-types";
import type { ApiKeyStore, StoreLifecycle } from "@animal-store/openapi-engine/storage";

/** Which pets a list returns. */
export interface PetQuery {
  limit: number;
  status?: PetStatus | undefined;
  /** Only ids above this one (keyset paging); from the first pet when absent. */
  afterId?: number | undefined;
}

/** The pets: what the handlers read and write. */
export interface PetStore {
  /** Pets in ascending id order, at most `limit`, only `status` ones and ids above `afterId` when given. */
  listPets(query: PetQuery): Promise<Pet[]>;
  /** Stores a pet and returns it with its new id; durable once it resolves. */
  createPet(pet: NewPet): Promise<Pet>;
  getPet(id: number): Promise<Pet | null>;
  // scaffold: new store methods above this line (optional until KyselyStore implements them)
}

/** What the database holds, for the check that it can store what the contract says is stored. */
export interface StorageShape {
  /** The columns of `table` (none when it does not exist). */
  columnsOf(table: string): Promise<string[]>;
}

/** The whole store of the Animal Store server (SQLite or PostgreSQL). */
export type Store = PetStore & ApiKeyStore & StoreLifecycle & StorageShape;
