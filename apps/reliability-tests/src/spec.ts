/**
 * The bundled contract as data: its operations, parameters, bodies and responses, read from
 * `@animal-store/openapi/openapi.json` so nothing here restates the spec.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** A JSON Schema node as it appears in the bundled spec (refs left in place). */
export type JsonSchema = { [key: string]: unknown };

/** The parts of the OpenAPI document the suites read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

interface OperationObject {
  operationId: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
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

/** Reads the bundled spec that `pnpm bundle` produces. */
export function loadSpec(): OpenApiDocument {
  const path = createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json");
  return JSON.parse(readFileSync(path, "utf8")) as OpenApiDocument;
}

/** Follows a local `$ref` (`#/a/b/c`) inside the document. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`only local refs are supported: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) {
      throw new Error(`dangling ref ${ref}`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Resolves an object that may itself be a `$ref` (one level; schemas keep their inner refs). */
function deref<T>(doc: OpenApiDocument, node: unknown): T {
  let current = node;
  while (current && typeof current === "object" && "$ref" in current) {
    current = resolvePointer(doc, (current as { $ref: string }).$ref);
  }
  return current as T;
}

function responseSpec(doc: OpenApiDocument, raw: unknown): ResponseSpec {
  const response = deref<{ headers?: Record<string, unknown>; content?: Record<string, unknown> }>(
    doc,
    raw,
  );
  const headers: ResponseSpec["headers"] = {};
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const resolved = deref<{ required?: boolean; schema: JsonSchema }>(doc, header);
    headers[name] = { required: resolved.required === true, schema: resolved.schema };
  }
  const json = response.content?.["application/json"] as { schema?: JsonSchema } | undefined;
  return { headers, bodySchema: json?.schema ?? null };
}

/** Every operation of the spec, with parameters, body and responses resolved. */
export function listOperations(doc: OpenApiDocument): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !("operationId" in op)) continue;
      const parameters = (op.parameters ?? []).map((p) => {
        const resolved = deref<ParameterSpec & { required?: boolean }>(doc, p);
        return { ...resolved, required: resolved.required === true };
      });
      const body = op.requestBody
        ? deref<{ required?: boolean; content: Record<string, { schema: JsonSchema }> }>(
            doc,
            op.requestBody,
          )
        : null;
      const bodySchema = body?.content["application/json"]?.schema;
      const responses: Record<string, ResponseSpec> = {};
      for (const [status, raw] of Object.entries(op.responses)) {
        responses[status] = responseSpec(doc, raw);
      }
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters,
        requestBody: bodySchema ? { required: body?.required === true, schema: bodySchema } : null,
        responses,
      });
    }
  }
  return operations;
}
