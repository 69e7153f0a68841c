/**
 * The engine answers errors with its own codes (`ENGINE_ERROR_CODES`); each must be one the
 * contract documents, or clients would receive a code the spec does not know. Checked at start.
 */
import {
  deref,
  documentedResponses,
  isJsonObject,
  type OpenApiDocument,
  type SpecOperation,
} from "@animal-store/openapi";
import { ENGINE_ERROR_CODES } from "../http/errors.js";

/** The `code` values the contract's error bodies allow; throws when an engine code is missing. */
export function contractErrorCodes(spec: OpenApiDocument, operations: SpecOperation[]): string[] {
  const codes = new Set<string>();
  for (const operation of operations) {
    for (const response of documentedResponses(spec, operation)) {
      if (!/^[45]/.test(response.status)) continue;
      const schema = deref(spec, response.content["application/json"]?.schema);
      const code = isJsonObject(schema?.properties)
        ? deref(spec, schema.properties.code)
        : undefined;
      if (Array.isArray(code?.enum)) for (const value of code.enum) codes.add(String(value));
    }
  }
  const missing = ENGINE_ERROR_CODES.filter((code) => !codes.has(code));
  if (missing.length > 0) {
    throw new Error(
      `the contract's error bodies do not allow the code(s) ${missing.join(", ")}, which the server answers with`,
    );
  }
  return [...codes];
}
