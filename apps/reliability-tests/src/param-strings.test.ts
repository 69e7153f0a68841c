import { pagedList } from "@animal-store/test-support/spec-values";
import { describe, expect, it } from "vitest";
import { JsonNumberLiteral } from "./json-text.js";
import { classifyParamText, paramText } from "./param-strings.js";
import { type JsonSchema, loadSpec } from "./spec.js";
import { createSpecValidator } from "./spec-validator.js";

const doc = loadSpec();
const { validate } = createSpecValidator(doc);
const limit = { $ref: "#/components/parameters/Limit/schema" };
const status = { $ref: "#/components/schemas/PetStatus" };
const classify = (schema: JsonSchema, text: string) =>
  classifyParamText(schema, doc, text, validate);

describe("parameter texts", () => {
  it("reads canonical numbers by the schema, and calls lenient spellings ambiguous", () => {
    expect(classify(limit, "5")).toBe("valid");
    expect(classify(limit, String(pagedList().max))).toBe("valid");
    for (const text of [
      "0",
      String(pagedList().max + 1),
      "-1",
      "1.5",
      "1e400",
      "9007199254740993",
      "abc",
      "",
      "Infinity",
      "NaN",
    ]) {
      expect(classify(limit, text), text).toBe("invalid");
    }
    for (const text of ["05", " 5", "0x10", "5."])
      expect(classify(limit, text), text).toBe("ambiguous");
  });

  it("compares enum texts exactly", () => {
    expect(classify(status, "sold")).toBe("valid");
    expect(classify(status, "SOLD")).toBe("invalid");
    expect(classify(status, "sold ")).toBe("invalid");
  });

  it("writes scalars as text and refuses structures", () => {
    expect(paramText(new JsonNumberLiteral("1e400"))).toBe("1e400");
    expect(paramText(7)).toBe("7");
    expect(paramText(null)).toBe("null");
    expect(paramText([1])).toBeNull();
    expect(paramText({})).toBeNull();
  });
});
