/**
 * What the Animal Store's contract says of a new pet's body, answered by its server: unknown
 * properties (`__proto__` and `constructor` included) are refused and reach no object, and a name
 * with a C1 control is refused as `PetName`'s description says. The engine's side (that it
 * applies `additionalProperties` and patterns as written) is tested over its own fixture in
 * packages/openapi-engine/test; these guard the contract's own schemas (planted faults: NewPet
 * without `additionalProperties: false`, PetName's pattern without U+0080-U+009F).
 */
import { pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, postJson, startTestApp, type TestApp } from "./support/test-app.js";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("NewPet refuses unknown properties", () => {
  it.each([
    ['{"name":"Rex","categoryId":1,"__proto__":{"polluted":true}}'],
    ['{"name":"Rex","categoryId":1,"constructor":{"prototype":{"polluted":true}}}'],
    ['{"name":"Rex","categoryId":1,"id":5}'],
  ])("400 validation_failed, and nothing stored: %s", async (body) => {
    const answer = await expectError(await postJson(app, body), 400, "validation_failed");
    expect(answer.message).toContain("must NOT have additional properties");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const listed = await app.api(`/pets?limit=${pagedList().max}`);
    expect(JSON.stringify(await listed.json())).not.toContain("polluted");
  });
});

describe("PetName refuses C1 controls", () => {
  it.each([["\\u0080"], ["\\u009b"], ["\\u009f"]])(
    "a name with %s: 400 validation_failed naming it",
    async (c1) => {
      const answer = await expectError(
        await postJson(app, `{"name":"a${c1}b","categoryId":1}`),
        400,
        "validation_failed",
      );
      expect(answer.message).toContain("body/name");
    },
  );

  it("the characters around them are names: U+007E and U+00A0", async () => {
    for (const name of ["a~b", "a\u00a0b"]) {
      const response = await postJson(app, { name, categoryId: 1 });
      expect(response.status).toBe(201);
      expect(((await response.json()) as { name: string }).name).toBe(name);
    }
  });
});
