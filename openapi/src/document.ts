/**
 * The shape of a bundled OpenAPI 3.1 document as the toolchain reads it, and the two primitives
 * every reader needs: the one list of HTTP methods and local `$ref` resolution.
 */

/** A JSON object of the document, read dynamically. */
export type JsonObject = Record<string, unknown>;

/** An OpenAPI security requirement: scheme name → scopes. */
export type SecurityRequirement = Record<string, string[]>;

/** The parts of a bundled OpenAPI document the toolchain reads. */
export interface OpenApiDocument extends JsonObject {
  openapi: string;
  info: JsonObject & { title: string; version: string };
  servers?: Array<{ url: string; variables?: Record<string, { default: string }> }>;
  paths: Record<string, JsonObject>;
  components?: JsonObject;
  security?: SecurityRequirement[];
}

/** Every HTTP method an OpenAPI path item can hold, lower case, in the order `Allow` lists them. */
export const HTTP_METHODS = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
] as const;

/** One of HTTP_METHODS. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Follows local `$ref`s (`#/components/...`, JSON Pointer escapes decoded) until a node without
 * one; throws on a reference that points nowhere or in a circle, naming it.
 */
export function deref<T = JsonObject>(spec: OpenApiDocument, node: unknown): T {
  let current = node;
  const seen = new Set<string>();
  while (isJsonObject(current) && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported (got ${ref})`);
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    let at: unknown = spec;
    for (const raw of ref.slice(2).split("/")) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      at = isJsonObject(at) || Array.isArray(at) ? (at as JsonObject)[key] : undefined;
    }
    if (at === undefined) throw new Error(`$ref ${ref} points at nothing`);
    current = at;
  }
  return current as T;
}

/**
 * Members whose value maps names the contract chooses to objects: a key there is a name (a
 * property `x-trace`, a header `x-request-id`), never a specification extension.
 */
const NAME_MAPS = new Set([
  "paths",
  "webhooks",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "examples",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "content",
  "encoding",
  "variables",
  "scopes",
  "mapping",
]);

/** Members whose value is data, not OpenAPI objects: copied as they are. */
const LITERALS = new Set(["const", "enum", "default", "example", "value"]);

/**
 * A copy of `node` without its specification extensions (`x-` members of the objects OpenAPI
 * defines; names in a map, such as a property called `x-trace`, are kept), except those `keep`
 * matches (a validator's own, such as express-openapi-validator's `x-eov-*`). What reads the
 * contract for validation gets this copy, so nothing inside another extension (a `$ref` to a
 * Markdown file, say) is ever resolved.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#specification-extensions
 */
export function withoutExtensions<T>(node: T, keep?: RegExp, inNameMap = false): T {
  if (Array.isArray(node)) return node.map((item) => withoutExtensions(item, keep)) as T;
  if (!isJsonObject(node)) return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inNameMap && key.startsWith("x-") && !keep?.test(key)) continue;
    copy[key] =
      !inNameMap && LITERALS.has(key)
        ? value
        : withoutExtensions(value, keep, !inNameMap && NAME_MAPS.has(key));
  }
  return copy as T;
}
