import { describe, expect, it } from "vitest";
import { EngineError } from "./errors.js";
import { notImplemented } from "./not-implemented.js";

describe("notImplemented", () => {
  it("throws the engine's not_implemented error naming the operation", () => {
    let thrown: unknown;
    try {
      notImplemented("get-stations");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EngineError);
    expect((thrown as EngineError).toBody()).toEqual({
      code: "not_implemented",
      message: "The operation get-stations is not implemented yet by this server.",
      status: 500,
    });
  });
});
