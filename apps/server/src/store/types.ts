/** The Animal Store's storage: its pets, next to the engine's API keys, on one database. */
import type { NewPet, Pet, PetStatus } from "@animal-store/api-types";
import type { ApiKeyStore, StoreLifecycle } from "@animal-store/openapi-engine/storage";
import type { TextProperty } from "./json-pages.js";

/** Which pets a list returns. */
export interface PetQuery {
  limit: number;
  status?: PetStatus | undefined;
  /** Only ids above this one (keyset paging); from the first pet when absent. */
  afterId?: number | undefined;
}

/** A page of pets as the JSON text a list answers, and what paging needs to know of it. */
export interface PetsText {
  /** The page's items as JSON (`[...]`), `items`' properties in their order. */
  text: string;
  count: number;
  /** The id of the page's last pet; undefined when the page is empty. */
  lastId: number | undefined;
  /** Whether a pet of the same query follows the page (only asked when the page is full). */
  more: boolean;
}

/** The pets: what the handlers read and write. */
export interface PetStore {
  /** Pets in ascending id order, at most `limit`, only `status` ones and ids above `afterId` when given. */
  listPets(query: PetQuery): Promise<Pet[]>;
  /** Stores a pet and returns it with its new id; durable once it resolves. */
  createPet(pet: NewPet): Promise<Pet>;
  getPet(id: number): Promise<Pet | null>;
  /**
   * The same page as `listPets` (at most `limit` pets), written as JSON text by the database
   * with the properties `items` (json-pages.ts textPageItems); undefined when this store does not
   * write pages, or this page holds a value the text would not carry exactly: then read it with
   * `listPets`.
   */
  listPetsText?(query: PetQuery, items: readonly TextProperty[]): Promise<PetsText | undefined>;
  /**
   * Makes ready what `listPetsText` needs for `items` (SQLite: the statements, and the triggers
   * that keep the table's odd rows, text-guard.ts), so that the first page does not wait for it.
   */
  prepareTextPages?(items: readonly TextProperty[]): Promise<void>;
  // scaffold: new store methods above this line (optional until KyselyStore implements them)
}

/** What the database holds, for the check that it can store what the contract says is stored. */
export interface StorageShape {
  /** The columns of `table` (none when it does not exist). */
  columnsOf(table: string): Promise<string[]>;
}

/** The whole store of the Animal Store server (SQLite or PostgreSQL). */
export type Store = PetStore & ApiKeyStore & StoreLifecycle & StorageShape;
