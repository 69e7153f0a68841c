/**
 * Checks a live response against the contract: the status is documented for the operation, the
 * body is JSON that validates against the documented schema, and the documented required headers
 * are present and valid. OpenAPI 3.1 schemas are JSON Schema 2020-12, hence Ajv's 2020 build.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { OpenApiDocument, OperationSpec, ResponseSpec } from "./spec.js";

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** What the checker needs of a response. */
export interface ObservedResponse {
  status: number;
  headers: Headers;
  bodyText: string;
}

const SPEC_ID = "urn:animal-store:openapi";

/** Builds a checker bound to one spec document. */
export function createSpecValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: SPEC_ID, components: doc.components });
  const cache = new Map<unknown, ReturnType<typeof ajv.compile>>();

  /** Validates a value against a schema from the spec; returns Ajv's messages (empty when valid). */
  function validate(schema: object, value: unknown): string[] {
    let fn = cache.get(schema);
    if (!fn) {
      fn = ajv.compile({ $id: `${SPEC_ID}/inline/${cache.size}`, ...wrapRefs(schema) });
      cache.set(schema, fn);
    }
    return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  }

  /** Everything wrong with `response` for `op` (empty array when it honours the contract). */
  function checkResponse(op: OperationSpec, response: ObservedResponse): string[] {
    const spec: ResponseSpec | undefined =
      op.responses[String(response.status)] ??
      op.responses[`${String(response.status)[0]}XX`] ??
      op.responses.default;
    if (!spec) return [`status ${response.status} is not documented for ${op.operationId}`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(spec.headers)) {
      const raw = response.headers.get(name);
      if (raw === null) {
        if (header.required) problems.push(`header ${name} is missing`);
        continue;
      }
      const value = header.schema.type === "integer" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      for (const e of validate(header.schema, value)) problems.push(`header ${name}: ${e}`);
    }
    if (spec.bodySchema) {
      const type = response.headers.get("content-type") ?? "";
      if (!/^application\/json\b/i.test(type)) problems.push(`content-type is "${type}"`);
      let body: unknown;
      try {
        body = JSON.parse(response.bodyText);
      } catch {
        return [...problems, `body is not JSON: ${response.bodyText.slice(0, 80)}`];
      }
      for (const e of validate(spec.bodySchema, body)) problems.push(`body${e}`);
      const status = (body as { status?: unknown } | null)?.status;
      if (response.status >= 400 && status !== response.status) {
        problems.push(`Error.status ${String(status)} differs from HTTP ${response.status}`);
      }
    }
    return problems;
  }

  return { validate, checkResponse };
}

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
