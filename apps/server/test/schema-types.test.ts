// The Animal Store's names for its schemas (Pet, NewPet, PetStatus, Error...) are the types
// @animal-store/api-types generates from the schema names; its error body and code types are
// derived from the contract's error responses. Wrong shapes fail `pnpm typecheck`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type {
  ApiError,
  ApiErrorCode,
  components,
  NewPet,
  OperationId,
  operations,
  Pet,
  PetStatus,
  Plan,
} from "@animal-store/api-types";
import { loadBundledSpec, rateLimitPolicy, specOperations } from "@animal-store/openapi";
import { describe, expect, expectTypeOf, it } from "vitest";

const generatedPath = createRequire(import.meta.url)
  .resolve("@animal-store/api-types")
  .replace(/dist\/index\.js$/, "src/generated/openapi.ts");
const generated = readFileSync(generatedPath, "utf8");
const { spec } = loadBundledSpec();

describe("the Animal Store's schema types", () => {
  it("are the generated types of its schemas", () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<components["schemas"]["PetStatus"]>();
    expectTypeOf<Pet>().toEqualTypeOf<components["schemas"]["Pet"]>();
    expectTypeOf<NewPet>().toEqualTypeOf<components["schemas"]["NewPet"]>();
    // The error body derived from every operation's error responses is the Error schema.
    expectTypeOf<ApiError>().toEqualTypeOf<components["schemas"]["Error"]>();
    expectTypeOf<ApiErrorCode>().toEqualTypeOf<components["schemas"]["Error"]["code"]>();
    expectTypeOf<OperationId>().toEqualTypeOf<keyof operations>();
    // @ts-expect-error: not an operation of the contract
    const unknownOperation: OperationId = "noSuchOperation";
    // @ts-expect-error: not a plan of the contract
    const unknownPlan: Plan = "noSuchPlan";
    expect([unknownOperation, unknownPlan]).toHaveLength(2);
    const pet: NewPet = { name: "Rex", categoryId: 1 };
    // @ts-expect-error: id is not part of NewPet
    const withId: NewPet = { name: "Rex", categoryId: 1, id: 3 };
    // @ts-expect-error: status must be a PetStatus
    const badStatus: NewPet = { name: "Rex", categoryId: 1, status: "lost" };
    expect([pet, withId, badStatus]).toHaveLength(3);
  });
});

describe("generated names follow the spec", () => {
  it("every operationId of the spec, and no other, is a key of the generated operations", () => {
    const body = generated.slice(generated.indexOf("export interface operations {"));
    const keys = [...body.matchAll(/^ {4}(\w+): \{$/gm)].map((match) => match[1]);
    expect(keys.sort()).toEqual(
      specOperations(spec)
        .map((op) => op.operationId)
        .sort(),
    );
  });

  it("Plan is the union of the plan names of info.x-rate-limit-plans", () => {
    const union = /^export type Plan = (.*);$/m.exec(generated)?.[1];
    expect(union?.split(" | ").map((name) => JSON.parse(name))).toEqual(
      rateLimitPolicy(spec).planNames,
    );
  });
});
