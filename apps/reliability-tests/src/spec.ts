/**
 * The bundled contract as data for the generators: its operations, parameters, bodies and
 * responses, read through the contract's own module (`@animal-store/openapi`).
 */
import { deref, documentedResponses, loadBundledSpec, specOperations } from "@animal-store/openapi";

/** A JSON Schema node as it appears in the bundled spec (refs left in place). */
export type JsonSchema = { [key: string]: unknown };

/** The parts of the OpenAPI document the suites read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** A parameter with its `$ref` resolved. */
export interface ParameterSpec {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required: boolean;
  schema: JsonSchema;
}

/** A documented response: its headers (with required flags) and its JSON body schema, if any. */
export interface ResponseSpec {
  headers: Record<string, { required: boolean; schema: JsonSchema }>;
  bodySchema: JsonSchema | null;
}

/** One operation of the contract, with everything a request generator and a checker need. */
export interface OperationSpec {
  operationId: string;
  method: string;
  /** OpenAPI path template, e.g. `/pets/{petId}` (relative to the `/v1` server base). */
  path: string;
  parameters: ParameterSpec[];
  requestBody: { required: boolean; schema: JsonSchema } | null;
  responses: Record<string, ResponseSpec>;
}

/** The bundled spec that `pnpm bundle` produces. */
export function loadSpec(): OpenApiDocument {
  return loadBundledSpec().spec as unknown as OpenApiDocument;
}

/** Follows a local `$ref` (`#/a/b/c`) inside the document; throws on a dangling one. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  return deref(doc as Parameters<typeof deref>[0], { $ref: ref });
}

/** Every operation of the spec, with parameters, body and responses resolved. */
export function listOperations(doc: OpenApiDocument): OperationSpec[] {
  const spec = doc as unknown as Parameters<typeof specOperations>[0];
  return specOperations(spec).map((op) => {
    const bodySchema = (
      op.requestBody?.content as Record<string, { schema?: JsonSchema }> | undefined
    )?.["application/json"]?.schema;
    const responses: Record<string, ResponseSpec> = {};
    for (const response of documentedResponses(spec, op)) {
      const headers: ResponseSpec["headers"] = {};
      for (const header of response.headers) {
        headers[header.name] = { required: header.required, schema: header.schema ?? {} };
      }
      const json = response.content["application/json"] as { schema?: JsonSchema } | undefined;
      responses[response.status] = { headers, bodySchema: json?.schema ?? null };
    }
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      parameters: op.parameters.map((p) => ({
        ...(p as unknown as ParameterSpec),
        required: p.required === true,
      })),
      requestBody: bodySchema
        ? { required: op.requestBody?.required === true, schema: bodySchema }
        : null,
      responses,
    };
  });
}
