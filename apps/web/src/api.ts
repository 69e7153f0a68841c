/**
 * The app's one Animal Store client and what the UI observes of it: the pause a 429 asked for
 * (seen on every answer, including those the client retries by itself), deprecation notices
 * (`onDeprecation`), and a counter bumped after each answer so views re-read `client.rateLimit`
 * (the 429 that empties the window shows as 0 left while the client waits it out).
 */
import {
  type AnimalStoreClient,
  asOpenapiFetchClient,
  createAnimalStoreClient,
  type DeprecationNotice,
  isApiErrorBody,
  parseRetryAfter,
  type paths,
} from "@animal-store/client";
import createQueryHooks, { type OpenapiQueryClient } from "openapi-react-query";
import type { ApiKeyStore } from "./api-key.js";
import { createValueStore, type ValueStore } from "./value-store.js";

/** The wait a 429 asked for. */
export interface RateLimitPause {
  /** When requests may resume (ms since the epoch), or null when `Retry-After` was unreadable. */
  readonly until: number | null;
  /** True when the key is banned (`api_key_banned`), not merely over its limit. */
  readonly banned: boolean;
}

/** The client, its TanStack Query hooks and the observable state the views show. */
export interface Api {
  readonly baseUrl: string;
  readonly client: AnimalStoreClient;
  readonly hooks: OpenapiQueryClient<paths, "application/json">;
  readonly pause: ValueStore<RateLimitPause | null>;
  readonly deprecations: ValueStore<readonly DeprecationNotice[]>;
  /** Bumped after every answer (retried ones included), so views re-read `client.rateLimit`. */
  readonly answers: ValueStore<number>;
}

/** Creates the client for `baseUrl`, authenticating with the key in `keys`. */
export function createApi(baseUrl: string, keys: ApiKeyStore): Api {
  const pause = createValueStore<RateLimitPause | null>(null);
  const deprecations = createValueStore<readonly DeprecationNotice[]>([]);
  const answers = createValueStore(0);

  const notePause = (response: Response): void => {
    const wait = parseRetryAfter(response.headers.get("Retry-After"), Date.now());
    const noted: RateLimitPause = {
      until: wait === undefined ? null : Date.now() + wait,
      banned: false,
    };
    pause.set(noted);
    response
      .clone()
      .json()
      .then((body: unknown) => {
        if (isApiErrorBody(body) && body.code === "api_key_banned" && pause.get() === noted) {
          pause.set({ ...noted, banned: true });
        }
      })
      .catch(() => undefined);
  };

  const client = createAnimalStoreClient({
    baseUrl,
    getApiKey: () => keys.get().key ?? "",
    // Every answer passes here, the 429s the client then waits out and retries included.
    fetch: async (request) => {
      const response = await globalThis.fetch(request);
      if (response.status === 429) notePause(response);
      else if (pause.get() !== null) pause.set(null);
      // The client reads this answer's rate-limit headers after this function returns: look then.
      setTimeout(() => answers.set(answers.get() + 1), 0);
      return response;
    },
    onDeprecation: (notice) => deprecations.set([...deprecations.get(), notice]),
  });
  return {
    baseUrl,
    client,
    hooks: createQueryHooks(asOpenapiFetchClient(client)),
    pause,
    deprecations,
    answers,
  };
}
