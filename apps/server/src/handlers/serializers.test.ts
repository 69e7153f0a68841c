import { describe, expect, it } from "vitest";
import { loadBundledSpec, specOperations } from "../spec.js";
import { compileResponseSerializers, serializerKey } from "./serializers.js";

const { spec } = loadBundledSpec();
const serializers = compileResponseSerializers(spec);

describe("compileResponseSerializers", () => {
  it("has a serializer for every documented JSON response of every operation", () => {
    for (const { operationId, method, path } of specOperations(spec)) {
      const operation = spec.paths[path]?.[method.toLowerCase()] as
        | { responses: object }
        | undefined;
      expect(operation, `${method} ${path}`).toBeDefined();
      for (const status of Object.keys(operation?.responses ?? {})) {
        expect(
          serializers.has(serializerKey(operationId, status)),
          `${operationId} ${status}`,
        ).toBe(true);
      }
    }
  });

  it("writes what JSON.stringify writes for bodies that follow the contract", () => {
    const pets = [
      { id: 1, name: 'Rex "the dog" \u00e9\u{1f436}', categoryId: 2, status: "available" },
      { id: 9007199254740991, name: "Nemo", categoryId: 3 },
    ];
    expect(serializers.get("listPets 200")?.(pets)).toBe(JSON.stringify(pets));
    expect(serializers.get("listPets 200")?.([])).toBe("[]");
    expect(serializers.get("createPet 201")?.(pets[0])).toBe(JSON.stringify(pets[0]));
    const error = { code: "not_found", message: "Pet 42 not found.", status: 404 };
    expect(serializers.get("getPet 404")?.(error)).toBe(JSON.stringify(error));
  });

  it("never writes a property the contract does not declare", () => {
    const leaky = { id: 1, name: "Rex", categoryId: 2, internalNote: "secret" };
    expect(serializers.get("createPet 201")?.(leaky)).toBe('{"id":1,"name":"Rex","categoryId":2}');
  });
});
