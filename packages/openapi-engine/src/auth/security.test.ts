import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rateLimitPolicy } from "@animal-store/openapi";
import type { NextFunction, Request, Response } from "express";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { compileContract } from "../contract/contract.js";
import { EngineError, StoreUnavailableError } from "../errors.js";
import {
  type ApiKeyStore,
  type ApiKeysTable,
  createApiKeysTable,
  kyselyApiKeyStore,
} from "../storage/api-key-store.js";
import { classifySqliteError, openSqliteDatabase } from "../storage/sqlite-database.js";
import {
  type ApiKeyRecord,
  type Caller,
  type CallerLocals,
  compileContractSecurity,
  createKeyLookup,
  hashApiKey,
  identifyCaller,
  issueApiKey,
  type KeyLookup,
  requireCredential,
} from "./security.js";

const policy = rateLimitPolicy(loadFixture().spec);
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

  it("judges a key that exists on the directory (no lookup), an unknown one with one lookup per token until the reload", async () => {
    const { key, record } = await issueApiKey(store, policy, { plan, name: "cached" });
    const { store: spied, calls } = counting(store);
    const lookup = createKeyLookup(spied, 60_000);
    expect(await lookup(key)).toEqual(record);
    // Judged once, then answered synchronously (no promise, no hashing).
    expect(lookup(key)).toEqual(record);
    expect(calls()).toBe(0);
    expect(await lookup("ask_unknown")).toBeNull();
    expect(lookup("ask_unknown")).toBeNull();
    expect(calls()).toBe(1);
  });

  it("floods of unknown keys (planted fault: no budget): 3,000 random keys cost at most the budget's lookups, and ten never-used valid keys are found without one", async () => {
    const issued = await Promise.all(
      Array.from({ length: 10 }, (_, i) => issueApiKey(store, policy, { plan, name: `quiet${i}` })),
    );
    const validHashes = new Set(issued.map(({ key }) => hashApiKey(key)));
    let validLookups = 0;
    const { store: spied, calls } = counting(
      Object.assign(Object.create(store) as ApiKeyStore, {
        findApiKeyByHash: (hash: string) => {
          if (validHashes.has(hash)) validLookups++;
          return store.findApiKeyByHash(hash);
        },
      }),
    );
    // The budget is the contract's anonymous plan's requests per minute (api-app.ts).
    const perMinute = policy.plans[policy.anonymousPlan]?.perMinute as number;
    const lookup = createKeyLookup(spied, 60_000, { perMinute });
    const attacker = () => "203.0.113.9";
    for (let i = 0; i < 3000; i++) {
      expect(await lookup(`ask_${randomBytes(24).toString("base64url")}`, attacker)).toBeNull();
    }
    expect(calls()).toBe(perMinute);
    // The same address, keys never used before: each found, none looked up.
    for (const { key, record } of issued) expect(await lookup(key, attacker)).toEqual(record);
    expect(validLookups).toBe(0);
    expect(calls()).toBe(perMinute);
  });

  it("a key issued after the directory was loaded works at once within the budget, and after the next reload past it; a revoked key stops within the TTL", async () => {
    const ttlMs = 300;
    const lookup = createKeyLookup(store, ttlMs, { perMinute: 1 });
    expect(await lookup("ask_first_unknown")).toBeNull();
    const { key, record } = await issueApiKey(store, policy, { plan, name: "late" });
    // The budget is spent: the new key waits for the next reload, at most the TTL.
    expect(await lookup(key)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, ttlMs + 50));
    expect(await lookup(key)).toEqual(record);
    await store.revokeApiKey(record.id, new Date().toISOString());
    await new Promise((resolve) => setTimeout(resolve, ttlMs + 50));
    expect(await lookup(key)).toBeNull();
    const roomy = createKeyLookup(store, 60_000, { perMinute: 5 });
    expect(await roomy("ask_warm_up")).toBeNull();
    const newer = await issueApiKey(store, policy, { plan, name: "newer" });
    // Within the budget a key issued since the load is looked up and works at once.
    expect(await roomy(newer.key)).toEqual(newer.record);
  });

  it("floods of unknown keys cannot evict a valid one (planted fault: one cache for all), even without a budget", async () => {
    const { key, record } = await issueApiKey(store, policy, { plan, name: "kept" });
    const validHash = hashApiKey(key);
    let validLookups = 0;
    const spied = Object.assign(Object.create(store) as ApiKeyStore, {
      findApiKeyByHash: (hash: string) => {
        if (hash === validHash) validLookups++;
        return hash === validHash ? store.findApiKeyByHash(hash) : Promise.resolve(null);
      },
    });
    const lookup = createKeyLookup(spied, 60_000);
    expect(await lookup(key)).toEqual(record);
    // More unknown keys than any cache holds.
    for (let i = 0; i < 12_000; i++) expect(await lookup(`ask_flood${i}`)).toBeNull();
    expect(lookup(key)).toEqual(record);
    expect(validLookups).toBe(0);
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

const contract = compileContract(loadFixture());
const challenge = `Bearer realm="${contract.realm}"`;

const record: ApiKeyRecord = {
  id: "k1",
  name: "web",
  plan: contract.rateLimit.planNames[0] as string,
  perMinute: null,
  perDay: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  revokedAt: null,
};

/** The fixture's document security compiled over `lookup`, as the app compiles it. */
function documentSecurity(lookup: KeyLookup) {
  return compileContractSecurity(contract.spec, contract.operations, {
    keyLookup: lookup,
  }).forDocument();
}

async function identifyLocals(
  authorization: string | undefined,
  lookup: KeyLookup = async (key) => (key === "good-key" ? record : null),
): Promise<CallerLocals> {
  const rawHeaders = authorization === undefined ? [] : ["Authorization", authorization];
  const req = {
    headers: { authorization },
    rawHeaders,
    ip: "10.0.0.1",
    socket: {},
  } as unknown as Request;
  const res = { locals: {} } as unknown as Response<unknown, CallerLocals>;
  await new Promise<void>((resolve) =>
    identifyCaller(documentSecurity(lookup).check)(req, res, () => resolve()),
  );
  return res.locals;
}

async function identify(authorization: string | undefined, lookup?: KeyLookup): Promise<Caller> {
  return (await identifyLocals(authorization, lookup)).caller;
}

/** What requireCredential passes on for `authorization` (two Authorization lines with `twice`). */
async function reject(
  authorization: string | undefined,
  lookup?: KeyLookup,
  twice = false,
): Promise<unknown> {
  const locals = await identifyLocals(authorization, lookup);
  if (twice) {
    const req = {
      headers: { authorization },
      rawHeaders: ["Authorization", authorization, "Authorization", authorization],
      ip: "10.0.0.1",
      socket: {},
    } as unknown as Request;
    const res = { locals } as unknown as Response<unknown, CallerLocals>;
    await new Promise<void>((resolve) =>
      identifyCaller(documentSecurity(async () => record).check)(req, res, () => resolve()),
    );
  }
  let passed: unknown = "not called";
  requireCredential(documentSecurity(async () => null).refuse)(
    {} as Request,
    { locals } as unknown as Response<unknown, CallerLocals>,
    ((err?: unknown) => {
      passed = err;
    }) as NextFunction,
  );
  return passed;
}

describe("identifyCaller", () => {
  it("accepts a known bearer key, case-insensitively on the scheme", async () => {
    expect(await identify("Bearer good-key")).toEqual({ kind: "key", key: record });
    expect(await identify("bearer good-key")).toEqual({ kind: "key", key: record });
  });

  it("treats a missing header or another scheme as missing", async () => {
    for (const header of [undefined, "", "Basic Z29vZC1rZXk=", "Bearerx good-key"]) {
      expect(await identify(header)).toEqual({
        kind: "anonymous",
        address: "10.0.0.1",
        failure: "missing",
      });
    }
  });

  it("treats an unknown or malformed bearer token as invalid", async () => {
    for (const header of ["Bearer other", "Bearer", "Bearer good key", "Bearer \u00e9t\u00e9"]) {
      expect((await identify(header)).kind === "anonymous" && (await identify(header))).toEqual({
        kind: "anonymous",
        address: "10.0.0.1",
        failure: "invalid",
      });
    }
  });
});

describe("requireCredential", () => {
  it("passes a key caller through", async () => {
    expect(await reject("Bearer good-key")).toBeUndefined();
  });

  it("answers 401 unauthorized with the bare challenge when the key is missing", async () => {
    const err = (await reject(undefined)) as EngineError;
    expect(err).toBeInstanceOf(EngineError);
    expect([err.status, err.code]).toEqual([401, "unauthorized"]);
    expect(err.headers["WWW-Authenticate"]).toBe(challenge);
    expect(err.message).toBe("Missing credentials: send Authorization: Bearer <API_KEY>.");
  });

  it("answers 401 invalid_api_key with error=invalid_token when the key is bad", async () => {
    const err = (await reject("Bearer bad-key")) as EngineError;
    expect([err.status, err.code]).toEqual([401, "invalid_api_key"]);
    expect(err.headers["WWW-Authenticate"]).toBe(`${challenge}, error="invalid_token"`);
    expect(err.message).toBe("The API key is invalid or revoked.");
  });

  it("takes the realm from the contract's security scheme", () => {
    const schemes = loadFixture().spec.components?.securitySchemes as Record<
      string,
      { "x-realm"?: string }
    >;
    expect(contract.realm).toBe(schemes.keyAuth?.["x-realm"]);
  });

  it("answers 401 invalid_api_key with error=invalid_request for two Authorization headers", async () => {
    const err = (await reject("Bearer good-key", undefined, true)) as EngineError;
    expect([err.status, err.code]).toEqual([401, "invalid_api_key"]);
    expect(err.headers["WWW-Authenticate"]).toBe(`${challenge}, error="invalid_request"`);
    expect(err.message).toBe("Send exactly one Authorization header.");
  });

  it("answers the key store's failure where a key is needed", async () => {
    const failure = new Error("store down");
    const caller = await identify("Bearer good-key", () => Promise.reject(failure));
    expect(caller).toEqual({ kind: "anonymous", address: "10.0.0.1", failure: "unverified" });
    expect(await reject("Bearer good-key", () => Promise.reject(failure))).toBe(failure);
    const thrown = () => {
      throw failure;
    };
    expect(await reject("Bearer good-key", thrown)).toBe(failure);
  });
});
