// The short aliases follow the generated schemas: wrong shapes fail `pnpm typecheck`.
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ApiError, ApiErrorCode, NewPet, OperationId, Pet, PetStatus } from "../src/index.js";

describe("aliases", () => {
  it("describe the spec's schemas", () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<"available" | "pending" | "sold">();
    expectTypeOf<OperationId>().toEqualTypeOf<"listPets" | "createPet" | "getPet">();
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
