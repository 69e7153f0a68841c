/**
 * The stored resources a contract's examples show, for a mock that keeps data. A resource is
 * stored when an operation creates it: a `201` answering with a JSON object schema. Every example
 * of that schema in a success answer of any operation (the created one, one read by id, each item
 * of a list) is one the service could hold. They are told apart by the property the service
 * assigns: required in the resource, absent from the body that creates it (an `id`).
 *
 * @see https://spec.openapis.org/oas/v3.1.0#media-type-object
 */
import { deref, isJsonObject, type JsonObject, type OpenApiDocument } from "./document.js";
import { documentedResponses } from "./responses.js";
import { type SpecOperation, specOperations } from "./spec-operations.js";

/** A stored resource and the distinct examples of it. */
export interface StoredResource {
  /** Where its schema lives, e.g. `#/components/schemas/Pet`, or the operation that creates it. */
  name: string;
  /** The property the service assigns, which tells two examples apart. */
  idProperty: string;
  /** Its examples, one per value of `idProperty`, the first seen of each, in spec order. */
  examples: JsonObject[];
}

const JSON_MEDIA = "application/json";

/** The JSON schema of a media type map, `$ref` resolved; undefined without one. */
function jsonSchema(spec: OpenApiDocument, content: unknown): JsonObject | undefined {
  const media = isJsonObject(content) ? content[JSON_MEDIA] : undefined;
  return isJsonObject(media) ? deref<JsonObject>(spec, media.schema) : undefined;
}

/** Every example value of the JSON media type of `content` (named examples and `example`). */
function exampleValues(spec: OpenApiDocument, content: Record<string, JsonObject>): unknown[] {
  const media = content[JSON_MEDIA];
  if (!media) return [];
  const named = isJsonObject(media.examples) ? Object.values(media.examples) : [];
  const values = named.map((example) => deref<{ value?: unknown }>(spec, example).value);
  return media.example === undefined ? values : [...values, media.example];
}

/** The property `created` requires that the body creating it does not have. */
function assignedProperty(spec: OpenApiDocument, op: SpecOperation, created: JsonObject): string {
  const body = jsonSchema(spec, op.requestBody?.content);
  const sent = isJsonObject(body?.properties) ? body.properties : {};
  const required = Array.isArray(created.required) ? created.required.map(String) : [];
  const assigned = required.filter((name) => !Object.hasOwn(sent, name));
  if (assigned.length !== 1) {
    throw new Error(
      `${op.operationId}: its 201 should require one property its request body lacks (the one the service assigns); found ${assigned.length}`,
    );
  }
  return assigned[0] as string;
}

/** The schema name a `$ref` gives, else the creating operation's. */
function nameOf(op: SpecOperation, spec: OpenApiDocument): string {
  const created = documentedResponses(spec, op).find((r) => r.status === "201");
  const schema = created?.content[JSON_MEDIA]?.schema;
  return isJsonObject(schema) && typeof schema.$ref === "string"
    ? schema.$ref
    : `${op.operationId} 201`;
}

/** Every stored resource of `spec` with its distinct examples; none when nothing is created. */
export function storedResources(spec: OpenApiDocument): StoredResource[] {
  const operations = specOperations(spec);
  const resources = new Map<JsonObject, StoredResource>();
  for (const op of operations) {
    const created = documentedResponses(spec, op).find((r) => r.status === "201");
    const schema = jsonSchema(spec, created?.content);
    if (schema === undefined || schema.type !== "object" || resources.has(schema)) continue;
    const idProperty = assignedProperty(spec, op, schema);
    resources.set(schema, { name: nameOf(op, spec), idProperty, examples: [] });
  }
  const seen = new Map<StoredResource, Set<unknown>>();
  const add = (resource: StoredResource, value: unknown) => {
    if (!isJsonObject(value) || value[resource.idProperty] === undefined) return;
    const ids = seen.get(resource) ?? new Set();
    seen.set(resource, ids);
    if (ids.has(value[resource.idProperty])) return;
    ids.add(value[resource.idProperty]);
    resource.examples.push(value);
  };
  for (const op of operations) {
    for (const response of documentedResponses(spec, op)) {
      if (!/^2\d\d$/.test(response.status)) continue;
      const schema = jsonSchema(spec, response.content);
      const one = schema && resources.get(schema);
      const items = schema?.type === "array" ? deref<JsonObject>(spec, schema.items) : undefined;
      const many = items && resources.get(items);
      for (const value of exampleValues(spec, response.content)) {
        if (one) add(one, value);
        else if (many && Array.isArray(value)) for (const item of value) add(many, item);
      }
    }
  }
  return [...resources.values()];
}
