import { deref, type JsonObject } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { editedFixture, loadFixture } from "../../test/support/fixture-contract.js";
import { ENGINE_ERROR_CODES } from "../errors.js";
import { compileContract } from "./contract.js";

/** The answers fixture with its Error schema's `code` listing `codes`. */
function answersListing(codes: string[]) {
  return editedFixture((spec) => {
    const error = deref<JsonObject>(spec, { $ref: "#/components/schemas/Error" });
    (error.properties as Record<string, JsonObject>).code = { type: "string", enum: codes };
  }, "answers");
}

describe("the engine's codes checked against the contract", () => {
  it("are not checked where the error schema lists no codes", () => {
    expect(() => compileContract(loadFixture("answers"))).not.toThrow();
  });

  it("must all be listed, where it lists them, when the contract can make the engine answer them", () => {
    const without = ENGINE_ERROR_CODES.filter((code) => code !== "not_acceptable");
    // The answers fixture negotiates (CSV, an image): a 406 is among its answers.
    expect(() => compileContract(answersListing(without))).toThrow(
      "the contract's error bodies do not allow the code(s) not_acceptable, which the server answers with",
    );
    expect(() => compileContract(answersListing([...ENGINE_ERROR_CODES]))).not.toThrow();
  });

  it("are only those the contract can produce: no 429s, 410 or 406 where nothing declares them", () => {
    const produced = ENGINE_ERROR_CODES.filter(
      (code) => !["rate_limited", "api_key_banned", "gone", "not_acceptable"].includes(code),
    );
    const edited = editedFixture((spec) => {
      // Only the JSON operations of the fixture: nothing negotiates.
      for (const path of Object.keys(spec.paths ?? {})) {
        if (path !== "/buyers") delete spec.paths?.[path];
      }
      const error = deref<JsonObject>(spec, { $ref: "#/components/schemas/Error" });
      (error.properties as Record<string, JsonObject>).code = { type: "string", enum: produced };
    }, "answers");
    expect(() => compileContract(edited)).not.toThrow();
  });
});
