import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "./document.js";
import { loadBundledSpec } from "./load.js";
import { allowsAnonymous, operationById, specOperations } from "./spec-operations.js";

function doc(paths: Record<string, unknown>, security?: unknown): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths,
    ...(security === undefined ? {} : { security }),
    components: { parameters: { Id: { name: "id", in: "path", required: true } } },
  } as OpenApiDocument;
}

describe("specOperations", () => {
  it("lists every operation of the bundled spec once, with its method and path", () => {
    const { spec } = loadBundledSpec();
    const listed = specOperations(spec);
    const expected = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => typeof (item[key] as { operationId?: unknown })?.operationId === "string")
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.map((op) => `${op.method} ${op.path}`).sort()).toEqual(expected.sort());
    expect(new Set(listed.map((op) => op.operationId)).size).toBe(listed.length);
  });

  it("takes the document's security unless the operation has its own, [] included", () => {
    const ops = specOperations(
      doc(
        {
          "/a": {
            get: { operationId: "inherits" },
            put: { operationId: "open", security: [] },
            post: { operationId: "optional", security: [{ bearer: [] }, {}] },
          },
        },
        [{ bearer: [] }],
      ),
    );
    expect(operationById(ops, "inherits").security).toEqual([{ bearer: [] }]);
    expect(allowsAnonymous(operationById(ops, "inherits"))).toBe(false);
    expect(allowsAnonymous(operationById(ops, "open"))).toBe(true);
    expect(allowsAnonymous(operationById(ops, "optional"))).toBe(true);
  });

  it("merges path-level parameters, the operation's own winning, refs resolved", () => {
    const [op] = specOperations(
      doc({
        "/a/{id}": {
          parameters: [{ $ref: "#/components/parameters/Id" }, { name: "q", in: "query" }],
          get: {
            operationId: "get",
            parameters: [{ name: "q", in: "query", required: true }],
            requestBody: { content: {} },
            deprecated: true,
            responses: { "200": {}, "4XX": {} },
          },
        },
      }),
    );
    expect(op?.parameters).toEqual([
      { name: "id", in: "path", required: true },
      { name: "q", in: "query", required: true },
    ]);
    expect(op?.requestBody).toEqual({ content: {} });
    expect(op?.deprecated).toBe(true);
    expect(op?.statuses).toEqual(["200", "4XX"]);
  });

  it("refuses an operation without operationId, naming it", () => {
    expect(() => specOperations(doc({ "/a": { patch: {} } }))).toThrow(
      "PATCH /a has no operationId",
    );
    expect(() => operationById([], "nope")).toThrow("the spec has no operation nope");
  });
});
