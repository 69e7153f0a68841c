/**
 * The same call (list 20 pets, parse the JSON body) made three ways. Each caller throws when the call
 * did not succeed, so a fast failure can never pass for a fast client.
 */

import type { paths } from "@animal-store/api-types";
import { createAnimalStoreClient } from "@animal-store/client";
import createClient from "openapi-fetch";
import { basePath } from "./base-path.js";

/** One call of a client; rejects unless it got the page of pets. */
export type Caller = () => Promise<void>;

function expectPage(data: unknown, what: string): void {
  if (!Array.isArray(data) || data.length === 0) throw new Error(`${what}: no pets in the answer`);
}

/** Builds the three callers against `url` (API under `${url}/v1`) with `key`. */
export async function clientCallers(
  url: string,
  key: string,
): Promise<Record<"rawFetch" | "openapiFetch" | "ours", Caller>> {
  const base = `${url}${basePath}`;
  const headers = { authorization: `Bearer ${key}` };
  const listUrl = `${base}/pets?limit=20`;
  const bare = createClient<paths>({ baseUrl: base, headers });
  const ours = createAnimalStoreClient({ baseUrl: base, apiKey: key });
  return {
    rawFetch: async () => {
      const res = await fetch(listUrl, { headers });
      if (!res.ok) throw new Error(`raw fetch: ${res.status}`);
      expectPage(await res.json(), "raw fetch");
    },
    openapiFetch: async () => {
      const { data, error } = await bare.GET("/pets", { params: { query: { limit: 20 } } });
      if (error !== undefined) throw new Error(`openapi-fetch: ${JSON.stringify(error)}`);
      expectPage(data, "openapi-fetch");
    },
    ours: async () => {
      const { data, error } = await ours.GET("/pets", { params: { query: { limit: 20 } } });
      if (error !== undefined) throw new Error(`@animal-store/client: ${JSON.stringify(error)}`);
      expectPage(data, "@animal-store/client");
    },
  };
}
