/**
 * Edits of the contract for the planted-fault suite: the checker reads the edited contract while
 * the server serves the real one (or the edited one, to show a check passes when the server does
 * what the edit says). Each finds its target in the spec rather than naming it.
 */
import {
  type OpenApiDocument as ContractDocument,
  deref,
  HTTP_METHODS,
} from "@animal-store/openapi";
import type { OpenApiDocument } from "./spec.js";

type Json = Record<string, unknown>;

function operations(doc: OpenApiDocument): { path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m] !== undefined).map((method) => ({
      path,
      method,
      op: item[method] as Json,
    })),
  );
}

/**
 * The contract with the first integer query parameter that has `keyword` (minimum or maximum)
 * moved to `factor` times its bound, inline in its operation.
 */
export function withBound(doc: OpenApiDocument, keyword: "minimum" | "maximum", factor: number) {
  const copy = structuredClone(doc);
  const spec = copy as unknown as ContractDocument;
  for (const { op } of operations(copy)) {
    const parameters = (op.parameters as unknown[] | undefined) ?? [];
    for (const [i, raw] of parameters.entries()) {
      const parameter = deref<Json>(spec, raw);
      const schema = deref<Json>(spec, parameter.schema);
      if (
        parameter.in !== "query" ||
        schema.type !== "integer" ||
        typeof schema[keyword] !== "number"
      )
        continue;
      const original = schema[keyword] as number;
      const bound = Math.floor(original * factor);
      parameters[i] = {
        ...parameter,
        schema: { ...schema, [keyword]: bound },
        examples: undefined,
      };
      return {
        doc: copy,
        operationId: String(op.operationId),
        name: String(parameter.name),
        original,
        bound,
      };
    }
  }
  throw new Error(`the contract has no integer query parameter with a ${keyword}`);
}

/** The contract with a required header parameter added to `operationId`. */
export function withRequiredHeader(doc: OpenApiDocument, operationId: string): OpenApiDocument {
  const copy = structuredClone(doc);
  const found = operations(copy).find(({ op }) => op.operationId === operationId);
  if (!found) throw new Error(`the contract has no operation ${operationId}`);
  found.op.parameters = [
    ...((found.op.parameters as unknown[] | undefined) ?? []),
    {
      name: "X-Planted-Tenant",
      in: "header",
      required: true,
      description: "A header the planted contract requires.",
      schema: { type: "string", minLength: 1, maxLength: 32 },
      example: "tenant-1",
    },
  ];
  return copy;
}
