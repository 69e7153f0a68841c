/**
 * The error codes the contract documents: the `code` values its error bodies allow (the enum of
 * the `code` property of every 4XX and 5XX JSON response), and the codes of the answers given
 * before a request was read (`info.x-connection-errors`, whose schema is the Error shape's).
 */
import { deref, isJsonObject, type OpenApiDocument } from "./document.js";
import { documentedResponses } from "./responses.js";
import type { SpecOperation } from "./spec-operations.js";

/** Every `code` value an error body of `operations` may carry. */
export function documentedErrorCodes(
  spec: OpenApiDocument,
  operations: Pick<SpecOperation, "operation">[],
): string[] {
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
