import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyParamText } from "./param-strings.js";
import { type GeneratedRequest, invalidRequest, validRequest } from "./request-generator.js";
import { listOperations, loadSpec, type OperationSpec } from "./spec.js";
import { createSpecValidator } from "./spec-validator.js";

const doc = loadSpec();
const { validate } = createSpecValidator(doc);

/** Problems of a request judged by the spec alone (no server): empty when it is valid. */
function problems(op: OperationSpec, request: GeneratedRequest): string[] {
  const url = new URL(request.target, "http://x");
  const out: string[] = [];
  const template = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "([^/]*)")}$`);
  const values = template.exec(url.pathname)?.slice(1) ?? [];
  op.parameters
    .filter((p) => p.in === "path")
    .forEach((p, i) => {
      const text = decodeURIComponent(values[i] ?? "");
      if (classifyParamText(p.schema, doc, text, validate) !== "valid") out.push(`path ${p.name}`);
    });
  for (const p of op.parameters.filter((q) => q.in === "query")) {
    const texts = url.searchParams.getAll(p.name);
    if (texts.length > 1) out.push(`query ${p.name} duplicated`);
    for (const text of texts) {
      if (classifyParamText(p.schema, doc, text, validate) !== "valid") out.push(`query ${p.name}`);
    }
  }
  if (op.requestBody) {
    if (request.body === undefined) out.push("body missing");
    else if (validate(op.requestBody.schema, JSON.parse(request.body)).length > 0) out.push("body");
  }
  return out;
}

describe("request generator", () => {
  for (const op of listOperations(doc)) {
    it(`${op.operationId}: valid requests are valid by the spec`, () => {
      fc.assert(
        fc.property(validRequest(op, doc), (request) => {
          expect(request.method).toBe(op.method);
          expect(request.broken).toBe("");
          expect(problems(op, request)).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });

    it(`${op.operationId}: invalid requests break exactly what they say`, () => {
      const invalid = invalidRequest(op, doc, validate);
      // Null exactly for an operation that takes no input (nothing of its own to break).
      const takesInput = op.parameters.length > 0 || Boolean(op.requestBody);
      expect(invalid === null).toBe(!takesInput);
      if (!invalid) return;
      fc.assert(
        fc.property(invalid, (request) => {
          const found = problems(op, request);
          expect(found).toHaveLength(1);
          expect(request.broken.startsWith(found[0] ?? "?")).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  }
});
