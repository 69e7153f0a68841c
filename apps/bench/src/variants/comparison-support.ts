/**
 * What the comparison variants (f) Fastify and (h) Hono share with each other and with the shipped
 * variant: the bench key's plan and limits, and the checks and error a hand-written stack needs.
 */

import type { OpenApiDocument } from "@animal-store/openapi";
import { loadBundledSpec, rateLimitPolicy } from "@animal-store/openapi";
import {
  type ApiKeyRecord,
  compileContract,
  createKeyLookup,
  createLogger,
  createRateLimiter,
  issueApiKey,
  type KeyLookup,
  type Logger,
  limitsFor,
  type RateLimitDecision,
} from "@animal-store/openapi-engine";
import { configFrom, createHandlers, openStore } from "@animal-store/server";

/** Per-minute and per-day limits no bench run can reach, so no variant ever answers 429. */
export const UNREACHABLE_LIMIT = 1_000_000_000;
/** An incoming X-Request-Id kept as it is (the shipped server's rule); otherwise a UUID. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The token of an `Authorization: Bearer` header (RFC 6750's b64token). */
export const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** An answer in the spec's Error shape, thrown from a hook, middleware or handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The bench key's settings: the contract's plan with limits of its own, set out of reach. */
export function benchKeyOptions(spec: OpenApiDocument) {
  const policy = rateLimitPolicy(spec);
  const plan = policy.planNames.find((name) => policy.plans[name]?.custom);
  if (plan === undefined) throw new Error("the contract has no plan with custom limits");
  return { plan, name: "bench", perMinute: UNREACHABLE_LIMIT, perDay: UNREACHABLE_LIMIT };
}

/** What a call presents, in the framework's own terms. */
export interface PresentedCall {
  authorization: string | undefined;
  /** The peer's address; asked for only when the call has no valid key. */
  address(): string;
  setHeader(name: string, value: string): void;
  /** Told the key as soon as it is found, before the count (the access line names it). */
  onKey(key: ApiKeyRecord): void;
}

/**
 * The shipped server's credential step as a hand-written stack does it: the key is looked up
 * (cached by hash) and the call counted before the credential is required, so a 401 carries
 * X-RateLimit-* too. Throws the 429 or 401 as an HttpError.
 */
export function createBearerCheck(
  lookup: KeyLookup,
  limiter: Awaited<ReturnType<typeof createRateLimiter>>,
  limits: ReturnType<typeof limitsFor>,
) {
  return async function check(call: PresentedCall): Promise<void> {
    const token = BEARER_TOKEN.exec(call.authorization ?? "")?.[1];
    const found = token === undefined ? null : lookup(token);
    const key = found instanceof Promise ? await found : found;
    if (key) call.onKey(key);
    const address = key ? "" : call.address();
    const caller = key
      ? { kind: "key" as const, key }
      : {
          kind: "anonymous" as const,
          address,
          failure: token ? ("invalid" as const) : ("missing" as const),
        };
    const subject = key ? `key:${key.id}` : `addr:${address}`;
    const decided = limiter.consume(subject, limits(caller), Date.now(), {
      banEligible: key !== null,
    });
    const decision: RateLimitDecision = decided instanceof Promise ? await decided : decided;
    call.setHeader("X-RateLimit-Limit", String(decision.limit));
    call.setHeader("X-RateLimit-Remaining", String(decision.remaining));
    call.setHeader("X-RateLimit-Reset", String(decision.reset));
    if (!decision.allowed) {
      call.setHeader("Retry-After", String(decision.retryAfter ?? 0));
      throw new HttpError(429, "rate_limited", "Too many requests.");
    }
    if (!key) throw new HttpError(401, "unauthorized", "A valid API key is required.");
  };
}

/** A handler of the server's, called with the request fields the spec names. */
export type HandlerCall = (request: Record<string, unknown>) => Promise<{
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}>;

/** What `openSharedWork` opens. */
export interface SharedWork {
  config: ReturnType<typeof configFrom>;
  loaded: ReturnType<typeof loadBundledSpec>;
  contract: ReturnType<typeof compileContract>;
  logger: Logger;
  /** The access lines' logger (no redaction: the lines hold no secret). */
  accessLog: Logger;
  checkBearer: ReturnType<typeof createBearerCheck>;
  handlers: Record<string, HandlerCall>;
  /** Issues the bench key (benchKeyOptions) and returns it. */
  issueKey(): Promise<string>;
  /** Closes the store and the limiter and flushes the log. */
  close(): Promise<void>;
}

/**
 * The shipped server's own parts a comparison variant runs on `env` (DATABASE_URL, PORT, HOST as
 * the server reads them): the bundled spec and its contract, the store and handlers, the engine's
 * logger (with an access-line child), limiter and hashed-key cache, and the credential step.
 * `issueKey` makes the bench key once the variant listens; `close` closes what this opened.
 */
export async function openSharedWork(env: Record<string, string | undefined>): Promise<SharedWork> {
  const config = configFrom(env);
  const loaded = loadBundledSpec();
  const contract = compileContract(loaded);
  const store = await openStore(config.database);
  const logger = createLogger(config, "animal-store");
  const accessLog = logger.child({}, { redact: [] });
  const limiter = await createRateLimiter(config.rateLimit, contract.rateLimit.ban, logger);
  const lookup = createKeyLookup(store, config.apiKeyCacheTtlMs);
  return {
    config,
    loaded,
    contract,
    logger,
    accessLog,
    checkBearer: createBearerCheck(lookup, limiter, limitsFor(contract.rateLimit)),
    handlers: createHandlers(store) as unknown as Record<string, HandlerCall>,
    issueKey: async () =>
      (await issueApiKey(store, contract.rateLimit, benchKeyOptions(loaded.spec))).key,
    close: async () => {
      await Promise.allSettled([store.close(), limiter.close()]);
      logger.flush();
    },
  };
}
