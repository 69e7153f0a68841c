/**
 * Authentication in two steps so rate limiting can sit between them: `identifyCaller` decides who
 * is calling and never rejects; `requireCredential` rejects callers without a valid key where
 * the operation's `security` asks for one (an operation with `security: []` does not).
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { engineErrors } from "../errors.js";

/** An API key as the server knows it: never the key itself, only what it stands for. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** One of the contract's plans (info.x-rate-limit-plans). */
  plan: string;
  /** Own limits (required for a plan with custom limits); null means the plan's. */
  perMinute: number | null;
  perDay: number | null;
  createdAt: string;
  revokedAt: string | null;
}

/** Who is calling: a valid key, or an anonymous address (why it has no valid key). */
export type Caller =
  | { kind: "key"; key: ApiKeyRecord }
  | { kind: "anonymous"; address: string; failure: "missing" | "invalid" | "ambiguous" };

/**
 * Resolves a presented plaintext key to its record; null when unknown or revoked. A lookup that
 * knows the answer already (a cache hit) may answer synchronously.
 */
export type KeyLookup = (
  plaintextKey: string,
) => ApiKeyRecord | null | Promise<ApiKeyRecord | null>;

const BEARER_SCHEME = /^Bearer(?: |$)/i;
// RFC 6750 token68 syntax; anything else cannot be one of our keys.
const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The client address a caller without a key is counted under. */
export function callerAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * How many Authorization headers the request carried. Node keeps only the first in
 * `req.headers`; a second one must not go unnoticed (which would the client have meant?).
 */
function authorizationHeaders(req: Request): number {
  const raw = req.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 13 && name.toLowerCase() === "authorization") count++;
  }
  return count;
}

/** Middleware: sets `res.locals.caller`; never rejects (rate limiting still applies). */
export function identifyCaller(keyLookup: KeyLookup): RequestHandler {
  return function identifyCallerMiddleware(req: Request, res: Response, next: NextFunction): void {
    const header = req.headers.authorization;
    if (header !== undefined && authorizationHeaders(req) > 1) {
      res.locals.caller = { kind: "anonymous", address: callerAddress(req), failure: "ambiguous" };
      next();
      return;
    }
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
      lookupFailed(req, res, err, next);
      return;
    }
    if (found instanceof Promise) {
      found.then(
        (record) => identified(req, res, record, next),
        (err: unknown) => lookupFailed(req, res, err, next),
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
    ? { kind: "key", key: record }
    : { kind: "anonymous", address: callerAddress(req), failure: "invalid" };
  next();
}

/**
 * The key store is unreachable: limit by address meanwhile; requireCredential answers the error
 * (503), so that response still carries X-RateLimit-* like every other.
 */
function lookupFailed(req: Request, res: Response, err: unknown, next: NextFunction): void {
  res.locals.keyLookupError = err;
  res.locals.caller = { kind: "anonymous", address: callerAddress(req), failure: "invalid" };
  next();
}

/**
 * Middleware, after rate limiting: 401 with the bearer challenge where a credential is required
 * (the operation's security, or the document's for a request that matched no operation) and
 * `identifyCaller` found no valid key; then the 404/405 of a request that matched no operation.
 */
export function requireCredential(options: {
  anonymousByDefault: boolean;
  /** The bearer scheme's realm (`x-realm` of the contract's security scheme). */
  realm: string;
}): RequestHandler {
  const challenge = `Bearer realm="${options.realm}"`;
  return function requireCredentialMiddleware(_req, res, next): void {
    const { operation, routeError, caller } = res.locals;
    const required = operation ? operation.requiresCredential : !options.anonymousByDefault;
    if (!required || caller?.kind === "key") {
      next(routeError);
    } else if (res.locals.keyLookupError !== undefined) {
      next(res.locals.keyLookupError);
    } else if (caller?.kind === "anonymous" && caller.failure === "ambiguous") {
      next(engineErrors.ambiguousCredential(challenge));
    } else if (caller?.kind === "anonymous" && caller.failure === "invalid") {
      next(engineErrors.invalidApiKey(challenge));
    } else {
      next(engineErrors.missingCredential(challenge));
    }
  };
}
