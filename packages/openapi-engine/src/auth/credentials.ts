/**
 * Authentication in two steps so rate limiting can sit between them: `identifyCaller` decides
 * who is calling and never rejects; `requireCredential` refuses callers without a valid key where
 * a credential is required (an operation's `security`, or the document's for a path that matched
 * no operation; `security: []` or an empty requirement asks for none).
 *
 * @see https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
import type { Request } from "express";
import { engineErrors } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";
import type { ApiKeyRecord } from "../storage/api-key-store.js";

export type { ApiKeyRecord } from "../storage/api-key-store.js";

/**
 * Who is calling: a valid key, or an address without one, and why: none sent, an unknown or
 * revoked key, two Authorization headers, or a key the key store could not check (`error`, the
 * store's own, is the answer wherever a credential is required).
 */
export type Caller =
  | { kind: "key"; key: ApiKeyRecord }
  | { kind: "anonymous"; address: string; failure: "missing" | "invalid" | "ambiguous" }
  | { kind: "anonymous"; address: string; failure: "unverified"; error: unknown };

/** What `identifyCaller` sets. */
export interface CallerLocals {
  caller: Caller;
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

const BEARER_SCHEME = /^Bearer(?: |$)/i;
// RFC 6750 token68 syntax; anything else cannot be one of our keys.
const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The client address a caller without a key is counted under. */
export function callerAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * The raw header walk of a request, made once: the server's edge (http-server/request-edge.ts)
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

/** Sets `res.locals.caller`; never refuses (rate limiting still applies to every caller). */
export function identifyCaller(keyLookup: KeyLookup) {
  return step<object, CallerLocals>(function identifyCaller(req, res, next) {
    const header = req.headers.authorization;
    if (header !== undefined && authorizationLines(req) > 1) {
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
    const identified = (record: ApiKeyRecord | null) => {
      res.locals.caller = record
        ? { kind: "key", key: record }
        : { kind: "anonymous", address: callerAddress(req), failure: "invalid" };
      next();
    };
    // The key store is down: the caller is limited by address meanwhile, and the store's error
    // answers where a key is needed, so that answer still carries X-RateLimit-* like every other.
    const unverified = (error: unknown) => {
      res.locals.caller = {
        kind: "anonymous",
        address: callerAddress(req),
        failure: "unverified",
        error,
      };
      next();
    };
    let found: ReturnType<KeyLookup>;
    try {
      found = token ? keyLookup(token, () => callerAddress(req)) : null;
    } catch (err) {
      unverified(err);
      return;
    }
    if (found instanceof Promise) found.then(identified, unverified);
    else identified(found);
  });
}

/**
 * After rate limiting: refuses a caller without a valid key where `required` says the request
 * needs one (absent: every request it runs for; a lifecycle leaves it out where none is needed):
 * 401 with the bearer challenge of `realm`, or the key store's error when the key could not be
 * checked.
 */
export function requireCredential<Locals extends object>(options: {
  realm: string;
  required?: ((locals: Locals) => boolean) | undefined;
}) {
  const challenge = `Bearer realm="${options.realm}"`;
  return step<Locals & CallerLocals>(function requireCredential(_req, res, next) {
    const { caller } = res.locals;
    const { required } = options;
    if (caller.kind === "key" || (required !== undefined && !required(res.locals))) {
      next();
      return;
    }
    switch (caller.failure) {
      case "unverified":
        next(caller.error);
        return;
      case "ambiguous":
        next(engineErrors.ambiguousCredential(challenge));
        return;
      case "invalid":
        next(engineErrors.invalidApiKey(challenge));
        return;
      default:
        next(engineErrors.missingCredential(challenge));
    }
  });
}
