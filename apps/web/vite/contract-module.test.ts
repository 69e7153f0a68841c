import { loadBundledSpec } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { contractFacts } from "./contract-module.js";

describe("contractFacts", () => {
  it("reads PetStatus's values and listPets' limit from the bundled spec", () => {
    const spec = loadBundledSpec().spec as unknown as {
      components: { schemas: { PetStatus: { enum: string[] } } };
    };
    const facts = contractFacts();
    expect(facts.petStatuses).toEqual(spec.components.schemas.PetStatus.enum);
    expect(facts.limitParameter.minimum).toBeLessThanOrEqual(facts.limitParameter.default);
    expect(facts.limitParameter.default).toBeLessThanOrEqual(facts.limitParameter.maximum);
  });

  it("refuses a spec without them", () => {
    expect(() => contractFacts({ paths: {}, components: {} })).toThrow(/PetStatus/);
  });
});
