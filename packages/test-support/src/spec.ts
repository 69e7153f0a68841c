/**
 * The bundled contract for the suites, typed: read through @animal-store/openapi (never parsed
 * again as `any`), with the lookups the suites share. Each lookup throws a message naming what
 * the spec lacks, so a test that reads a missing part fails on that, not on `undefined`.
 */
import {
  type DocumentedResponse,
  deref,
  documentedResponses,
  isJsonObject,
  type JsonObject,
  loadBundledSpec,
  type OpenApiDocument,
  rateLimitPolicy,
  type SpecOperation,
  specOperations,
} from "@animal-store/openapi";

/** The bundled spec, `openapi/dist/openapi.json`. */
export const spec: OpenApiDocument = loadBundledSpec().spec;

/** Every operation of the spec, in the spec's order. */
export const operations: SpecOperation[] = specOperations(spec);

/** The contract's rate-limit policy: plans, the anonymous plan, the ban rule. */
export const policy = rateLimitPolicy(spec);

/** `node` with its `$ref`s followed, as a JSON object. */
export function resolve(node: unknown): JsonObject {
  const resolved = deref<unknown>(spec, node);
  if (!isJsonObject(resolved)) throw new Error(`not an object: ${JSON.stringify(node)}`);
  return resolved;
}

/** The operation at `method` (either case) `path`. */
export function operationAt(path: string, method: string): SpecOperation {
  const found = operations.find((op) => op.path === path && op.method === method.toUpperCase());
  if (!found) throw new Error(`the spec has no ${method.toUpperCase()} ${path}`);
  return found;
}

/** The documented response `status` (as written: "200", "4XX") of `method path`. */
export function responseAt(path: string, method: string, status: string): DocumentedResponse {
  const found = documentedResponses(spec, operationAt(path, method)).find(
    (response) => response.status === status,
  );
  if (!found) throw new Error(`${method.toUpperCase()} ${path} documents no ${status}`);
  return found;
}

/** The named examples of a media type object, by name, as their values. */
function exampleValues(media: JsonObject | undefined, where: string): Record<string, unknown> {
  if (!isJsonObject(media?.examples)) throw new Error(`${where} has no named examples`);
  return Object.fromEntries(
    Object.entries(media.examples).map(([name, example]) => [name, resolve(example).value]),
  );
}

/** The named examples of the JSON body of a documented response, by name. */
export function responseExamples(
  path: string,
  method: string,
  status: string,
): Record<string, unknown> {
  const where = `${method.toUpperCase()} ${path} ${status}`;
  return exampleValues(responseAt(path, method, status).content["application/json"], where);
}

/** The named examples of the JSON request body of `method path`, by name. */
export function requestExamples(path: string, method: string): Record<string, unknown> {
  const body = operationAt(path, method).requestBody;
  const media = isJsonObject(body?.content) ? body.content["application/json"] : undefined;
  return exampleValues(isJsonObject(media) ? media : undefined, `${method} ${path} request`);
}

/** The first of `examples` (Prism answers with it, the docs show it): the value, as `T`. */
export function first<T = unknown>(examples: Record<string, unknown>): T {
  const [value] = Object.values(examples);
  if (value === undefined) throw new Error("no examples");
  return value as T;
}

/** The `example` of a header a documented response declares, as sent on the wire. */
export function headerExample(path: string, method: string, status: string, name: string): string {
  responseAt(path, method, status);
  const responses = resolve(operationAt(path, method).operation.responses);
  const headers = resolve(responses[status]).headers;
  const header = isJsonObject(headers) ? headers[name] : undefined;
  if (header === undefined) {
    throw new Error(`${method.toUpperCase()} ${path} ${status} declares no header ${name}`);
  }
  return String(resolve(header).example);
}

/** The examples of every header a documented response declares, by header name. */
export function headerExamples(
  path: string,
  method: string,
  status: string,
): Record<string, string> {
  return Object.fromEntries(
    responseAt(path, method, status).headers.map(({ name }) => [
      name,
      headerExample(path, method, status, name),
    ]),
  );
}

/** A component of the spec (`schemas`, `parameters`, `headers`...) by kind and name, resolved. */
export function component(kind: string, name: string): JsonObject {
  const all = spec.components?.[kind];
  const found = isJsonObject(all) ? all[name] : undefined;
  if (found === undefined) throw new Error(`the spec has no components.${kind}.${name}`);
  return resolve(found);
}

/** The values of a string enum schema of the components, in spec order. */
export function enumOf(schemaName: string): string[] {
  const values = component("schemas", schemaName).enum;
  if (!Array.isArray(values)) throw new Error(`components.schemas.${schemaName} is no enum`);
  return values.map(String);
}
