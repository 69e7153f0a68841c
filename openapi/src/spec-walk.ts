/**
 * Walking the hand-written contract with the place of every node: `$ref`s are followed, and what
 * they point at is reported at its own path (a shared component is one place, however many
 * operations use it).
 */
import { isJsonObject, type JsonObject, type OpenApiDocument } from "./document.js";
import type { SpecPath } from "./source-lines.js";
import type { SpecOperation } from "./spec-operations.js";

/** A node of the document and where it is written. */
export interface Located<T = JsonObject> {
  node: T;
  path: SpecPath;
}

/** The JSON pointer `#/a/b~1c` as path segments. */
function refPath(ref: string): string[] {
  return ref
    .slice(2)
    .split("/")
    .map((raw) => decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Follows local `$ref`s from `node` (written at `path`); undefined when one points nowhere. */
export function follow(
  spec: OpenApiDocument,
  node: unknown,
  path: SpecPath,
): Located<JsonObject> | undefined {
  let current = node;
  let at = path;
  for (let hops = 0; isJsonObject(current) && typeof current.$ref === "string"; hops++) {
    if (!current.$ref.startsWith("#/") || hops > 32) return undefined;
    at = refPath(current.$ref);
    current = at.reduce<unknown>(
      (parent, key) => (isJsonObject(parent) ? parent[key] : undefined),
      spec,
    );
  }
  return isJsonObject(current) ? { node: current, path: at } : undefined;
}

/** The path of an operation object in the document. */
export function operationPath(operation: SpecOperation): SpecPath {
  return ["paths", operation.path, operation.method.toLowerCase()];
}

/** A documented response of an operation, with where it is written. */
export interface OperationResponse extends Located {
  status: string;
}

/** Every documented response of `operation`, `$ref`s followed. */
export function operationResponses(
  spec: OpenApiDocument,
  operation: SpecOperation,
): OperationResponse[] {
  const responses = operation.operation.responses;
  return Object.entries(isJsonObject(responses) ? responses : {}).flatMap(([status, raw]) => {
    const response = follow(spec, raw, [...operationPath(operation), "responses", status]);
    return response ? [{ status, ...response }] : [];
  });
}

/** The `application/json` media type of a response or request body, `$ref`s followed. */
export function jsonMedia(spec: OpenApiDocument, holder: Located): Located | undefined {
  const content = holder.node.content;
  if (!isJsonObject(content)) return undefined;
  return follow(spec, content["application/json"], [...holder.path, "content", "application/json"]);
}

/** One named example of a documented response, with where it is written. */
export interface ResponseExample extends Located<unknown> {
  status: string;
  name: string;
  /** Where the response the example belongs to is written. */
  response: Located;
}

/** Every named JSON example of every documented response of `operation`. */
export function responseExamples(
  spec: OpenApiDocument,
  operation: SpecOperation,
): ResponseExample[] {
  const found: ResponseExample[] = [];
  for (const response of operationResponses(spec, operation)) {
    const media = jsonMedia(spec, response);
    if (!media || !isJsonObject(media.node.examples)) continue;
    for (const [name, raw] of Object.entries(media.node.examples)) {
      const example = follow(spec, raw, [...media.path, "examples", name]);
      if (!example || !("value" in example.node)) continue;
      const { status } = response;
      found.push({
        status,
        name,
        response,
        node: example.node.value,
        path: [...example.path, "value"],
      });
    }
  }
  return found;
}

/** Every string under `node` (not following `$ref`s, skipping `x-` extensions), with its path. */
export function* texts(node: unknown, path: SpecPath): Generator<[string, SpecPath]> {
  if (typeof node === "string") yield [node, path];
  else if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* texts(item, [...path, i]);
  } else if (isJsonObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (!key.startsWith("x-")) yield* texts(value, [...path, key]);
    }
  }
}
