/**
 * JSON serializers for the handlers' answers, compiled at start-up with fast-json-stringify from
 * the contract's response schemas (one per operation and status). They write only the properties
 * the schema declares, in a code path built for that shape, and skip Express's res.json/res.send
 * work. Used when responses are not validated (production); with validation on, res.json stays so
 * the validator sees every body.
 */
import build from "fast-json-stringify";
import { type ApiSpec, HTTP_METHODS } from "../spec.js";

/** Serializers keyed by `${operationId} ${status}`. */
export type ResponseSerializers = ReadonlyMap<string, (body: unknown) => string>;

type Json = Record<string, unknown>;

/** Follows a local `$ref` ("#/components/responses/X") to the object it names. */
function deref(spec: ApiSpec, value: unknown): Json | undefined {
  const ref = (value as Json | undefined)?.$ref;
  if (typeof ref !== "string") return value as Json | undefined;
  let at: unknown = spec;
  for (const part of ref.replace(/^#\//, "").split("/")) at = (at as Json | undefined)?.[part];
  return at as Json | undefined;
}

/** The key a serializer is stored under. */
export function serializerKey(operationId: string, status: number | string): string {
  return `${operationId} ${status}`;
}

/** Compiles a serializer for every JSON response schema of every operation of `spec`. */
export function compileResponseSerializers(spec: ApiSpec): ResponseSerializers {
  const serializers = new Map<string, (body: unknown) => string>();
  // Schema $refs point into components; each serializer gets them as its root's definitions.
  const components = { schemas: (spec.components as Json).schemas };
  for (const item of Object.values(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as { operationId?: string; responses?: Json } | undefined;
      if (!operation?.operationId) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = deref(spec, response)?.content as Json | undefined;
        const schema = (content?.["application/json"] as Json | undefined)?.schema;
        if (schema === undefined) continue;
        const serialize = build({ ...(schema as Json), components } as never);
        serializers.set(serializerKey(operation.operationId, status), serialize);
      }
    }
  }
  return serializers;
}
