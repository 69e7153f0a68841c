import { describe, expect, it } from "vitest";
import { createApiKeyStore } from "./api-key.js";

/** A Storage in memory, as sessionStorage behaves. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe("createApiKeyStore", () => {
  it("keeps an entered key in the given storage, trimmed", () => {
    const storage = memoryStorage();
    const keys = createApiKeyStore(storage);
    expect(keys.enter("  ask_abc  ")).toBeNull();
    expect(keys.get()).toEqual({ key: "ask_abc", refusal: null });
    expect(createApiKeyStore(storage).get().key).toBe("ask_abc");
  });

  it("refuses a key the client could not send", () => {
    const keys = createApiKeyStore(memoryStorage());
    expect(keys.enter("two words")).toMatch(/visible ASCII/);
    expect(keys.enter("")).toMatch(/visible ASCII/);
    expect(keys.get().key).toBeNull();
  });

  it("forgets a refused key, keeping why", () => {
    const storage = memoryStorage();
    const keys = createApiKeyStore(storage);
    const seen: (string | null)[] = [];
    keys.subscribe(() => seen.push(keys.get().refusal));
    keys.enter("ask_abc");
    keys.forget("The API key is invalid or revoked.");
    expect(storage.length).toBe(0);
    expect(keys.get()).toEqual({ key: null, refusal: "The API key is invalid or revoked." });
    expect(seen).toEqual([null, "The API key is invalid or revoked."]);
  });
});
