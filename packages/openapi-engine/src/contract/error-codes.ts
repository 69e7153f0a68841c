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
import { CONNECTION_ERROR_CODES, ENGINE_ERROR_CODES } from "../errors.js";

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
  const connection = connectionErrorCodes(spec);
  const undocumented = CONNECTION_ERROR_CODES.filter((code) => !connection.includes(code));
  if (undocumented.length > 0) {
    throw new Error(
      `info.x-connection-errors does not list the code(s) ${undocumented.join(", ")}, which the server answers connections with`,
    );
  }
  return [...codes];
}

/** The codes `info.x-connection-errors` documents for answers given before a request was read. */
export function connectionErrorCodes(spec: OpenApiDocument): string[] {
  const documented = spec.info["x-connection-errors"];
  const schema = isJsonObject(documented) ? documented.schema : undefined;
  const code =
    isJsonObject(schema) && isJsonObject(schema.properties) ? schema.properties.code : undefined;
  return isJsonObject(code) && Array.isArray(code.enum) ? code.enum.map(String) : [];
}
