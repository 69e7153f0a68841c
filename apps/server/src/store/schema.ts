/** The database tables as Kysely sees them; shared by both engines. */
import type { PetStatus } from "@animal-store/api-types";
import type { Generated } from "kysely";
import type { Plan } from "../auth.js";

/** Table `pets`. */
export interface PetsTable {
  id: Generated<number>;
  name: string;
  category_id: number;
  status: PetStatus | null;
}

/** Table `api_keys`: key hashes with their plan; timestamps are ISO-8601 UTC strings. */
export interface ApiKeysTable {
  id: string;
  name: string;
  plan: Plan;
  per_minute: number | null;
  per_day: number | null;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** The whole schema. */
export interface Database {
  pets: PetsTable;
  api_keys: ApiKeysTable;
}
