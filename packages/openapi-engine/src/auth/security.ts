/**
 * The contract's security, compiled once at start for serving: every operation's requirements
 * (and the document's, for requests that match no operation) as a check (security-schemes.ts)
 * with each scheme's verifier bound, and the answer each refusal gets, built per operation.
 *
 * Verifiers. The application gives one per scheme name (`Application.verifiers`); an `http`
 * bearer or `apiKey` scheme it gives none for is checked against the engine's key store (its
 * `KeyLookup`: the keys, plans and bans of `pnpm keys`), so a bearer-only contract needs nothing.
 * Basic, oauth2 and openIdConnect schemes have no default (the engine holds no passwords and
 * knows no token issuer): a contract using one without a verifier does not start.
 *
 * Answers, in the contract's error shape (`code`, `message`, `status`), with `WWW-Authenticate`
 * carrying one challenge per scheme the operation accepts:
 * - no credential: 401 `unauthorized`, naming what to send;
 * - a credential sent twice, or refused: 401 `invalid_api_key` when it was a key or bearer token
 *   (`http` bearer, `apiKey`), `invalid_credentials` for a password or an oauth2/openIdConnect
 *   token; the bearer challenge says `error="invalid_request"` or `error="invalid_token"`;
 * - a credential lacking a scope the requirement lists: 403 `insufficient_scope`;
 * - a credential its verifier could not check: the verifier's error (a store outage: 503).
 *
 * Per request, in two steps so rate limiting can sit between them: `identifyCaller` runs the
 * operation's compiled check (the document's for a request that matched no operation) and never
 * rejects; `requireCredential` turns a refused check into its 401 or 403 (the answers above).
 *
 * API keys: issued as random bearer tokens, stored only as SHA-256 hashes (a key has 192 random
 * bits, so a fast hash is enough), judged against an in-memory directory of the usable keys so the
 * hot path never touches the database for a known key (nor hashes, once a token was judged). A
 * revoked key stops working within the directory's reload interval (API_KEY_CACHE_TTL_MS).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#security-scheme-object
 * @see https://spec.openapis.org/oas/v3.1.1#security-requirement-object
 */
import { hash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import {
  deref,
  isJsonObject,
  type OpenApiDocument,
  type RateLimitPolicy,
  type SpecOperation,
} from "@animal-store/openapi";
import type { Request } from "express";
import { EngineError, type EngineErrorCode } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";
import type { ApiKeyRecord, ApiKeyStore } from "../storage/api-key-store.js";
import {
  type CredentialRequest,
  type CredentialVerifier,
  compileSecurity,
  type IdentifiedCredential,
  type SecurityCheck,
  type SecurityFailure,
  type SecurityOutcome,
  type SecurityRequirement,
  type VerifiedCredential,
} from "./security-schemes.js";

export type { ApiKeyRecord } from "../storage/api-key-store.js";

/** One operation's security, compiled: its check, and the answer to each refusal. */
export interface CompiledSecurity {
  check: SecurityCheck;
  refuse: (refusal: Refusal) => EngineError;
}

/** The security of a whole contract, compiled with its verifiers. */
export interface ContractSecurity {
  forOperation(operationId: string): CompiledSecurity;
  /** What a request that matched no operation is checked against (the document's security). */
  forDocument(): CompiledSecurity;
}

/** The application's verifiers, by the name of the scheme in `components.securitySchemes`. */
export type Verifiers = Readonly<Record<string, CredentialVerifier>>;

/** The contract's schemes, `$ref`s resolved. */
function schemesOf(spec: OpenApiDocument): Record<string, Record<string, unknown>> {
  const raw = spec.components?.securitySchemes;
  if (!isJsonObject(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw).map(([name, scheme]) => [
      name,
      deref<Record<string, unknown>>(spec, scheme),
    ]),
  );
}

/** Whether the engine's key store checks `scheme` when the application gives no verifier. */
function keyStoreChecks(scheme: Record<string, unknown> | undefined): boolean {
  return (
    scheme?.type === "apiKey" ||
    (scheme?.type === "http" &&
      typeof scheme.scheme === "string" &&
      scheme.scheme.toLowerCase() === "bearer")
  );
}

/** The scheme names a list of requirements uses. */
function namesIn(security: readonly SecurityRequirement[]): string[] {
  return [...new Set(security.flatMap((requirement) => Object.keys(requirement)))];
}

/**
 * The engine codes a contract's security can produce beyond `unauthorized` and `invalid_api_key`
 * (which every contract may be answered with): `invalid_credentials` where a basic, oauth2 or
 * openIdConnect scheme is used, `insufficient_scope` where a requirement lists scopes. The
 * contract's error codes are checked only for the codes it can produce (contract/error-codes.ts).
 */
export function securityErrorCodes(
  spec: OpenApiDocument,
  operations: Pick<SpecOperation, "security">[],
): Set<EngineErrorCode> {
  const schemes = schemesOf(spec);
  const all = [
    ...operations.map((op) => op.security),
    (spec.security ?? []) as SecurityRequirement[],
  ];
  const codes = new Set<EngineErrorCode>();
  for (const security of all) {
    for (const requirement of security) {
      for (const [name, scopes] of Object.entries(requirement)) {
        if (!keyStoreChecks(schemes[name])) codes.add("invalid_credentials");
        if (scopes.length > 0) codes.add("insufficient_scope");
      }
    }
  }
  return codes;
}

/** The verifier of the engine's key store: a bearer token or an apiKey value is a key. */
export function keyStoreVerifier(lookup: KeyLookup): CredentialVerifier {
  // One answer per key record (the directory hands out the same record until it reloads), so a
  // known key's check builds nothing per request.
  const answers = new WeakMap<ApiKeyRecord, VerifiedCredential>();
  const verified = (key: ApiKeyRecord | null): VerifiedCredential | null => {
    if (key === null) return null;
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = { subject: `key:${key.id}`, principal: key, key };
      answers.set(key, answer);
    }
    return answer;
  };
  return (credential, _context, request) => {
    const presented =
      credential.kind === "bearer"
        ? credential.token
        : credential.kind === "apiKey"
          ? credential.key
          : undefined;
    if (presented === undefined) return null;
    const found = lookup(presented, request.address);
    return found instanceof Promise ? found.then(verified) : verified(found);
  };
}

/** How a client sends one scheme's credential, for the 401 without one. */
function howToSend(scheme: Record<string, unknown>, byKeyStore: boolean): string {
  if (scheme.type === "apiKey") {
    const where = scheme.in === "query" ? "query parameter" : scheme.in;
    return `the ${String(where)} ${String(scheme.name)}`;
  }
  if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic")
    return "Authorization: Basic <base64 of user-id:password>";
  return byKeyStore ? "Authorization: Bearer <API_KEY>" : "Authorization: Bearer <token>";
}

/** Where a credential sent twice was sent, for the 401 that refuses it. */
function sentIn(scheme: Record<string, unknown>): string {
  if (scheme.type !== "apiKey") return "Authorization header";
  const where = scheme.in === "query" ? "query parameter" : String(scheme.in);
  return `${String(scheme.name)} ${where}`;
}

/**
 * Compiles `spec`'s security: every operation's, and the document's. `keyLookup` checks the
 * bearer and apiKey schemes `verifiers` leaves out. Throws naming every scheme it cannot check
 * and the operations using it (mutualTLS; basic, oauth2 or openIdConnect without a verifier).
 */
export function compileContractSecurity(
  spec: OpenApiDocument,
  operations: Pick<SpecOperation, "operationId" | "security">[],
  options: { verifiers?: Verifiers | undefined; keyLookup: KeyLookup },
): ContractSecurity {
  const schemes = schemesOf(spec);
  const document = (spec.security ?? []) as SecurityRequirement[];
  const given = options.verifiers ?? {};
  const used = namesIn([...operations.flatMap((op) => op.security), ...document]);
  const verifiers: Record<string, CredentialVerifier> = {};
  const byKeyStore = new Set<string>();
  let keyStore: CredentialVerifier | undefined;
  for (const name of used) {
    const verifier = Object.hasOwn(given, name) ? given[name] : undefined;
    if (verifier !== undefined) verifiers[name] = verifier;
    else if (keyStoreChecks(schemes[name])) {
      keyStore ??= keyStoreVerifier(options.keyLookup);
      verifiers[name] = keyStore;
      byKeyStore.add(name);
    }
  }
  let compiled: ReturnType<typeof compileSecurity>;
  try {
    compiled = compileSecurity({
      schemes,
      operations,
      document,
      verifiers,
      realm: spec.info.title,
    });
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; an application checks basic, oauth2 and openIdConnect credentials (and any other scheme it wants to check itself) with a verifier per scheme name (Application.verifiers)`,
    );
  }
  const refusals = (security: readonly SecurityRequirement[]) => {
    const keyish = (names: readonly string[]) =>
      names.every((name) => keyStoreChecks(schemes[name]));
    const send = security
      .map((requirement) =>
        Object.keys(requirement)
          .map((name) => howToSend(schemes[name] ?? {}, byKeyStore.has(name)))
          .join(" with "),
      )
      .join(" or ");
    const refusedCode = (names: readonly string[]): EngineErrorCode =>
      keyish(names) ? "invalid_api_key" : "invalid_credentials";
    return (refusal: Refusal): EngineError => {
      const headers = { "WWW-Authenticate": refusal.challenges.join(", ") };
      switch (refusal.failure) {
        case "insufficient_scope":
          return new EngineError("insufficient_scope", refusal.detail, headers);
        case "ambiguous": {
          const where = [...new Set(refusal.schemes.map((name) => sentIn(schemes[name] ?? {})))];
          return new EngineError(
            refusedCode(refusal.schemes),
            `Send exactly one ${where.join(" and one ")}.`,
            headers,
          );
        }
        case "invalid":
          return keyish(refusal.schemes)
            ? new EngineError("invalid_api_key", "The API key is invalid or revoked.", headers)
            : new EngineError("invalid_credentials", "The credentials are invalid.", headers);
        default:
          return new EngineError("unauthorized", `Missing credentials: send ${send}.`, headers);
      }
    };
  };
  const of = (check: SecurityCheck, security: readonly SecurityRequirement[]) => ({
    check,
    refuse: refusals(security),
  });
  const byOperation = new Map(
    operations.map((op) => [
      op.operationId,
      of(compiled.forOperation(op.operationId), op.security),
    ]),
  );
  const forDocument = of(compiled.forDocument(), document);
  return {
    forOperation(operationId) {
      const found = byOperation.get(operationId);
      if (found === undefined) throw new Error(`no security was compiled for ${operationId}`);
      return found;
    },
    forDocument: () => forDocument,
  };
}

/**
 * Who is calling, for rate limiting and the handlers: a key of the engine's key store (counted
 * on its plan), another credential a verifier identified (counted under its subject on the
 * anonymous plan's limits), or an address without either, and why (`missing`: none sent;
 * `ambiguous`, `invalid`, `unverified`: one sent but not accepted; where the operation's
 * security allows no credential, such a caller is served anonymously).
 */
export type Caller =
  | { kind: "key"; key: ApiKeyRecord }
  | { kind: "credential"; subject: string; credentials: readonly IdentifiedCredential[] }
  | { kind: "anonymous"; address: string; failure: SecurityFailure };

/** What `identifyCaller` sets. */
export interface CallerLocals {
  caller: Caller;
  /** The security check's outcome, which `requireCredential` answers when it refuses. */
  security: SecurityOutcome;
}

/**
 * Resolves a presented plaintext key to its record; null when unknown or revoked. A lookup that
 * knows the answer already (a cache hit) may answer synchronously. `address` gives the client
 * address (computed only when called), for a lookup that bounds unknown keys per address.
 */
export type KeyLookup = (
  plaintextKey: string,
  address?: () => string,
) => ApiKeyRecord | null | Promise<ApiKeyRecord | null>;

/** The client address a caller without a key is counted under. */
export function callerAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * The raw header walk of a request, made once: the server's edge (http-server/http-server.ts)
 * walks the raw header list for the `Host` lines and counts the `Authorization` lines in the same
 * pass, leaving the count here for the caller's identification. Node keeps only the first of each
 * in `req.headers`; a second one must not go unnoticed (which would the client have meant?).
 */
export interface HeaderLines {
  /** How many `Authorization` lines the request carried; unset when no edge walked it. */
  authorizationLines?: number | undefined;
}

/**
 * Counts the `Host` and `Authorization` lines of `raw` in one walk; the count of `Authorization`
 * lines is left on `req`. Returns the count of `Host` lines.
 */
export function walkHeaderLines(req: HeaderLines & { rawHeaders: string[] }): number {
  const raw = req.rawHeaders;
  let hosts = 0;
  let authorizations = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4) {
      if (name === "Host" || name.toLowerCase() === "host") hosts++;
    } else if (name.length === 13 && name.toLowerCase() === "authorization") authorizations++;
  }
  req.authorizationLines = authorizations;
  return hosts;
}

/** The request's `Authorization` lines: the edge's count, or (served without it) a walk now. */
function authorizationLines(req: Request & HeaderLines): number {
  if (req.authorizationLines === undefined) walkHeaderLines(req);
  return req.authorizationLines as number;
}

/**
 * What the security check reads of a request: its headers (two `Authorization` lines, which Node
 * folds to the first, shown as both), its query (parsed only when an apiKey scheme reads it) and
 * its address (computed only when a verifier asks).
 */
class PresentedRequest implements CredentialRequest {
  readonly headers: CredentialRequest["headers"];
  readonly address: () => string;

  constructor(private readonly req: Request & HeaderLines) {
    const header = req.headers.authorization;
    this.headers =
      header !== undefined && authorizationLines(req) > 1
        ? { ...req.headers, authorization: [header, header] }
        : req.headers;
    this.address = () => callerAddress(req);
  }

  get query(): Readonly<Record<string, unknown>> {
    return this.req.query;
  }
}

/** The caller an outcome identifies: the credential behind its subject, else the address. */
function callerOf(req: Request, outcome: SecurityOutcome): Caller {
  const credential = outcome.ok ? outcome.credentials[0] : outcome.credential;
  if (credential === undefined) {
    const failure = outcome.ok ? (outcome.attempted ?? "missing") : outcome.failure;
    return { kind: "anonymous", address: callerAddress(req), failure };
  }
  if (credential.key !== undefined) return { kind: "key", key: credential.key };
  return {
    kind: "credential",
    subject: credential.subject,
    credentials: outcome.ok ? outcome.credentials : [credential],
  };
}

/**
 * Sets `res.locals.caller` and `res.locals.security` from `check` (the operation's compiled
 * security); never refuses (rate limiting still applies to every caller, and keys on the
 * credential that identified it). A check never rejects: a verifier's failure is its outcome.
 */
export function identifyCaller(check: SecurityCheck) {
  return step<object, CallerLocals>(function identifyCaller(req, res, next) {
    const outcome = check(new PresentedRequest(req));
    if (outcome instanceof Promise) {
      outcome.then((settled) => {
        res.locals.security = settled;
        res.locals.caller = callerOf(req, settled);
        next();
      }, next);
      return;
    }
    res.locals.security = outcome;
    res.locals.caller = callerOf(req, outcome);
    next();
  });
}

/** A refused check's outcome. */
type Refusal = Extract<SecurityOutcome, { ok: false }>;

/**
 * After rate limiting: answers a refused check with `refuse` (its 401 or 403, built for the
 * operation), or with the verifier's own error when the credential could not be checked (a key
 * store outage: 503). A lifecycle leaves it out where the security asks for no credential.
 */
export function requireCredential(refuse: (refusal: Refusal) => EngineError) {
  return step<CallerLocals>(function requireCredential(_req, res, next) {
    const { security } = res.locals;
    if (security.ok) {
      next();
      return;
    }
    next(security.failure === "unverified" ? security.error : refuse(security));
  });
}

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
