import { describe, expect, it } from "vitest";
import {
  component,
  enumOf,
  first,
  headerExample,
  headerExamples,
  operationAt,
  operations,
  requestExamples,
  responseExamples,
  spec,
} from "./spec.js";

describe("the spec fixture", () => {
  it("reads the bundled spec's operations, examples and headers through the spec module", () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const op of operations) {
      expect(operationAt(op.path, op.method.toLowerCase())).toBe(op);
      for (const status of op.statuses.filter((s) => s.startsWith("2"))) {
        const examples = responseExamples(op.path, op.method, status);
        expect(Object.keys(examples).length, `${op.operationId} ${status}`).toBeGreaterThan(0);
        expect(first(examples)).toBeDefined();
        const headers = headerExamples(op.path, op.method, status);
        for (const [name, value] of Object.entries(headers)) {
          expect(headerExample(op.path, op.method, status, name)).toBe(value);
        }
      }
      if (op.requestBody) expect(first(requestExamples(op.path, op.method))).toBeDefined();
    }
  });

  it("reads components and enums", () => {
    const schemas = Object.keys(spec.components?.schemas ?? {});
    expect(component("schemas", schemas[0] as string)).toBeTypeOf("object");
    const enums = schemas.filter((name) => Array.isArray(component("schemas", name).enum));
    expect(enums.length).toBeGreaterThan(0);
    expect(enumOf(enums[0] as string).length).toBeGreaterThan(0);
  });

  it("names what the spec lacks instead of answering undefined", () => {
    const [op] = operations;
    expect(() => operationAt("/no-such-path", "get")).toThrow("the spec has no GET /no-such-path");
    expect(() => responseExamples(op?.path ?? "", op?.method ?? "", "299")).toThrow(
      "documents no 299",
    );
    expect(() => component("schemas", "NoSuchSchema")).toThrow(
      "the spec has no components.schemas.NoSuchSchema",
    );
    expect(() => first({})).toThrow("no examples");
  });
});
