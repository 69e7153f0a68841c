/**
 * Every security scheme type OpenAPI 3.1 defines, compiled once per operation into a checker: the
 * operation's `security` (alternatives, combinations, the optional `{}`) over the contract's
 * `components.securitySchemes`, with the application's verifiers bound to each scheme by name.
 *
 * How it plugs in: at start, `compileSecurity` runs once over the contract (it throws naming every
 * scheme it cannot check and the operations that use it, so the server does not start); the
 * compiled operation keeps `forOperation(operationId)`. Per request the checker reads the headers
 * and the query the one header walk and the one query parse already produced, and answers an
 * outcome without throwing: the rate limiter keys on `outcome.subject` (whatever credential
 * identified the caller) or on the client address when it is undefined, and only after that is a
 * refused outcome turned into its 401/403 (`outcome.status`, `outcome.challenges` as
 * `WWW-Authenticate`). A verifier that knows its answer (a cache hit) may answer synchronously,
 * and then so does the checker: no promise on the hot path.
 *
 * Choices OpenAPI leaves open, made once here:
 * - Requirements are tried in their order; the first one satisfied wins. A requirement is
 *   satisfied when every scheme it names is, and each verified credential holds the scopes (for
 *   oauth2 and openIdConnect) or roles (any other type) the requirement lists.
 * - `{}` (or `security: []`) lets a request through as anonymous when no other requirement is
 *   satisfied, even if it carried a credential that failed (`outcome.attempted` says how).
 * - Refused: a requirement whose credentials all verified but lack a scope → 403
 *   `insufficient_scope` (one token may be offered to several schemes: the one that knows it
 *   speaks for it); else a credential sent twice → 401 `ambiguous` (which would the client have
 *   meant?); else any presented credential that failed → 401 `invalid`; else a verifier that
 *   threw → `unverified` (its error is the answer: a store outage is a 503); else 401 `missing`.
 * - An `Authorization` header of another scheme than the ones an operation accepts counts as no
 *   credential ("missing"), as does an empty apiKey value; two `Authorization` headers (or two
 *   values of an apiKey header or query parameter) are refused as `ambiguous`.
 * - Subjects share one namespace across schemes: a caller who may come with a key or with a
 *   token is one rate-limit subject when both verifiers answer the same subject; a verifier that
 *   wants them apart prefixes its own.
 * - apiKey has no registered challenge; its 401 carries `ApiKey realm=…, in=…, name=…` so the
 *   answer still has the WWW-Authenticate that RFC 9110 section 15.5.2 asks of every 401.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#security-scheme-object
 * @see https://spec.openapis.org/oas/v3.1.1#security-requirement-object
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-11.6.1 (WWW-Authenticate)
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3 (Bearer challenges and their errors)
 * @see https://www.rfc-editor.org/rfc/rfc7617 (Basic)
 */
import { isUtf8 } from "node:buffer";
import { parse as parseCookie } from "cookie";
import type { ApiKeyRecord } from "../storage/api-key-store.js";

/** A JSON object of the contract, read dynamically. */
type JsonObject = Record<string, unknown>;

/** An OpenAPI security requirement: scheme name → scopes (or roles). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** A credential as the request presented it, handed to the application's verifier. */
export type PresentedCredential =
  /** `http` bearer, `oauth2` and `openIdConnect`: the token of `Authorization: Bearer`. */
  | { kind: "bearer"; token: string }
  /** `http` basic: the user-id and password of `Authorization: Basic` (RFC 7617, UTF-8). */
  | { kind: "basic"; userId: string; password: string }
  /** `apiKey`: the key's value, from its header, query parameter or cookie. */
  | { kind: "apiKey"; key: string };

/** What a verifier answers for a credential it accepts; null when it does not. */
export interface VerifiedCredential {
  /** Who the credential identifies: what rate limiting keys on (never the secret itself). */
  subject: string;
  /** The scopes (oauth2, openIdConnect) or roles (other types) the credential holds. */
  scopes?: readonly string[] | undefined;
  /** Whatever the application wants handed on (its key record, the token's claims). */
  principal?: unknown;
  /**
   * A key of the engine's key store: the caller is then counted on the key's plan and limits,
   * and may be banned, as the engine's own verifier of bearer and apiKey schemes answers.
   */
  key?: ApiKeyRecord | undefined;
}

/** Which scheme a verifier is asked about. */
export interface VerifierContext {
  /** The scheme's name in `components.securitySchemes`. */
  scheme: string;
  type: SchemeType;
}

/**
 * The application's check of one scheme's credentials. A cache hit may answer synchronously; a
 * thrown error or rejected promise means the credential could not be checked (a store outage).
 * `request` is what the check read (its `address`, for a verifier that bounds failures per client).
 */
export type CredentialVerifier = (
  credential: PresentedCredential,
  context: VerifierContext,
  request: CredentialRequest,
) => VerifiedCredential | null | Promise<VerifiedCredential | null>;

/** The type of a security scheme this module checks. */
export type SchemeType = "http-bearer" | "http-basic" | "apiKey" | "oauth2" | "openIdConnect";

/** A credential that satisfied its part of a requirement. */
export type IdentifiedCredential = VerifiedCredential & {
  scheme: string;
  scopes: readonly string[];
} & (
    | { type: "http-bearer" | "oauth2" | "openIdConnect" }
    | { type: "http-basic"; userId: string }
    | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string }
  );

/** Why a request's credentials were refused. */
export type SecurityFailure =
  | "missing"
  | "ambiguous"
  | "invalid"
  | "insufficient_scope"
  | "unverified";

/** What a check answers: never thrown, so rate limiting can key on it first. */
export type SecurityOutcome =
  | {
      ok: true;
      /** The index of the satisfied requirement; -1 when the operation has none. */
      requirement: number;
      /** The credentials of the satisfied requirement, in its order; empty when anonymous. */
      credentials: readonly IdentifiedCredential[];
      /** The first credential's subject; undefined when anonymous (key on the address). */
      subject: string | undefined;
      /** When let through anonymously by `{}`: how the credential it carried failed. */
      attempted: SecurityFailure | undefined;
    }
  | {
      ok: false;
      failure: SecurityFailure;
      /** 401, or 403 for `insufficient_scope`. */
      status: 401 | 403;
      /** The WWW-Authenticate challenges, one per scheme the operation accepts. */
      challenges: readonly string[];
      /** What to tell the client (no secret in it). */
      detail: string;
      /** A subject the request proved though it was refused (insufficient scope): for rate limits. */
      subject: string | undefined;
      /** The credential behind `subject` (insufficient scope). */
      credential?: IdentifiedCredential | undefined;
      /**
       * The schemes the failure is about: those whose credential was sent twice (`ambiguous`),
       * failed (`invalid`) or could not be checked (`unverified`); every scheme the operation
       * accepts when `missing`; those of the requirement lacking a scope.
       */
      schemes: readonly string[];
      /** For `unverified`: the verifier's error. */
      error?: unknown;
    };

/**
 * What a check reads of a request. `headers` by lower-case name, an array when a header came more
 * than once (Node's `req.headersDistinct`, or the one header walk); `query` as parsed once.
 */
export interface CredentialRequest {
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  query?: Readonly<Record<string, unknown>> | undefined;
  /** The client's address, computed only when asked (handed to verifiers). */
  address?: (() => string) | undefined;
}

/** One operation's compiled check. */
export interface SecurityCheck {
  /** Whether a request may pass without any credential (no requirement, or `{}` among them). */
  readonly anonymousAllowed: boolean;
  (request: CredentialRequest): SecurityOutcome | Promise<SecurityOutcome>;
}

/** What `compileSecurity` reads. */
export interface SecurityInput {
  /** `components.securitySchemes` with `$ref`s resolved. */
  schemes: Readonly<Record<string, unknown>>;
  /** Each operation with the requirements in force (its own, else the document's). */
  operations: ReadonlyArray<{ operationId: string; security: readonly SecurityRequirement[] }>;
  /**
   * The document's own requirements (root `security`): what a request that matched no operation
   * is checked against. Absent: none.
   */
  document?: readonly SecurityRequirement[] | undefined;
  /** The application's verifier of each scheme, by the scheme's name. */
  verifiers: Readonly<Record<string, CredentialVerifier>>;
  /** The realm of the challenges of a scheme without `x-realm`. */
  realm: string;
}

/** How one scheme is read and challenged. */
interface CompiledScheme {
  name: string;
  type: SchemeType;
  /** The credential in the request: undefined when absent, "ambiguous" when sent twice. */
  read: (request: CredentialRequest, cache: RequestCache) => Read;
  identified: (verified: VerifiedCredential, read: Presented) => IdentifiedCredential;
  challenge: (error?: ChallengeError, scopes?: readonly string[]) => string;
  verifier: CredentialVerifier;
  /** What the verifier is told, built once. */
  context: VerifierContext;
}

/** The `error` of a bearer challenge (RFC 6750 section 3.1). */
type ChallengeError = "invalid_request" | "invalid_token" | "insufficient_scope";

/** A credential present but not well-formed (refused before any verifier sees it). */
const MALFORMED = "malformed";
type Presented = PresentedCredential;
/** The credential as read: absent (undefined), sent twice, malformed, or presented. */
type Read = Presented | undefined | "ambiguous" | typeof MALFORMED;

interface RequestCache {
  authorization?: { scheme: string; value: string } | null | "ambiguous" | undefined;
  cookies?: Record<string, string | undefined> | undefined;
}

/** The cache of a check that reads one scheme once, synchronously: reused, emptied each time. */
const SCRATCH: RequestCache = { authorization: undefined, cookies: undefined };

/** A quoted-string (RFC 9110 section 5.6.4): backslash and quote escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

function single(value: unknown): string | undefined | "ambiguous" {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return value.length === 1 ? String(value[0]) : "ambiguous";
  }
  return typeof value === "string" ? value : "ambiguous";
}

// RFC 9110 section 11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ].
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SP = 32;

/**
 * The request's `Authorization` split into its scheme (lower case: RFC 9110 section 11.1 makes it
 * case-insensitive) and the rest, spaces around it dropped; a value that starts with no scheme
 * has scheme "". Split by hand rather than by one regular expression: every authenticated
 * request comes here.
 */
function authorization(request: CredentialRequest, cache: RequestCache) {
  if (cache.authorization !== undefined) return cache.authorization;
  const value = single(request.headers.authorization);
  if (value === undefined || value === "ambiguous") {
    cache.authorization = value === undefined ? null : "ambiguous";
    return cache.authorization;
  }
  const space = value.indexOf(" ");
  const scheme = space === -1 ? value : value.slice(0, space);
  if (!AUTH_SCHEME.test(scheme)) {
    cache.authorization = { scheme: "", value };
    return cache.authorization;
  }
  let start = space === -1 ? value.length : space;
  while (value.charCodeAt(start) === SP) start++;
  let end = value.length;
  while (end > start && value.charCodeAt(end - 1) === SP) end--;
  // The usual spelling is taken as it is, without making a lower-case copy.
  const lower = scheme === "Bearer" ? "bearer" : scheme.toLowerCase();
  cache.authorization = { scheme: lower, value: value.slice(start, end) };
  return cache.authorization;
}

// RFC 6750 section 2.1: b64token.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
// RFC 7617 section 2: the base64 of user-id ":" password (RFC 4648 alphabet, padded).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function readBearer(request: CredentialRequest, cache: RequestCache): Read {
  const header = authorization(request, cache);
  if (header === "ambiguous") return header;
  if (header === null || header.scheme !== "bearer") return undefined;
  if (!B64TOKEN.test(header.value)) return MALFORMED;
  return { kind: "bearer", token: header.value };
}

/**
 * RFC 7617 parsing by hand, on purpose: `basic-auth` (the jshttp parser) decodes bytes that are
 * not UTF-8 into U+FFFD, so two different passwords would reach the verifier as one.
 */
function readBasic(request: CredentialRequest, cache: RequestCache): Read {
  const header = authorization(request, cache);
  if (header === "ambiguous") return header;
  if (header === null || header.scheme !== "basic") return undefined;
  if (header.value === "" || !BASE64.test(header.value)) return MALFORMED;
  const bytes = Buffer.from(header.value, "base64");
  if (!isUtf8(bytes)) return MALFORMED;
  const text = bytes.toString("utf8");
  const colon = text.indexOf(":");
  // A user-id cannot hold a colon; control characters are refused in both parts (section 2).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (colon === -1 || /[\u0000-\u001f\u007f]/.test(text)) return MALFORMED;
  return { kind: "basic", userId: text.slice(0, colon), password: text.slice(colon + 1) };
}

function compileScheme(
  name: string,
  raw: unknown,
  verifier: CredentialVerifier | undefined,
  realm: string,
): CompiledScheme | string {
  if (typeof raw !== "object" || raw === null)
    return "is not defined in components.securitySchemes";
  const scheme = raw as JsonObject;
  const schemeRealm = typeof scheme["x-realm"] === "string" ? scheme["x-realm"] : realm;
  const realmParam = `realm=${quoted(schemeRealm)}`;
  const bearerChallenge = (error?: string, scopes?: readonly string[]) =>
    [
      `Bearer ${realmParam}`,
      ...(scopes && scopes.length > 0 ? [`scope=${quoted(scopes.join(" "))}`] : []),
      ...(error ? [`error=${quoted(error)}`] : []),
    ].join(", ");
  let compiled: Omit<CompiledScheme, "verifier" | "name" | "context">;
  const type = scheme.type;
  if (type === "http" && typeof scheme.scheme === "string") {
    // RFC 9110 section 11.1: auth-scheme names are case-insensitive.
    const httpScheme = scheme.scheme.toLowerCase();
    if (httpScheme === "bearer") {
      compiled = {
        type: "http-bearer",
        read: readBearer,
        identified: (verified) => ({
          scheme: name,
          type: "http-bearer",
          subject: verified.subject,
          scopes: verified.scopes ?? NO_SCOPES,
          principal: verified.principal,
          key: verified.key,
        }),
        challenge: bearerChallenge,
      };
    } else if (httpScheme === "basic") {
      compiled = {
        type: "http-basic",
        read: readBasic,
        identified: (verified, read) => ({
          scheme: name,
          type: "http-basic",
          subject: verified.subject,
          scopes: verified.scopes ?? NO_SCOPES,
          principal: verified.principal,
          key: verified.key,
          userId: read.kind === "basic" ? read.userId : "",
        }),
        challenge: () => `Basic ${realmParam}, charset="UTF-8"`,
      };
    } else {
      return `is an HTTP "${scheme.scheme}" scheme; this engine checks only bearer and basic`;
    }
  } else if (type === "apiKey") {
    const where = scheme.in;
    const keyName = scheme.name;
    if (typeof keyName !== "string" || keyName === "") return "is an apiKey scheme without a name";
    if (where !== "header" && where !== "query" && where !== "cookie") {
      return `is an apiKey scheme in "${String(where)}"; OpenAPI allows header, query or cookie`;
    }
    const header = keyName.toLowerCase();
    const keyValue = (request: CredentialRequest, cache: RequestCache) => {
      if (where === "header") return single(request.headers[header]);
      if (where === "query") return single(request.query?.[keyName]);
      if (cache.cookies === undefined) {
        const cookie = single(request.headers.cookie);
        // Node joins repeated Cookie headers with "; " (RFC 9110 section 5.3's exception).
        const text = Array.isArray(request.headers.cookie)
          ? request.headers.cookie.join("; ")
          : cookie === "ambiguous" || cookie === undefined
            ? ""
            : cookie;
        cache.cookies = text === "" ? {} : parseCookie(text);
      }
      return cache.cookies[keyName];
    };
    compiled = {
      type: "apiKey",
      read: (request, cache) => {
        const value = keyValue(request, cache);
        if (value === undefined || value === "") return undefined;
        if (value === "ambiguous") return value;
        return { kind: "apiKey", key: value };
      },
      identified: (verified) => ({
        scheme: name,
        type: "apiKey",
        subject: verified.subject,
        scopes: verified.scopes ?? NO_SCOPES,
        principal: verified.principal,
        key: verified.key,
        in: where,
        name: keyName,
      }),
      challenge: () => `ApiKey ${realmParam}, in=${quoted(where)}, name=${quoted(keyName)}`,
    };
  } else if (type === "oauth2" || type === "openIdConnect") {
    compiled = {
      type,
      read: readBearer,
      identified: (verified) => ({
        scheme: name,
        type,
        subject: verified.subject,
        scopes: verified.scopes ?? NO_SCOPES,
        principal: verified.principal,
        key: verified.key,
      }),
      challenge: bearerChallenge,
    };
  } else if (type === "mutualTLS") {
    return "is a mutualTLS scheme; this engine does not terminate TLS, so it cannot see a client certificate";
  } else {
    return `has type "${String(type)}", which OpenAPI 3.1 does not define`;
  }
  if (verifier === undefined) return "has no verifier: the application must provide one";
  return { ...compiled, name, verifier, context: { scheme: name, type: compiled.type } };
}

/** The scopes of a credential its verifier gave none. */
const NO_SCOPES: readonly string[] = Object.freeze([]);

/** The per-operation checks of a contract, or an error naming each scheme it cannot check. */
export function compileSecurity(input: SecurityInput): {
  forOperation: (operationId: string) => SecurityCheck;
  /** The check of a request that matched no operation (the document's `security`). */
  forDocument: () => SecurityCheck;
  /** The type of each scheme some requirement names, by name. */
  types: ReadonlyMap<string, SchemeType>;
} {
  const compiled = new Map<string, CompiledScheme>();
  const problems = new Map<string, { why: string; operations: string[] }>();
  const document = { operationId: "the document's security", security: input.document ?? [] };
  for (const op of [...input.operations, document]) {
    for (const name of new Set(op.security.flatMap((requirement) => Object.keys(requirement)))) {
      const problem = problems.get(name);
      if (problem) {
        problem.operations.push(op.operationId);
        continue;
      }
      if (compiled.has(name)) continue;
      const raw = Object.hasOwn(input.schemes, name) ? input.schemes[name] : undefined;
      const scheme = compileScheme(
        name,
        raw,
        Object.hasOwn(input.verifiers, name) ? input.verifiers[name] : undefined,
        input.realm,
      );
      if (typeof scheme === "string")
        problems.set(name, { why: scheme, operations: [op.operationId] });
      else compiled.set(name, scheme);
    }
  }
  if (problems.size > 0) {
    throw new Error(
      [...problems]
        .map(
          ([name, { why, operations }]) =>
            `security scheme "${name}" ${why} (used by ${operations.join(", ")})`,
        )
        .join("; "),
    );
  }
  const checkOf = (security: readonly SecurityRequirement[]) =>
    compileCheck(
      security.map((requirement) =>
        Object.entries(requirement).map(([name, scopes]) => ({
          scheme: compiled.get(name) as CompiledScheme,
          scopes,
        })),
      ),
    );
  const checks = new Map<string, SecurityCheck>();
  for (const op of input.operations) checks.set(op.operationId, checkOf(op.security));
  const documentCheck = checkOf(document.security);
  return {
    forOperation(operationId) {
      const check = checks.get(operationId);
      if (check === undefined) throw new Error(`no security was compiled for ${operationId}`);
      return check;
    },
    forDocument: () => documentCheck,
    types: new Map([...compiled].map(([name, scheme]) => [name, scheme.type])),
  };
}

type Part = { scheme: CompiledScheme; scopes: readonly string[] };

/** A scheme's result in one request, computed at most once however many requirements name it. */
type SchemeResult =
  | { state: "absent" }
  | { state: "ambiguous" }
  | { state: "invalid" }
  | { state: "unverified"; error: unknown }
  | { state: "verified"; credential: IdentifiedCredential };

const OK_NONE: SecurityOutcome = Object.freeze({
  ok: true,
  requirement: -1,
  credentials: Object.freeze([]) as readonly IdentifiedCredential[],
  subject: undefined,
  attempted: undefined,
});

function compileCheck(requirements: Part[][]): SecurityCheck {
  const anonymousAllowed =
    requirements.length === 0 || requirements.some((parts) => parts.length === 0);
  const schemes = [...new Set(requirements.flat().map((part) => part.scheme))];
  const names = schemes.map((scheme) => scheme.name);
  const challengeOf = (error?: ChallengeError, scopes?: string[]) => [
    ...new Set(schemes.map((scheme) => scheme.challenge(error, scopes))),
  ];
  const missingChallenges = challengeOf();
  const invalidChallenges = challengeOf("invalid_token");
  const ambiguousChallenges = challengeOf("invalid_request");
  const anonymousOk = (index: number, attempted: SecurityFailure | undefined): SecurityOutcome =>
    index === -1 && attempted === undefined
      ? OK_NONE
      : { ok: true, requirement: index, credentials: [], subject: undefined, attempted };
  const unverified = (error: unknown, failed: readonly string[]) => ({
    ...refused("unverified", 401, missingChallenges, "The credentials could not be checked.", {
      schemes: failed,
    }),
    error,
  });
  const MISSING = Object.freeze(
    refused("missing", 401, missingChallenges, "Missing credentials.", { schemes: names }),
  );

  if (requirements.length === 0) return Object.assign(() => OK_NONE, { anonymousAllowed });
  const only = requirements.length === 1 ? requirements[0] : undefined;
  const sole = only?.length === 1 ? (only[0] as Part) : undefined;
  if (sole !== undefined && sole.scopes.length === 0) {
    return Object.assign(checkOne(sole.scheme), { anonymousAllowed });
  }

  /**
   * One requirement of one scheme without scopes (an API behind one bearer scheme): the same
   * decisions as `check` below, without its bookkeeping, and the refusals built once.
   */
  function checkOne(scheme: CompiledScheme) {
    const failed = [scheme.name];
    const AMBIGUOUS = Object.freeze(
      refused("ambiguous", 401, ambiguousChallenges, "Send the credential once.", {
        schemes: failed,
      }),
    );
    const INVALID = Object.freeze(
      refused("invalid", 401, invalidChallenges, "The credentials are invalid.", {
        schemes: failed,
      }),
    );
    // A verifier answering the same object for the same credential (the key store's, a cache)
    // gets the same outcome back: nothing is built per request for a known caller. Not for
    // basic, whose identity holds the user-id as read.
    const reusable = scheme.type !== "http-basic";
    const outcomes = new WeakMap<VerifiedCredential, SecurityOutcome>();
    const settle = (verified: VerifiedCredential | null, read: Presented): SecurityOutcome => {
      if (verified === null) return INVALID;
      let outcome = reusable ? outcomes.get(verified) : undefined;
      if (outcome === undefined) {
        const credential = scheme.identified(verified, read);
        outcome = Object.freeze({
          ok: true,
          requirement: 0,
          credentials: Object.freeze([credential]),
          subject: credential.subject,
          attempted: undefined,
        });
        if (reusable) outcomes.set(verified, outcome);
      }
      return outcome;
    };
    const failedToVerify = (error: unknown) => unverified(error, failed);
    return (request: CredentialRequest): SecurityOutcome | Promise<SecurityOutcome> => {
      // The one read of this check: the scratch cache is emptied first, and read synchronously.
      SCRATCH.authorization = undefined;
      SCRATCH.cookies = undefined;
      const read = scheme.read(request, SCRATCH);
      if (read === undefined) return MISSING;
      if (read === "ambiguous") return AMBIGUOUS;
      if (read === MALFORMED) return INVALID;
      let answer: ReturnType<CredentialVerifier>;
      try {
        answer = scheme.verifier(read, scheme.context, request);
      } catch (error) {
        return failedToVerify(error);
      }
      if (answer instanceof Promise)
        return answer.then((verified) => settle(verified, read), failedToVerify);
      return settle(answer, read);
    };
  }

  function decide(results: Map<CompiledScheme, SchemeResult>): SecurityOutcome {
    let lacking:
      | { scopes: string[]; credential: IdentifiedCredential; schemes: string[] }
      | undefined;
    for (let i = 0; i < requirements.length; i++) {
      const parts = requirements[i] as Part[];
      if (parts.length === 0) continue;
      const credentials: IdentifiedCredential[] = [];
      let missingScopes: string[] = [];
      for (const { scheme, scopes } of parts) {
        const result = results.get(scheme);
        if (result?.state !== "verified") break;
        credentials.push(result.credential);
        const held = new Set(result.credential.scopes);
        missingScopes = missingScopes.concat(scopes.filter((scope) => !held.has(scope)));
      }
      if (credentials.length < parts.length) continue;
      if (missingScopes.length === 0) {
        return {
          ok: true,
          requirement: i,
          credentials,
          subject: credentials[0]?.subject,
          attempted: undefined,
        };
      }
      lacking ??= {
        scopes: missingScopes,
        credential: credentials[0] as IdentifiedCredential,
        schemes: parts.map((part) => part.scheme.name),
      };
    }
    const inState = (state: SchemeResult["state"]) =>
      [...results].filter(([, result]) => result.state === state).map(([scheme]) => scheme.name);
    const ambiguous = inState("ambiguous");
    const invalid = inState("invalid");
    const notChecked = inState("unverified");
    const failure: SecurityFailure = lacking
      ? "insufficient_scope"
      : ambiguous.length > 0
        ? "ambiguous"
        : invalid.length > 0
          ? "invalid"
          : notChecked.length > 0
            ? "unverified"
            : "missing";
    const empty = requirements.findIndex((parts) => parts.length === 0);
    if (empty !== -1) return anonymousOk(empty, failure === "missing" ? undefined : failure);
    switch (failure) {
      case "ambiguous":
        return refused(failure, 401, ambiguousChallenges, "Send the credential once.", {
          schemes: ambiguous,
        });
      case "invalid":
        return refused(failure, 401, invalidChallenges, "The credentials are invalid.", {
          schemes: invalid,
        });
      case "insufficient_scope": {
        const {
          scopes,
          credential,
          schemes: lackingSchemes,
        } = lacking as NonNullable<typeof lacking>;
        return refused(
          failure,
          403,
          challengeOf("insufficient_scope", scopes),
          `The credentials lack the scope(s) ${scopes.join(", ")}.`,
          { schemes: lackingSchemes, subject: credential.subject, credential },
        );
      }
      case "unverified": {
        const error = [...results.values()].find((result) => result.state === "unverified");
        return unverified(error?.state === "unverified" ? error.error : undefined, notChecked);
      }
      default:
        return MISSING;
    }
  }

  function check(request: CredentialRequest): SecurityOutcome | Promise<SecurityOutcome> {
    const cache: RequestCache = {};
    const results = new Map<CompiledScheme, SchemeResult>();
    const pending: Promise<void>[] = [];
    // Only schemes whose credential is present are verified; a requirement whose credentials
    // are not all present cannot be satisfied, so its present ones are still verified (to tell
    // "invalid" from "missing"), each scheme once.
    for (const scheme of schemes) {
      const read = scheme.read(request, cache);
      if (read === undefined) {
        results.set(scheme, { state: "absent" });
        continue;
      }
      if (read === "ambiguous") {
        results.set(scheme, { state: "ambiguous" });
        continue;
      }
      if (read === MALFORMED) {
        results.set(scheme, { state: "invalid" });
        continue;
      }
      const settle = (verified: VerifiedCredential | null) => {
        results.set(
          scheme,
          verified === null
            ? { state: "invalid" }
            : { state: "verified", credential: scheme.identified(verified, read) },
        );
      };
      const failedToVerify = (error: unknown) => {
        results.set(scheme, { state: "unverified", error });
      };
      try {
        const answer = scheme.verifier(read, scheme.context, request);
        if (answer instanceof Promise) pending.push(answer.then(settle, failedToVerify));
        else settle(answer);
      } catch (error) {
        failedToVerify(error);
      }
    }
    if (pending.length === 0) return decide(results);
    return Promise.all(pending).then(() => decide(results));
  }
  return Object.assign(check, { anonymousAllowed });
}

function refused(
  failure: SecurityFailure,
  status: 401 | 403,
  challenges: readonly string[],
  detail: string,
  about: {
    schemes: readonly string[];
    subject?: string | undefined;
    credential?: IdentifiedCredential | undefined;
  },
): Extract<SecurityOutcome, { ok: false }> {
  return {
    ok: false,
    failure,
    status,
    challenges,
    detail,
    subject: about.subject,
    credential: about.credential,
    schemes: about.schemes,
  };
}
