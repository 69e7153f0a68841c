/**
 * One request per operation built from the contract's own examples: path and query parameters
 * from each parameter's first named example, the body from the request body's first named
 * example. The warm-up sends these; anything that needs "a valid call of every operation" can.
 */
import { deref, isJsonObject, type JsonObject, type OpenApiDocument } from "./document.js";
import type { SpecOperation } from "./spec-operations.js";

/** A request ready to send, relative to the server's origin. */
export interface ExampleRequest {
  operationId: string;
  method: string;
  /** Base path included, query string included. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The first example a parameter, media type or schema gives; undefined when it gives none. */
export function firstExample(spec: OpenApiDocument, node: JsonObject | undefined): unknown {
  if (node === undefined) return undefined;
  if (isJsonObject(node.examples)) {
    const first = Object.values(node.examples)[0];
    if (first !== undefined) return deref<{ value?: unknown }>(spec, first).value;
  }
  if (node.example !== undefined) return node.example;
  const schema = deref<JsonObject | undefined>(spec, node.schema);
  if (Array.isArray(schema?.examples) && schema.examples.length > 0) return schema.examples[0];
  return schema?.default;
}

/** The example request of one operation; throws naming a required part that has no example. */
export function exampleRequest(
  spec: OpenApiDocument,
  basePath: string,
  operation: Pick<SpecOperation, "operationId" | "method" | "path" | "parameters" | "requestBody">,
): ExampleRequest {
  const where = `${operation.operationId}`;
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const value = firstExample(spec, parameter);
    const name = String(parameter.name);
    if (value === undefined) {
      if (parameter.required) throw new Error(`${where}: parameter ${name} has no example`);
      continue;
    }
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    if (parameter.in === "path")
      path = path.replace(`{${name}}`, encodeURIComponent(values.join(",")));
    else if (parameter.in === "query") for (const v of values) query.append(name, v);
    else if (parameter.in === "header") headers[name] = values.join(",");
  }
  let body: string | undefined;
  const media = operation.requestBody?.content;
  const json = isJsonObject(media)
    ? (media["application/json"] as JsonObject | undefined)
    : undefined;
  if (json !== undefined) {
    const value = firstExample(spec, json);
    if (value === undefined && operation.requestBody?.required) {
      throw new Error(`${where}: the request body has no example`);
    }
    if (value !== undefined) {
      body = JSON.stringify(value);
      headers["content-type"] = "application/json";
    }
  }
  const search = query.toString();
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: `${basePath}${path}${search ? `?${search}` : ""}`,
    headers,
    body,
  };
}
