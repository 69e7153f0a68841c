/**
 * The API key, as the user entered it: kept in this tab's session storage only (never local
 * storage or a cookie), so it is gone when the tab closes. A key the API refuses (401) is dropped
 * and the refusal is kept to tell the user why the key screen is back.
 */
import { createValueStore, type ValueStore } from "./value-store.js";

const STORAGE_KEY = "animal-store.api-key";

/** What the key screen shows: the current key, or none and perhaps why it was refused. */
export interface KeyState {
  readonly key: string | null;
  readonly refusal: string | null;
}

/** The key held in session storage, observable by the UI. */
export interface ApiKeyStore extends ValueStore<KeyState> {
  /** Stores an accepted-looking key (visible ASCII, no spaces); returns an error message otherwise. */
  enter(key: string): string | null;
  /** Forgets the key; `refusal` says why (the API's 401 message), or null when the user chose to. */
  forget(refusal: string | null): void;
}

/** Opens the key store on `storage` (the tab's sessionStorage). */
export function createApiKeyStore(storage: Storage): ApiKeyStore {
  const store = createValueStore<KeyState>({ key: storage.getItem(STORAGE_KEY), refusal: null });
  return {
    ...store,
    enter(raw) {
      const key = raw.trim();
      // The client sends the key verbatim in a header: visible ASCII only (see @animal-store/client).
      if (!/^[\x21-\x7e]+$/.test(key)) return "An API key is one word of visible ASCII characters.";
      storage.setItem(STORAGE_KEY, key);
      store.set({ key, refusal: null });
      return null;
    },
    forget(refusal) {
      storage.removeItem(STORAGE_KEY);
      store.set({ key: null, refusal });
    },
  };
}
