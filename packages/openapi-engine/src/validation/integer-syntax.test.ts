import { specOperations } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { integerParameters } from "../contract/integer-parameters.js";
import { firstLooseInteger } from "./integer-syntax.js";

describe("firstLooseInteger", () => {
  it.each(["0x10", "1e2", " 5", "5 ", "+1", "01", "1.0", "0b1", "0o7", "", "-0", "00"])(
    "refuses %j",
    (value) => {
      expect(firstLooseInteger({ n: value }, ["n"])).toBe("n");
    },
  );

  it.each(["0", "7", "10", "9007199254740993", "-3"])("passes %j", (value) => {
    expect(firstLooseInteger({ n: value }, ["n"])).toBeUndefined();
  });

  it("leaves what is no number at all, absent values and arrays to the validator", () => {
    expect(firstLooseInteger({ a: "abc", b: "1.5", c: ["0x1"] }, ["a", "b", "c", "d"])).toBe(
      undefined,
    );
  });
});

describe("integerParameters", () => {
  it("finds the integer parameters of each operation, $refs resolved", () => {
    const { spec } = loadFixture();
    const found = specOperations(spec).map((op) => integerParameters(spec, op));
    expect(found.some((p) => p.query.length > 0)).toBe(true);
    expect(found.some((p) => p.path.length > 0)).toBe(true);
  });
});
