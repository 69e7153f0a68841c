import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "./document.js";
import { specOperations } from "./spec-operations.js";
import { bearerRealm, requestHeaderNames, securitySchemes } from "./spec-security.js";

/** A document with `schemes`, one operation per entry of `security`, and `extra` paths. */
function doc(schemes: Record<string, unknown>, paths: Record<string, unknown>): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Title", version: "1" },
    paths,
    components: { securitySchemes: schemes },
  } as OpenApiDocument;
}

const bearer = { type: "http", scheme: "bearer", "x-realm": "pets" };

describe("security readers", () => {
  it("list the document's schemes by name", () => {
    expect(Object.keys(securitySchemes(doc({ a: bearer, b: { type: "apiKey" } }, {})))).toEqual([
      "a",
      "b",
    ]);
    expect(securitySchemes({ ...doc({}, {}), components: {} })).toEqual({});
  });

  it("take the bearer realm from x-realm, else the title", () => {
    const spec = doc({ a: bearer }, { "/p": { get: { operationId: "g", security: [{ a: [] }] } } });
    expect(bearerRealm(spec, specOperations(spec))).toBe("pets");
    const plain = doc(
      { a: { type: "http", scheme: "bearer" } },
      { "/p": { get: { operationId: "g", security: [{ a: [] }] } } },
    );
    expect(bearerRealm(plain, specOperations(plain))).toBe("Title");
  });

  it("read the realm of any scheme type: which ones can be checked is the engine's to say", () => {
    const spec = doc(
      { basic: { type: "http", scheme: "basic", "x-realm": "staff" } },
      { "/p": { get: { operationId: "g", security: [{ basic: [] }] } } },
    );
    expect(bearerRealm(spec, specOperations(spec))).toBe("staff");
  });

  it("name the request headers: the credential's, Content-Type with a body, header parameters", () => {
    const spec = doc(
      { a: bearer, key: { type: "apiKey", in: "header", name: "X-Key" } },
      {
        "/p": {
          get: {
            operationId: "g",
            security: [{ key: [] }],
            parameters: [{ name: "X-Trace", in: "header" }],
          },
          post: { operationId: "p", security: [{ a: [] }], requestBody: { content: {} } },
          put: { operationId: "u", security: [] },
        },
      },
    );
    expect(requestHeaderNames(spec, specOperations(spec))).toEqual([
      "X-Key",
      "X-Trace",
      "Authorization",
      "Content-Type",
    ]);
  });
});
