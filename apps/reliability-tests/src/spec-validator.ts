/**
 * Checks a live response against the contract: the status is documented for the operation, the
 * documented headers are there when required and valid against their schemas, the content type
 * is one the response documents and the body validates against its schema. OpenAPI 3.1 schemas
 * are JSON Schema 2020-12, hence Ajv's 2020 build.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema, OpenApiDocument, OperationSpec, ResponseSpec } from "./spec.js";

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** What the checker needs of a response. */
export interface ObservedResponse {
  status: number;
  headers: Headers;
  bodyText: string;
}

/** One keyword a value breaks, at a JSON Pointer inside the value ("" for the value itself). */
export interface Violation {
  keyword: string;
  pointer: string;
}

const SPEC_ID = "urn:animal-store:openapi";

/** The documented status that answers `status`: the exact code, its class, else `default`. */
export function documentedKey(op: OperationSpec, status: number): string | undefined {
  const code = String(status);
  return [code, `${code[0]}XX`, "default"].find((k) => op.responses[k] !== undefined);
}

/** The documented response that answers `status`, if any. */
export function documentedFor(op: OperationSpec, status: number): ResponseSpec | undefined {
  const k = documentedKey(op, status);
  return k === undefined ? undefined : op.responses[k];
}

/** Builds a checker bound to one spec document. */
export function createSpecValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: SPEC_ID, components: doc.components });
  const cache = new Map<unknown, ReturnType<typeof ajv.compile>>();

  function compiled(schema: object) {
    let fn = cache.get(schema);
    if (!fn) {
      fn = ajv.compile({ $id: `${SPEC_ID}/inline/${cache.size}`, ...wrapRefs(schema) });
      cache.set(schema, fn);
    }
    return fn;
  }

  /** Validates a value against a schema from the spec; returns Ajv's messages (empty when valid). */
  function validate(schema: object, value: unknown): string[] {
    const fn = compiled(schema);
    return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  }

  /** The keywords `value` breaks and where (empty when valid). */
  function violations(schema: object, value: unknown): Violation[] {
    const fn = compiled(schema);
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => ({ keyword: e.keyword, pointer: e.instancePath }));
  }

  /** Problems of the documented headers of `spec` in `response`. */
  function headerProblems(spec: ResponseSpec["headers"], response: ObservedResponse): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(spec)) {
      const raw = response.headers.get(name);
      if (raw === null) {
        if (header.required) problems.push(`header ${name} is missing`);
        continue;
      }
      const value = header.schema.type === "integer" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      for (const e of validate(header.schema, value)) problems.push(`header ${name}: ${e}`);
    }
    return problems;
  }

  /** Problems of a body against `schema` and the documented media types. */
  function bodyProblems(
    schema: JsonSchema,
    mediaTypes: string[],
    response: ObservedResponse,
  ): string[] {
    const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (!mediaTypes.some((m) => m.toLowerCase() === type)) {
      return [`content-type "${type}" is not one of ${mediaTypes.join(", ")}`];
    }
    let body: unknown;
    try {
      body = JSON.parse(response.bodyText);
    } catch {
      return [`body is not JSON: ${response.bodyText.slice(0, 80)}`];
    }
    const problems = validate(schema, body).map((e) => `body${e}`);
    const status = (body as { status?: unknown } | null)?.status;
    if (response.status >= 400 && status !== response.status) {
      problems.push(`Error.status ${String(status)} differs from HTTP ${response.status}`);
    }
    return problems;
  }

  /**
   * Everything wrong with `response` for `op` (empty when it honours the contract). A HEAD
   * answer is judged by the GET's documented response, and must have no body.
   */
  function checkResponse(op: OperationSpec, response: ObservedResponse, method = op.method) {
    const spec = documentedFor(op, response.status);
    if (!spec) return [`status ${response.status} is not documented for ${op.operationId}`];
    const problems = headerProblems(spec.headers, response);
    if (method === "HEAD") {
      if (response.bodyText !== "") problems.push("a HEAD answer has a body");
    } else if (spec.bodySchema) {
      problems.push(...bodyProblems(spec.bodySchema, spec.mediaTypes, response));
    } else if (spec.mediaTypes.length === 0 && response.bodyText !== "") {
      problems.push(`status ${response.status} documents no content, but a body came`);
    }
    return problems;
  }

  return { validate, violations, checkResponse, headerProblems, bodyProblems };
}

/** What `createSpecValidator` returns. */
export type SpecValidator = ReturnType<typeof createSpecValidator>;

/** Rewrites local refs (`#/components/...`) to point into the registered spec document. */
function wrapRefs(schema: object): object {
  return JSON.parse(
    JSON.stringify(schema, (key, value) =>
      key === "$ref" && typeof value === "string" && value.startsWith("#/")
        ? `${SPEC_ID}${value}`
        : value,
    ),
  ) as object;
}
