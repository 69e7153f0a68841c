import { pagedList } from "@animal-store/test-support/spec-values";
import { describe, expect, it } from "vitest";
import { fieldErrorOf, violatedFields } from "./field-errors.js";

const failed = (message: string) => ({ code: "validation_failed", message, status: 400 }) as const;
/** An answer with Prism's violations header (or none). */
const answer = (violations: unknown) => ({
  headers: new Headers(
    violations === undefined
      ? {}
      : {
          "sl-violations": typeof violations === "string" ? violations : JSON.stringify(violations),
        },
  ),
});
const required = (field: string) => ({
  location: ["request", "body"],
  severity: "Error",
  code: "required",
  message: `Request body must have required property '${field}'`,
});
const onField = (field: string) => ({
  location: ["request", "body", field],
  severity: "Error",
  code: "minimum",
  message: `Request body property ${field} must be >= 1`,
});

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
    expect(fieldErrorOf(failed(`query/limit must be <= ${pagedList().max}`))).toBeNull();
    expect(
      fieldErrorOf({ code: "malformed_json", message: "body/name is bad", status: 400 }),
    ).toBeNull();
  });

  it("with the mock's violations, marks the field only when they name it too", () => {
    const canned = failed("body must have required property 'name'");
    expect(fieldErrorOf(canned, ["categoryId"])).toBeNull();
    expect(fieldErrorOf(canned, [])).toBeNull();
    expect(fieldErrorOf(canned, ["name"])).toEqual({ field: "name", message: "Required." });
  });
});

describe("violatedFields", () => {
  it("is null for an answer without Prism's header (the server, the stateful mock)", () => {
    expect(violatedFields(answer(undefined))).toBeNull();
  });

  it("reads the field of a required violation and of a violation below the body", () => {
    expect(violatedFields(answer([required("categoryId"), onField("name")]))).toEqual([
      "categoryId",
      "name",
    ]);
  });

  it("ignores violations elsewhere, and names nothing when the list was cut", () => {
    const query = { location: ["request", "query", "limit"], code: "maximum", message: "x" };
    expect(violatedFields(answer([query]))).toEqual([]);
    expect(violatedFields(answer('Too many violations! [{"location":'))).toEqual([]);
  });
});
