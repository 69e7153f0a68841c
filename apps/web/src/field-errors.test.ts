import { describe, expect, it } from "vitest";
import { fieldErrorOf } from "./field-errors.js";

const failed = (message: string) => ({ code: "validation_failed", message, status: 400 }) as const;

describe("fieldErrorOf", () => {
  it("reads a missing required property", () => {
    expect(fieldErrorOf(failed("body must have required property 'name'"))).toEqual({
      field: "name",
      message: "Required.",
    });
  });

  it("reads a field's own problem, as a sentence", () => {
    expect(fieldErrorOf(failed("body/name must NOT have fewer than 1 characters"))).toEqual({
      field: "name",
      message: "Must not have fewer than 1 characters.",
    });
    expect(fieldErrorOf(failed("body/categoryId must be >= 1"))).toEqual({
      field: "categoryId",
      message: "Must be >= 1.",
    });
  });

  it("names no field for other errors", () => {
    expect(fieldErrorOf(failed("query/limit must be <= 100"))).toBeNull();
    expect(
      fieldErrorOf({ code: "malformed_json", message: "body/name is bad", status: 400 }),
    ).toBeNull();
  });
});
