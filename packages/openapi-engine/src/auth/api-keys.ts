/**
 * API keys: issued as random bearer tokens, stored only as SHA-256 hashes (a key has 192 random
 * bits, so a fast hash is enough), looked up through a short cache so the hot path rarely touches
 * the database (or hashes at all). A revoked key stops working within the cache TTL.
 */
import { hash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { RateLimitPolicy } from "@animal-store/openapi";
import type { ApiKeyStore } from "../storage/api-key-store.js";
import type { ApiKeyRecord, KeyLookup } from "./credentials.js";

const KEY_PREFIX = "ask_";
const MAX_CACHED_KEYS = 10_000;

/** What a new key is created with. A key of a plan with custom limits needs its own. */
export interface NewKeyOptions {
  /** One of the contract's plans (info.x-rate-limit-plans). */
  plan: string;
  name: string;
  perMinute?: number | undefined;
  perDay?: number | undefined;
}

/** SHA-256 of a plaintext key, hex: what the database stores and searches by. */
export function hashApiKey(plaintextKey: string): string {
  // The one-shot form: it skips the Hash object createHash().update().digest() allocates.
  return hash("sha256", plaintextKey, "hex");
}

function positiveLimit(name: string, value: number | undefined): number | null {
  if (value === undefined) return null;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a whole number of at least 1`);
  }
  return value;
}

/**
 * Checks the options against the contract's plans, creates a key and stores its hash; returns
 * the plaintext key once.
 */
export async function issueApiKey(
  store: ApiKeyStore,
  policy: RateLimitPolicy,
  options: NewKeyOptions,
  now: Date = new Date(),
): Promise<{ key: string; record: ApiKeyRecord }> {
  const plan = policy.plans[options.plan];
  if (!Object.hasOwn(policy.plans, options.plan) || plan === undefined) {
    throw new Error(`plan must be one of ${policy.planNames.join(", ")}`);
  }
  const name = options.name.trim();
  if (name.length < 1 || name.length > 100) throw new Error("name must be 1 to 100 characters");
  const perMinute = positiveLimit("per-minute limit", options.perMinute);
  const perDay = positiveLimit("per-day limit", options.perDay);
  if (plan.custom && (perMinute === null || perDay === null)) {
    throw new Error(`a ${options.plan} key needs its own per-minute and per-day limits`);
  }
  const key = KEY_PREFIX + randomBytes(24).toString("base64url");
  const record = await store.insertApiKey({
    id: `key_${randomBytes(8).toString("hex")}`,
    name,
    plan: options.plan,
    perMinute,
    perDay,
    keyHash: hashApiKey(key),
    createdAt: now.toISOString(),
  });
  return { key, record };
}

/** How unknown keys are bounded: per client address, per minute. */
export interface UnknownKeyBudget {
  /** Store lookups that may find nothing, per client address per minute. */
  perMinute: number;
}

const BUDGET_WINDOW_MS = 60_000;
const MAX_TRACKED_ADDRESSES = 100_000;

/**
 * A KeyLookup over the store with TTL caches; `ttlMs` 0 disables them. A cache hit answers
 * synchronously (no promise on the hot path) and without hashing: the caches are keyed by the
 * presented token, and only a miss computes the SHA-256 the store searches by. The tokens stay in
 * this process's memory for the TTL, as the requests that carried them do; the store and the logs
 * only ever see hashes.
 *
 * Valid and unknown keys are cached apart, so a flood of random keys (which only ever fills the
 * unknown cache) cannot evict the keys of real callers. And unknown keys cost a bounded number
 * of store lookups: each client address may have `budget.perMinute` lookups that find nothing
 * per minute; past that, a key from that address that no cache knows is taken as unknown
 * without asking the store (checked before the lookup), until the minute ends. The price: a
 * valid key not yet cached, sent from an address that has just spent its budget on unknown
 * keys (a shared address), is refused until then.
 */
export function createKeyLookup(
  store: ApiKeyStore,
  ttlMs: number,
  budget: UnknownKeyBudget = { perMinute: Number.POSITIVE_INFINITY },
): KeyLookup {
  const valid = new Map<string, { record: ApiKeyRecord; expiresAt: number }>();
  const unknown = new Map<string, number>();
  const misses = new Map<string, number>();
  let windowEnds = 0;
  return function lookupApiKey(plaintextKey: string, address?: () => string) {
    const hit = valid.get(plaintextKey);
    const now = performance.now();
    if (hit && hit.expiresAt > now) return hit.record;
    const unknownUntil = unknown.get(plaintextKey);
    if (unknownUntil !== undefined && unknownUntil > now) return null;
    if (address === undefined) return fromStore(plaintextKey, undefined);
    if (now >= windowEnds || misses.size >= MAX_TRACKED_ADDRESSES) {
      misses.clear();
      windowEnds = now + BUDGET_WINDOW_MS;
    }
    const from = address();
    if ((misses.get(from) ?? 0) >= budget.perMinute) return null;
    return fromStore(plaintextKey, from);
  };

  async function fromStore(plaintextKey: string, from: string | undefined) {
    const now = performance.now();
    const found = await store.findApiKeyByHash(hashApiKey(plaintextKey));
    const record = found && found.revokedAt === null ? found : null;
    if (record === null && from !== undefined) misses.set(from, (misses.get(from) ?? 0) + 1);
    if (ttlMs > 0) {
      if (record === null) remember(unknown, plaintextKey, now + ttlMs);
      else {
        unknown.delete(plaintextKey);
        remember(valid, plaintextKey, { record, expiresAt: now + ttlMs });
      }
    }
    return record;
  }
}

/** Sets `key` last in `cache`, dropping the oldest entry when the cache is full. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  cache.delete(key);
  if (cache.size >= MAX_CACHED_KEYS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, value);
}
