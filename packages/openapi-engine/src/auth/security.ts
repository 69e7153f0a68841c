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
 * @see https://spec.openapis.org/oas/v3.1.1#security-scheme-object
 * @see https://spec.openapis.org/oas/v3.1.1#security-requirement-object
 */
import {
  deref,
  isJsonObject,
  type OpenApiDocument,
  type SpecOperation,
} from "@animal-store/openapi";
import { EngineError, type EngineErrorCode } from "../errors.js";
import type { ApiKeyRecord, KeyLookup, Refusal } from "./credentials.js";
import {
  type CredentialVerifier,
  compileSecurity,
  type SecurityCheck,
  type SecurityRequirement,
  type VerifiedCredential,
} from "./security-schemes.js";

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
