import { describe, expect, it } from "vitest";
import { deref } from "./document.js";
import { exampleRequest, firstExample } from "./example-requests.js";
import { basePathOf } from "./extensions.js";
import { loadBundledSpec } from "./load.js";
import { pathTemplatePattern } from "./path-template.js";
import { type SpecOperation, specOperations } from "./spec-operations.js";

const { spec } = loadBundledSpec();
const basePath = basePathOf(spec);
const contract = { operations: specOperations(spec) };

describe("exampleRequest", () => {
  it("builds a request of every operation from its parameters' and body's first examples", () => {
    for (const op of contract.operations) {
      const request = exampleRequest(spec, basePath, op);
      expect(request.method).toBe(op.method);
      const url = new URL(request.path, "http://x");
      expect(pathTemplatePattern(op.path).pattern.test(url.pathname.slice(basePath.length))).toBe(
        true,
      );
      for (const parameter of op.parameters.filter((p) => p.in === "query")) {
        expect(url.searchParams.get(String(parameter.name))).toBe(
          String(firstExample(spec, parameter)),
        );
      }
      const media = op.requestBody?.content as Record<string, { examples: object }> | undefined;
      const bodyExample = media?.["application/json"]?.examples;
      if (bodyExample) {
        const first = deref<{ value: unknown }>(spec, Object.values(bodyExample)[0]).value;
        expect(JSON.parse(String(request.body))).toEqual(first);
        expect(request.headers["content-type"]).toBe("application/json");
      } else {
        expect(request.body).toBeUndefined();
      }
    }
  });

  it("names the parameter of an operation that gives it no example", () => {
    const op = contract.operations.find((o) => o.parameters.some((p) => p.in === "path"));
    if (!op) throw new Error("the contract has no path parameter");
    const bare: SpecOperation = {
      ...op,
      parameters: op.parameters.map((p) =>
        p.in === "path" ? { name: p.name, in: "path", required: true } : p,
      ),
    };
    const name = String(op.parameters.find((p) => p.in === "path")?.name);
    expect(() => exampleRequest(spec, basePath, bare)).toThrow(
      `${op.operationId}: parameter ${name} has no example`,
    );
  });
});

describe("firstExample", () => {
  it("takes named examples first, then example, then the schema's examples and default", () => {
    expect(firstExample(spec, { examples: { a: { value: 1 }, b: { value: 2 } } })).toBe(1);
    expect(firstExample(spec, { example: 3, schema: { default: 4 } })).toBe(3);
    expect(firstExample(spec, { schema: { examples: [5], default: 6 } })).toBe(5);
    expect(firstExample(spec, { schema: { default: 6 } })).toBe(6);
    expect(firstExample(spec, {})).toBeUndefined();
  });
});
