/**
 * The statuses the engine (packages/openapi-engine) can answer an operation with, by the
 * operation's shape, and why. A status the server can send must be declared, or the answer breaks
 * the contract (a 500 in development, an undocumented answer in production); the lint rule
 * `spec-facts/server-statuses` reads this list, so the spec is told when it is edited.
 */
import type { OpenApiDocument } from "./document.js";
import { allowsAnonymous, negotiatesContent, type SpecOperation } from "./spec-operations.js";

/** One status the server can send, the operations it applies to, and the reason. */
export interface ServerStatus {
  status: string;
  /** Whether the server can answer `operation` with this status. */
  applies(operation: SpecOperation): boolean;
  /** Why it can, in a sentence that completes "because ...". */
  why: string;
  /**
   * Whether the contract itself declares what makes the server send it to `operation` (a
   * rate-limit plan, a sunset, a body limit): the generic lint layer requires only these
   * (`spec-facts/server-statuses` with `scope: declared`); the rest follow from how the engine
   * works (`scope: engine`). Absent: never from a declaration alone.
   */
  declaredBy?(spec: OpenApiDocument, operation: SpecOperation): boolean;
}

const always = () => true;
const listsScopes = (operation: SpecOperation) =>
  operation.security.some((requirement) =>
    Object.values(requirement).some((scopes) => scopes.length > 0),
  );
const takesBody = (operation: SpecOperation) => operation.requestBody !== undefined;

/** What the engine answers, in status order. */
export const SERVER_STATUSES: readonly ServerStatus[] = [
  {
    status: "400",
    applies: always,
    why: "the server validates every request strictly: an unknown query parameter is refused with 400 validation_failed even where none is declared, and so is an invalid parameter or body",
  },
  {
    status: "401",
    applies: (operation) => !allowsAnonymous(operation),
    why: "its security requires a credential: a request without a valid API key gets 401",
  },
  {
    status: "403",
    applies: (operation) => listsScopes(operation),
    why: "a requirement of its security lists scopes: a credential without one of them gets 403 insufficient_scope",
  },
  {
    status: "406",
    applies: negotiatesContent,
    why: "it answers a type other than application/json: a request whose Accept admits none of its success types gets 406 not_acceptable",
  },
  {
    status: "410",
    applies: (operation) => operation.operation["x-sunset"] !== undefined,
    declaredBy: (_spec, operation) => operation.operation["x-sunset"] !== undefined,
    why: "it has an x-sunset: from that instant it answers 410 gone",
  },
  {
    status: "413",
    applies: takesBody,
    declaredBy: (spec, operation) =>
      takesBody(operation) && spec.info["x-request-body-limit-bytes"] !== undefined,
    why: "it takes a body: one over info.x-request-body-limit-bytes gets 413 payload_too_large",
  },
  {
    status: "415",
    applies: takesBody,
    why: "it takes a body: one that is not application/json gets 415 unsupported_media_type",
  },
  {
    status: "429",
    applies: always,
    declaredBy: (spec) => spec.info["x-rate-limit-plans"] !== undefined,
    why: "every request is counted (per API key, or per client address without one), and one over the limit gets 429",
  },
  {
    status: "500",
    applies: always,
    why: "an unexpected failure (and, in development, an answer that breaks the contract) gets 500 internal_error; an operation the server has no handler for yet gets 500 not_implemented",
  },
  {
    status: "503",
    applies: always,
    why: "a backing store that cannot be reached (the API keys' or the handler's) gets 503 service_unavailable",
  },
];

/** Whether `declared` (a response map's keys) covers `status`: exactly, by its class (`4XX`) or `default`. */
export function declaresStatus(declared: readonly string[], status: string): boolean {
  return declared.some(
    (key) => key === status || key.toUpperCase() === `${status[0]}XX` || key === "default",
  );
}

/**
 * The statuses the server can send for `operation` that it does not declare: every one (`engine`),
 * or only those the contract's own declarations make it send (`declared`, with `spec`).
 */
export function undeclaredStatuses(
  operation: SpecOperation,
  scope: { spec: OpenApiDocument; only: "declared" } | undefined = undefined,
): ServerStatus[] {
  return SERVER_STATUSES.filter(
    (entry) =>
      (scope === undefined
        ? entry.applies(operation)
        : entry.declaredBy?.(scope.spec, operation) === true) &&
      !declaresStatus(operation.statuses, entry.status),
  );
}
