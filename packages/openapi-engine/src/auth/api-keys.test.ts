import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBundledSpec, rateLimitPolicy } from "@animal-store/openapi";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../errors.js";
import {
  type ApiKeyStore,
  type ApiKeysTable,
  createApiKeysTable,
  kyselyApiKeyStore,
} from "../storage/api-key-store.js";
import { classifySqliteError, openSqliteDatabase } from "../storage/sqlite.js";
import { createKeyLookup, hashApiKey, issueApiKey } from "./api-keys.js";

const policy = rateLimitPolicy(loadBundledSpec().spec);
const [plan, otherPlan] = policy.planNames.filter((name) => !policy.plans[name]?.custom) as [
  string,
  string,
];
const customPlan = policy.planNames.find((name) => policy.plans[name]?.custom) as string;

let dir: string;
let db: Kysely<{ api_keys: ApiKeysTable }>;
let store: ApiKeyStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-keys-"));
  ({ db } = await openSqliteDatabase<{ api_keys: ApiKeysTable }>(join(dir, "keys.db"), () => ({
    "0001_api_keys": { up: createApiKeysTable },
  })));
  store = kyselyApiKeyStore(db, classifySqliteError);
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("issueApiKey", () => {
  it("returns a random bearer-safe key and stores only its hash", async () => {
    const { key, record } = await issueApiKey(store, policy, { plan, name: " web " });
    expect(key).toMatch(/^ask_[A-Za-z0-9_-]{32}$/);
    expect(record).toMatchObject({ plan, name: "web", perMinute: null, revokedAt: null });
    expect(await store.findApiKeyByHash(hashApiKey(key))).toEqual(record);
    expect(JSON.stringify(await store.listApiKeys())).not.toContain(key);
    const other = await issueApiKey(store, policy, { plan: otherPlan, name: "web" });
    expect(other.key).not.toBe(key);
    expect(other.record.id).not.toBe(record.id);
  });

  it("requires limits for a key of a custom plan and checks every value", async () => {
    await expect(issueApiKey(store, policy, { plan: customPlan, name: "big" })).rejects.toThrow(
      `a ${customPlan} key needs its own per-minute and per-day limits`,
    );
    const { record } = await issueApiKey(store, policy, {
      plan: customPlan,
      name: "big",
      perMinute: 5000,
      perDay: 1_000_000,
    });
    expect(record).toMatchObject({ perMinute: 5000, perDay: 1_000_000 });
    await expect(
      issueApiKey(store, policy, { plan: "gold-not-a-plan", name: "x" }),
    ).rejects.toThrow(`plan must be one of ${policy.planNames.join(", ")}`);
    await expect(issueApiKey(store, policy, { plan: "toString", name: "x" })).rejects.toThrow(
      /plan/,
    );
    await expect(issueApiKey(store, policy, { plan, name: "  " })).rejects.toThrow(/name/);
    await expect(issueApiKey(store, policy, { plan, name: "x", perMinute: 0 })).rejects.toThrow(
      /per-minute/,
    );
  });
});

describe("createKeyLookup", () => {
  function counting(base: ApiKeyStore): { store: ApiKeyStore; calls: () => number } {
    let calls = 0;
    const wrapped = Object.assign(Object.create(base) as ApiKeyStore, {
      findApiKeyByHash: (hash: string) => {
        calls++;
        return base.findApiKeyByHash(hash);
      },
    });
    return { store: wrapped, calls: () => calls };
  }

  it("answers repeated lookups from the cache within the TTL, known and unknown keys alike", async () => {
    const { key, record } = await issueApiKey(store, policy, { plan, name: "cached" });
    const { store: spied, calls } = counting(store);
    const lookup = createKeyLookup(spied, 60_000);
    expect(await lookup(key)).toEqual(record);
    expect(await lookup(key)).toEqual(record);
    expect(await lookup("ask_unknown")).toBeNull();
    expect(await lookup("ask_unknown")).toBeNull();
    expect(calls()).toBe(2);
  });

  it("goes to the store every time with TTL 0 and never returns a revoked key", async () => {
    const { key, record } = await issueApiKey(store, policy, { plan, name: "revoked" });
    const { store: spied, calls } = counting(store);
    const lookup = createKeyLookup(spied, 0);
    expect(await lookup(key)).toEqual(record);
    await store.revokeApiKey(record.id, new Date().toISOString());
    expect(await lookup(key)).toBeNull();
    expect(calls()).toBe(2);
  });
});

describe("the key store's errors", () => {
  it("are classified by the key store itself: an outage reaches the engine as a 503", async () => {
    const other = await openSqliteDatabase<{ api_keys: ApiKeysTable }>(
      join(dir, "gone.db"),
      () => ({
        "0001_api_keys": { up: createApiKeysTable },
      }),
    );
    await other.db.destroy();
    const seen: unknown[] = [];
    const outage = kyselyApiKeyStore(other.db, (err) => {
      seen.push(err);
      return new StoreUnavailableError("down", { cause: err });
    });
    await expect(outage.findApiKeyByHash("x")).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(outage.countApiKeys()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(seen).toHaveLength(2);
  });
});
