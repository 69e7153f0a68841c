/**
 * The engine answers with the codes of its catalogue (errors.ts). Where the contract lists the
 * codes its error bodies may carry (an `enum` on the `code` of its error schema), each code the
 * engine can answer this contract with must be one of them, or clients would receive a code the
 * spec does not know. A contract whose error schema lists no codes, or that has none (the engine
 * then answers RFC 9457 problem+json), is not checked. Checked at start. The codes of security
 * schemes the contract does not use (a password refused, a scope lacking) are not asked of it
 * (auth/security.ts `securityErrorCodes`).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#responses-object
 */
import {
  allowsAnonymous,
  connectionErrorCodes,
  documentedErrorCodes,
  negotiatesContent,
  type OpenApiDocument,
  type SpecOperation,
} from "@animal-store/openapi";
import { securityErrorCodes } from "../auth/security.js";
import { CONNECTION_ERROR_CODES, type EngineErrorCode } from "../errors.js";

/** What the contract declares that makes the engine answer some of its codes. */
export interface ErrorCodeSources {
  /** Whether the contract declares rate limits (`info.x-rate-limit-*`). */
  rateLimited: boolean;
  /** Whether a request matching no operation must carry a credential (the document's security). */
  anonymousByDefault: boolean;
}

/**
 * The codes the engine can answer `operations` with: those every contract can get, and those
 * that follow from a declaration (a body, a credential, a sunset, rate limits, a type other than
 * JSON to negotiate).
 */
export function producibleErrorCodes(
  spec: OpenApiDocument,
  operations: SpecOperation[],
  sources: ErrorCodeSources,
): EngineErrorCode[] {
  const codes: EngineErrorCode[] = [
    "validation_failed",
    "not_found",
    "method_not_allowed",
    "internal_error",
    "not_implemented",
    "service_unavailable",
  ];
  if (operations.some((op) => op.requestBody !== undefined)) {
    codes.push(
      "malformed_json",
      "malformed_encoding",
      "payload_too_large",
      "unsupported_media_type",
      "unsupported_encoding",
    );
  }
  if (!sources.anonymousByDefault || operations.some((op) => !allowsAnonymous(op))) {
    codes.push("unauthorized", "invalid_api_key");
  }
  if (operations.some((op) => op.operation["x-sunset"] !== undefined)) codes.push("gone");
  if (sources.rateLimited) codes.push("rate_limited", "api_key_banned");
  if (operations.some(negotiatesContent)) codes.push("not_acceptable");
  codes.push(...securityErrorCodes(spec, operations));
  return codes;
}

/**
 * Throws naming every code the engine can answer this contract with that the contract's listed
 * codes lack; and, when `info.x-connection-errors` is declared, every connection code it lacks.
 */
export function checkErrorCodes(
  spec: OpenApiDocument,
  operations: SpecOperation[],
  sources: ErrorCodeSources,
): void {
  const listed = new Set(documentedErrorCodes(spec, operations));
  if (listed.size > 0) {
    const missing = producibleErrorCodes(spec, operations, sources).filter(
      (code) => !listed.has(code),
    );
    if (missing.length > 0) {
      throw new Error(
        `the contract's error bodies do not allow the code(s) ${missing.join(", ")}, which the server answers with`,
      );
    }
  }
  if (spec.info["x-connection-errors"] === undefined) return;
  const connection = new Set(connectionErrorCodes(spec));
  const undocumented = CONNECTION_ERROR_CODES.filter((code) => !connection.has(code));
  if (undocumented.length > 0) {
    throw new Error(
      `info.x-connection-errors does not list the code(s) ${undocumented.join(", ")}, which the server answers connections with`,
    );
  }
}
