/**
 * Authentication in two steps so rate limiting can sit between them: `identifyCaller` decides who
 * is calling and never rejects; `requireApiKey` rejects callers without a valid key.
 */
import type { NextFunction, Request, Response } from "express";
import { ApiHttpError } from "./errors.js";

/** The plans an API key can belong to. */
export type Plan = "free" | "pro" | "business" | "enterprise";

/** An API key as the server knows it: never the key itself, only what it stands for. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  plan: Plan;
  /** Custom limits (enterprise); null means the plan default. */
  perMinute: number | null;
  perDay: number | null;
  createdAt: string;
  revokedAt: string | null;
}

/** Who is calling: a valid key, or an anonymous address (why it has no valid key). */
export type Caller =
  | { kind: "key"; key: ApiKeyRecord }
  | { kind: "anonymous"; address: string; failure: "missing" | "invalid" };

/**
 * Resolves a presented plaintext key to its record; null when unknown or revoked. A lookup that
 * knows the answer already (a cache hit) may answer synchronously.
 */
export type KeyLookup = (
  plaintextKey: string,
) => ApiKeyRecord | null | Promise<ApiKeyRecord | null>;

const REALM = 'Bearer realm="animal-store"';
const INVALID_CHALLENGE = `${REALM}, error="invalid_token"`;
const BEARER_SCHEME = /^Bearer(?: |$)/i;
// RFC 6750 token68 syntax; anything else cannot be one of our keys.
const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function callerAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** Middleware: sets `res.locals.caller`; never rejects (rate limiting still applies). */
export function identifyCaller(keyLookup: KeyLookup) {
  return function identifyCallerMiddleware(req: Request, res: Response, next: NextFunction): void {
    const header = req.headers.authorization;
    // Another scheme (Basic, ...) is no bearer credential at all: "missing", not "invalid".
    if (header === undefined || !BEARER_SCHEME.test(header)) {
      res.locals.caller = { kind: "anonymous", address: callerAddress(req), failure: "missing" };
      next();
      return;
    }
    const token = BEARER_TOKEN.exec(header)?.[1];
    let found: ReturnType<KeyLookup> = null;
    try {
      found = token ? keyLookup(token) : null;
    } catch (err) {
      lookupFailed(res, err, next);
      return;
    }
    if (found instanceof Promise) {
      found.then(
        (record) => identified(req, res, record, next),
        (err: unknown) => lookupFailed(res, err, next),
      );
    } else {
      identified(req, res, found, next);
    }
  };
}

function identified(
  req: Request,
  res: Response,
  record: ApiKeyRecord | null,
  next: NextFunction,
): void {
  res.locals.caller = record
    ? ({ kind: "key", key: record } satisfies Caller)
    : ({ kind: "anonymous", address: callerAddress(req), failure: "invalid" } satisfies Caller);
  next();
}

/**
 * The key store is unreachable: limit by address meanwhile; requireApiKey answers the error (503),
 * so that response still carries X-RateLimit-* like every other.
 */
function lookupFailed(res: Response, err: unknown, next: NextFunction): void {
  res.locals.keyLookupError = err;
  res.locals.caller = {
    kind: "anonymous",
    address: callerAddress(res.req),
    failure: "invalid",
  } satisfies Caller;
  next();
}

const MISSING_KEY_MESSAGE = "Missing credentials: send Authorization: Bearer <API_KEY>.";

/** Middleware: 401 with the bearer challenge unless `identifyCaller` found a valid key. */
export function requireApiKey(_req: Request, res: Response, next: NextFunction): void {
  const caller = res.locals.caller as Caller | undefined;
  if (res.locals.keyLookupError !== undefined) {
    next(res.locals.keyLookupError);
  } else if (caller?.kind === "key") {
    next();
  } else if (caller?.failure === "invalid") {
    next(
      new ApiHttpError(401, "invalid_api_key", "The API key is invalid or revoked.", {
        "WWW-Authenticate": INVALID_CHALLENGE,
      }),
    );
  } else {
    next(new ApiHttpError(401, "unauthorized", MISSING_KEY_MESSAGE, { "WWW-Authenticate": REALM }));
  }
}
