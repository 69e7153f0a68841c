/** The storage interface of the server: pets and API keys, the same for every engine. */
import type { NewPet, Pet, PetStatus } from "@animal-store/api-types";
import type { ApiKeyRecord } from "../auth.js";

/** What a new key is stored with; the key itself is never stored, only its hash. */
export interface NewApiKey extends Omit<ApiKeyRecord, "revokedAt"> {
  keyHash: string;
}

/** Pets and API keys behind one engine-agnostic interface (SQLite or PostgreSQL). */
export interface Store {
  readonly engine: "sqlite" | "postgres";
  /** Pets in ascending id order, at most `limit`, only `status` ones when given. */
  listPets(query: { limit: number; status?: PetStatus | undefined }): Promise<Pet[]>;
  /** Stores a pet and returns it with its new id; durable once it resolves. */
  createPet(pet: NewPet): Promise<Pet>;
  getPet(id: number): Promise<Pet | null>;
  insertApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The key with this hash, revoked or not; null when there is none. */
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked (first revocation time wins); null when no key has this id. */
  revokeApiKey(id: string, revokedAt: string): Promise<ApiKeyRecord | null>;
  countApiKeys(): Promise<number>;
  /** Readiness probe: resolves when the database answers. */
  check(): Promise<void>;
  close(): Promise<void>;
}
