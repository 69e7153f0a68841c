/** The database tables as Kysely sees them; shared by both engines. */
import type { PetStatus } from "@animal-store/api-types";
import type { ApiKeysTable } from "@animal-store/openapi-engine/storage";
import type { Generated } from "kysely";

/** Table `pets`. */
export interface PetsTable {
  id: Generated<number>;
  name: string;
  category_id: number;
  status: PetStatus | null;
}

/** The whole schema: the pets and the engine's API keys. */
export interface Database {
  pets: PetsTable;
  api_keys: ApiKeysTable;
}
