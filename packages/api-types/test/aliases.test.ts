// The short aliases follow the generated schemas: wrong shapes fail `pnpm typecheck`.
import { readFileSync } from "node:fs";
import { loadBundledSpec, rateLimitPolicy, specOperations } from "@animal-store/openapi";
import { describe, expect, expectTypeOf, it } from "vitest";
import type {
  ApiError,
  ApiErrorCode,
  NewPet,
  OperationId,
  operations,
  Pet,
  PetStatus,
  Plan,
} from "../src/index.js";

const generated = readFileSync(new URL("../src/generated/openapi.ts", import.meta.url), "utf8");
const { spec } = loadBundledSpec();

describe("aliases", () => {
  it("describe the spec's schemas", () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<"available" | "pending" | "sold">();
    expectTypeOf<OperationId>().toEqualTypeOf<keyof operations>();
    // @ts-expect-error: not an operation of the contract
    const unknownOperation: OperationId = "noSuchOperation";
    // @ts-expect-error: not a plan of the contract
    const unknownPlan: Plan = "noSuchPlan";
    expect([unknownOperation, unknownPlan]).toHaveLength(2);
    expectTypeOf<Pet>().toHaveProperty("id").toEqualTypeOf<number>();
    expectTypeOf<ApiError["status"]>().toEqualTypeOf<number>();
    expectTypeOf<ApiErrorCode>().toExtend<string>();
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
