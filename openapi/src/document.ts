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
