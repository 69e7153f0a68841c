import type { HeaderAccess } from "./replayable-request.js";

/** Where the client gets its API key: a fixed key, or a getter for keys that rotate. */
export type ApiKeySource =
  | { apiKey: string; getApiKey?: never }
  | { getApiKey: () => string | Promise<string>; apiKey?: never };

/** Sets `Authorization` on a request's headers; returns a promise only when the key is async. */
export type Authorizer = (headers: HeaderAccess) => undefined | Promise<void>;

// A bearer key is sent verbatim in a header: visible ASCII only, so it can never break the header.
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The `Authorization` value for a key; the error never repeats the key, which is a secret. */
function bearer(key: unknown): string {
  if (typeof key !== "string" || !VISIBLE_ASCII.test(key)) {
    throw new TypeError("The API key must be a non-empty string of visible ASCII characters.");
  }
  return `Bearer ${key}`;
}

/** Builds the auth step: `Authorization: Bearer <key>`, asking a key getter again on every attempt. */
export function createAuthorizer(source: ApiKeySource): Authorizer {
  if (typeof source.getApiKey === "function") {
    const getApiKey = source.getApiKey;
    let lastKey: string | undefined;
    let lastValue = "";
    return async (headers) => {
      const key = await getApiKey();
      if (key !== lastKey) {
        lastValue = bearer(key);
        lastKey = key;
      }
      headers.set("Authorization", lastValue);
    };
  }
  if (source.apiKey === undefined) {
    throw new TypeError("createAnimalStoreClient needs `apiKey` or `getApiKey`.");
  }
  const value = bearer(source.apiKey);
  return (headers) => {
    headers.set("Authorization", value);
    return undefined;
  };
}
