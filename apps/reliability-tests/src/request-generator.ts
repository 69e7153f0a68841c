/**
 * Whole requests for an operation, derived from the spec: valid ones (every parameter and the
 * body drawn from their schemas) and invalid ones (exactly one part broken: a parameter, a
 * duplicated parameter, the body, or the body missing).
 */
import fc from "fast-check";
import { toJsonText } from "./json-text.js";
import { invalidParamText, validParamText } from "./param-strings.js";
import { validArbitrary } from "./schema-arbitrary.js";
import { invalidArbitrary } from "./schema-mutations.js";
import type { JsonSchema, OperationSpec } from "./spec.js";

/** A request ready to send (path relative to the `/v1` base). */
export interface GeneratedRequest {
  method: string;
  /** Path with parameters substituted and encoded, plus the query string. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** Which part was broken, for failure messages; "" for valid requests. */
  broken: string;
  /** The body as sent, parsed back, for valid creates (what the 201 must echo). */
  sentBody?: unknown;
}

type Validate = (schema: JsonSchema, value: unknown) => string[];

interface Parts {
  path: Record<string, string>;
  query: [string, string][];
  body: { text: string; value: unknown } | null;
}

function assemble(op: OperationSpec, parts: Parts, broken: string): GeneratedRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(parts.path[name] ?? ""),
  );
  const query = parts.query
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  const request: GeneratedRequest = {
    method: op.method,
    target: query ? `${path}?${query}` : path,
    headers: {},
    broken,
  };
  if (parts.body) {
    request.headers["content-type"] = "application/json";
    request.body = parts.body.text;
    if (!broken) request.sentBody = parts.body.value;
  }
  return request;
}

function validParts(op: OperationSpec, doc: unknown): fc.Arbitrary<Parts> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const path = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, validParamText(p.schema, doc)])),
  ) as fc.Arbitrary<Record<string, string>>;
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        p.required
          ? validParamText(p.schema, doc).map((v) => [p.name, v] as [string, string])
          : fc.option(validParamText(p.schema, doc).map((v) => [p.name, v] as [string, string])),
      ),
    )
    .map((pairs) => pairs.filter((pair): pair is [string, string] => pair !== null));
  const body = op.requestBody
    ? validArbitrary(op.requestBody.schema, doc).map((value) => ({
        text: toJsonText(value),
        value,
      }))
    : fc.constant(null);
  return fc.record({ path, query, body });
}

/** Requests that honour every schema of `op`. */
export function validRequest(op: OperationSpec, doc: unknown): fc.Arbitrary<GeneratedRequest> {
  return validParts(op, doc).map((parts) => assemble(op, parts, ""));
}

/** Requests with exactly one part of `op` broken; null when the operation takes no input. */
export function invalidRequest(
  op: OperationSpec,
  doc: unknown,
  validate: Validate,
): fc.Arbitrary<GeneratedRequest> | null {
  const breakers: fc.Arbitrary<GeneratedRequest>[] = [];
  for (const p of op.parameters) {
    if (p.in !== "path" && p.in !== "query") continue;
    const bad = invalidParamText(p.schema, doc, validate);
    breakers.push(
      fc.tuple(validParts(op, doc), bad).map(([parts, text]) => {
        if (p.in === "path") parts.path[p.name] = text;
        else parts.query = [...parts.query.filter(([k]) => k !== p.name), [p.name, text]];
        return assemble(op, parts, `${p.in} ${p.name}=${JSON.stringify(text)}`);
      }),
    );
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
