import { describe, expect, it } from "vitest";
import { PLANS } from "./api-keys.js";
import {
  defaultListLimit,
  loadBundledSpec,
  planNames,
  requestBodyLimitBytes,
  specOperations,
} from "./spec.js";

const { spec, text } = loadBundledSpec();

describe("values read from the bundled spec", () => {
  it("reads the body limit and the list default from the contract", () => {
    expect(requestBodyLimitBytes(spec)).toBe(JSON.parse(text).info["x-request-body-limit-bytes"]);
    expect(defaultListLimit(spec)).toBe(
      JSON.parse(text).components.parameters.Limit.schema.default,
    );
  });

  it("the key plans are exactly the contract's plans, in order", () => {
    expect([...PLANS]).toEqual(planNames(spec));
  });

  it("lists every operation with its method, path and body", () => {
    expect(specOperations(spec)).toEqual([
      { operationId: "listPets", method: "GET", path: "/pets", hasRequestBody: false },
      { operationId: "createPet", method: "POST", path: "/pets", hasRequestBody: true },
      { operationId: "getPet", method: "GET", path: "/pets/{petId}", hasRequestBody: false },
    ]);
  });

  it("refuses a spec without a usable body limit", () => {
    const broken = structuredClone(spec);
    (broken.info as Record<string, unknown>)["x-request-body-limit-bytes"] = "16k";
    expect(() => requestBodyLimitBytes(broken)).toThrow(/x-request-body-limit-bytes/);
  });
});
