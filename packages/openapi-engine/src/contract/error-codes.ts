/**
 * The engine answers with the codes of its catalogue (errors.ts); each it can answer this
 * contract with must be one the contract documents, or clients would receive a code the spec does
 * not know. Checked at start. The codes of security schemes the contract does not use (a password
 * refused, a scope lacking) are not asked of it (auth/security.ts `securityErrorCodes`).
 */
import {
  connectionErrorCodes,
  documentedErrorCodes,
  type OpenApiDocument,
  type SpecOperation,
} from "@animal-store/openapi";
import { securityErrorCodes } from "../auth/security.js";
import { CONNECTION_ERROR_CODES, ENGINE_ERROR_CODES, type EngineErrorCode } from "../errors.js";

/** Codes only some contracts' security can produce. */
const SECURITY_ONLY: ReadonlySet<EngineErrorCode> = new Set([
  "invalid_credentials",
  "insufficient_scope",
]);

/** Throws naming every code of the catalogue that the contract does not document. */
export function checkErrorCodes(spec: OpenApiDocument, operations: SpecOperation[]): void {
  const codes = new Set(documentedErrorCodes(spec, operations));
  const producible = securityErrorCodes(spec, operations);
  const missing = ENGINE_ERROR_CODES.filter(
    (code) => !codes.has(code) && (!SECURITY_ONLY.has(code) || producible.has(code)),
  );
  if (missing.length > 0) {
    throw new Error(
      `the contract's error bodies do not allow the code(s) ${missing.join(", ")}, which the server answers with`,
    );
  }
  const connection = new Set(connectionErrorCodes(spec));
  const undocumented = CONNECTION_ERROR_CODES.filter((code) => !connection.has(code));
  if (undocumented.length > 0) {
    throw new Error(
      `info.x-connection-errors does not list the code(s) ${undocumented.join(", ")}, which the server answers connections with`,
    );
  }
}
