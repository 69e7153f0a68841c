/**
 * JSON serializers for the handlers' answers, compiled at start with fast-json-stringify from the
 * contract's response schemas (one per documented response). They write only the properties the
 * schema declares, in a code path built for that shape, and skip Express's res.json/res.send
 * work. Used when responses are not validated (production); with validation on, answers are
 * written with JSON.stringify after the validator has seen them.
 */
import {
  type DocumentedResponse,
  deref,
  type JsonObject,
  type OpenApiDocument,
} from "@animal-store/openapi";
import build from "fast-json-stringify";

/** Writes one body as JSON. */
export type Serializer = (body: unknown) => string;

/**
 * The serializer of `response`'s JSON schema (of its `mediaType`, `application/json` unless
 * said); undefined when it documents no schema there.
 */
export function compileSerializer(
  spec: OpenApiDocument,
  response: DocumentedResponse,
  mediaType = "application/json",
): Serializer | undefined {
  const schema = deref<JsonObject | undefined>(spec, response.content[mediaType]?.schema);
  if (schema === undefined) return undefined;
  // Schema $refs point into components; each serializer gets them as its root's definitions.
  const components = { schemas: withoutWriteOnly(spec.components?.schemas) };
  return build({ ...(withoutWriteOnly(schema) as JsonObject), components } as never);
}

/**
 * A response's view of a schema: every `writeOnly` property left out, and out of `required`
 * (inside `oneOf`, `anyOf`, `allOf` and components too), as the response validator sees it. So
 * the serializer writes what the development checker accepts: an answer without a writeOnly
 * property is written, and one with it is written without it.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#fixed-fields-20 (readOnly and writeOnly)
 */
export function withoutWriteOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutWriteOnly);
  if (typeof node !== "object" || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // Data, not schemas: kept as written.
    if (key === "const" || key === "enum" || key === "default" || key === "examples") {
      copy[key] = value;
      continue;
    }
    copy[key] = withoutWriteOnly(value);
  }
  const properties = copy.properties;
  if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
    const kept = Object.entries(properties).filter(
      ([, schema]) => (schema as { writeOnly?: unknown } | null)?.writeOnly !== true,
    );
    if (kept.length !== Object.keys(properties).length) {
      const names = new Set(kept.map(([name]) => name));
      copy.properties = Object.fromEntries(kept);
      if (Array.isArray(copy.required)) {
        copy.required = copy.required.filter((name) => names.has(name as string));
      }
    }
  }
  return copy;
}
