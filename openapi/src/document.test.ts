import { describe, expect, it } from "vitest";
import { deref, HTTP_METHODS, type OpenApiDocument } from "./document.js";

const doc = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: {},
  components: {
    schemas: { "a/b": { $ref: "#/components/schemas/c~0d" }, "c~d": { type: "string" } },
    responses: { Loop: { $ref: "#/components/responses/Loop" } },
  },
} as OpenApiDocument;

describe("deref", () => {
  it("follows a chain of local refs, decoding JSON Pointer escapes", () => {
    expect(deref(doc, { $ref: "#/components/schemas/a~1b" })).toEqual({ type: "string" });
  });

  it("returns a node without $ref as it is", () => {
    const node = { type: "integer" };
    expect(deref(doc, node)).toBe(node);
  });

  it("names a ref that points at nothing, a circular ref and a remote ref", () => {
    expect(() => deref(doc, { $ref: "#/components/schemas/Nope" })).toThrow(
      "$ref #/components/schemas/Nope points at nothing",
    );
    expect(() => deref(doc, { $ref: "#/components/responses/Loop" })).toThrow(/circular/);
    expect(() => deref(doc, { $ref: "other.yaml#/x" })).toThrow(/only local/);
  });
});

describe("HTTP_METHODS", () => {
  it("holds the eight methods a path item can carry, each once", () => {
    expect(new Set(HTTP_METHODS).size).toBe(8);
    expect([...HTTP_METHODS].sort()).toEqual(
      ["delete", "get", "head", "options", "patch", "post", "put", "trace"].sort(),
    );
  });
});
