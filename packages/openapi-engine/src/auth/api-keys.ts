/**
 * API keys: issued as random bearer tokens, stored only as SHA-256 hashes (a key has 192 random
 * bits, so a fast hash is enough), judged against an in-memory directory of the usable keys so the
 * hot path never touches the database for a known key (nor hashes, once a token was judged). A
 * revoked key stops working within the directory's reload interval (API_KEY_CACHE_TTL_MS).
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

/** How many store lookups that find nothing keys absent from the directory may cost. */
export interface UnknownKeyBudget {
  /** Per client address per minute; the instance, all addresses together, GLOBAL_BUDGET_FACTOR times this. */
  perMinute: number;
}

const BUDGET_WINDOW_MS = 60_000;
/** The instance's lookups that find nothing per minute, in addresses' budgets. */
export const GLOBAL_BUDGET_FACTOR = 100;
const MAX_TRACKED_ADDRESSES = 100_000;

/**
 * A KeyLookup that judges a key on the key alone, whoever else shares its address.
 *
 * It holds a directory of every key that is not revoked (hash → record), loaded from the store on
 * first use and reloaded whenever it is older than `ttlMs` (the request that finds it old waits
 * for the reload), so across instances a new key is known, and a revoked one refused, within
 * `ttlMs` of the change. A key in the directory is found with no store lookup; a token already
 * judged since the last reload is answered synchronously without hashing (the tokens stay in this
 * process's memory as the requests that carried them do; the store and the logs only see hashes).
 *
 * A key the directory does not hold is unknown, or was issued since the last reload. To let the
 * latter work at once, such keys are looked up in the store. Lookups that find nothing are
 * bounded: `budget.perMinute` per client address per minute, and `GLOBAL_BUDGET_FACTOR` times that
 * for the instance; past either, a key the directory lacks is taken as unknown without a lookup
 * until the minute ends or the directory is reloaded. So a flood of unknown keys costs at most
 * those lookups and one reload per `ttlMs`; a key that existed at the last reload is never looked
 * up, so never refused for what others sent from its address; only a key issued since then, sent
 * from an address (or to an instance) whose budget is spent, waits for the next reload, at most
 * `ttlMs`. `ttlMs` 0 turns all of this off: every key is looked up.
 */
export function createKeyLookup(
  store: ApiKeyStore,
  ttlMs: number,
  budget: UnknownKeyBudget = { perMinute: Number.POSITIVE_INFINITY },
): KeyLookup {
  // Tokens judged since the directory was loaded; cleared with each reload.
  const valid = new Map<string, ApiKeyRecord>();
  const unknown = new Set<string>();
  let directory = new Map<string, ApiKeyRecord>();
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  // Lookups that found nothing (or are in flight) this minute: in all, and per address.
  let lookups = 0;
  const misses = new Map<string, number>();
  let windowEnds = 0;

  function reload(): Promise<void> {
    loading ??= (async () => {
      const started = performance.now();
      try {
        const keys = await store.listUsableApiKeys();
        directory = new Map(keys.map((key) => [key.keyHash, key.record]));
        loadedAt = started;
        valid.clear();
        unknown.clear();
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  }

  function judge(
    plaintextKey: string,
    address: (() => string) | undefined,
  ): ApiKeyRecord | null | Promise<ApiKeyRecord | null> {
    const hit = valid.get(plaintextKey);
    if (hit) return hit;
    if (unknown.has(plaintextKey)) return null;
    const keyHash = hashApiKey(plaintextKey);
    const record = directory.get(keyHash);
    if (record) {
      remember(valid, plaintextKey, record);
      return record;
    }
    const now = performance.now();
    if (now >= windowEnds || misses.size >= MAX_TRACKED_ADDRESSES) {
      lookups = 0;
      misses.clear();
      windowEnds = now + BUDGET_WINDOW_MS;
    }
    const from = address?.() ?? "";
    const spent = misses.get(from) ?? 0;
    if (spent >= budget.perMinute || lookups >= budget.perMinute * GLOBAL_BUDGET_FACTOR) {
      return null;
    }
    // Counted while in flight, so parallel lookups cannot pass the budget; a key found (issued
    // since the reload) gives its place back: the budget is for lookups that find nothing.
    lookups++;
    misses.set(from, spent + 1);
    return store.findApiKeyByHash(keyHash).then((found) => {
      const usable = found && found.revokedAt === null ? found : null;
      if (usable) {
        lookups--;
        misses.set(from, (misses.get(from) ?? 1) - 1);
        directory.set(keyHash, usable);
        remember(valid, plaintextKey, usable);
      } else rememberUnknown(plaintextKey);
      return usable;
    });
  }

  function rememberUnknown(plaintextKey: string) {
    if (unknown.size >= MAX_CACHED_KEYS) unknown.clear();
    unknown.add(plaintextKey);
  }

  return function lookupApiKey(plaintextKey: string, address?: () => string) {
    if (ttlMs <= 0) {
      return store
        .findApiKeyByHash(hashApiKey(plaintextKey))
        .then((found) => (found && found.revokedAt === null ? found : null));
    }
    if (performance.now() - loadedAt >= ttlMs) {
      return reload().then(() => judge(plaintextKey, address));
    }
    return judge(plaintextKey, address);
  };
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
