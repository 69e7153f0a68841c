/**
 * The documented responses of an operation: status, headers and JSON content, `$ref`s resolved.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#response-object
 */
import { deref, isJsonObject, type JsonObject, type OpenApiDocument } from "./document.js";
import type { SpecOperation } from "./spec-operations.js";

/** A response header as documented. */
export interface DocumentedHeader {
  /** As written in the spec (`X-RateLimit-Limit`). */
  name: string;
  required: boolean;
  schema: JsonObject | undefined;
}

/** One documented response of an operation. */
export interface DocumentedResponse {
  /** As written: `"200"`, `"4XX"`, `"default"`. */
  status: string;
  description: string;
  headers: DocumentedHeader[];
  /** Media type → media type object (schema and examples, unresolved inside). */
  content: Record<string, JsonObject>;
}

/** Every documented response of `operation`, in the spec's order. */
export function documentedResponses(
  spec: OpenApiDocument,
  operation: Pick<SpecOperation, "operation">,
): DocumentedResponse[] {
  const responses = operation.operation.responses;
  if (!isJsonObject(responses)) return [];
  return Object.entries(responses).map(([status, raw]) => {
    const response = deref<JsonObject>(spec, raw);
    const headers = isJsonObject(response.headers) ? response.headers : {};
    return {
      status,
      description: typeof response.description === "string" ? response.description : "",
      headers: Object.entries(headers).map(([name, rawHeader]) => {
        const header = deref<JsonObject>(spec, rawHeader);
        return {
          name,
          required: header.required === true,
          schema: isJsonObject(header.schema) ? header.schema : undefined,
        };
      }),
      content: (isJsonObject(response.content) ? response.content : {}) as Record<
        string,
        JsonObject
      >,
    };
  });
}

/**
 * The documented response that answers `status`: the exact code, else its class (`4XX`), else
 * `default`; undefined when the status is not documented.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object
 */
export function responseForStatus(
  responses: DocumentedResponse[],
  status: number,
): DocumentedResponse | undefined {
  const code = String(status);
  return (
    responses.find((r) => r.status === code) ??
    responses.find((r) => r.status.toUpperCase() === `${code[0]}XX`) ??
    responses.find((r) => r.status === "default")
  );
}

/** Every header name any response of `spec` documents, in first-seen order. */
export function documentedHeaderNames(
  spec: OpenApiDocument,
  operations: Pick<SpecOperation, "operation">[],
): string[] {
  const names = new Map<string, string>();
  for (const operation of operations) {
    for (const response of documentedResponses(spec, operation)) {
      for (const { name } of response.headers) {
        if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
      }
    }
  }
  return [...names.values()];
}
