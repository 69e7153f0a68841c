/**
 * The operation list of a contract: every (path, method) with an operationId, and what the
 * toolchain reads off each operation (security in force, documented statuses, body, deprecation).
 *
 * @see https://spec.openapis.org/oas/v3.1.0#paths-object
 * @see https://spec.openapis.org/oas/v3.1.0#operation-object
 */
import {
  deref,
  HTTP_METHODS,
  type HttpMethod,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
  type SecurityRequirement,
} from "./document.js";

/** One operation of the contract. */
export interface SpecOperation {
  operationId: string;
  /** Upper case, as on the wire: `GET`. */
  method: Uppercase<HttpMethod>;
  /** The path template relative to the servers' base path, e.g. `/pets/{petId}`. */
  path: string;
  /** The operation object itself (unresolved `$ref`s inside). */
  operation: JsonObject;
  /** The operation's parameters, path-level ones included, `$ref`s resolved. */
  parameters: JsonObject[];
  /** The request body object, `$ref` resolved, when the operation declares one. */
  requestBody: JsonObject | undefined;
  /**
   * The security requirements in force: the operation's own, else the document's. An empty list,
   * or one with an empty requirement (`{}`), means a call needs no credential.
   */
  security: SecurityRequirement[];
  deprecated: boolean;
  /** Documented response statuses as written (`"200"`, `"4XX"`, `"default"`). */
  statuses: string[];
  /**
   * The media types its success (`2XX`) responses declare, in the contract's order, each once.
   * An operation that declares any type other than `application/json` among them negotiates
   * its answers by `Accept` (`negotiatesContent`).
   */
  successMediaTypes: string[];
}

/**
 * Whether `operation`'s answers are negotiated by `Accept` (406 when none of its success types is
 * acceptable): it declares a success type other than `application/json`. An operation that only
 * answers JSON disregards `Accept`, as RFC 9110 section 12.5.1 allows, so a JSON-only API answers
 * as it always did whatever its clients send.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.1
 */
export function negotiatesContent(operation: Pick<SpecOperation, "successMediaTypes">): boolean {
  return operation.successMediaTypes.some((type) => type !== "application/json");
}

/** The media types the 2XX responses of `operation` declare, `$ref`s resolved. */
function successTypes(spec: OpenApiDocument, operation: JsonObject): string[] {
  const responses = isJsonObject(operation.responses) ? operation.responses : {};
  const types = new Set<string>();
  for (const [status, raw] of Object.entries(responses)) {
    if (!/^2(\d\d|XX)$/i.test(status)) continue;
    const response = deref<JsonObject>(spec, raw);
    if (isJsonObject(response.content))
      for (const type of Object.keys(response.content)) types.add(type);
  }
  return [...types];
}

/**
 * Whether calls of `operation` may be made without any credential: its requirements are none,
 * or one of them is empty (`{}`, "no credential" as one of the alternatives).
 *
 * @see https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
export function allowsAnonymous(operation: Pick<SpecOperation, "security">): boolean {
  return (
    operation.security.length === 0 ||
    operation.security.some((requirement) => Object.keys(requirement).length === 0)
  );
}

/** Every operation of `spec`, in path order then HTTP_METHODS order; throws on a missing operationId. */
export function specOperations(spec: OpenApiDocument): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, rawItem] of Object.entries(spec.paths ?? {})) {
    const item = deref(spec, rawItem);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const operationId = operation.operationId;
      if (typeof operationId !== "string" || operationId === "") {
        throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      }
      operations.push({
        operationId,
        method: method.toUpperCase() as Uppercase<HttpMethod>,
        path,
        operation,
        parameters: mergeParameters(spec, shared, operation.parameters),
        requestBody:
          operation.requestBody === undefined
            ? undefined
            : deref<JsonObject>(spec, operation.requestBody),
        security: (operation.security ?? spec.security ?? []) as SecurityRequirement[],
        deprecated: operation.deprecated === true,
        statuses: Object.keys(isJsonObject(operation.responses) ? operation.responses : {}),
        successMediaTypes: successTypes(spec, operation),
      });
    }
  }
  return operations;
}

/** Operation parameters override path-level ones with the same name and location. */
function mergeParameters(spec: OpenApiDocument, shared: unknown[], own: unknown): JsonObject[] {
  const byKey = new Map<string, JsonObject>();
  for (const raw of [...shared, ...(Array.isArray(own) ? own : [])]) {
    const parameter = deref<JsonObject>(spec, raw);
    byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
  }
  return [...byKey.values()];
}

/**
 * The `default` the contract gives `operation`'s parameter `name` (its schema's); undefined when
 * it gives none.
 */
export function parameterDefault(
  spec: OpenApiDocument,
  operation: Pick<SpecOperation, "parameters">,
  name: string,
): unknown {
  const parameter = operation.parameters.find((p) => p.name === name);
  return deref<JsonObject | undefined>(spec, parameter?.schema)?.default;
}

/** The operation with this id; throws naming it when the contract has none. */
export function operationById(operations: SpecOperation[], operationId: string): SpecOperation {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`the spec has no operation ${operationId}`);
  return found;
}
