import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyLookup, hashApiKey, issueApiKey } from "./api-keys.js";
import type { Store } from "./store/index.js";
import { openSqliteStore } from "./store/sqlite.js";

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-keys-"));
  store = await openSqliteStore(join(dir, "keys.db"));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("issueApiKey", () => {
  it("returns a random bearer-safe key and stores only its hash", async () => {
    const { key, record } = await issueApiKey(store, { plan: "pro", name: " web " });
    expect(key).toMatch(/^ask_[A-Za-z0-9_-]{32}$/);
    expect(record).toMatchObject({ plan: "pro", name: "web", perMinute: null, revokedAt: null });
    expect(await store.findApiKeyByHash(hashApiKey(key))).toEqual(record);
    expect(JSON.stringify(await store.listApiKeys())).not.toContain(key);
    const other = await issueApiKey(store, { plan: "pro", name: "web" });
    expect(other.key).not.toBe(key);
    expect(other.record.id).not.toBe(record.id);
  });

  it("requires enterprise limits and checks every value", async () => {
    await expect(issueApiKey(store, { plan: "enterprise", name: "big" })).rejects.toThrow(
      /enterprise key needs/,
    );
    const { record } = await issueApiKey(store, {
      plan: "enterprise",
      name: "big",
      perMinute: 5000,
      perDay: 1_000_000,
    });
    expect(record).toMatchObject({ perMinute: 5000, perDay: 1_000_000 });
    await expect(issueApiKey(store, { plan: "gold" as never, name: "x" })).rejects.toThrow(/plan/);
    await expect(issueApiKey(store, { plan: "free", name: "  " })).rejects.toThrow(/name/);
    await expect(issueApiKey(store, { plan: "free", name: "x", perMinute: 0 })).rejects.toThrow(
      /per-minute/,
    );
  });
});

describe("createKeyLookup", () => {
  function counting(base: Store): { store: Store; calls: () => number } {
    let calls = 0;
    const wrapped = Object.assign(Object.create(base) as Store, {
      findApiKeyByHash: (hash: string) => {
        calls++;
        return base.findApiKeyByHash(hash);
      },
    });
    return { store: wrapped, calls: () => calls };
  }

  it("answers repeated lookups from the cache within the TTL, known and unknown keys alike", async () => {
    const { key, record } = await issueApiKey(store, { plan: "free", name: "cached" });
    const { store: spied, calls } = counting(store);
    const lookup = createKeyLookup(spied, 60_000);
    expect(await lookup(key)).toEqual(record);
    expect(await lookup(key)).toEqual(record);
    expect(await lookup("ask_unknown")).toBeNull();
    expect(await lookup("ask_unknown")).toBeNull();
    expect(calls()).toBe(2);
  });

  it("goes to the store every time with TTL 0 and never returns a revoked key", async () => {
    const { key, record } = await issueApiKey(store, { plan: "free", name: "revoked" });
    const { store: spied, calls } = counting(store);
    const lookup = createKeyLookup(spied, 0);
    expect(await lookup(key)).toEqual(record);
    await store.revokeApiKey(record.id, new Date().toISOString());
    expect(await lookup(key)).toBeNull();
    expect(calls()).toBe(2);
  });
});
