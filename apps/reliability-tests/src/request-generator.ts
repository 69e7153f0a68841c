/**
 * Whole requests for an operation, derived from the spec: valid ones (every parameter and the
 * body drawn from their schemas) and invalid ones (exactly one part broken: a parameter, a
 * duplicated parameter, the body, or the body missing).
 */
import fc from "fast-check";
import { toJsonText } from "./json-text.js";
import { invalidParamText, validParamText } from "./param-strings.js";
import { assemble, type GeneratedRequest, type Parts } from "./request-parts.js";
import { validArbitrary } from "./schema-arbitrary.js";
import { invalidArbitrary } from "./schema-mutations.js";
import type { JsonSchema, OperationSpec, ParameterSpec } from "./spec.js";

export type { GeneratedRequest } from "./request-parts.js";

type Validate = (schema: JsonSchema, value: unknown) => string[];

const named = (p: ParameterSpec, header: boolean, doc: unknown) =>
  validParamText(p.schema, doc, header).map((v) => [p.name, v] as [string, string]);

const present = <T>(pairs: (T | null)[]): T[] => pairs.filter((pair): pair is T => pair !== null);

/**
 * Whether a parameter's values come from the server only: a paging cursor (`x-pagination`), which
 * no value drawn from its schema is. Valid requests leave it out; the cursor checks send real ones.
 */
export function serverIssued(op: OperationSpec, p: ParameterSpec): boolean {
  return p.in === "query" && p.name === op.pagination?.cursorParameter;
}

/** Parts of `op` that honour every schema: required parameters always, optional ones maybe. */
export function validParts(op: OperationSpec, doc: unknown): fc.Arbitrary<Parts> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const path = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, validParamText(p.schema, doc)])),
  ) as fc.Arbitrary<Record<string, string>>;
  const pairs = (where: "query" | "header") =>
    fc
      .tuple(
        ...op.parameters
          .filter((p) => p.in === where && !serverIssued(op, p))
          .map((p) =>
            p.required
              ? named(p, where === "header", doc)
              : fc.option(named(p, where === "header", doc)),
          ),
      )
      .map(present);
  const body = op.requestBody
    ? validArbitrary(op.requestBody.schema, doc).map((value) => ({
        text: toJsonText(value),
        value,
      }))
    : fc.constant(null);
  return fc.record({
    path,
    query: pairs("query"),
    headers: pairs("header").map((list) => Object.fromEntries(list)),
    body,
  });
}

/** Requests that honour every schema of `op`. */
export function validRequest(op: OperationSpec, doc: unknown): fc.Arbitrary<GeneratedRequest> {
  return validParts(op, doc).map((parts) => assemble(op, parts));
}

/** Requests breaking one parameter of `op`: a bad text, or a query parameter sent twice. */
function parameterBreakers(op: OperationSpec, doc: unknown, validate: Validate) {
  const breakers: fc.Arbitrary<GeneratedRequest>[] = [];
  for (const p of op.parameters) {
    if (p.in === "cookie") continue;
    const bad = invalidParamText(p.schema, doc, validate, p.in === "header");
    if (bad) {
      breakers.push(
        fc.tuple(validParts(op, doc), bad).map(([parts, text]) => {
          if (p.in === "path") parts.path[p.name] = text;
          else if (p.in === "header") parts.headers[p.name] = text;
          else parts.query = [...parts.query.filter(([k]) => k !== p.name), [p.name, text]];
          return assemble(op, parts, `${p.in} ${p.name}=${JSON.stringify(text)}`);
        }),
      );
    }
    if (p.in === "query") {
      // A scalar parameter sent twice is ambiguous: the contract defines one value, not a list.
      const twice = fc.tuple(validParamText(p.schema, doc), validParamText(p.schema, doc));
      breakers.push(
        fc.tuple(validParts(op, doc), twice).map(([parts, [a, b]]) => {
          parts.query = [...parts.query.filter(([k]) => k !== p.name), [p.name, a], [p.name, b]];
          return assemble(op, parts, `query ${p.name} duplicated`);
        }),
      );
    }
  }
  return breakers;
}

/** Requests with exactly one part of `op` broken; null when the operation takes no input. */
export function invalidRequest(
  op: OperationSpec,
  doc: unknown,
  validate: Validate,
): fc.Arbitrary<GeneratedRequest> | null {
  const breakers = parameterBreakers(op, doc, validate);
  if (op.requestBody) {
    const bad = invalidArbitrary(op.requestBody.schema, doc);
    if (bad) {
      breakers.push(
        fc.tuple(validParts(op, doc), bad).map(([parts, value]) => {
          const text = toJsonText(value);
          return assemble(op, { ...parts, body: { text, value } }, `body ${text.slice(0, 120)}`);
        }),
      );
    }
    if (op.requestBody.required) {
      breakers.push(
        validParts(op, doc).map((parts) => {
          const request = assemble(op, { ...parts, body: null }, "body missing");
          request.headers["content-type"] = "application/json";
          return request;
        }),
      );
    }
  }
  return breakers.length > 0 ? fc.oneof(...breakers) : null;
}
