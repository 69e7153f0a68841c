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
  const components = { schemas: spec.components?.schemas };
  return build({ ...schema, components } as never);
}
