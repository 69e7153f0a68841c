import { describe, expect, it } from "vitest";
import { mockSpecFrom } from "./mock-spec.mjs";

const server = (url: string, variables?: Record<string, { default: string }>) => ({
  url,
  ...(variables ? { variables } : {}),
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
        get: {
          operationId: "old",
          deprecated: true,
          responses: { "200": { $ref: "#/components/responses/Plain" } },
        },
      },
    },
    components: { responses: { Plain: { description: "no headers" } } },
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
