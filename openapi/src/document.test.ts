import { describe, expect, it } from "vitest";
import { deref, HTTP_METHODS, type OpenApiDocument, withoutExtensions } from "./document.js";

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

describe("withoutExtensions", () => {
  it("drops every specification extension and keeps names and data that start with x-", () => {
    const doc = {
      info: { title: "t", "x-topics": { $ref: "./topics.md" } },
      paths: {
        "/a": {
          get: {
            "x-internal": true,
            "x-eov-kept": true,
            responses: {
              "200": {
                description: "ok",
                headers: { "x-request-id": { schema: { type: "string", "x-note": 1 } } },
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: { "x-trace": { type: "string" } },
                      default: { "x-trace": "kept" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    expect(withoutExtensions(doc, /^x-eov-/)).toEqual({
      info: { title: "t" },
      paths: {
        "/a": {
          get: {
            "x-eov-kept": true,
            responses: {
              "200": {
                description: "ok",
                headers: { "x-request-id": { schema: { type: "string" } } },
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: { "x-trace": { type: "string" } },
                      default: { "x-trace": "kept" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
  });
});
