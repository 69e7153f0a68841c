/**
 * Authentication in two steps so rate limiting can sit between them: `identifyCaller` runs the
 * compiled security check of the operation (auth/security-schemes.ts; the document's for a
 * request that matched no operation) and never rejects; `requireCredential` turns a refused
 * check into its 401 or 403 (auth/security.ts builds those answers once per operation).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#security-requirement-object
 */
import type { Request } from "express";
import type { EngineError } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";
import type { ApiKeyRecord } from "../storage/api-key-store.js";
import type {
  CredentialRequest,
  IdentifiedCredential,
  SecurityCheck,
  SecurityFailure,
  SecurityOutcome,
} from "./security-schemes.js";

export type { ApiKeyRecord } from "../storage/api-key-store.js";

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
export type Refusal = Extract<SecurityOutcome, { ok: false }>;

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
