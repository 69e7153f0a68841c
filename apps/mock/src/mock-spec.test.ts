import { describe, expect, it } from "vitest";
import { basePathOf, mockSpecFrom } from "./mock-spec.mjs";

const server = (url: string, variables?: Record<string, { default: string }>) => ({
  url,
  ...(variables ? { variables } : {}),
});

describe("basePathOf", () => {
  it("reads the path the server URLs end with, variables filled with their defaults", () => {
    const spec = {
      servers: [
        server("https://{host}/v1", { host: { default: "api.example" } }),
        server("http://127.0.0.1:8080/v1/"),
      ],
    };
    expect(basePathOf(spec)).toBe("/v1");
  });

  it("is empty without servers or at the root", () => {
    expect(basePathOf({})).toBe("");
    expect(basePathOf({ servers: [server("https://api.example")] })).toBe("");
  });

  it("refuses servers that disagree", () => {
    const spec = { servers: [server("https://a.example/v1"), server("https://b.example/v2")] };
    expect(() => basePathOf(spec)).toThrow("/v1, /v2");
  });
});

describe("mockSpecFrom", () => {
  const deprecationHeader = { $ref: "#/components/headers/Deprecation" };
  const spec = {
    servers: [server("https://api.example/v1")],
    paths: {
      "/pets": { get: { operationId: "listPets", responses: { "200": { description: "ok" } } } },
      "/pets/{petId}": {
        parameters: [],
        get: {
          operationId: "getPet",
          deprecated: true,
          responses: { "200": { description: "ok", headers: { Deprecation: deprecationHeader } } },
        },
      },
      "/old": {
        get: { operationId: "old", deprecated: true, responses: { "200": { $ref: "#/x/Plain" } } },
      },
    },
  };
  const { spec: derived, basePath } = mockSpecFrom(spec);

  it("puts every path under the base path", () => {
    expect(basePath).toBe("/v1");
    expect(Object.keys(derived.paths)).toEqual(["/v1/pets", "/v1/pets/{petId}", "/v1/old"]);
  });

  it("lets the declared Deprecation header through instead of Prism's own", () => {
    expect(derived.paths["/v1/pets/{petId}"]?.get.deprecated).toBe(false);
    expect(derived.paths["/v1/pets/{petId}"]?.parameters).toEqual([]);
    expect(derived.paths["/v1/old"]?.get.deprecated).toBe(true);
  });

  it("finds the header through a response $ref", () => {
    const viaRef = {
      ...spec,
      paths: {
        "/a": {
          get: { deprecated: true, responses: { "200": { $ref: "#/components/responses/A" } } },
        },
      },
      components: {
        responses: { A: { description: "a", headers: { deprecation: deprecationHeader } } },
      },
    };
    expect(mockSpecFrom(viaRef).spec.paths["/v1/a"]?.get.deprecated).toBe(false);
  });

  it("leaves the original untouched", () => {
    expect(Object.keys(spec.paths)).toEqual(["/pets", "/pets/{petId}", "/old"]);
    expect(spec.paths["/pets/{petId}"].get.deprecated).toBe(true);
  });
});
